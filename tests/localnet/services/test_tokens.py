"""The local faucet's token checks: where a token may come from, every forged token of the
attack table refused with the faucet's message, and the JWKS cache (fetches counted).

The keys come from the local identity provider's app over ``httpx.ASGITransport``; the
verifier and the provider share a made-up clock, moved by hand.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import httpx
import pytest
from forge import (
    b64url,
    claims_of,
    foreign_signed,
    header_of,
    hs256_with_public_key,
    own_signed,
    segment,
    sized,
    tamper,
    unsigned,
    without,
)
from starlette.datastructures import Headers, QueryParams

from ledgerkit._errors import InputError
from ledgerkit.localnet.services._identity_provider import IdentityProvider, Issuer
from ledgerkit.localnet.services._token_checks import (
    FAILED,
    NOT_VERIFIED,
    TokenRejected,
    TokenVerifier,
    TrustedIssuer,
    bearer_token,
)

BASE: Final = "http://idp.test"
START: Final = 1_800_000_000.0
LEEWAY: Final = 60
T = TypeVar("T")


class Clock:
    """Unix time that moves only when told."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class CountingTransport(httpx.AsyncBaseTransport):
    """The provider's app, counting requests by path; ``down`` makes every fetch fail."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.fetches: Counter[str] = Counter()
        self.down = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.fetches[request.url.path] += 1
        if self.down:
            raise httpx.ConnectError("JWKS host down", request=request)
        return await self.inner.handle_async_request(request)


@dataclass
class Setup:
    provider: IdentityProvider
    clock: Clock
    transport: CountingTransport
    verifier: TokenVerifier

    @property
    def project(self) -> Issuer:
        return self.provider.issuers["project"]

    @property
    def accounts(self) -> Issuer:
        return self.provider.issuers["accounts"]

    def fetches(self, issuer: str = "project") -> int:
        return self.transport.fetches[f"/{issuer}/jwks"]

    def claims(self, issuer: str = "project", /, **changes: Any) -> dict[str, Any]:
        """The claims the issuer signs for a verified email now, with ``changes``."""
        claims = self.provider.issuers[issuer].claims(
            "kim@corp.test",
            name="Kim",
            email_verified=True,
            issued=int(self.clock.now),
            lifetime=3600,
        )
        return {**claims, **changes}


def trusted_issuers(provider: IdentityProvider) -> list[TrustedIssuer]:
    """What the local faucet trusts: each issuer as its discovery document names it."""
    found = []
    for issuer in provider.issuers.values():
        document = issuer.discovery()
        found.append(TrustedIssuer(document["issuer"], issuer.audience, document["jwks_uri"]))
    return found


def run(test: Callable[[Setup], Awaitable[T]], **options: Any) -> T:
    """Run ``test`` with a fresh provider and a verifier of its two issuers."""

    async def main() -> T:
        clock = Clock()
        provider = IdentityProvider(clock=clock, jwks_max_age=options.pop("max_age", 3600))
        provider.bind(BASE)
        transport = CountingTransport(provider.app())
        async with httpx.AsyncClient(transport=transport) as http:
            verifier = TokenVerifier(
                trusted_issuers(provider), http=http, clock=clock, leeway=LEEWAY, **options
            )
            return await test(Setup(provider, clock, transport, verifier))

    return asyncio.run(main())


async def refusal(setup: Setup, token: str) -> TokenRejected:
    with pytest.raises(TokenRejected) as caught:
        await setup.verifier.verify(token)
    return caught.value


# -- the attack table -----------------------------------------------------------------------

Forger = Callable[[Setup], str]


def _other_iss(url: str) -> Forger:
    return lambda s: s.project.sign(s.claims(iss=url))


def _with_header(**fields: Any) -> Forger:
    return lambda s: s.project.sign(s.claims(), headers=fields)


ATTACKS: Final[list[Any]] = [
    pytest.param(
        lambda s: unsigned({"alg": "none", "kid": s.project.kids[-1]}, s.claims()),
        "an algorithm the issuer does not use",
        id="alg-none",
    ),
    pytest.param(
        lambda s: (
            unsigned({"alg": "none", "kid": s.project.kids[-1]}, s.claims())
            + s.project.sign(s.claims()).split(".")[2]
        ),
        "an algorithm the issuer does not use",
        id="alg-none-with-a-real-signature",
    ),
    pytest.param(
        lambda s: hs256_with_public_key(s.project, s.claims()),
        "an algorithm the issuer does not use",
        id="hs256-public-key",
    ),
    pytest.param(
        lambda s: foreign_signed(s.project, s.claims()),
        "a bad signature",
        id="foreign-key-known-kid",
    ),
    pytest.param(
        lambda s: tamper(s.provider.sign_in("kim@corp.test"), email="mallory@corp.test"),
        "a bad signature",
        id="tampered-payload",
    ),
    pytest.param(
        lambda s: tamper(
            s.provider.sign_in("kim@corp.test", email_verified=False), email_verified=True
        ),
        "a bad signature",
        id="tampered-email-verified",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(exp=int(START) - LEEWAY - 1)),
        "the token has expired",
        id="expired-past-leeway",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(exp=int(START) - 3600)),
        "the token has expired",
        id="expired-an-hour",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(nbf=int(START) + 120)),
        "nbf is in the future",
        id="nbf-in-the-future",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(iat=int(START) + 120, exp=int(START) + 3720)),
        "iat is in the future",
        id="iat-in-the-future",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(auth_time=int(START) + 120)),
        "auth_time is in the future",
        id="auth-time-in-the-future",
    ),
    pytest.param(
        _other_iss("https://securetoken.google.com/ledgerkit-local"),
        "an issuer not trusted",
        id="wrong-iss",
    ),
    pytest.param(_other_iss(f"{BASE}/projectx"), "an issuer not trusted", id="iss-prefix-projectx"),
    pytest.param(
        _other_iss(f"{BASE}/project/evil"), "an issuer not trusted", id="iss-prefix-project-evil"
    ),
    pytest.param(_other_iss(f"{BASE}/Project"), "an issuer not trusted", id="iss-other-case"),
    pytest.param(_other_iss(f"{BASE}/project/"), "an issuer not trusted", id="iss-trailing-slash"),
    pytest.param(
        lambda s: s.accounts.sign(s.claims()),
        "no key of the issuer has this kid",
        id="issuer-a-claims-signed-by-b",
    ),
    pytest.param(
        lambda s: s.accounts.sign(s.claims(aud=s.accounts.audience)),
        "no key of the issuer has this kid",
        id="issuer-a-claims-for-b-audience-signed-by-b",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(aud=[s.project.audience, "someone-else"])),
        "a wrong audience",
        id="aud-list-with-ours",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(aud=[s.project.audience])),
        "a wrong audience",
        id="aud-list-of-ours",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(aud="someone-else")), "a wrong audience", id="aud-wrong"
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(aud=s.accounts.audience)),
        "a wrong audience",
        id="aud-of-other-issuer",
    ),
    pytest.param(
        _with_header(jku=f"{BASE}/evil/jwks"), "the header names a key (jku)", id="jku-header"
    ),
    pytest.param(
        _with_header(x5u=f"{BASE}/evil/cert.pem"), "the header names a key (x5u)", id="x5u-header"
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(), headers={"jwk": s.project.jwks()["keys"][-1]}),
        "the header names a key (jwk)",
        id="jwk-header",
    ),
    pytest.param(_with_header(x5c=["MIIB"]), "the header names a key (x5c)", id="x5c-header"),
    pytest.param(_with_header(crit=["exp"]), "the header asks for an extension", id="unknown-crit"),
    pytest.param(
        _with_header(crit=["b64"], b64=False), "the header asks for an extension", id="b64-false"
    ),
    pytest.param(lambda s: "x" * 2_000_000, "the token is too long", id="a-2-mb-token"),
    pytest.param(
        lambda s: sized(s.project, s.claims(), 8193), "the token is too long", id="8-kib-plus-1"
    ),
    pytest.param(
        lambda s: own_signed(s.project, {"alg": "RS256", "typ": "JWT"}, s.claims()),
        "the header has no usable kid",
        id="no-kid",
    ),
    pytest.param(
        lambda s: own_signed(s.project, {"alg": "RS256", "kid": 7}, s.claims()),
        "the header has no usable kid",
        id="kid-a-number",
    ),
    pytest.param(
        lambda s: own_signed(s.project, {"alg": "RS512", "kid": s.project.kids[-1]}, s.claims()),
        "an algorithm the issuer does not use",
        id="alg-rs512-header",
    ),
    pytest.param(
        lambda s: own_signed(
            s.project, {"alg": "RS256", "kid": s.project.kids[-1], "typ": "JWE"}, s.claims()
        ),
        "the header's typ is not JWT",
        id="typ-not-jwt",
    ),
    pytest.param(
        lambda s: own_signed(
            s.project,
            {"alg": "RS256", "kid": s.project.kids[-1]},
            s.claims(iss=[f"{BASE}/project"]),
        ),
        "an issuer not trusted",
        id="iss-a-list",
    ),
    pytest.param(
        lambda s: own_signed(
            s.project, {"alg": "RS256", "kid": s.project.kids[-1]}, s.claims(exp=float("nan"))
        ),
        "the payload is not JSON",
        id="exp-nan",
    ),
    pytest.param(lambda s: s.project.sign(without(s.claims(), "exp")), "no exp claim", id="no-exp"),
    pytest.param(lambda s: s.project.sign(without(s.claims(), "iat")), "no iat claim", id="no-iat"),
    pytest.param(lambda s: s.project.sign(without(s.claims(), "sub")), "no sub claim", id="no-sub"),
    pytest.param(lambda s: s.project.sign(without(s.claims(), "aud")), "no aud claim", id="no-aud"),
    pytest.param(lambda s: s.project.sign(without(s.claims(), "email")), "no email", id="no-email"),
    pytest.param(
        lambda s: s.project.sign(s.claims(sub="")), "sub is not 1 to 128 characters", id="sub-empty"
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(sub="s" * 129)),
        "sub is not 1 to 128 characters",
        id="sub-129",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(exp=str(int(START) + 60))),
        "exp is not a number",
        id="exp-string",
    ),
    pytest.param(
        lambda s: s.project.sign(s.claims(exp=True)), "exp is not a number", id="exp-bool"
    ),
    pytest.param(
        lambda s: ".".join([segment({"alg": "RS256"})[:-1] + "!", "e30", "sig"]),
        "not a signed JWT (three base64url parts)",
        id="not-base64url",
    ),
    pytest.param(lambda s: "a.b", "not a signed JWT (three base64url parts)", id="two-parts"),
    pytest.param(
        lambda s: f"{b64url(b'{not json}')}.{segment(s.claims())}.sig",
        "the header is not JSON",
        id="header-not-json",
    ),
    pytest.param(
        lambda s: ".".join(
            [b64url(b'{"alg": "RS256", "alg": "RS256"}'), segment(s.claims()), "sig"]
        ),
        "the header is not JSON",
        id="header-repeated-key",
    ),
]


@pytest.mark.parametrize(("forge_token", "reason"), ATTACKS)
def test_every_forged_token_is_refused(forge_token: Forger, reason: str) -> None:
    async def test(setup: Setup) -> None:
        assert (await setup.verifier.verify(setup.provider.sign_in("kim@corp.test")))["email"]
        token = forge_token(setup)
        rejected = await refusal(setup, token)
        assert rejected.message == FAILED
        assert rejected.reason == reason
        assert token not in rejected.reason
        assert token not in repr(rejected)

    run(test)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"email_verified": False}, id="false"),
        pytest.param({"email_verified": "true"}, id="the-string-true"),
        pytest.param({"email_verified": 1}, id="one"),
        pytest.param({"email_verified": None}, id="null"),
        pytest.param("missing", id="missing"),
    ],
)
def test_an_email_not_verified_is_refused_as_not_verified(change: Any) -> None:
    async def test(setup: Setup) -> None:
        claims = (
            without(setup.claims(), "email_verified")
            if change == "missing"
            else setup.claims(**change)
        )
        rejected = await refusal(setup, setup.project.sign(claims))
        assert rejected.message == NOT_VERIFIED == "The JWT token is not verified"
        # A forgery fails the signature first: the message does not tell it apart.
        forged = foreign_signed(setup.project, claims)
        assert (await refusal(setup, forged)).message == FAILED == "Failed to verify JWT token"

    run(test)


def test_a_token_of_each_issuer_verifies_and_its_claims_come_back() -> None:
    async def test(setup: Setup) -> None:
        for issuer in ("project", "accounts"):
            token = setup.provider.sign_in("Lee@corp.test", issuer=issuer)
            claims = await setup.verifier.verify(token)
            assert claims == claims_of(token)
            assert claims["iss"] == f"{BASE}/{issuer}"
            assert claims["email_verified"] is True

    run(test)


def test_the_size_cap_is_exact_and_comes_before_parsing() -> None:
    async def test(setup: Setup) -> None:
        largest = sized(setup.project, setup.claims(), 8192)
        assert len(largest) == 8192
        assert (await setup.verifier.verify(largest))["sub"]
        too_long = sized(setup.project, setup.claims(), 8193)
        assert (await refusal(setup, too_long)).reason == "the token is too long"
        # Not even split into parts: garbage of the same length gets the same answer.
        assert (await refusal(setup, "." * 8193)).reason == "the token is too long"
        assert (await refusal(setup, "x" * 2_600_000)).reason == "the token is too long"

    run(test)


@pytest.mark.parametrize(
    ("ago", "accepted"),
    [(-3600, True), (0, True), (LEEWAY - 1, True), (LEEWAY, False), (3600, False)],
)
def test_expiry_has_the_leeway(ago: int, accepted: bool) -> None:
    """A token that expired ``ago`` seconds ago: accepted within the leeway only."""

    async def test(setup: Setup) -> None:
        token = setup.project.sign(setup.claims(exp=int(START) - ago))
        if accepted:
            assert (await setup.verifier.verify(token))["sub"]
        else:
            assert (await refusal(setup, token)).reason == "the token has expired"

    run(test)


@pytest.mark.parametrize("claim", ["iat", "nbf", "auth_time"])
def test_times_ahead_of_the_clock_have_the_leeway(claim: str) -> None:
    async def test(setup: Setup) -> None:
        ahead = setup.project.sign(setup.claims(**{claim: int(START) + LEEWAY}))
        assert (await setup.verifier.verify(ahead))["sub"]
        beyond = setup.project.sign(setup.claims(**{claim: int(START) + LEEWAY + 1}))
        assert (await refusal(setup, beyond)).reason == f"{claim} is in the future"

    run(test)


def test_a_token_expires_as_the_clock_moves() -> None:
    async def test(setup: Setup) -> None:
        token = setup.provider.sign_in("kim@corp.test", lifetime=120)
        await setup.verifier.verify(token)
        setup.clock.now += 120 + LEEWAY
        assert (await refusal(setup, token)).reason == "the token has expired"

    run(test)


# -- keys and the JWKS cache ----------------------------------------------------------------


def test_an_unknown_kid_makes_one_fetch_then_none_until_the_cache_expires() -> None:
    async def test(setup: Setup) -> None:
        await setup.verifier.verify(setup.provider.sign_in("kim@corp.test"))
        assert setup.fetches() == 1
        known = setup.project.sign(setup.claims())
        unknown = own_signed(setup.project, {"alg": "RS256", "kid": "f" * 40}, setup.claims())
        assert (await refusal(setup, unknown)).reason == "no key of the issuer has this kid"
        assert setup.fetches() == 2  # one early fetch for the unknown kid
        for n in range(50):  # a flood of random kids
            header = {"alg": "RS256", "kid": f"{n:040x}"}
            await refusal(setup, own_signed(setup.project, header, setup.claims()))
        await refusal(setup, unknown)
        assert setup.fetches() == 2
        # Known keys keep verifying without a fetch.
        assert (await setup.verifier.verify(known))["sub"]
        assert setup.fetches() == 2
        setup.clock.now += 3600  # the cache expires: one fetch, then one early fetch again
        await refusal(setup, unknown)
        assert setup.fetches() == 4
        await refusal(setup, unknown)
        assert setup.fetches() == 4

    run(test)


def test_a_rotated_key_is_fetched_once_and_old_tokens_keep_verifying() -> None:
    async def test(setup: Setup) -> None:
        old = setup.provider.sign_in("kim@corp.test")
        await setup.verifier.verify(old)
        new_kid = setup.provider.rotate_keys()
        new = setup.provider.sign_in("kim@corp.test")
        assert header_of(new)["kid"] == new_kid
        assert (await setup.verifier.verify(new))["sub"] == claims_of(old)["sub"]
        assert (await setup.verifier.verify(old))["sub"]
        assert setup.fetches() == 2
        for _ in range(5):
            await setup.verifier.verify(new)
        assert setup.fetches() == 2

    run(test)


def test_the_jwks_is_kept_for_its_max_age() -> None:
    async def test(setup: Setup) -> None:
        token = setup.provider.sign_in("kim@corp.test", lifetime=3600)
        await setup.verifier.verify(token)
        setup.clock.now += 119
        await setup.verifier.verify(token)
        assert setup.fetches() == 1
        setup.clock.now += 1
        await setup.verifier.verify(token)
        assert setup.fetches() == 2
        assert setup.fetches("accounts") == 0  # each issuer's keys are fetched for it alone

    run(test, max_age=120)


def test_a_jwks_without_max_age_is_kept_60_seconds_and_max_age_0_10() -> None:
    async def count(cache_control: str | None, advance: list[float]) -> list[int]:
        clock = Clock()
        provider = IdentityProvider(clock=clock)
        provider.bind(BASE)
        fetches = 0

        def answer(request: httpx.Request) -> httpx.Response:
            nonlocal fetches
            fetches += 1
            headers = {} if cache_control is None else {"Cache-Control": cache_control}
            return httpx.Response(200, json=provider.issuers["project"].jwks(), headers=headers)

        counts = []
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as http:
            verifier = TokenVerifier(trusted_issuers(provider), http=http, clock=clock)
            for seconds in advance:
                clock.now = START + seconds
                await verifier.verify(provider.sign_in("kim@corp.test"))
                counts.append(fetches)
        return counts

    assert asyncio.run(count(None, [0, 59, 60, 119])) == [1, 1, 2, 2]
    assert asyncio.run(count("public, max-age=0", [0, 9, 10])) == [1, 1, 2]
    assert asyncio.run(count("no-store", [0, 9, 10])) == [1, 1, 2]
    assert asyncio.run(count("public, s-maxage=5, max-age=30", [0, 29, 30])) == [1, 1, 2]


def test_keys_are_kept_through_a_jwks_outage_and_retried_after_10_seconds() -> None:
    async def test(setup: Setup) -> None:
        token = setup.provider.sign_in("kim@corp.test", lifetime=3600)
        await setup.verifier.verify(token)
        setup.transport.down = True
        setup.clock.now += 120  # the cache expired: the fetch fails, the keys stay
        assert (await setup.verifier.verify(token))["sub"]
        assert setup.fetches() == 2
        setup.clock.now += 9
        await setup.verifier.verify(token)
        assert setup.fetches() == 2
        setup.clock.now += 1
        await setup.verifier.verify(token)
        assert setup.fetches() == 3
        setup.transport.down = False
        setup.clock.now += 10
        await setup.verifier.verify(token)
        assert setup.fetches() == 4

    run(test, max_age=120)


def test_no_token_verifies_while_no_jwks_was_ever_fetched() -> None:
    async def test(setup: Setup) -> None:
        setup.transport.down = True
        token = setup.provider.sign_in("kim@corp.test")
        assert (await refusal(setup, token)).reason == "no key of the issuer has this kid"
        assert (await refusal(setup, token)).message == FAILED
        assert setup.fetches() == 1  # retried after 10 s, not at once
        setup.transport.down = False
        setup.clock.now += 10
        assert (await setup.verifier.verify(token))["sub"]

    run(test)


def test_concurrent_first_requests_make_one_fetch() -> None:
    async def test(setup: Setup) -> None:
        token = setup.provider.sign_in("kim@corp.test")
        results = await asyncio.gather(*(setup.verifier.verify(token) for _ in range(20)))
        assert all(claims["sub"] == results[0]["sub"] for claims in results)
        assert setup.fetches() == 1

    run(test)


def _jwks_answer(body: bytes | dict[str, Any], status: int = 200) -> httpx.MockTransport:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.MockTransport(lambda request: httpx.Response(status, content=content))


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(lambda keys: {"keys": keys["keys"] * 33}, id="too-many-keys"),
        pytest.param(
            lambda keys: {"keys": keys["keys"], "pad": "x" * 65_536}, id="larger-than-64-kib"
        ),
        pytest.param(lambda keys: {"keys": keys["keys"] * 2}, id="one-kid-twice"),
        pytest.param(
            lambda keys: {"keys": [{**keys["keys"][0], "alg": "RS512"}]}, id="key-for-rs512"
        ),
        pytest.param(lambda keys: {"keys": [{**keys["keys"][0], "kty": "EC"}]}, id="not-rsa"),
        pytest.param(lambda keys: {"keys": [{**keys["keys"][0], "use": "enc"}]}, id="use-enc"),
        pytest.param(lambda keys: keys["keys"], id="not-an-object"),
        pytest.param(lambda keys: b"<html>", id="not-json"),
    ],
)
def test_a_jwks_that_cannot_be_trusted_yields_no_key(
    answer: Callable[[dict[str, Any]], Any],
) -> None:
    provider = IdentityProvider()
    provider.bind(BASE)
    token = provider.sign_in("kim@corp.test")

    async def main() -> TokenRejected:
        transport = _jwks_answer(answer(provider.issuers["project"].jwks()))
        async with httpx.AsyncClient(transport=transport) as http:
            verifier = TokenVerifier(trusted_issuers(provider), http=http)
            with pytest.raises(TokenRejected) as caught:
                await verifier.verify(token)
            return caught.value

    assert asyncio.run(main()).reason == "no key of the issuer has this kid"


def test_a_jwks_answer_that_is_not_200_yields_no_key() -> None:
    provider = IdentityProvider()
    provider.bind(BASE)
    keys = provider.issuers["project"].jwks()

    async def main(status: int) -> str:
        async with httpx.AsyncClient(transport=_jwks_answer(keys, status)) as http:
            verifier = TokenVerifier(trusted_issuers(provider), http=http)
            with pytest.raises(TokenRejected) as caught:
                await verifier.verify(provider.sign_in("kim@corp.test"))
            return caught.value.reason

    for status in (302, 404, 500):
        assert asyncio.run(main(status)) == "no key of the issuer has this kid"


def test_a_verifier_of_its_own_closes_its_client() -> None:
    async def main() -> None:
        provider = IdentityProvider()
        provider.bind(BASE)
        async with TokenVerifier(trusted_issuers(provider)) as verifier:
            assert "idp.test/project" in repr(verifier)
        assert verifier._http.is_closed

    asyncio.run(main())


def test_trusted_issuers_are_checked() -> None:
    with pytest.raises(InputError):
        TrustedIssuer("https://issuer", "aud", "file:///etc/passwd")
    with pytest.raises(InputError):
        TrustedIssuer("https://issuer", "aud", "https://issuer/jwks", algorithm="HS256")
    with pytest.raises(InputError):
        TrustedIssuer("https://issuer", "", "https://issuer/jwks")
    one = TrustedIssuer("https://issuer", "aud", "https://issuer/jwks")
    with pytest.raises(InputError):
        TokenVerifier([one, one])
    with pytest.raises(InputError):
        TokenVerifier([])


# -- where the token comes from -------------------------------------------------------------

GOOD_HEADERS: Final = {"Authorization": "Bearer abc.def.ghi", "x-is-jwt": "true"}


@pytest.mark.parametrize(
    ("headers", "query"),
    [
        pytest.param(GOOD_HEADERS, {}, id="plain"),
        pytest.param(
            {"authorization": "bearer abc.def.ghi", "X-IS-JWT": "TRUE"}, {}, id="any-case"
        ),
        pytest.param(
            Headers(raw=[(b"authorization", b"Bearer abc.def.ghi"), (b"x-is-jwt", b"True")]),
            QueryParams("asset=apt"),
            id="starlette-headers",
        ),
    ],
)
def test_the_bearer_token_is_taken_from_authorization(headers: Any, query: Any) -> None:
    assert bearer_token(headers, query) == "abc.def.ghi"


@pytest.mark.parametrize(
    ("headers", "query", "reason"),
    [
        pytest.param(
            {"Authorization": "Bearer abc.def.ghi"},
            {},
            "no x-is-jwt: true header",
            id="no-x-is-jwt",
        ),
        pytest.param(
            {**GOOD_HEADERS, "x-is-jwt": "false"},
            {},
            "no x-is-jwt: true header",
            id="x-is-jwt-false",
        ),
        pytest.param(
            {**GOOD_HEADERS, "x-is-jwt": "1"}, {}, "no x-is-jwt: true header", id="x-is-jwt-1"
        ),
        pytest.param({"x-is-jwt": "true"}, {}, "no Authorization header", id="no-authorization"),
        pytest.param(
            {**GOOD_HEADERS, "Authorization": "abc.def.ghi"},
            {},
            "Authorization is not a Bearer token",
            id="no-bearer-prefix",
        ),
        pytest.param(
            {**GOOD_HEADERS, "Authorization": "Basic YWxpY2U6c2VjcmV0"},
            {},
            "Authorization is not a Bearer token",
            id="basic-scheme",
        ),
        pytest.param(
            {**GOOD_HEADERS, "Authorization": "Bearer"},
            {},
            "a malformed Bearer token",
            id="bearer-alone",
        ),
        pytest.param(
            {**GOOD_HEADERS, "Authorization": "Bearer abc def"},
            {},
            "a malformed Bearer token",
            id="two-words",
        ),
        pytest.param(
            Headers(
                raw=[
                    (b"authorization", b"Bearer abc.def.ghi"),
                    (b"authorization", b"Bearer jkl.mno.pqr"),
                    (b"x-is-jwt", b"true"),
                ]
            ),
            {},
            "a token header given twice",
            id="authorization-twice",
        ),
        pytest.param(
            GOOD_HEADERS, {"token": "abc.def.ghi"}, "a token in the query string", id="query-token"
        ),
        pytest.param(
            GOOD_HEADERS, {"id_token": "x"}, "a token in the query string", id="query-id-token"
        ),
        pytest.param(
            GOOD_HEADERS,
            {"Access_Token": "x"},
            "a token in the query string",
            id="query-access-token",
        ),
        pytest.param(GOOD_HEADERS, {"jwt": "x"}, "a token in the query string", id="query-jwt"),
        pytest.param(GOOD_HEADERS, {"auth": "x"}, "a token in the query string", id="query-auth"),
        pytest.param(
            GOOD_HEADERS,
            QueryParams("asset=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln&asset=apt"),
            "a token in the query string",
            id="query-value-like-a-jwt",
        ),
        pytest.param(
            {"x-is-jwt": "true"},
            {"token": "abc.def.ghi"},
            "a token in the query string",
            id="query-token-alone",
        ),
    ],
)
def test_a_token_not_sent_as_the_faucet_takes_it_is_refused(
    headers: Any, query: Any, reason: str
) -> None:
    with pytest.raises(TokenRejected) as caught:
        bearer_token(headers, query)
    assert caught.value.reason == reason
    assert caught.value.message == FAILED
