"""OAuth discovery of a docs host, checked: its three metadata documents and a report.

The docs host publishes protected-resource metadata (RFC 9728), which names the
authorization servers whose ID tokens its project accepts, and, for convenience, the
project issuer's own metadata (RFC 8414 and OpenID Connect Discovery). What must hold is
what binds the docs host to those servers: its ``resource`` is the docs origin
(RFC 9728 §3.3), and each authorization server it names publishes its own OpenID
configuration, with that ``issuer`` and a JWK set that parses. The authorization-server
document served at the docs host names the *issuer's* identity, not the docs origin, so
RFC 8414 §3.3's "issuer equals where it was fetched" does not hold there (the real host
is so); the report notes it rather than failing.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

import jwt

from ledgerkit._endpoints import JSON, OPERATIONS
from ledgerkit._errors import DocsError, LedgerError, PageNotFoundError
from ledgerkit.client.docsite._core import Fetch, Flow, text_of

__all__ = ["Check", "Discovery", "discovery_flow"]

_PROTECTED_RESOURCE: Final = OPERATIONS["get_oauth_protected_resource"].path
_AUTHORIZATION_SERVER: Final = OPERATIONS["get_oauth_authorization_server"].path
_OPENID_CONFIGURATION: Final = OPERATIONS["get_docs_openid_configuration"].path
#: OpenID Connect Discovery 1.0 §3: the fields a provider's metadata must have (the
#: token endpoint too, unless only the implicit flow is offered: not required here).
_OPENID_REQUIRED: Final = (
    "issuer",
    "authorization_endpoint",
    "jwks_uri",
    "response_types_supported",
    "subject_types_supported",
    "id_token_signing_alg_values_supported",
)
#: RFC 8414 §2: the fields authorization-server metadata must have.
_RFC8414_REQUIRED: Final = ("issuer", "response_types_supported")


class Check(NamedTuple):
    """One check of the discovery report: what was checked, whether it held, and what
    was seen."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class Discovery:
    """A docs host's OAuth metadata, and what holds of it.

    Attributes
    ----------
    origin : str
        The docs origin the documents were fetched from.
    protected_resource : dict or None
        ``/.well-known/oauth-protected-resource`` (RFC 9728), None if missing.
    authorization_server : dict or None
        ``/.well-known/oauth-authorization-server`` (RFC 8414), None if missing.
    openid_configuration : dict or None
        ``/.well-known/openid-configuration``, None if missing.
    report : tuple of Check
        The checks, in the order made.
    notes : tuple of str
        What was seen that is allowed but worth knowing (a missing optional document,
        an issuer that is not the docs origin).
    """

    origin: str
    protected_resource: dict[str, Any] | None
    authorization_server: dict[str, Any] | None
    openid_configuration: dict[str, Any] | None
    report: tuple[Check, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """Whether every check held."""
        return all(check.ok for check in self.report)

    @property
    def failures(self) -> tuple[Check, ...]:
        """The checks that did not hold."""
        return tuple(check for check in self.report if not check.ok)

    def __repr__(self) -> str:
        passed = sum(check.ok for check in self.report)
        verdict = "ok" if self.ok else "FAILED"
        lines = [f"Discovery of {self.origin}: {verdict} ({passed}/{len(self.report)} checks)"]
        lines += [
            f"  [{'ok' if check.ok else 'FAIL'}] {check.name}: {check.detail}"
            for check in self.report
        ]
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{'✓' if check.ok else '✗'}</td><td>{html.escape(check.name)}</td>"
            f"<td>{html.escape(check.detail)}</td></tr>"
            for check in self.report
        )
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in self.notes)
        verdict = "ok" if self.ok else "failed"
        return (
            f"<div><strong>Discovery of {html.escape(self.origin)}: {verdict}</strong>"
            f"<table><thead><tr><th></th><th>check</th><th>seen</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
            + (f"<p>Notes:</p><ul>{notes}</ul>" if notes else "")
            + "</div>"
        )


def discovery_flow(origin: str) -> Flow[Discovery]:
    """Fetch the docs host's three documents, then check what they name."""
    report: list[Check] = []
    notes: list[str] = []
    resource, problem = yield from _document(origin + _PROTECTED_RESOURCE, "protected resource")
    authorization, as_problem = yield from _document(
        origin + _AUTHORIZATION_SERVER, "authorization server"
    )
    openid, openid_problem = yield from _document(
        origin + _OPENID_CONFIGURATION, "OpenID configuration"
    )

    if resource is None:
        report.append(Check("protected-resource metadata", False, problem))
    else:
        yield from _check_resource(origin, resource, report)

    if authorization is None:
        notes.append(f"no authorization-server metadata at the docs host ({as_problem})")
    else:
        report.append(_required("authorization-server metadata", authorization, _RFC8414_REQUIRED))
        issuer = authorization.get("issuer")
        if isinstance(issuer, str) and issuer != origin:
            notes.append(
                f"the authorization-server metadata's issuer is {issuer}, not the docs origin: "
                "RFC 8414 §3.3 would want them equal; only the protected resource must name "
                "the docs origin (RFC 9728 §3.3)"
            )
    if openid is None:
        notes.append(f"no OpenID configuration at the docs host ({openid_problem})")
    else:
        report.append(_required("OpenID configuration", openid, _OPENID_REQUIRED))

    return Discovery(origin, resource, authorization, openid, tuple(report), tuple(notes))


def _check_resource(origin: str, resource: dict[str, Any], report: list[Check]) -> Flow[None]:
    named = resource.get("resource")
    report.append(
        Check(
            "protected-resource metadata",
            isinstance(named, str),
            f"resource {named!r}" if isinstance(named, str) else "no `resource` (RFC 9728 §2)",
        )
    )
    report.append(
        Check("resource is the docs origin", named == origin, f"{named!r}, origin {origin!r}")
    )
    algorithms = resource.get("resource_signing_alg_values_supported")
    if algorithms is not None:
        report.append(_rs256("RS256 for the resource", algorithms))
    servers = resource.get("authorization_servers")
    listed = isinstance(servers, list) and all(isinstance(s, str) and s for s in servers)
    if not (listed and servers):
        report.append(Check("authorization servers listed", False, f"{servers!r}"))
        return
    report.append(Check("authorization servers listed", True, ", ".join(servers)))
    for server in servers:
        yield from _check_server(server, report)


def _check_server(server: str, report: list[Check]) -> Flow[None]:
    """The server's OpenID configuration names it as issuer, offers RS256, and its
    ``jwks_uri`` answers a JWK set that parses."""
    if not server.startswith(("https://", "http://")):
        report.append(Check(f"issuer {server}", False, "not an http(s) URL"))
        return
    url = server.rstrip("/") + "/.well-known/openid-configuration"
    config, problem = yield from _document(url, f"OpenID configuration of {server}", elsewhere=True)
    if config is None:
        report.append(Check(f"issuer {server}", False, problem))
        return
    issuer = config.get("issuer")
    report.append(Check(f"issuer {server}", issuer == server, f"issuer {issuer!r} at {url}"))
    report.append(_rs256(f"RS256 at {server}", config.get("id_token_signing_alg_values_supported")))
    jwks_uri = config.get("jwks_uri")
    if not isinstance(jwks_uri, str) or not jwks_uri.startswith(("https://", "http://")):
        report.append(Check(f"keys of {server}", False, f"jwks_uri {jwks_uri!r}"))
        return
    keys, problem = yield from _document(jwks_uri, f"keys of {server}", elsewhere=True)
    if keys is None:
        report.append(Check(f"keys of {server}", False, problem))
        return
    try:
        jwk_set = jwt.PyJWKSet.from_dict(keys)
    except (jwt.PyJWTError, ValueError, TypeError, KeyError, AttributeError) as exc:
        report.append(Check(f"keys of {server}", False, f"not a JWK set: {exc}"))
        return
    kids = ", ".join(str(key.key_id) for key in jwk_set.keys)
    count = len(jwk_set.keys)
    report.append(
        Check(f"keys of {server}", True, f"{count} key{'s' * (count != 1)} ({kids}) at {jwks_uri}")
    )


def _document(
    url: str, what: str, *, elsewhere: bool = False
) -> Flow[tuple[dict[str, Any] | None, str]]:
    """A JSON object from ``url``, or None and why not.

    A document of the docs host that gets no answer at all raises (the host is down);
    one of another host (``elsewhere``) becomes a failed check like any other problem.
    """
    fetch = Fetch(url, JSON, what)
    tolerated = LedgerError if elsewhere else DocsError
    try:
        answer = yield fetch
        text = text_of(answer, fetch)
    except PageNotFoundError:
        return None, f"404 at {url}"
    except tolerated as error:
        return None, str(error)
    try:
        document = json.loads(text)
    except ValueError:
        return None, f"not JSON at {url}"
    if not isinstance(document, dict):
        return None, f"not a JSON object at {url}"
    return document, ""


def _required(name: str, document: Mapping[str, Any], fields: tuple[str, ...]) -> Check:
    missing = [key for key in fields if key not in document]
    detail = f"missing {', '.join(missing)}" if missing else f"issuer {document['issuer']!r}"
    return Check(name, not missing, detail)


def _rs256(name: str, algorithms: object) -> Check:
    ok = isinstance(algorithms, list) and "RS256" in algorithms
    return Check(name, ok, f"{algorithms!r}")
