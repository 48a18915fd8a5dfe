"""The local identity provider: discovery documents, JWKS, sign-in and key rotation, checked
over HTTP and, for its tokens, with PyJWT against the published keys."""

from __future__ import annotations

import asyncio
import base64
import logging
import re
from typing import Any, Final

import httpx
import jwt
import pytest
from forge import claims_of, header_of
from starlette.routing import Route

from ledgerkit._endpoints import operations_of
from ledgerkit._errors import InputError
from ledgerkit.localnet.services import _identity_http
from ledgerkit.localnet.services._identity_provider import IdentityProvider

BASE: Final = "http://idp.test"
NOW: Final = 1_800_000_000
#: What OpenID Connect Discovery 1.0 (section 3) requires of a provider's metadata.
DISCOVERY_REQUIRED: Final = (
    "issuer",
    "authorization_endpoint",
    "token_endpoint",
    "jwks_uri",
    "response_types_supported",
    "subject_types_supported",
    "id_token_signing_alg_values_supported",
)


def call(provider: IdentityProvider, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """One request to the provider's app."""

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=provider.app())
        async with httpx.AsyncClient(transport=transport, base_url=BASE) as client:
            return await client.request(method, path, **kwargs)

    return asyncio.run(send())


def new_provider(**options: Any) -> IdentityProvider:
    provider = IdentityProvider(clock=lambda: NOW + 0.75, **options)
    provider.bind(BASE)
    return provider


@pytest.fixture(scope="module")
def provider() -> IdentityProvider:
    return new_provider()


def verify(provider: IdentityProvider, token: str, issuer: str = "project") -> dict[str, Any]:
    """The claims of ``token`` checked as a relying party would: the JWKS from HTTP, the
    key by kid, RS256 only, this issuer and audience."""
    keys = jwt.PyJWKSet.from_dict(call(provider, "GET", f"/{issuer}/jwks").json())
    key = keys[header_of(token)["kid"]]
    claims: dict[str, Any] = jwt.decode(
        token,
        key=key,
        algorithms=["RS256"],
        audience=provider.issuers[issuer].audience,
        issuer=f"{BASE}/{issuer}",
        # The provider's clock is made up: its times are checked by the tests, not here.
        options={
            "require": ["aud", "exp", "iat", "iss", "sub"],
            "verify_exp": False,
            "verify_iat": False,
        },
    )
    return claims


# -- discovery and keys ---------------------------------------------------------------------


@pytest.mark.parametrize("issuer", ["project", "accounts"])
def test_the_discovery_document_has_the_required_fields_and_names_the_bound_issuer(
    provider: IdentityProvider, issuer: str
) -> None:
    response = call(provider, "GET", f"/{issuer}/.well-known/openid-configuration")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "public, max-age=3600"
    document = response.json()
    assert set(DISCOVERY_REQUIRED) <= set(document)
    url = f"{BASE}/{issuer}"
    assert document["issuer"] == url == provider.issuers[issuer].url
    assert document["jwks_uri"] == f"{url}/jwks"
    assert document["authorization_endpoint"] == f"{url}/sign_in"
    assert document["token_endpoint"] == f"{url}/sign_in"
    assert document["response_types_supported"] == ["id_token"]
    assert document["subject_types_supported"] == ["public"]
    assert document["id_token_signing_alg_values_supported"] == ["RS256"]
    assert document["scopes_supported"] == ["openid", "email", "profile"]
    assert {"sub", "email", "email_verified", "name"} <= set(document["claims_supported"])
    assert document == provider.issuers[issuer].discovery()


def test_the_issuers_follow_the_bound_url() -> None:
    provider = IdentityProvider()
    with pytest.raises(RuntimeError, match="bind"):
        _ = provider.issuers["project"].url
    provider.bind("http://127.0.0.1:8123/")
    assert provider.issuers["project"].url == "http://127.0.0.1:8123/project"
    assert provider.issuers["accounts"].url == "http://127.0.0.1:8123/accounts"
    with pytest.raises(InputError):
        provider.bind("ftp://127.0.0.1:8123")
    with pytest.raises(InputError):
        provider.bind("http://127.0.0.1:8123/?next=x")


def test_claims_supported_names_what_each_issuer_signs(provider: IdentityProvider) -> None:
    for issuer in ("project", "accounts"):
        token = provider.sign_in("carol@corp.test", issuer=issuer)
        supported = provider.issuers[issuer].discovery()["claims_supported"]
        assert sorted(claims_of(token)) == supported


@pytest.mark.parametrize("issuer", ["project", "accounts"])
def test_the_jwks_publishes_rs256_signing_keys(provider: IdentityProvider, issuer: str) -> None:
    response = call(provider, "GET", f"/{issuer}/jwks")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=3600"
    (key,) = response.json()["keys"]
    assert set(key) == {"kty", "alg", "use", "kid", "n", "e"}
    assert (key["kty"], key["alg"], key["use"], key["e"]) == ("RSA", "RS256", "sig", "AQAB")
    assert re.fullmatch(r"[0-9a-f]{40}", key["kid"])
    modulus = base64.urlsafe_b64decode(key["n"] + "=" * (-len(key["n"]) % 4))
    assert len(modulus) * 8 == 2048
    assert key["kid"] == provider.issuers[issuer].kids[-1]


def test_the_two_issuers_sign_with_keys_of_their_own(provider: IdentityProvider) -> None:
    assert set(provider.issuers["project"].kids).isdisjoint(provider.issuers["accounts"].kids)


def test_the_jwks_cache_lifetime_is_configurable() -> None:
    provider = new_provider(jwks_max_age=120)
    response = call(provider, "GET", "/project/jwks")
    assert response.headers["cache-control"] == "public, max-age=120"


# -- tokens ---------------------------------------------------------------------------------


def test_a_project_token_carries_the_claims_of_a_firebase_id_token(
    provider: IdentityProvider,
) -> None:
    response = call(
        provider, "POST", "/project/sign_in", json={"email": "Alice@Corp.Test", "name": "Alice"}
    )
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    answer = response.json()
    assert answer["token_type"] == "Bearer"
    assert answer["expires_in"] == 3600
    token = answer["id_token"]
    assert header_of(token) == {
        "alg": "RS256",
        "kid": provider.issuers["project"].kids[-1],
        "typ": "JWT",
    }
    claims = verify(provider, token)
    sub = claims["sub"]
    assert re.fullmatch(r"[0-9A-Za-z]{28}", sub)
    assert claims == {
        "iss": f"{BASE}/project",
        "aud": "ledgerkit-local",
        "sub": sub,
        "user_id": sub,
        "iat": NOW,
        "auth_time": NOW,
        "exp": NOW + 3600,
        "email": "alice@corp.test",
        "email_verified": True,
        "name": "Alice",
        "firebase": {
            "identities": {
                "google.com": [claims["firebase"]["identities"]["google.com"][0]],
                "email": ["alice@corp.test"],
            },
            "sign_in_provider": "google.com",
        },
    }


def test_an_account_token_carries_the_claims_of_a_google_id_token(
    provider: IdentityProvider,
) -> None:
    response = call(provider, "POST", "/accounts/sign_in", json={"email": "bob@example.org"})
    assert response.status_code == 200
    claims = verify(provider, response.json()["id_token"], issuer="accounts")
    sub = claims["sub"]
    assert re.fullmatch(r"1[0-9]{20}", sub)
    assert claims == {
        "iss": f"{BASE}/accounts",
        "aud": "ledgerkit-local.apps.local",
        "azp": "ledgerkit-local.apps.local",
        "sub": sub,
        "iat": NOW,
        "auth_time": NOW,
        "exp": NOW + 3600,
        "email": "bob@example.org",
        "email_verified": True,
        "name": "bob",
    }


def test_the_subject_is_stable_per_issuer_and_email(provider: IdentityProvider) -> None:
    def sub(email: str, issuer: str = "project") -> str:
        return str(claims_of(provider.sign_in(email, issuer=issuer))["sub"])

    assert sub("dana@corp.test") == sub("DANA@corp.test")
    assert sub("dana@corp.test") != sub("erin@corp.test")
    assert sub("dana@corp.test") != sub("dana@corp.test", "accounts")
    # The Google identity inside a project token is the account issuer's subject.
    project = claims_of(provider.sign_in("dana@corp.test"))
    assert project["firebase"]["identities"]["google.com"] == [sub("dana@corp.test", "accounts")]
    # A project's user ids are its own; an account's id is the same for every client.
    other = new_provider(project_id="another-project", client_id="another.apps.local")
    assert claims_of(other.sign_in("dana@corp.test"))["sub"] != sub("dana@corp.test")
    assert claims_of(other.sign_in("dana@corp.test", issuer="accounts"))["sub"] == sub(
        "dana@corp.test", "accounts"
    )


def test_sign_in_takes_the_verified_flag_and_a_lifetime(provider: IdentityProvider) -> None:
    token = provider.sign_in("frank@corp.test", email_verified=False, lifetime=60)
    claims = verify(provider, token)
    assert claims["email_verified"] is False
    assert claims["exp"] - claims["iat"] == 60
    response = call(
        provider,
        "POST",
        "/project/sign_in",
        json={"email": "frank@corp.test", "email_verified": False},
    )
    assert claims_of(response.json()["id_token"])["email_verified"] is False
    with pytest.raises(InputError):
        provider.sign_in("frank@corp.test", lifetime=0)
    with pytest.raises(InputError):
        provider.sign_in("frank@corp.test", issuer="elsewhere")


# -- rotation -------------------------------------------------------------------------------


def test_rotation_signs_with_the_new_key_and_old_tokens_keep_verifying() -> None:
    provider = new_provider()
    first = provider.issuers["project"].kids[-1]
    old_token = provider.sign_in("gina@corp.test")
    second = provider.rotate_keys()
    assert second != first
    assert [key["kid"] for key in call(provider, "GET", "/project/jwks").json()["keys"]] == [
        first,
        second,
    ]
    new_token = provider.sign_in("gina@corp.test")
    assert header_of(new_token)["kid"] == second
    assert verify(provider, old_token)["email"] == verify(provider, new_token)["email"]
    # The account issuer's keys are its own: untouched.
    assert len(provider.issuers["accounts"].kids) == 1


def test_at_most_two_keys_are_published() -> None:
    provider = new_provider()
    first = provider.issuers["accounts"].kids[-1]
    token = provider.sign_in("hal@corp.test", issuer="accounts")
    second = provider.rotate_keys("accounts")
    third = provider.rotate_keys("accounts")
    keys = call(provider, "GET", "/accounts/jwks").json()["keys"]
    assert [key["kid"] for key in keys] == [second, third]
    with pytest.raises(KeyError):
        verify(provider, token, issuer="accounts")  # its key is withdrawn
    assert first not in provider.issuers["accounts"].kids


# -- refusals -------------------------------------------------------------------------------

BAD_BODIES: Final = [
    pytest.param(b"not json", id="not-json"),
    pytest.param(b"[]", id="an-array"),
    pytest.param(b'"a@b.co"', id="a-string"),
    pytest.param(b"{}", id="no-email"),
    pytest.param(b'{"email": null}', id="email-null"),
    pytest.param(b'{"email": 7}', id="email-a-number"),
    pytest.param(b'{"email": ""}', id="email-empty"),
    pytest.param(b'{"email": "no-at-sign"}', id="email-without-at"),
    pytest.param(b'{"email": "a@localhost"}', id="email-single-label-domain"),
    pytest.param(b'{"email": "a b@corp.test"}', id="email-with-space"),
    pytest.param(b'{"email": "a@@corp.test"}', id="email-two-ats"),
    pytest.param(b'{"email": "a@corp.test\\n"}', id="email-newline"),
    pytest.param(b'{"email": "\\u00e9@corp.test"}', id="email-not-ascii"),
    pytest.param(('{"email": "' + "a" * 65 + '@corp.test"}').encode(), id="local-part-65"),
    pytest.param(
        ('{"email": "a@' + ".".join(["b" * 60] * 5) + '.com"}').encode(), id="email-255-plus"
    ),
    pytest.param(b'{"email": "a@corp.test", "name": ""}', id="name-empty"),
    pytest.param(b'{"email": "a@corp.test", "name": "   "}', id="name-blank"),
    pytest.param(b'{"email": "a@corp.test", "name": 5}', id="name-a-number"),
    pytest.param(b'{"email": "a@corp.test", "name": "a\\u0000b"}', id="name-control"),
    pytest.param(('{"email": "a@corp.test", "name": "' + "n" * 255 + '"}').encode(), id="name-255"),
    pytest.param(b'{"email": "a@corp.test", "email_verified": "true"}', id="verified-string"),
    pytest.param(b'{"email": "a@corp.test", "email_verified": 1}', id="verified-number"),
    pytest.param(b'{"email": "a@corp.test", "admin": true}', id="unknown-field"),
    pytest.param(b'{"email": "a@corp.test", "email": "b@corp.test"}', id="repeated-key"),
    pytest.param(b'{"email": "a@corp.test", "name": NaN}', id="nan"),
    pytest.param(b"[" * 3000 + b"]" * 3000, id="deep-nesting"),
    pytest.param(b'{"email": "\xff@corp.test"}', id="not-utf8"),
]


@pytest.mark.parametrize("body", BAD_BODIES)
def test_a_bad_sign_in_body_is_refused_in_the_oauth_error_shape(
    provider: IdentityProvider, body: bytes
) -> None:
    response = call(
        provider,
        "POST",
        "/project/sign_in",
        content=body,
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400
    record = response.json()
    assert set(record) == {"error", "error_description"}
    assert record["error"] == "invalid_request"
    assert record["error_description"]
    assert b"corp.test" not in response.content  # the input is never quoted back


def test_a_body_over_4_kib_is_refused(provider: IdentityProvider) -> None:
    padded = b'{"email": "a@corp.test", "name": "' + b" " * 4096 + b'x"}'
    response = call(
        provider,
        "POST",
        "/project/sign_in",
        content=padded,
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert "4096 bytes" in response.json()["error_description"]

    async def chunks() -> Any:  # no Content-Length: the length is counted while reading
        for _ in range(5):
            yield b" " * 1000

    response = call(
        provider,
        "POST",
        "/project/sign_in",
        content=chunks(),
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert "4096 bytes" in response.json()["error_description"]


def test_a_sign_in_that_is_not_json_by_its_media_type_is_refused(
    provider: IdentityProvider,
) -> None:
    response = call(
        provider,
        "POST",
        "/project/sign_in",
        content=b'{"email": "a@corp.test"}',
        headers={"Content-Type": "text/plain"},
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/elsewhere/.well-known/openid-configuration"),
        ("GET", "/elsewhere/jwks"),
        ("POST", "/elsewhere/sign_in"),
        ("GET", "/Project/jwks"),
    ],
)
def test_an_unknown_issuer_is_404(provider: IdentityProvider, method: str, path: str) -> None:
    response = call(provider, method, path, json={"email": "a@corp.test"})
    assert response.status_code == 404
    assert response.json() == {
        "error": "invalid_request",
        "error_description": "no such issuer; known: project, accounts",
    }


def test_other_paths_and_methods_answer_in_the_oauth_error_shape(
    provider: IdentityProvider,
) -> None:
    response = call(provider, "GET", "/project/token")
    assert response.status_code == 404
    assert response.json()["error"] == "invalid_request"
    response = call(provider, "GET", "/project/sign_in")
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json()["error"] == "invalid_request"


# -- secrets and the table ------------------------------------------------------------------


def test_no_secret_shows_in_reprs_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="ledgerkit")
    provider = new_provider()
    token = call(provider, "POST", "/project/sign_in", json={"email": "ivy@corp.test"}).json()[
        "id_token"
    ]
    provider.rotate_keys("accounts")
    issuer = provider.issuers["project"]
    shown = " ".join(
        [
            repr(provider),
            repr(issuer),
            repr(issuer._keys[-1]),
            str(vars(provider)),
            caplog.text,
        ]
    )
    assert "PRIVATE" not in shown
    assert token not in shown
    assert token.split(".")[2] not in shown
    assert issuer.jwks()["keys"][0]["n"] not in shown
    assert "_private" not in repr(issuer._keys[-1])
    assert issuer.kids[-1] in repr(provider)


def test_the_routes_are_the_identity_rows_of_the_endpoint_table(
    provider: IdentityProvider,
) -> None:
    rows = operations_of("identity")
    app = provider.app()
    served = {
        (route.path, method)
        for route in app.routes
        if isinstance(route, Route)
        for method in route.methods or ()
    }
    assert {(op.path, op.method) for op in rows} <= served
    assert {path for path, _ in served} == {op.path for op in rows}


def test_the_app_refuses_to_build_when_the_table_and_the_handlers_disagree(
    provider: IdentityProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = operations_of("identity")
    extra = rows[0]._replace(id="get_userinfo", path="/{issuer}/userinfo")
    monkeypatch.setattr(_identity_http, "operations_of", lambda service: (*rows, extra))
    with pytest.raises(RuntimeError, match="get_userinfo"):
        provider.app()
    monkeypatch.setattr(_identity_http, "operations_of", lambda service: rows[1:])
    with pytest.raises(RuntimeError, match="get_openid_configuration"):
        provider.app()


@pytest.mark.parametrize(
    ("bound", "host", "status"),
    [
        ("http://127.0.0.1:8090", "127.0.0.1:8090", 200),
        ("http://127.0.0.1:8090", "localhost:8090", 200),
        ("http://127.0.0.1:8090", "[::1]:8090", 200),
        ("http://127.0.0.1:8090", "evil.example:8090", 400),
        ("http://127.0.0.1:8090", "127.0.0.1:8091", 400),
        ("http://127.0.0.1:8090", "127.0.0.1", 400),
        ("http://127.0.0.1:8090", "[::1:8090", 400),
        ("http://idp.test", "idp.test", 200),
        ("http://idp.test", "localhost", 400),
    ],
)
def test_a_sign_in_addressed_to_another_host_is_refused(bound: str, host: str, status: int) -> None:
    """A page that rebinds its own name to the provider's address reaches it under that
    name: it gets no token."""
    provider = new_provider()
    provider.bind(bound)
    response = call(
        provider, "POST", "/project/sign_in", json={"email": "a@corp.test"}, headers={"Host": host}
    )
    assert response.status_code == status
    if status == 400:
        assert response.json()["error_description"] == "the request is addressed to another host"
