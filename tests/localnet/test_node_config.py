"""The node's settings are refused with the error tree's class, which is a ValueError too."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ledgerkit import InputError, LedgerError
from ledgerkit.localnet import NodeConfig, NodeConfigError
from ledgerkit.localnet.ledger import Ledger


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"disabled": frozenset({"nope"})}, "unknown endpoint group"),
        ({"chain_id": 256}, "chain_id is a u8"),
        ({"blocks": -1}, "blocks must be >= 0"),
        ({"dev_accounts": 0}, "dev_accounts >= 1"),
        ({"prune_window": 0}, "prune_window must be at least 1"),
        ({"block_interval": 0}, "block_interval must be positive"),
        ({"anchor": "next tuesday"}, "anchor must be 'now'"),
        ({"anchor": "1969-07-20T20:17:00Z"}, "before 1970-01-03"),
    ],
)
def test_bad_settings_raise_the_node_config_error(settings: dict[str, Any], words: str) -> None:
    with pytest.raises(NodeConfigError, match=words) as caught:
        NodeConfig(**settings)
    assert isinstance(caught.value, InputError)
    assert isinstance(caught.value, LedgerError)
    assert isinstance(caught.value, ValueError)


def test_a_ledger_file_of_another_chain_is_refused_with_the_node_config_error(
    tmp_path: Path,
) -> None:
    path = tmp_path / "chain.sqlite3"
    Ledger.open(path, NodeConfig(seed=5, blocks=2)).close()
    with pytest.raises(NodeConfigError, match="holds the chain of seed 5, not 6"):
        Ledger.open(path, NodeConfig(seed=6, blocks=2))


def test_a_ledger_file_of_another_schema_version_is_refused_naming_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    Ledger.open(path, NodeConfig(seed=5, blocks=2)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(NodeConfigError, match="holds ledger schema version 0") as caught:
        Ledger.open(path, NodeConfig(seed=5, blocks=2))
    assert str(path) in str(caught.value)
    assert "remove the file" in str(caught.value)
