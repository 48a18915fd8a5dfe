"""Answers in the shapes of the real docs host (aptos.dev) and of the two issuers it names,
written by hand from the reference facts, served by an ``httpx.MockTransport``.

``RealHost`` is that transport's handler: a table of URL -> answer, ``404 Not found``
for anything else, and a log of what was asked (to see the cache at work).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import httpx

DOCS: Final = "https://aptos.dev"
PROJECT_ISSUER: Final = "https://securetoken.google.com/aptos-api-gateway-prod"
ACCOUNTS_ISSUER: Final = "https://accounts.google.com"
PROJECT_JWKS: Final = (
    "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
)
ACCOUNTS_JWKS: Final = "https://www.googleapis.com/oauth2/v3/certs"

LLMS_TXT: Final = "\n".join(
    [
        "# Aptos Developer Documentation",
        "",
        "> Aptos is a layer 1 blockchain built for safety and scale; these are its developer docs.",
        "",
        "Pages are Markdown when `.md` is appended to their path.",
        "",
        "## Build",
        "",
        "- [Your First Transaction](https://aptos.dev/build/guides/first-transaction.md): "
        "Create, sign and submit a transfer.",
        "- [Aptos Faucet API](https://aptos.dev/network/faucet.md): "
        "Fund accounts on devnet and testnet.",
        "",
        "## Optional",
        "",
        "- [Glossary](https://aptos.dev/network/glossary.md)",
        "- [Aptos on GitHub](https://github.com/aptos-labs): Source code of the node and SDKs.",
        "",
    ]
)

FAUCET_MD: Final = """\
# Aptos Faucet API

The faucet funds accounts on devnet and testnet.

## Testnet

The testnet faucet needs an ID token: sign in, then send it as a bearer token.

```sh
# fund an account
curl -X POST https://faucet.testnet.aptoslabs.com/fund
```
"""

FIRST_TX_MD: Final = """\
# Your First Transaction

Create two accounts, fund them from the faucet, and transfer coins between them.

The transaction is signed with the sender's key and submitted to a node.
"""

GLOSSARY_MD: Final = """\
# Glossary

Account: an address holding resources. Node: a server of the ledger.
"""

LLMS_FULL_TXT: Final = (
    "<SYSTEM>This is the full developer documentation for Aptos</SYSTEM>\n\n"
    + FIRST_TX_MD
    + "\n"
    + FAUCET_MD
    + "\n"
    + GLOSSARY_MD
)

PROTECTED_RESOURCE: Final = {
    "resource": "https://aptos.dev",
    "authorization_servers": [PROJECT_ISSUER, ACCOUNTS_ISSUER],
    "scopes_supported": ["openid", "email", "profile"],
    "bearer_methods_supported": ["header"],
    "resource_name": "Aptos Developer Documentation",
    "resource_documentation": "https://aptos.dev/auth",
    "resource_signing_alg_values_supported": ["RS256"],
}

AUTHORIZATION_SERVER: Final = {
    "issuer": PROJECT_ISSUER,
    "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
    "token_endpoint": "https://oauth2.googleapis.com/token",
    "revocation_endpoint": "https://oauth2.googleapis.com/revoke",
    "jwks_uri": PROJECT_JWKS,
    "response_types_supported": ["code", "id_token"],
    "response_modes_supported": ["query", "fragment"],
    "subject_types_supported": ["public"],
    "id_token_signing_alg_values_supported": ["RS256"],
    "scopes_supported": ["openid", "email", "profile"],
    "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
    "grant_types_supported": ["authorization_code", "refresh_token"],
    "code_challenge_methods_supported": ["plain", "S256"],
}

OPENID_CONFIGURATION: Final = {
    **AUTHORIZATION_SERVER,
    "userinfo_endpoint": "https://openidconnect.googleapis.com/v1/userinfo",
    "claims_supported": ["aud", "email", "email_verified", "exp", "iat", "iss", "name", "sub"],
}

#: The Firebase issuer's own discovery document (it names itself).
PROJECT_DISCOVERY: Final = {
    "issuer": PROJECT_ISSUER,
    "jwks_uri": PROJECT_JWKS,
    "response_types_supported": ["id_token"],
    "subject_types_supported": ["public"],
    "id_token_signing_alg_values_supported": ["RS256"],
}

ACCOUNTS_DISCOVERY: Final = {
    "issuer": ACCOUNTS_ISSUER,
    "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
    "token_endpoint": "https://oauth2.googleapis.com/token",
    "jwks_uri": ACCOUNTS_JWKS,
    "response_types_supported": ["code", "token", "id_token"],
    "subject_types_supported": ["public"],
    "id_token_signing_alg_values_supported": ["RS256"],
}

#: A real RSA-2048 public key (generated once for these fixtures), as a JWK.
_MODULUS: Final = (
    "7dtWSm5nfIncMra8duGegHs2ezeOXpqntsGH63R3Cd6bDxleGeK5RXx2wihaeJvGvwKPXRKGFedBQTT7q8BSVifWcZo"
    "xxZBPcGRLClPQ1D3JY7tfPE5gVMd8dytwpaQBEqO4b_Xs5gnv4eRS3HCxNR4ic2tgwH1NCfmHM4PJjFiTCY55SqN8EN"
    "D0hmG8gU_IaUPTEfX6eAj6G79wEJ1Ou8HaCkh9c-R4xZ0NRRZYrPOkPrMz5fuw-ejajaDm8Jp7zk0SkOTwy1BcwOeBp"
    "fGqyoKYi36P8SBXp_kiNb0MUzgMvncN8bVzVRWPSTAydy-GwisHxP4mHSCcnVWFu-H10w"
)


def jwk(kid: str) -> dict[str, str]:
    return {"kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid, "n": _MODULUS, "e": "AQAB"}


PROJECT_KID: Final = "0f" * 20
ACCOUNTS_KIDS: Final = ("a1" * 20, "b2" * 20)

JSON_HEADERS: Final = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "public, max-age=3600",
}
MARKDOWN_HEADERS: Final = {
    "content-type": "text/markdown; charset=utf-8",
    "cache-control": "public, max-age=3600",
}
TEXT_HEADERS: Final = {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "public, max-age=3600",
}


@dataclass(frozen=True)
class Canned:
    """One recorded answer."""

    status: int
    headers: dict[str, str]
    body: bytes


def _json(document: Any) -> Canned:
    return Canned(200, dict(JSON_HEADERS), json.dumps(document).encode())


def _markdown(text: str) -> Canned:
    return Canned(200, dict(MARKDOWN_HEADERS), text.encode())


def _text(text: str) -> Canned:
    return Canned(200, dict(TEXT_HEADERS), text.encode())


NOT_FOUND: Final = Canned(404, {"content-type": "text/plain; charset=utf-8"}, b"Not found")


def real_answers() -> dict[str, Canned]:
    """The real host's answers, by URL."""
    return {
        f"{DOCS}/llms.txt": _text(LLMS_TXT),
        f"{DOCS}/llms-full.txt": _text(LLMS_FULL_TXT),
        f"{DOCS}/network/faucet.md": _markdown(FAUCET_MD),
        f"{DOCS}/build/guides/first-transaction.md": _markdown(FIRST_TX_MD),
        f"{DOCS}/network/glossary.md": _markdown(GLOSSARY_MD),
        f"{DOCS}/index.md": _markdown("# Aptos Docs\n\nStart here.\n"),
        f"{DOCS}/.well-known/oauth-protected-resource": _json(PROTECTED_RESOURCE),
        f"{DOCS}/.well-known/oauth-authorization-server": _json(AUTHORIZATION_SERVER),
        f"{DOCS}/.well-known/openid-configuration": _json(OPENID_CONFIGURATION),
        f"{PROJECT_ISSUER}/.well-known/openid-configuration": _json(PROJECT_DISCOVERY),
        f"{ACCOUNTS_ISSUER}/.well-known/openid-configuration": _json(ACCOUNTS_DISCOVERY),
        PROJECT_JWKS: _json({"keys": [jwk(PROJECT_KID)]}),
        ACCOUNTS_JWKS: _json({"keys": [jwk(kid) for kid in ACCOUNTS_KIDS]}),
    }


@dataclass
class RealHost:
    """A ``MockTransport`` handler over :func:`real_answers` (or a changed copy)."""

    answers: dict[str, Canned] = field(default_factory=real_answers)
    asked: list[httpx.Request] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.asked.append(request)
        url = str(request.url)
        canned = self.answers.get(url, NOT_FOUND)
        return httpx.Response(canned.status, headers=canned.headers, content=canned.body)

    def urls(self) -> list[str]:
        return [str(request.url) for request in self.asked]

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)

    def set_json(self, url: str, document: Any) -> None:
        self.answers[url] = _json(document)

    def drop(self, url: str) -> None:
        del self.answers[url]


def chunks(total: int, size: int = 1 << 20) -> Iterator[bytes]:
    """``total`` bytes of ``x`` in chunks (a body of no declared length)."""
    while total > 0:
        yield b"x" * min(size, total)
        total -= size
