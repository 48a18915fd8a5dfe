"""Two embedded nodes of one seed share their genesis and part at their first live
transaction; used in turn with one cache directory, each shows only its own history: the
cached gets and pagers, the account activity, the account explorer's Transactions tab and
extraction. A dataset extracted from one and grown against the other is refused.

The live transactions are written out here: on node A, Alice sends Bob 999 octas; on node
B, at the same version, Alice sends Carol 4,242 octas.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ledgerkit
from ledgerkit import HistoryMismatchError
from ledgerkit.client import Client
from ledgerkit.extract import account_activity, activity_dataset, extract
from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.chain import dev_accounts
from ledgerkit.widgets import AccountExplorer

SEED = 11
TRANSFER = "0x1::aptos_account::transfer_coins"
ALICE, BOB, CAROL = dev_accounts(SEED, 3)


def _start(db: Path, port: int = 0) -> LocalNode:
    """A node of the seed on ``db``, on ``port`` (0: any free one); a port just given up
    by the node before is waited for a few seconds, never skipped."""
    for _ in range(50):
        try:
            return LocalNode(seed=SEED, blocks=2, db=db, port=port).start()
        except OSError:
            if not port:
                raise
            time.sleep(0.1)
    return LocalNode(seed=SEED, blocks=2, db=db, port=port).start()


def _port(node: LocalNode) -> int:
    return int(node.url.rsplit(":", 1)[1].split("/", 1)[0])


def _sent(client: Client, to: Any, amount: int) -> int:
    """Alice sends ``amount`` octas to ``to``: the version it was committed at."""
    txn = client.transfer(ALICE.private_key, to.address, amount).value
    assert txn.success
    return int(txn.version)


def _what(txn: Any) -> tuple[str, str, int]:
    """The function, recipient and amount of a transfer."""
    payload = txn.payload
    return payload.function, str(payload.arguments[0]), int(payload.arguments[1])


def _tab_versions(client: Client, address: Any) -> list[int]:
    """The versions the account explorer's Transactions tab lists."""
    explorer = AccountExplorer(client, address)
    assert explorer.view is not None
    explorer.view.show("Transactions")
    for grid in explorer.view.grids:
        if "touched the account" in grid.title:
            return sorted(int(r["version"]) for r in grid.rows)
    raise AssertionError("no Transactions grid")


def _seen(client: Client, version: int) -> dict[str, Any]:
    """What a user reads of the node at ``version`` through every cached way."""
    txn = client.transaction_by_version(version).value
    alice_pages = client.account_transactions(ALICE.address, start=0, limit=100).value
    paged = [r.value for r in client.iter_transactions(version - 1, version + 1, limit=1)]
    alice = account_activity(client, ALICE.address)
    bob = account_activity(client, BOB.address)
    carol = account_activity(client, CAROL.address)
    return {
        "txn": _what(txn),
        "paged": _what(paged[-1]),
        "alice_sent": [_what(t) for t in alice_pages if int(t.version) == version],
        "alice_rows": alice.loc[alice["version"] == version, "function"].tolist(),
        "bob_has": version in set(bob["version"]),
        "carol_has": version in set(carol["version"]),
        "bob_tab": version in _tab_versions(client, BOB.address),
        "carol_tab": version in _tab_versions(client, CAROL.address),
    }


def _on_a(version: int) -> dict[str, Any]:
    bob = BOB.address.long
    return {
        "txn": (TRANSFER, bob, 999),
        "paged": (TRANSFER, bob, 999),
        "alice_sent": [(TRANSFER, bob, 999)],
        "alice_rows": [TRANSFER],
        "bob_has": True,
        "carol_has": False,
        "bob_tab": True,
        "carol_tab": False,
    }


def _on_b(version: int) -> dict[str, Any]:
    carol = CAROL.address.long
    return {
        "txn": (TRANSFER, carol, 4242),
        "paged": (TRANSFER, carol, 4242),
        "alice_sent": [(TRANSFER, carol, 4242)],
        "alice_rows": [TRANSFER],
        "bob_has": False,
        "carol_has": True,
        "bob_tab": False,
        "carol_tab": True,
    }


def _extracted_at(url: str, out: Path, version: int) -> tuple[str, str, str]:
    """The hash, function and sender of the transaction at ``version`` in a dataset of
    ``[0, version + 1)``."""
    extract("transactions", url, out, start=0, stop=version + 1, progress=False)
    frame = pd.read_parquet(out / "transactions")
    row = frame.loc[frame["version"] == version].iloc[0]
    return str(row["hash"]), str(row["function"]), str(row["sender"])


def _forget_mark(dataset: Path) -> None:
    """Make ``dataset``'s manifest one written before history marks were recorded."""
    manifest = json.loads((dataset / "manifest.json").read_text(encoding="utf-8"))
    assert manifest.pop("history")["version"] >= 0
    (dataset / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_each_node_of_one_seed_shows_only_its_own_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(cache))
    a = _start(tmp_path / "a.sqlite3")
    port = _port(a)
    try:
        with Client(a.url, cache=cache) as client:
            version = _sent(client, BOB, 999)
            first_a = _seen(client, version)
            hash_a = client.transaction_by_version(version).value.hash
            head_a = client.ledger_info().value.ledger_version
        extract("transactions", a.url, tmp_path / "grown", start=0, stop=version, progress=False)
        extracted_a = _extracted_at(a.url, tmp_path / "ds-a", version)
    finally:
        a.stop()
    assert first_a == _on_a(version)
    assert extracted_a == (hash_a, TRANSFER, ALICE.address.long)

    b = _start(tmp_path / "b.sqlite3", port)  # the same port: the same cache keys
    try:
        with Client(b.url, cache=cache) as client:
            assert _sent(client, CAROL, 4242) == version  # where the chains part
            assert _seen(client, version) == _on_b(version)
            hash_b = client.transaction_by_version(version).value.hash
            client.transfer(ALICE.private_key, CAROL.address, 1)  # B grows past A's head
            head_b = client.ledger_info().value.ledger_version
        assert head_b > head_a
        extracted_b = _extracted_at(b.url, tmp_path / "ds-b", version)
        with pytest.raises(HistoryMismatchError, match=f"version {head_a}") as refused:
            extract("transactions", b.url, tmp_path / "grown", start=0, stop=head_b + 1,
                    progress=False)  # fmt: skip
        assert isinstance(refused.value, ledgerkit.DatasetMismatchError)
        # A manifest written before history marks is checked by its newest record.
        _forget_mark(tmp_path / "ds-a")
        with pytest.raises(HistoryMismatchError, match=f"version {version} .*newest record"):
            extract("transactions", b.url, tmp_path / "ds-a", start=0, stop=head_b + 1,
                    progress=False)  # fmt: skip
    finally:
        b.stop()
    assert hash_b != hash_a
    assert extracted_b == (hash_b, TRANSFER, ALICE.address.long)

    again = _start(tmp_path / "a.sqlite3", port)
    try:
        with Client(again.url, cache=cache) as client:
            # B's activity scan as a manifest written before history marks kept it.
            _forget_mark(activity_dataset(client.chain_identity().value))
            assert _seen(client, version) == _on_a(version)
            assert client.transaction_by_version(version).value.hash == hash_a
    finally:
        again.stop()
