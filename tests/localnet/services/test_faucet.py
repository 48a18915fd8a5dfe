"""The local faucet over HTTP: sign in, fund, wait, balance up; every attack of the table
refused with the faucet's own record and nothing funded; the daily quota; the real
faucet's statuses, CORS and the devnet ``/mint``.

Expected shapes are the real faucet's: ``{"txn_hashes": [<64 hex, no 0x>]}``; failures
``{"message", "error_code", "rejection_reasons", "txn_hashes"}``; 403 ``AuthTokenInvalid``
with "Failed to verify JWT token" (or "The JWT token is not verified" for an unverified
email); 429 with ``Retry-After`` when a quota is spent.
"""

from __future__ import annotations

import asyncio
import gc
import re
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any, Final

import httpx
import pytest
from forge import (
    foreign_signed,
    hs256_with_public_key,
    own_signed,
    rs256,
    signing_key,
    tamper,
    unsigned,
    without,
)

from ledgerkit import Account, Client, FaucetClient, FaucetRateLimitedError
from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.services import FaucetSettings, create_faucet_app

APT: Final = "0x1::aptos_coin::AptosCoin"
#: The local faucet's default amount: 1 APT.
ONE_APT: Final = 100_000_000
PER_DAY: Final = 3
FAILED: Final = "Failed to verify JWT token"
NOT_VERIFIED: Final = "The JWT token is not verified"


@pytest.fixture(scope="module")
def node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of this module's own, its faucet allowing ``PER_DAY`` requests a day."""
    return make_node(seed=11, blocks=5, faucet=FaucetSettings(requests_per_day=PER_DAY))


@pytest.fixture(scope="module")
def faucet_http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.faucet_url, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def client(node: LocalNode) -> Iterator[Client]:
    with Client(node.url) as running:
        yield running


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "x-is-jwt": "true"}


def balance(client: Client, address: Account | str) -> int:
    where = address.address if isinstance(address, Account) else address
    return client.account_balance(where, APT).value


def faucet_sequence(client: Client, node: LocalNode) -> int:
    assert node.ledger is not None
    return client.account(node.ledger.faucet.address).value.sequence_number


def assert_record(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    record = response.json()
    assert set(record) == {"message", "error_code", "rejection_reasons", "txn_hashes"}
    assert record["error_code"] == code
    assert record["txn_hashes"] == []
    return record


# -- the whole flow ----------------------------------------------------------------------------


def test_sign_in_fund_wait_balance_up(
    node: LocalNode, faucet_http: httpx.Client, client: Client
) -> None:
    learner = Account.generate()
    token = node.sign_in("ada@example.com", name="Ada")
    response = faucet_http.post(
        "/fund", json={"address": str(learner.address)}, headers=auth(token)
    )
    assert response.status_code == 200, response.text
    (txn_hash,) = response.json()["txn_hashes"]
    assert re.fullmatch(r"[0-9a-f]{64}", txn_hash)  # as the real faucet: no 0x
    committed = client.wait_for_transaction("0x" + txn_hash).value
    assert committed.success
    assert committed.sender == node.ledger.faucet.address.long  # type: ignore[union-attr]
    assert balance(client, learner) == ONE_APT


def test_the_faucet_client_does_it_in_one_call(node: LocalNode, client: Client) -> None:
    tokens = lambda: node.sign_in("grace@example.com", issuer="accounts")  # noqa: E731
    with FaucetClient(node.faucet_url, token=tokens, node=client) as faucet:
        assert faucet.healthy()
        learner = Account.generate()
        assert faucet.is_eligible(learner)
        funding = faucet.fund(learner, 12_345)
    assert (funding.balance_before, funding.balance_after) == (0, 12_345)
    assert funding.transactions[0].success
    assert funding.txn_hashes[0].startswith("0x")


def test_an_amount_over_the_maximum_is_cut_to_it(
    node: LocalNode, faucet_http: httpx.Client, client: Client
) -> None:
    learner = Account.generate()
    body = {"address": learner.address.long.removeprefix("0x"), "amount": 10**15}
    response = faucet_http.post("/fund", json=body, headers=auth(node.sign_in("cut@example.com")))
    client.wait_for_transaction("0x" + response.json()["txn_hashes"][0])
    assert balance(client, learner) == ONE_APT


def test_an_auth_key_or_a_public_key_names_the_account(
    node: LocalNode, faucet_http: httpx.Client, client: Client
) -> None:
    by_pub, by_auth = Account.generate(), Account.generate()
    token = node.sign_in("keys@example.com")
    bodies = [
        {"pub_key": bytes(by_pub.public_key).hex(), "amount": 7},
        {"auth_key": "0x" + by_auth.address.long[2:], "amount": 9},
    ]
    for body in bodies:
        answer = faucet_http.post("/fund", json=body, headers=auth(token))
        client.wait_for_transaction("0x" + answer.json()["txn_hashes"][0])
    assert (balance(client, by_pub), balance(client, by_auth)) == (7, 9)


# -- the attack table -------------------------------------------------------------------------


def _claims(node: LocalNode, issuer: str = "project", **changes: Any) -> dict[str, Any]:
    """A real token's claims of ``issuer``, changed."""
    assert node.identity is not None
    now = int(time.time())
    base = node.identity.issuers[issuer].claims(
        "mallory@example.com", name="Mallory", email_verified=True, issued=now, lifetime=3600
    )
    return {**base, **changes}


def _own(node: LocalNode, claims: dict[str, Any], issuer: str = "project", **header: Any) -> str:
    assert node.identity is not None
    kid = node.identity.issuers[issuer].kids[-1]
    return own_signed(node.identity.issuers[issuer], {"alg": "RS256", "kid": kid, "typ": "JWT",
                                                      **header}, claims)  # fmt: skip


def _issuer(node: LocalNode, name: str = "project") -> Any:
    assert node.identity is not None
    return node.identity.issuers[name]


Forge = Callable[[LocalNode], str]
NOW: Final = lambda: int(time.time())  # noqa: E731

ATTACKS: Final[list[tuple[str, Forge, str]]] = [
    ("alg none", lambda n: unsigned({"alg": "none", "typ": "JWT"}, _claims(n)), FAILED),
    ("alg none with a kid", lambda n: unsigned(
        {"alg": "none", "kid": _issuer(n).kids[-1]}, _claims(n)), FAILED),
    ("HS256 keyed with the public key", lambda n: hs256_with_public_key(_issuer(n), _claims(n)),
     FAILED),
    ("a foreign key under a known kid", lambda n: foreign_signed(_issuer(n), _claims(n)), FAILED),
    ("a tampered payload", lambda n: tamper(n.sign_in("mallory@example.com"),
                                            email="alice@example.com"), FAILED),
    ("expired", lambda n: _own(n, _claims(n, exp=NOW() - 120, iat=NOW() - 4000,
                                          auth_time=NOW() - 4000)), FAILED),
    ("nbf in the future", lambda n: _own(n, _claims(n, nbf=NOW() + 600)), FAILED),
    ("iat in the future", lambda n: _own(n, _claims(n, iat=NOW() + 600)), FAILED),
    ("wrong iss", lambda n: _own(n, _claims(n, iss="https://securetoken.example/other")), FAILED),
    ("an iss that only starts like ours",
     lambda n: _own(n, _claims(n, iss=_issuer(n).url + "x")), FAILED),
    ("an iss with our issuer as a prefix path",
     lambda n: _own(n, _claims(n, iss=_issuer(n).url + "/evil")), FAILED),
    ("issuer A's token signed with issuer B's key",
     lambda n: rs256({"alg": "RS256", "kid": _issuer(n, "accounts").kids[-1], "typ": "JWT"},
                     _claims(n), signing_key(_issuer(n, "accounts"))), FAILED),
    ("an aud list containing ours",
     lambda n: _own(n, _claims(n, aud=[_issuer(n).audience, "someone-else"])), FAILED),
    ("another audience", lambda n: _own(n, _claims(n, aud="someone-else")), FAILED),
    ("email_verified false", lambda n: n.sign_in("m@example.com", email_verified=False),
     NOT_VERIFIED),
    ("email_verified missing", lambda n: _own(n, without(_claims(n), "email_verified")),
     NOT_VERIFIED),
    ("email_verified the string true", lambda n: _own(n, _claims(n, email_verified="true")),
     NOT_VERIFIED),
    ("a jku header", lambda n: _own(n, _claims(n), jku="https://attacker.example/jwks"), FAILED),
    ("an x5u header", lambda n: _own(n, _claims(n), x5u="https://attacker.example/cert"),
     FAILED),
    ("a jwk header", lambda n: _own(n, _claims(n), jwk={"kty": "RSA", "n": "AQAB", "e": "AQAB"}),
     FAILED),
    ("an unknown kid", lambda n: rs256({"alg": "RS256", "kid": "f" * 40, "typ": "JWT"},
                                       _claims(n), signing_key(_issuer(n))), FAILED),
    ("a 2 MB token", lambda n: _own(n, _claims(n, pad="A" * 2_000_000)), FAILED),
    ("not a JWT", lambda n: "not-a-token", FAILED),
]  # fmt: skip


@pytest.mark.parametrize(("name", "forge", "message"), ATTACKS, ids=[a[0] for a in ATTACKS])
def test_each_forged_token_is_refused_and_nothing_is_funded(
    node: LocalNode,
    faucet_http: httpx.Client,
    client: Client,
    name: str,
    forge: Forge,
    message: str,
) -> None:
    target = Account.generate()
    before = faucet_sequence(client, node)
    response = faucet_http.post("/fund", json={"address": str(target.address)},
                                headers=auth(forge(node)))  # fmt: skip
    record = assert_record(response, 403, "AuthTokenInvalid")
    assert record["message"] == message
    eligible = faucet_http.post("/is_eligible", json={"address": str(target.address)},
                                headers=auth(forge(node)))  # fmt: skip
    assert_record(eligible, 403, "AuthTokenInvalid")
    assert faucet_sequence(client, node) == before
    assert balance(client, target) == 0


def test_where_the_token_travels_is_checked(
    node: LocalNode, faucet_http: httpx.Client, client: Client
) -> None:
    token = node.sign_in("where@example.com")
    body = {"address": str(Account.generate().address)}
    before = faucet_sequence(client, node)
    refusals = [
        {"Authorization": f"Bearer {token}"},  # no x-is-jwt
        {"Authorization": f"Bearer {token}", "x-is-jwt": "false"},
        {"Authorization": token, "x-is-jwt": "true"},  # no Bearer
        {"Authorization": f"Basic {token}", "x-is-jwt": "true"},
        {"x-is-jwt": "true"},  # no token at all
    ]
    for headers in refusals:
        assert_record(faucet_http.post("/fund", json=body, headers=headers), 403,
                      "AuthTokenInvalid")  # fmt: skip
    in_query = faucet_http.post("/fund", json=body, params={"token": token}, headers=auth(token))
    assert_record(in_query, 403, "AuthTokenInvalid")
    assert faucet_sequence(client, node) == before


def test_a_rotated_key_signs_new_tokens_and_old_ones_still_verify() -> None:
    """On a node of its own: the faucet fetches the issuer's keys once, then once more for
    the new key's kid (an unknown kid makes one early fetch per cache period)."""
    with LocalNode(seed=13, blocks=2) as fresh, httpx.Client(base_url=fresh.faucet_url) as http:
        assert fresh.identity is not None
        old = fresh.sign_in("rotate@example.com")
        body = {"address": str(Account.generate().address), "amount": 1}
        assert http.post("/fund", json=body, headers=auth(old)).status_code == 200
        fresh.identity.rotate_keys("project")
        new = fresh.sign_in("rotate2@example.com")
        for token in (new, old):
            assert http.post("/fund", json=body, headers=auth(token)).status_code == 200


# -- quota, bad bodies, statuses -------------------------------------------------------------


def test_a_spent_quota_is_a_429_with_retry_after(
    node: LocalNode, faucet_http: httpx.Client, client: Client
) -> None:
    token = node.sign_in("quota@example.com")
    body = {"address": str(Account.generate().address), "amount": 1}
    for _ in range(PER_DAY):
        funded = faucet_http.post("/fund", json=body, headers=auth(token))
        client.wait_for_transaction("0x" + funded.json()["txn_hashes"][0])
    before = faucet_sequence(client, node)
    earliest = 86_400 - int(time.time()) % 86_400
    response = faucet_http.post("/fund", json=body, headers=auth(token))
    latest = 86_400 - int(time.time()) % 86_400
    record = assert_record(response, 429, "Rejected")
    assert record["rejection_reasons"][0]["code"] == "UsageLimitExhausted"
    assert latest - 1 <= int(response.headers["Retry-After"]) <= earliest + 1
    eligible = faucet_http.post("/is_eligible", json=body, headers=auth(token))
    assert_record(eligible, 429, "Rejected")
    # Another person is not held to it.
    other = node.sign_in("someone-else@example.com")
    assert faucet_http.post("/is_eligible", json=body, headers=auth(other)).status_code == 200
    with FaucetClient(node.faucet_url, token=token) as faucet:
        with pytest.raises(FaucetRateLimitedError) as info:
            faucet.fund(Account.generate(), wait=False)
        assert info.value.retry_after is not None
        assert 0 < info.value.retry_after <= 86_400
    assert faucet_sequence(client, node) == before


@pytest.mark.parametrize(
    "body",
    [b"not json", b"[1, 2]", b"{}", b'{"address": "0xnothex"}', b'{"address": 5}',
     b'{"address": "0x1", "amount": -1}', b'{"address": "0x1", "amount": "lots"}',
     b'{"auth_key": "abcd"}', b'{"pub_key": "0x00"}', b'{"address": "0x1", "x": "' +
     b"a" * 5000 + b'"}'],
)  # fmt: skip
def test_a_bad_body_is_an_invalid_request(
    node: LocalNode, faucet_http: httpx.Client, body: bytes
) -> None:
    headers = {**auth(node.sign_in("body@example.com")), "Content-Type": "application/json"}
    assert_record(faucet_http.post("/fund", content=body, headers=headers), 400, "InvalidRequest")


def test_status_is_tap_ok_and_mint_is_for_devnet_only(
    node: LocalNode, faucet_http: httpx.Client
) -> None:
    status = faucet_http.get("/")
    assert (status.status_code, status.text) == (200, "tap:ok")
    assert status.headers["content-type"].startswith("text/plain")
    refused = faucet_http.post("/mint", params={"address": "0x1", "amount": "5"})
    assert_record(refused, 400, "EndpointNotEnabled")


def test_cors_is_answered_as_the_real_faucet_answers(faucet_http: httpx.Client) -> None:
    origin = "https://docs.example"
    preflight = faucet_http.options(
        "/fund",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, x-is-jwt, content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == origin
    assert preflight.headers["access-control-allow-credentials"] == "true"
    allowed = preflight.headers["access-control-allow-headers"].lower()
    assert {"authorization", "x-is-jwt"} <= {h.strip() for h in allowed.split(",")}
    simple = faucet_http.get("/", headers={"Origin": origin})
    assert simple.headers["access-control-allow-origin"] == origin


def test_a_preflight_with_the_typescript_sdks_headers_is_allowed(
    faucet_http: httpx.Client,
) -> None:
    """The TypeScript SDK sends ``x-aptos-client`` and ``x-aptos-typescript-sdk-origin-method``
    on every request, ``fundAccount`` included: a browser page funding an account preflights
    them, and the real faucet (any header allowed) lets them through."""
    origin = "http://localhost:5173"
    asked = "content-type,x-aptos-client,x-aptos-typescript-sdk-origin-method"
    preflight = faucet_http.options(
        "/fund",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": asked,
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == origin
    allowed = {h.strip() for h in preflight.headers["access-control-allow-headers"].split(",")}
    assert {"content-type", "x-aptos-client", "x-aptos-typescript-sdk-origin-method"} <= {
        h.lower() for h in allowed
    }


def test_a_devnet_faucet_mints_without_a_token_and_says_when_it_cannot_pay() -> None:
    settings = FaucetSettings(devnet=True, max_amount=10**19)
    with LocalNode(seed=12, blocks=2, faucet=settings) as devnet, Client(devnet.url) as client:
        target = Account.generate()
        http = httpx.Client(base_url=devnet.faucet_url, timeout=30)
        hashes = http.post("/mint", params={"address": str(target.address), "amount": "77"})
        assert hashes.status_code == 200, hashes.text
        (txn_hash,) = hashes.json()
        client.wait_for_transaction("0x" + txn_hash)
        assert balance(client, target) == 77
        signed = http.post(
            "/mint", params={"auth_key": target.address.long, "amount": "5", "return_txns": "true"}
        )
        # Plain text: the hex BCS of a list of signed transactions, here of one (0x01), the
        # first field of which is the sender, the faucet's account.
        assert signed.headers["content-type"].startswith("text/plain")
        listed = bytes.fromhex(signed.text)
        assert listed[0] == 1
        assert listed[1:33] == bytes(devnet.ledger.faucet.address)  # type: ignore[union-attr]
        # Without an amount, the maximum: more than the funding account holds.
        broke = http.post("/fund", json={"address": str(target.address)},
                          headers=auth(devnet.sign_in("rich@example.com")))  # fmt: skip
        assert_record(broke, 503, "FunderAccountProblem")
        http.close()


def test_a_failure_of_the_faucet_is_its_500_record() -> None:

    class Verifier:
        async def verify(self, token: str) -> dict[str, Any]:
            return {"sub": "someone", "email": "someone@example.com", "email_verified": True}

    class BrokenFunder:
        def can_pay(self, amount: int) -> bool:
            return True

        def fund(self, address: Any, amount: int) -> Any:
            raise RuntimeError("the disk is on fire")

    app = create_faucet_app(BrokenFunder(), Verifier())  # type: ignore[arg-type]

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://faucet") as http:
            return await http.post("/fund", json={"address": "0x1"}, headers=auth("t"))

    answer = asyncio.run(ask())
    record = assert_record(answer, 500, "InternalError")
    assert "fire" not in record["message"]  # the cause stays in the log


def test_a_stopped_node_leaves_no_connection_of_its_faucet_open() -> None:
    """The faucet fetches the issuer's keys over HTTP; stopping the node closes that
    client too, so closing the node's event loop finds no transport left open."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        with LocalNode(seed=13, blocks=2) as fresh, httpx.Client() as http:
            token = fresh.sign_in("close@example.com")
            body = {"address": str(Account.generate().address), "amount": 1}
            funded = http.post(f"{fresh.faucet_url}/fund", json=body, headers=auth(token))
            assert funded.status_code == 200
        gc.collect()
    assert [str(warning.message) for warning in caught if warning.category is ResourceWarning] == []
