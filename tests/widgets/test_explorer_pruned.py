"""The account explorer over the public profile's pruned fullnode: an event stream whose
older part the fullnode no longer keeps is shown whole, read from the archive."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from explorer_shown import grid_titled

from ledgerkit import Client
from ledgerkit.localnet import LocalNode
from ledgerkit.widgets import AccountExplorer

MakeNode = Callable[..., LocalNode]


@pytest.fixture(scope="module")
def node(make_node: MakeNode) -> LocalNode:
    # Seed 17, 4 blocks, then 10 transfers of a block each: the block stream of 0x1 holds
    # 14 events (sequence numbers 0..13); the fullnode keeps the newest 19 versions, so the
    # events of the older blocks are pruned there.
    running = make_node(seed=17, blocks=4, profile="public", services=False, prune_window=19)
    dev, to = running.dev_accounts[0], running.dev_accounts[1].address
    with Client(running.url, api_key=running.api_key, cache=False) as client:
        for _ in range(10):
            assert client.transfer(dev, to, 100).value.success
    return running


def test_a_stream_reaching_past_the_window_is_shown_whole(node: LocalNode) -> None:
    with Client(
        node.url, api_key=node.api_key, cache=False, archive_url=node.archive_url
    ) as client:
        explorer = AccountExplorer(client, "0x1")
        assert explorer.view is not None
        explorer.view.show("Events")
        streams = grid_titled(explorer, "Event streams")
        index = [r["stream"] for r in streams.rows].index(
            "block::BlockResource.new_block_events (14)"
        )
        streams._handle_custom_msg({"type": "select", "index": index}, [])
        streams._handle_custom_msg({"type": "activate", "index": index, "column": "stream"}, [])
        events = grid_titled(explorer, "14 events")
        assert [int(r["sequence_number"]) for r in events.rows] == list(range(13, -1, -1))
