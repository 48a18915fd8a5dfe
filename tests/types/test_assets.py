"""The paired metadata address of a coin type, on the ground floor: written out by hand
from the framework's rule, SHA3-256(0xa ‖ type_name ‖ 0xFE)."""

from __future__ import annotations

import hashlib

import pytest

from ledgerkit import InputError
from ledgerkit.types import APT_METADATA, canonical_coin_type, paired_metadata_address


def test_apt_is_paired_with_0xa() -> None:
    assert paired_metadata_address("0x1::aptos_coin::AptosCoin") == "0x" + "00" * 31 + "0a"
    assert APT_METADATA == "0x" + "00" * 31 + "0a"


def test_another_coin_is_the_named_object_of_0xa() -> None:
    seed = b"0x1234::moon::Moon"
    expected = "0x" + hashlib.sha3_256(bytes(31) + b"\x0a" + seed + b"\xfe").hexdigest()
    assert (
        paired_metadata_address(
            "0x0000000000000000000000000000000000000000000000000000000000001234::moon::Moon"
        )
        == expected
    )


def test_a_coin_type_is_written_as_the_node_writes_it() -> None:
    long = "0x" + "00" * 31 + "01" + "::coin::Coin<0x" + "00" * 31 + "01::aptos_coin::AptosCoin>"
    assert canonical_coin_type(long) == "0x1::coin::Coin<0x1::aptos_coin::AptosCoin>"


@pytest.mark.parametrize("given", ["u64", "not a type", "vector<u8>"])
def test_what_is_not_a_struct_type_is_refused(given: str) -> None:
    with pytest.raises(InputError, match="coin type"):
        canonical_coin_type(given)
    with pytest.raises(InputError, match="coin type"):
        paired_metadata_address(given)
