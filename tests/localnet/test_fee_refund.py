"""Deleting state refunds its deposit: burning a digital asset deletes its object's
``ObjectGroup`` slot, and the FeeStatement's ``storage_fee_refund_octas`` (the slot's
400,000 octas and 400 a byte of its key and members) comes back to the payer, net of
the gas it paid, as the framework's epilogue mints the difference."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from node_http_helpers import apt_balance
from token_object_helpers import call, create_collection, mint

from ledgerkit.localnet import LocalNode


@pytest.fixture(scope="module")
def refund_http() -> Iterator[tuple[LocalNode, httpx.Client]]:
    with (
        LocalNode(seed=31, blocks=2, services=False) as node,
        httpx.Client(base_url=node.url, timeout=30) as http,
    ):
        yield node, http


def test_burning_a_token_refunds_its_slot_net_of_the_gas(
    refund_http: tuple[LocalNode, httpx.Client],
) -> None:
    node, http = refund_http
    creator = node.dev_accounts[0]
    create_collection(http, creator, "Refunds")
    _, token = mint(http, creator, "Refunds", "T1")
    before = apt_balance(http, creator.address)
    burned = call(http, creator, "0x4::aptos_token::burn", token)
    assert burned["success"], burned["vm_status"]
    statement = burned["events"][-1]
    assert statement["type"] == "0x1::transaction_fee::FeeStatement"
    data = {k: int(v) for k, v in statement["data"].items()}
    assert data["storage_fee_octas"] == 0  # nothing created
    # One slot's deposit and its bytes (at least the 87 of the group's key).
    assert data["storage_fee_refund_octas"] >= 400_000 + 400 * 87
    assert (data["storage_fee_refund_octas"] - 400_000) % 400 == 0
    # gas_used is not reduced by the refund; the payer gets refund - gas * price back.
    assert data["total_charge_gas_units"] == int(burned["gas_used"])
    fee = int(burned["gas_used"]) * int(burned["gas_unit_price"])
    assert data["storage_fee_refund_octas"] > fee
    after = apt_balance(http, creator.address)
    assert after - before == data["storage_fee_refund_octas"] - fee
