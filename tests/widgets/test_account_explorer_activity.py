"""The account explorer as a reader of an account wants it, without a node: every
transaction that touched the account (received, paid for, not only sent) with its change
per asset named and exact, assets with grouped base units and short type names, one
short form for addresses, resources read once; and the table explorer's failed look-ups.

The explorers read the embedded node's answers, recorded once and replayed
(``recorded_chain``); the expected values are written out from its scenario, or taken
from the node's answers to the scenario itself (versions, hashes, times, fees), never
computed by the code under test.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import pytest
from explorer_shown import crumbs, grid_titled, shortened, units, utc
from recorded_chain import APT_IN, GENESIS_LDT, LDT_IN, PLAYER, ReadLog, Scene

from ledgerkit import TransportError
from ledgerkit.types import Address
from ledgerkit.widgets import AccountExplorer, LedgerGrid, TableExplorer
from ledgerkit.widgets._account_activity import ActivityScan
from ledgerkit.widgets._names import amount_text, short, short_type

APT_KEY = "0x" + "00" * 31 + "0a"
LDT = "0x" + "e6" * 32  # an asset key of the scan's own tests
U64_MAX = 2**64 - 1
SEP = "\u203a"


pytestmark = pytest.mark.usefixtures("no_node")


def _transactions(explorer: AccountExplorer) -> LedgerGrid:
    assert explorer.view is not None
    explorer.view.show("Transactions")
    return grid_titled(explorer, "touched the account")


def _fee(scene: Scene, step: str) -> str:
    """A step's fee as the tab shows the change it made: in APT, negative."""
    return f"-{units(scene.fee(step), 8)} APT"


# -- the Transactions tab ---------------------------------------------------------------------


def test_received_and_paid_for_transactions_are_listed_with_the_change_per_asset(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert client.asked("account_activity") == []  # not before the tab is shown
    txns = _transactions(explorer)
    assert txns.title == (
        f"9 transactions touched the account (versions 0 to {scene.head}, all scanned)"
    )
    transfer = "0x1::primary_fungible_store::transfer"
    set_score = "0x1::ledger_demo::set_score"
    everything = units(GENESIS_LDT + LDT_IN, 6)

    def sent(step: str) -> str:
        return f"{scene.fee(step):,}"

    assert [
        (r["version"], r["role"], r["change"], r["function_shown"], r["success"], r["fee_shown"])
        for r in txns.rows
    ] == [
        (
            scene.version("ldt_out"),
            "sent, state written",
            f"{_fee(scene, 'ldt_out')}; -{everything} LDT",
            transfer,
            True,
            sent("ldt_out"),
        ),
        (
            scene.version("failed"),
            "sent, state written",
            _fee(scene, "failed"),
            "0x1::ledger_demo::fail_if",
            False,
            sent("failed"),
        ),
        (
            scene.version("paid_for"),
            # The fee came out of its store, listed whole with its ObjectCore (the owner).
            "paid the fee, state written",
            _fee(scene, "paid_for"),
            set_score,
            True,
            sent("paid_for"),
        ),
        (
            scene.version("apt_in"),
            "received, state written",
            "+1,000 APT",
            "0x1::aptos_account::transfer",
            True,
            None,
        ),
        (scene.version("ldt_in"), "received, state written", "+2.5 LDT", transfer, True, None),
        *[
            (
                scene.version(step),
                "sent, state written",
                _fee(scene, step),
                set_score,
                True,
                sent(step),
            )
            for step in ("score_max", "score_9", "score_7")
        ],
        (0, "received, state written", "+1,000,000 APT; +1,000,000 LDT", None, True, None),
    ]
    apt_in = scene.txns["apt_in"]
    assert txns.rows[3]["timestamp"] == utc(int(apt_in.timestamp))
    assert txns.rows[3]["hash"] == apt_in.hash
    assert (txns.total, txns.more) == (9, False)
    # One scan of the view's versions, without a progress bar in the widget.
    assert client.asked("account_activity") == [
        (
            (explorer.address,),
            {"start_version": None, "end_version": scene.head, "progress": False},
        )
    ]


def test_a_row_keeps_the_exact_change_and_the_frame_is_the_activity(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    txns = _transactions(explorer)
    txns.selected_index = 3
    selected = txns.selected
    assert selected is not None
    assert selected["changes"] == {APT_KEY: APT_IN}
    assert selected["roles"] == "recipient,write_set"
    stamp = int(scene.txns["apt_in"].timestamp)
    assert selected["timestamp"] == dt.datetime(1970, 1, 1, tzinfo=dt.UTC) + dt.timedelta(
        microseconds=stamp
    )
    frame = explorer.to_frame()
    steps = ["ldt_out", "failed", "paid_for", "apt_in", "ldt_in", "score_max", "score_9"]
    versions = [scene.version(step) for step in [*steps, "score_7"]] + [0]
    assert list(frame["version"]) == versions
    assert str(frame["version"].dtype) == "UInt64"
    assert list(frame["roles"]) == [
        "sender,write_set",
        "sender,write_set",
        "fee_payer,write_set",
        "recipient,write_set",
        "recipient,write_set",
        "sender,write_set",
        "sender,write_set",
        "sender,write_set",
        "recipient,write_set",
    ]
    assert frame["changes"].iloc[3] == '{"' + APT_KEY + '":"' + str(APT_IN) + '"}'
    fees = [scene.fee(step) for step in ("ldt_out", "failed", "paid_for")]
    # Genesis charged no fee: it has none.
    fees += [0, 0] + [scene.fee(step) for step in ("score_max", "score_9", "score_7")] + [None]
    assert frame["fee"].astype(object).where(frame["fee"].notna(), None).tolist() == fees


def test_an_asset_no_longer_held_is_named_from_its_metadata_read_once(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    # She sent every LDT she held: her assets are APT alone...
    assert [r["symbol"] for r in grid_titled(explorer, "Assets").rows] == ["APT"]
    txns = _transactions(explorer)
    # ...and LDT is named from its metadata, read at the view's version.
    assert txns.rows[0]["change"].endswith(f"; -{units(GENESIS_LDT + LDT_IN, 6)} LDT")
    assert client.asked("account_resources")[-1] == (
        (scene.ldt,),
        {"ledger_version": scene.head, "limit": 25},
    )
    txns.page_size = 5
    txns.go(1)
    txns.go(0)
    assert [args for args, _ in client.asked("account_resources")].count((scene.ldt,)) == 1
    # APT is named from the overview's holdings: no read for it.
    assert {str(args[0]) for args, _ in client.asked("account_resources")} == {
        scene.alice,
        scene.ldt,
    }


def test_the_transactions_tab_says_it_lists_more_than_the_node_lists_as_sent(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert explorer.view is not None
    explorer.view.show("Transactions")
    assert explorer.view.tabs is not None
    note = explorer.view.tabs.children[4].children[0].children[0].value
    assert "Sent, received, paid for" in note
    assert "The node lists only those an account sent (5 here)" in note
    assert "transactions sent" not in note
    assert not any("transactions sent" in grid.title for grid in explorer.view.grids)


def test_the_scan_goes_back_in_windows_and_says_which_versions_it_read() -> None:
    asked: list[tuple[int, int]] = []
    touched = {4_990: {APT_KEY: "-5"}, 3_600: {APT_KEY: "7"}, 10: {LDT: "1000000"}}

    def fetch(first: int, last: int) -> pd.DataFrame:
        asked.append((first, last))
        versions = [v for v in sorted(touched) if first <= v <= last]
        return pd.DataFrame(
            {
                "version": pd.array(versions, dtype="UInt64"),
                "roles": pd.Series(["recipient"] * len(versions), dtype="category"),
                "changes": [
                    "{" + ",".join(f'"{k}":"{d}"' for k, d in touched[v].items()) + "}"
                    for v in versions
                ],
            }
        )

    def names(key: str) -> tuple[str, int | None]:
        return {APT_KEY: ("APT", 8), LDT: ("LDT", 6)}[key]

    scan = ActivityScan(fetch, names, 5_000, 0, budget=1_500)
    assert scan.describe() == "Transactions touching the account: versions up to 5,000"
    page = scan(0, 5, "")
    # 1,000 versions, then the rest of the page's budget of 1,500.
    assert asked == [(4_001, 5_000), (3_501, 4_000)]
    assert [(r["version"], r["change"]) for r in page.rows] == [
        (4_990, "-0.00000005 APT"),
        (3_600, "+0.00000007 APT"),
    ]
    assert (page.total, page.more) == (None, True)
    assert scan.describe() == (
        "2 transactions touched the account in versions 3,501 to 5,000 (older versions: next page)"
    )
    # The next page scans older versions: the window has doubled, the budget caps it.
    page = scan(1, 5, "")
    assert asked[2:] == [(2_001, 3_500)]
    assert (page.rows, page.more) == ([], True)
    page = scan(1, 5, "")
    assert asked[3:] == [(501, 2_000)]
    assert not scan.exhausted
    page = scan(1, 5, "")
    assert asked[4:] == [(0, 500)]
    assert scan.exhausted
    assert (page.rows, page.total) == ([], 3)
    page = scan(0, 5, "")
    assert [r["version"] for r in page.rows] == [4_990, 3_600, 10]
    assert page.rows[2]["change"] == "+1 LDT"
    assert page.total == 3
    assert scan.describe() == (
        "3 transactions touched the account (versions 0 to 5,000, all scanned)"
    )
    assert len(asked) == 5  # pages read again ask nothing


def test_the_scan_stops_at_the_oldest_version_the_node_holds() -> None:
    asked: list[tuple[int, int]] = []

    def fetch(first: int, last: int) -> pd.DataFrame:
        asked.append((first, last))
        return pd.DataFrame({"version": pd.array([], dtype="UInt64")})

    scan = ActivityScan(fetch, lambda key: (key, None), 1_200, 900)
    page = scan(0, 20, "")
    assert asked == [(900, 1_200)]
    assert (page.rows, page.total) == ([], 0)
    assert (
        scan.describe() == "0 transactions touched the account (versions 900 to 1,200, all scanned)"
    )


def test_an_account_opened_at_a_version_scans_up_to_that_version(
    client: ReadLog, scene: Scene
) -> None:
    at = scene.version("apt_in")
    explorer = AccountExplorer(client, scene.alice, ledger_version=at)
    txns = _transactions(explorer)
    assert [r["version"] for r in txns.rows] == [
        at,
        scene.version("ldt_in"),
        scene.version("score_max"),
        scene.version("score_9"),
        scene.version("score_7"),
        0,
    ]
    assert client.asked("account_activity")[0][1]["end_version"] == at


def test_a_received_transaction_opens_the_inspector(client: ReadLog, scene: Scene) -> None:
    explorer = AccountExplorer(client, scene.alice)
    txns = _transactions(explorer)
    txns._activate(3, "version")
    at = scene.version("apt_in")
    assert crumbs(explorer) == f"account {shortened(scene.alice)} {SEP} txn {at}"
    assert client.asked("transaction_by_version")[-1] == ((at,), {})


# -- the Assets tab and the resources ---------------------------------------------------------


def test_the_resources_are_read_once_for_every_tab(client: ReadLog, scene: Scene) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert explorer.view is not None
    for tab in ("Resources", "Events", "Transactions", "Modules", "Overview", "Resources"):
        explorer.view.show(tab)
    alice = [
        kw.get("start")
        for args, kw in client.asked("account_resources")
        if Address.parse(str(args[0])).long == scene.alice
    ]
    assert alice == [None]
    assert len(client.asked("account_assets")) == 1


def test_assets_show_grouped_base_units_and_the_type_by_its_name(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.bob)
    assets = grid_titled(explorer, "Assets")
    apt = scene.balances[scene.bob, APT_KEY]
    # BOB sent ALICE 2.5 LDT, then got back all she held and 1.5 from CAROL.
    ldt = scene.balances[scene.bob, scene.ldt]
    assert ldt == 2_000_001_500_000
    assert [(r["symbol"], r["amount"], r["base_units"], r["type"]) for r in assets.rows] == [
        ("APT", units(apt, 8), f"{apt:,}", "AptosCoin"),
        ("LDT", "2,000,001.5", "2,000,001,500,000", "fungible asset"),
    ]
    labels = {c["name"]: c["label"] for c in assets.columns}
    assert labels["base_units"] == "Balance (base units)"
    assert labels["type"] == "Type"
    assets.query = "aptos_coin"  # the full coin type is searched
    assert [r["symbol"] for r in assets.rows] == ["APT"]


# -- one short form for addresses -------------------------------------------------------------


def test_a_special_address_is_written_in_full_in_the_breadcrumb(
    client: ReadLog, scene: Scene
) -> None:
    # 0xa, APT's metadata object and a reserved account of the framework's genesis.
    explorer = AccountExplorer(client, "0x" + "00" * 31 + "0a")
    assert crumbs(explorer) == "account 0xa"
    assert repr(explorer) == "AccountExplorer(0xa)"
    assert explorer.view is not None
    overview = explorer.view.tabs.children[0].children[0].children[0].value  # type: ignore[union-attr]
    assert (
        "<th style='text-align:left;padding-right:1em;white-space:nowrap'>Address</th>"
        "<td><code>0xa</code></td>" in overview
    )
    # Its authentication key is a key, not an address: written whole (shortened on screen),
    # as genesis.move makes a reserved account's, its own address.
    assert "title='0x" + "00" * 31 + "0a'" in overview
    explorer.open_account(scene.alice)
    assert crumbs(explorer) == f"account 0xa {SEP} account {shortened(scene.alice)}"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("0x" + "00" * 31 + "01", "0x1"),
        ("0x" + "00" * 31 + "0a", "0xa"),
        ("0x1", "0x1"),
        ("0x" + "00" * 31 + "10", "0x0000…0010"),  # 0x10 is not special: shortened
        ("0x" + "12" * 31 + "cdef"[:2], "0x1212…12cd"),
        ("0x" + "ab" * 32, "0xabab…abab"),
        ("0x" + "4b9f" * 16, "0x4b9f…4b9f"),  # a hash
        ("short", "short"),
    ],
)
def test_the_short_form(text: str, shown: str) -> None:
    assert short(text) == shown


def test_the_short_form_of_address_values_and_types() -> None:
    assert short(Address.parse("0x1")) == "0x1"
    assert short(Address.parse("0x" + "a1" * 32)) == "0xa1a1…a1a1"
    assert short_type("0x1::aptos_coin::AptosCoin") == "AptosCoin"
    assert (
        short_type(
            "0x1::coin::CoinStore<0x" + "5e" * 32 + "::lp::LP<0x1::aptos_coin::AptosCoin, u64>>"
        )
        == "CoinStore<LP<AptosCoin, u64>>"
    )
    assert amount_text(U64_MAX, 6) == "18,446,744,073,709.551615"
    assert amount_text(-(2**128) + 1, 0, signed=True) == "-" + f"{2**128 - 1:,}"
    assert amount_text(100_000_000, 8, signed=True) == "+1"
    assert amount_text(5, None) == "5"


# -- the table explorer: look-ups that fail ------------------------------------------------


def _form(explorer: TableExplorer) -> Any:
    view = explorer.view
    assert view is not None
    form = view.children[0]
    key, look_up = form.children[2].children
    raw, raw_look_up = form.children[3].children
    return key, look_up, raw, raw_look_up


def _item(explorer: TableExplorer) -> LedgerGrid:
    view = explorer.view
    assert view is not None
    grid = view.children[1]
    assert isinstance(grid, LedgerGrid)
    return grid


def test_a_missing_key_says_no_item_and_clears_the_previous_item(
    client: ReadLog, scene: Scene
) -> None:
    explorer = TableExplorer(client, scene.scores)
    key, look_up, _, _ = _form(explorer)
    key.value = f'"{PLAYER}"'
    look_up.click()
    assert [r["value"] for r in _item(explorer).rows] == [str(U64_MAX)]
    key.value = '"0x' + "99" * 32 + '"'
    look_up.click()
    item = _item(explorer)
    assert item.rows == []
    assert item.title == "No item for 0x9999…9999"
    message = explorer._message.value
    assert "look-up: no item for this key (0x9999…9999)" in message
    assert "404" not in message
    assert "http" not in message.lower()
    assert "table_item_not_found" not in message


def test_a_missing_raw_key_says_no_item_and_clears_the_previous_item(
    client: ReadLog, scene: Scene
) -> None:
    explorer = TableExplorer(client, scene.scores)
    _, _, raw, raw_look_up = _form(explorer)
    raw.value = "0x" + "5a" * 32
    raw_look_up.click()
    assert [r["value"] for r in _item(explorer).rows] == [str(U64_MAX)]
    raw.value = "0x" + "77" * 32
    raw_look_up.click()
    assert _item(explorer).rows == []
    assert "raw look-up: no item for this key (0x7777…7777)" in explorer._message.value


def test_a_key_that_does_not_fit_or_a_node_that_fails_clears_the_item(
    client: ReadLog, scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    explorer = TableExplorer(client, scene.scores)
    key, look_up, _, _ = _form(explorer)
    key.value = f'"{PLAYER}"'
    look_up.click()
    assert len(_item(explorer).rows) == 1
    key.value = "42"
    look_up.click()
    assert _item(explorer).rows == []
    assert "the key does not fit address" in explorer._message.value
    key.value = f'"{PLAYER}"'
    look_up.click()
    assert len(_item(explorer).rows) == 1

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise TransportError("the node did not answer")

    monkeypatch.setattr(client, "table_item", unreachable)
    look_up.click()
    assert _item(explorer).rows == []
    assert _item(explorer).title == "Item"
    assert "look-up: the node did not answer" in explorer._message.value
