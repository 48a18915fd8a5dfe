"""No secret leaks: every key and account kind, rendered every way a notebook, a log or a
traceback renders it, and every error raised about a malformed key, shows neither the
secret's hex nor its AIP-80 text."""

from __future__ import annotations

import logging
import pickle
import traceback
from collections.abc import Callable
from typing import Any

import pytest

from ledgerkit import Account, Ed25519PrivateKey, LedgerError, Secp256k1PrivateKey
from ledgerkit.localnet.chain import dev_accounts, faucet_account

ED_SECRET = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
SECP_SECRET = "0e3f1d2c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"


def kinds() -> list[tuple[str, object, str]]:
    """(name, object, secret hex) for each key and account kind."""
    dev = dev_accounts(11, 1)[0]
    faucet = faucet_account(11)
    return [
        ("ed25519 key", Ed25519PrivateKey(ED_SECRET), ED_SECRET),
        ("secp256k1 key", Secp256k1PrivateKey(SECP_SECRET), SECP_SECRET),
        ("ed25519 account", Account.from_key(ED_SECRET), ED_SECRET),
        ("secp256k1 account", Account.from_key(SECP_SECRET, scheme="secp256k1"), SECP_SECRET),
        ("rotated account", Account.from_key(ED_SECRET, address="0xcafe"), ED_SECRET),
        ("dev account", dev, dev.private_key.secret_hex()[2:]),
        ("faucet account", faucet, faucet.private_key.secret_hex()[2:]),
    ]


def forms(secret: str) -> list[str]:
    """Every spelling of a secret that must not show."""
    out = []
    for text in (secret.lower(), secret.upper()):
        out += [text, "0x" + text, f"ed25519-priv-0x{text}", f"secp256k1-priv-0x{text}"]
    # Also half of it: a truncated secret is still most of a secret.
    return [*out, secret[:32], secret[32:]]


def assert_hidden(text: str, secret: str, what: str) -> None:
    for form in forms(secret):
        assert form not in text, f"{what} shows the secret"


def renderings(value: object) -> dict[str, str]:
    return {
        "repr": repr(value),
        "str": str(value),
        "format": format(value),
        "f-string": f"{value} {value!r} {value!s} {value:}",
        "list repr": repr([value]),
        "dict repr": repr({"k": value}),
    }


@pytest.mark.parametrize("index", range(7))
def test_no_rendering_shows_the_secret(index: int) -> None:
    name, value, secret = kinds()[index]
    for how, text in renderings(value).items():
        assert_hidden(text, secret, f"{how} of a {name}")
    if isinstance(value, Account):
        for how, text in renderings(value.private_key).items():
            assert_hidden(text, secret, f"{how} of a {name}'s key")


@pytest.mark.parametrize("index", range(7))
def test_logging_at_debug_does_not_show_the_secret(
    index: int, caplog: pytest.LogCaptureFixture
) -> None:
    name, value, secret = kinds()[index]
    logger = logging.getLogger("ledgerkit")
    with caplog.at_level(logging.DEBUG, logger="ledgerkit"):
        logger.debug("signing with %s / %r", value, value)
        logger.debug("as a mapping: %(who)s", {"who": value})
        try:
            raise LedgerError(f"failed for {value!r}")
        except LedgerError:
            logger.exception("with the traceback")
    assert caplog.records
    assert_hidden(caplog.text, secret, f"the log of a {name}")
    for record in caplog.records:
        assert_hidden(record.getMessage(), secret, f"a log record of a {name}")


@pytest.mark.parametrize("index", range(7))
def test_pickling_is_refused_without_showing_the_secret(index: int) -> None:
    name, value, secret = kinds()[index]
    with pytest.raises(TypeError) as caught:
        pickle.dumps(value)
    text = "".join(traceback.format_exception(caught.value))
    assert_hidden(text, secret, f"the pickle error of a {name}")


def _bad_forms(secret: str) -> list[tuple[str, Callable[[], Any]]]:
    """Malformed keys that still carry most of ``secret``, each with how it is given."""
    texts = [
        secret[:-1],  # one digit short
        secret + "0",  # one digit over
        secret[:-2] + "zz",  # not hex
        "0x" + secret + "00",  # 33 bytes
        "ed25519-priv-0x" + secret[:-2],
        "secp256k1-priv-0x" + secret + "ff",
        "secp256r1-priv-0x" + secret,  # another scheme's AIP-80
        " \n" + secret + " trailing words",
        "ED25519-PRIV-0x" + secret,
    ]
    cases: list[tuple[str, Callable[[], Any]]] = []
    for text in texts:
        cases += [
            (f"Account.from_key({text!r})", lambda t=text: Account.from_key(t)),
            (
                f"Account.from_key({text!r}, secp256k1)",
                lambda t=text: Account.from_key(t, scheme="secp256k1"),
            ),
            (f"Ed25519PrivateKey({text!r})", lambda t=text: Ed25519PrivateKey(t)),
            (f"Secp256k1PrivateKey({text!r})", lambda t=text: Secp256k1PrivateKey(t)),
        ]
    raw = bytes.fromhex(secret)
    cases += [
        ("31 bytes", lambda: Account.from_key(raw[:-1])),
        ("bytearray of 33", lambda: Account.from_key(bytearray(raw + b"\x00"))),
        ("mismatched scheme", lambda: Account.from_key("secp256k1-priv-0x" + secret,
                                                        scheme="ed25519")),
        ("key object of the other scheme", lambda: Account.from_key(Ed25519PrivateKey(secret),
                                                                     scheme="secp256k1")),
        ("secp256k1 out of range", lambda: Account.from_key("f" * 64, scheme="secp256k1")),
    ]  # fmt: skip
    return cases


@pytest.mark.parametrize("secret", [ED_SECRET, SECP_SECRET])
def test_errors_about_malformed_keys_do_not_echo_them(secret: str) -> None:
    for what, attempt in _bad_forms(secret):
        with pytest.raises(LedgerError) as caught:
            attempt()
        error = caught.value
        assert isinstance(error, ValueError), what  # an InputError
        assert error.__context__ is None, what
        assert error.__cause__ is None, what
        shown = "".join(traceback.format_exception(error)) + repr(error) + str(error)
        assert_hidden(shown, secret, f"the error of {what}")
        if "short" in what or "over" in what:
            assert "64 hex digits" in str(error) or "32 bytes" in str(error)
