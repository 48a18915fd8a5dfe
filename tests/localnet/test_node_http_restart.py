"""The node over HTTP across a restart: a node reopened on its SQLite file carries on
from where it stopped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from node_http_helpers import (
    apt_balance,
    ok,
    sequence_number,
    submit,
    transfer,
    txn_hash,
    wait,
)

from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

SEED = 21
RECIPIENT = Address.parse("0x" + "2f" * 32)


def test_a_reopened_node_carries_on(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    with LocalNode(seed=SEED, blocks=4, db=db) as first, httpx.Client(base_url=first.url) as http:
        dev = first.dev_accounts[0]
        signed = transfer(http, dev, RECIPIENT, 31_337).sign(dev.private_key)
        committed = wait(http, submit(http, signed)["hash"])
        assert committed["success"] is True
        before: dict[str, Any] = ok(http.get("/"))
        sequence = sequence_number(http, dev.address)
        balance = apt_balance(http, dev.address)
        block = ok(http.get(f"/blocks/by_version/{committed['version']}"))
    assert db.exists()

    with LocalNode(seed=SEED, blocks=4, db=db) as second, httpx.Client(base_url=second.url) as http:
        again = second.dev_accounts[0]
        assert again.address == dev.address
        after = ok(http.get("/"))
        assert int(after["ledger_version"]) >= int(before["ledger_version"])
        assert int(after["block_height"]) >= int(before["block_height"])
        assert after["chain_id"] == before["chain_id"]
        # What was committed is still there, the same.
        assert ok(http.get(f"/transactions/by_hash/{committed['hash']}")) == committed
        assert ok(http.get(f"/transactions/by_version/{committed['version']}")) == committed
        assert ok(http.get(f"/blocks/by_version/{committed['version']}")) == block
        assert sequence_number(http, again.address) == sequence
        assert apt_balance(http, again.address) == balance
        assert apt_balance(http, RECIPIENT) == 31_337
        # And the chain carries on: the next sequence number, a new block on top.
        signed = transfer(http, again, RECIPIENT, 1).sign(again.private_key)
        assert signed.raw.sequence_number == sequence
        follow_up = wait(http, submit(http, signed)["hash"])
        assert follow_up["hash"] == txn_hash(signed)
        assert follow_up["success"] is True
        assert int(follow_up["version"]) > int(after["ledger_version"])
        assert sequence_number(http, again.address) == sequence + 1
        assert apt_balance(http, RECIPIENT) == 31_338
        newest = ok(http.get(f"/blocks/by_version/{follow_up['version']}"))
        assert int(newest["block_height"]) > int(block["block_height"])
        mine = ok(http.get(f"/accounts/{again.address}/transactions"))
        assert [t["hash"] for t in mine][-2:] == [committed["hash"], follow_up["hash"]]


def test_a_file_of_another_chain_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    with LocalNode(seed=SEED, blocks=1, db=db):
        pass
    with pytest.raises(ValueError, match="seed"), LocalNode(seed=SEED + 1, blocks=1, db=db):
        pass
