"""The inspector's Bytes tab, the account explorer's Events and Modules tabs, read as a
user reads them: a hex dump in fixed columns, event streams that open on a click with
typed fields and times, readable signatures, and a view function called from a form.

No test here starts a node or reaches the network (the recorded chain is replayed).
"""

from __future__ import annotations

import html
import re
from types import SimpleNamespace
from typing import Any

import pytest
from explorer_shown import crumbs, grid_titled, shortened, utc
from recorded_chain import (
    APT,
    ECHOED,
    NO_COIN,
    OBJECT_CORE,
    PLAYER,
    ReadLog,
    Scene,
    call_view,
    view_form,
)

from ledgerkit import LedgerMeta, Result
from ledgerkit.bcs import EntryFunction, RawTransaction
from ledgerkit.models import MoveFunction, MoveGenericTypeParam, MoveStruct, MoveStructField
from ledgerkit.tx import explain_transaction
from ledgerkit.types import Address, ModuleId, MoveType
from ledgerkit.widgets import AccountExplorer, TransactionInspector
from ledgerkit.widgets._account_events import _times
from ledgerkit.widgets._hex_dump import BYTES_PER_LINE, MAX_LINES, hex_dump_html, hex_dump_lines
from ledgerkit.widgets._navigator import Navigator
from ledgerkit.widgets._signatures import function_signature, struct_signature
from ledgerkit.widgets._view_form import read_argument

pytestmark = pytest.mark.usefixtures("no_node")

SEP = "\u203a"
U64_MAX = 2**64 - 1
META = LedgerMeta(
    chain_id=4,
    ledger_version=9_000,
    oldest_ledger_version=0,
    ledger_timestamp_usec=9_000 * 10**6,
    epoch=1,
    block_height=9,
    oldest_block_height=0,
)


# -- the Bytes tab: a hex dump ---------------------------------------------------------------


def _small_transaction() -> RawTransaction:
    """``0xa11ce`` calls ``0x1::m::f(0x2a)``: 106 bytes of BCS."""
    call = EntryFunction(ModuleId(Address.parse("0x1"), "m"), "f", (), (bytes([42]),))
    return RawTransaction(Address.parse("0xa11ce"), 7, call, 2000, 100, 1_700_000_000, 4)


def test_the_dump_of_a_small_transaction_has_fixed_columns_and_whole_names() -> None:
    lines = hex_dump_lines(explain_transaction(_small_transaction()))
    sender = "0x" + "0" * 59 + "a11ce"
    # Offset in hex and decimal, 16 bytes in groups of 4, then the fields starting there.
    assert [line.text for line in lines] == [
        f"000000       0  00 00 00 00  00 00 00 00  00 00 00 00  00 00 00 00  sender = {sender}",
        "000010      16  00 00 00 00  00 00 00 00  00 00 00 00  00 0a 11 ce",
        "000020      32  07 00 00 00  00 00 00 00  02 00 00 00  00 00 00 00  "
        "sequence_number = 7 · payload.(transaction payload variant) = entry_function · "
        "entry_function.module_address = 0x1",
        "000030      48  00 00 00 00  00 00 00 00  00 00 00 00  00 00 00 00",
        "000040      64  00 00 00 00  00 00 00 00  01 01 6d 01  66 00 01 01  "
        'entry_function.module_name = "m" · entry_function.function = "f" · '
        "entry_function.type_args = 0 item(s) · args.(length or tag) · args.arg[0] = 0x2a",
        "000050      80  2a d0 07 00  00 00 00 00  00 64 00 00  00 00 00 00  "
        "max_gas_amount = 2000 · gas_unit_price = 100",
        "000060      96  00 00 f1 53  65 00 00 00  00 04                     "
        "expiration_timestamp_secs = 1700000000 · chain_id = 4",
    ]
    assert [len(line.data) for line in lines] == [16, 16, 16, 16, 16, 16, 10]
    assert [line.offset for line in lines] == [0, 16, 32, 48, 64, 80, 96]


def test_a_large_transaction_is_dumped_up_to_its_last_line_shown() -> None:
    call = EntryFunction(ModuleId(Address.parse("0x1"), "m"), "f", (), (bytes(70_000),))
    raw = RawTransaction(Address.parse("0xa11ce"), 7, call, 2000, 100, 1_700_000_000, 4)
    shown = hex_dump_html(explain_transaction(raw))
    assert shown.count("<td class='lk-hex-bytes'>") == MAX_LINES == 4_096
    size = len(explain_transaction(raw).data)
    assert f"… {size - 65_536:,} more bytes: " in shown


def test_the_bytes_tab_shows_the_dump_monospace_scrolling_never_wrapping(
    client: ReadLog, scene: Scene
) -> None:
    version = scene.version("score_max")
    inspector = TransactionInspector(client, version)
    view = inspector.view
    assert view is not None
    assert view.tabs is not None
    view.show("Bytes")
    button, dump = view.tabs.children[6].children[0].children
    assert dump.value == ""
    button.click()
    shown = dump.value
    # A box that scrolls sideways, in the code font, its cells never wrapped.
    assert ".lk-hex-dump{overflow-x:auto" in shown
    assert "font-family:var(--jp-code-font-family" in shown
    assert "white-space:pre;word-break:keep-all" in shown
    rows = re.findall(r"<tr><td class='lk-hex-offset'>(\w+)</td>.*?</tr>", shown)
    assert rows[:4] == ["000000", "000010", "000020", "000030"]
    byte_counts = [
        len(re.findall(r">[0-9a-f]{2}</span>", row))
        for row in re.findall(r"<td class='lk-hex-bytes'>(.*?)</td>", shown)
    ]
    assert set(byte_counts[:-1]) == {BYTES_PER_LINE}
    assert 1 <= byte_counts[-1] <= BYTES_PER_LINE
    names = re.findall(r"<span class='lk-hex-name'>(.*?)</span>", shown)
    # Each field named whole, in one piece, in the order of its bytes.
    assert names[:4] == [
        "(TransactionData variant)",
        "OnChain.version",
        "transaction.(Transaction variant)",
        "raw_txn.sender",
    ]
    assert "args.arg[1]" in names
    text = html.unescape(re.sub(r"<[^>]+>", "", shown))
    assert f"OnChain.version = {version}" in text
    assert f"raw_txn.sender = {scene.alice}" in text
    assert f"args.arg[1] = u64 {U64_MAX}" in text
    # A byte's title is the whole path of its field.
    assert "title='TransactionData.OnChain.transaction.UserTransaction.raw_txn.sender'" in shown


# -- the Events tab ------------------------------------------------------------------------


def test_a_click_on_a_stream_opens_it_with_typed_fields_and_times_newest_first(
    client: ReadLog, scene: Scene
) -> None:
    explorer = AccountExplorer(client, scene.alice)
    assert explorer.view is not None
    assert explorer.view.tabs is not None
    explorer.view.show("Events")
    tab = explorer.view.tabs.children[3].children[0]
    assert tab.children[0].value == (
        "<div class='lk-note'>Click a stream (or select it and press Enter) to open its "
        "events, newest first.</div>"
    )
    streams = grid_titled(explorer, "Event streams")
    assert streams.opens_on_click  # a single click activates the row, rows look like links
    assert [r["opens"] for r in streams.rows] == ["events \u203a"] * 3
    # What the browser sends for one click on the third stream's row.
    streams._handle_custom_msg({"type": "select", "index": 2}, [])
    streams._handle_custom_msg({"type": "activate", "index": 2, "column": "stream"}, [])
    assert crumbs(explorer) == (
        f"account {shortened(scene.alice)} {SEP} ledger_demo::Board.score_events (3)"
    )
    events = grid_titled(explorer, "3 events")
    steps = ("score_max", "score_9", "score_7")
    assert [(r["sequence_number"], r["version"], r["time"]) for r in events.rows] == [
        (2 - i, scene.version(step), utc(int(scene.txns[step].timestamp)))
        for i, step in enumerate(steps)
    ]
    assert [r["type"] for r in events.rows] == ["0x1::ledger_demo::ScoreChanged"] * 3
    player = shortened(PLAYER)
    assert [r["fields"] for r in events.rows] == [
        f"player: {player} · old: 9 · new: {U64_MAX}",
        f"player: {player} · old: 7 · new: 9",
        f"player: {player} · old: 0 · new: 7",
    ]
    # The newest event's fields, typed by the module's ABI; its player opens an account.
    fields = grid_titled(explorer, "Event 2: 0x1::ledger_demo::ScoreChanged")
    assert [(r["path"], r["value"], r["type"], r["points_to"]) for r in fields.rows] == [
        ("player", PLAYER, "address", "account"),
        ("old", "9", "u64", ""),
        ("new", str(U64_MAX), "u64", ""),
    ]
    # One page of events, and one page of the transactions their versions span.
    first, last = scene.version("score_7"), scene.version("score_max")
    assert client.asked("events_by_creation_number") == [
        ((scene.alice, 2), {"start": 0, "limit": 3})
    ]
    assert client.asked("transactions") == [((), {"start": first, "limit": last - first + 1})]
    # A click on an event opens its transaction (as Enter does).
    events._handle_custom_msg({"type": "activate", "index": 0, "column": "version"}, [])
    assert explorer.view.title == f"txn {last}"


class _Versions:
    """Transactions whose timestamp is their version times a million, each read logged."""

    def __init__(self) -> None:
        self.reads: list[tuple[str, int, int]] = []

    def _txn(self, version: int) -> SimpleNamespace:
        return SimpleNamespace(version=str(version), timestamp=str(version * 10**6))

    def transactions(self, *, start: int, limit: int) -> Result[list[SimpleNamespace]]:
        self.reads.append(("transactions", start, limit))
        return Result([self._txn(v) for v in range(start, start + limit)], META)

    def transaction_by_version(self, version: int) -> Result[SimpleNamespace]:
        self.reads.append(("transaction_by_version", version, 1))
        return Result(self._txn(version), META)


def test_event_times_are_read_a_page_at_a_time_when_close_else_one_by_one() -> None:
    client = _Versions()
    nav = Navigator(client)
    assert _times(nav, [140, 120, 120, 41]) == {v: str(v * 10**6) for v in range(41, 141)}
    assert client.reads == [("transactions", 41, 100)]
    far = _times(nav, [5_000, 41, 9_000])
    assert (far[5_000], far[9_000]) == ("5000000000", "9000000000")
    assert client.reads[1:] == [
        ("transaction_by_version", 5_000, 1),
        ("transaction_by_version", 9_000, 1),
    ]


# -- the Modules tab -------------------------------------------------------------------------


def select_module(modules: Any, name: str) -> None:
    """Select module ``name`` in the Modules grid, paging on as a user would (``0x1``
    holds more modules than a page of 20)."""
    for page in range(10):  # bounded: a few pages of modules
        modules.go(page)
        names = [r["name"] for r in modules.rows]
        if name in names:
            modules.selected_index = names.index(name)
            return
        if not modules.more and (
            modules.total is None or (page + 1) * modules.page_size >= modules.total
        ):
            break
    pytest.fail(f"no module {name!r} in the Modules grid")


def test_functions_and_structs_read_as_their_declarations(client: ReadLog) -> None:
    explorer = AccountExplorer(client, "0x1")
    assert explorer.view is not None
    explorer.view.show("Modules")
    modules = grid_titled(explorer, "Modules")
    select_module(modules, "coin")
    listed = grid_titled(explorer, "Functions")
    listed.page_size = 100  # coin declares more functions than one page of 20 shows
    functions = {r["name"]: r["signature"] for r in listed.rows}
    assert functions["transfer"] == "public entry fun transfer<T0>(&signer, address, u64)"
    assert functions["balance"] == "#[view] public fun balance<T0>(address): u64"
    structs = {r["name"]: r["signature"] for r in grid_titled(explorer, "Structs").rows}
    assert structs["Coin"] == "struct Coin<T0> has store { value: u64 }"
    # The grid's frame: the ABI's columns as ledgerkit.frames gives them, and each signature.
    grid_titled(explorer, "Functions").selected_index = 0
    frame = explorer.to_frame()
    assert list(frame.columns) == [
        *("module", "name", "visibility", "is_entry", "is_view", "type_param_count"),
        *("type_param_abilities", "params", "returns", "signature"),
    ]
    balance = frame[frame["name"] == "balance"].iloc[0]
    assert (balance["module"], balance["params"], balance["returns"]) == (
        "0x" + "0" * 63 + "1::coin",
        '["address"]',
        '["u64"]',
    )
    assert balance["signature"] == "#[view] public fun balance<T0>(address): u64"
    select_module(modules, "ledger_demo")
    functions = {r["name"]: r["signature"] for r in grid_titled(explorer, "Functions").rows}
    assert functions["set_score"] == "public entry fun set_score(&signer, address, u64)"
    assert functions["score"] == "#[view] public fun score(address, address): u64"
    # Generic parameters with their constraints, as the node serves them.
    select_module(modules, "table")
    structs = {r["name"]: r["signature"] for r in grid_titled(explorer, "Structs").rows}
    assert structs["Table"] == "struct Table<T0: copy + drop, T1> has store { handle: address }"
    select_module(modules, "aggregator_v2")
    structs = {r["name"]: r["signature"] for r in grid_titled(explorer, "Structs").rows}
    assert structs["Aggregator"] == (
        "struct Aggregator<T0: drop> has drop, store { value: T0, max_value: T0 }"
    )


def test_generics_constraints_phantoms_friends_and_enums_are_written_out() -> None:
    def generic(*constraints: str, phantom: bool | None = None) -> MoveGenericTypeParam:
        return MoveGenericTypeParam(constraints=list(constraints), is_phantom=phantom)

    swap = MoveFunction(
        name="swap",
        visibility="friend",
        is_entry=False,
        generic_type_params=[generic("copy", "drop"), generic()],
        params=["&mut T0", "vector<T1>"],
        return_=["T0", "u8"],
    )
    assert function_signature(swap) == (
        "public(friend) fun swap<T0: copy + drop, T1>(&mut T0, vector<T1>): (T0, u8)"
    )
    private = MoveFunction(
        name="init", visibility="private", is_entry=True, generic_type_params=[], params=[],
        return_=[],
    )  # fmt: skip
    assert function_signature(private) == "entry fun init()"
    store = MoveStruct(
        name="CoinStore",
        is_native=False,
        is_event=True,
        abilities=["drop", "store"],
        generic_type_params=[generic(phantom=True), generic("key")],
        fields=[MoveStructField(name="frozen", type="bool")],
    )
    assert struct_signature(store) == (
        "#[event] struct CoinStore<phantom T0, T1: key> has drop, store { frozen: bool }"
    )


def test_a_view_function_is_called_from_its_form_and_shows_its_result_typed(
    client: ReadLog, scene: Scene
) -> None:
    form = view_form(AccountExplorer(client, "0x1"), "coin", "balance")
    assert form.function_id == "0x1::coin::balance"
    assert [box.description for box in form.type_inputs] == ["T0"]
    assert [box.description for box in form.inputs] == ["arg 0: address"]
    assert client.asked("view") == []
    call_view(form, [APT], [scene.alice])
    assert form.error == ""
    assert form.values == [scene.alice_coin_balance]
    assert form.result_lines == [f"0: {scene.alice_coin_balance} u64"]
    assert f"<code>{scene.alice_coin_balance}</code>" in form.result.value
    ((function, arguments), options) = client.asked("view")[0]
    assert (function, arguments) == ("0x1::coin::balance", [scene.alice])
    assert options == {"type_arguments": [APT], "ledger_version": scene.head}


@pytest.mark.parametrize(
    ("type_argument", "argument", "message", "marked"),
    [
        (
            APT,
            "0xzz",
            "0x1::coin::balance: argument 0 (parameter 0) expects address, got '0xzz': "
            "not a hex address: '0xzz' (bad character 'z')",
            "arg",
        ),
        (
            "0x1::aptos_coin::",
            "0x1",
            "0x1::coin::balance: type argument 0 is not a Move type: ",
            "type",
        ),
    ],
)
def test_a_bad_argument_is_said_in_the_form_and_nothing_is_sent(
    client: ReadLog, type_argument: str, argument: str, message: str, marked: str
) -> None:
    form = view_form(AccountExplorer(client, "0x1"), "coin", "balance")
    call_view(form, [type_argument], [argument])
    assert form.error.startswith(message)
    assert form.values == []
    assert form.result.value == ""
    box = form.inputs[0] if marked == "arg" else form.type_inputs[0]
    assert "lk-invalid" in box._dom_classes
    assert client.asked("view") == []


def test_what_is_typed_is_read_by_the_parameter_type() -> None:
    assert read_argument(" 12 ", MoveType.parse("u64")) == "12"
    assert read_argument("TRUE", MoveType.parse("bool")) is True
    assert read_argument("", MoveType.parse("0x1::option::Option<u64>")) is None
    assert read_argument("[1, 2]", MoveType.parse("vector<u64>")) == [1, 2]
    assert read_argument(" a b ", MoveType.parse("0x1::string::String")) == " a b "


def test_every_kind_of_value_goes_through_the_form_exactly_and_comes_back_typed(
    client: ReadLog,
) -> None:
    form = view_form(AccountExplorer(client, "0x1"), "ledger_demo", "echo")
    assert [box.description for box in form.inputs] == [
        f"arg {i}: {t}"
        for i, t in enumerate(
            [
                *("u8", "u16", "u32", "u64", "u128", "u256", "bool", "address", "vector<u8>"),
                "0x1::string::String",
                "0x1::option::Option<u64>",
                "vector<vector<u64>>",
                "0x1::object::Object<0x1::fungible_asset::Metadata>",
                "0x1::ledger_demo::Point",
                "T0",
            ]
        )
    ]
    call_view(form, ["u64"], ECHOED)
    assert form.error == ""
    assert form.result_lines == [
        "0: 255 u8",
        "1: 65535 u16",
        "2: 4294967295 u32",
        f"3: {U64_MAX} u64",
        "4: 340282366920938463463374607431768211455 u128",
        "5: 115792089237316195423570985008687907853269984665640564039457584007913129639935 u256",
        "6: true bool",
        "7: 0x" + "0" * 62 + "5a address",
        "8: 0xcafe vector<u8>",
        "9: h\u00e9llo, world 0x1::string::String",
        "10: null 0x1::option::Option<u64>",
        "11.[0].[0]: 1 u64",
        "11.[0].[1]: 2 u64",
        "11.[1]: [] vector<u64>",
        "12: 0xa 0x1::object::Object<0x1::fungible_asset::Metadata>",
        "13.x: 3 u64",
        "13.y: 4 u64",
        "14: 5 u64",
    ]
    assert form.values[5] == 2**256 - 1  # exact, never through a float


def test_the_balance_of_a_type_that_is_no_coin_is_zero(client: ReadLog, scene: Scene) -> None:
    # coin::balance adds the CoinStore's value (none) and the paired asset's (none): 0.
    form = view_form(AccountExplorer(client, "0x1"), "coin", "balance")
    call_view(form, [NO_COIN], [scene.alice])
    assert (form.error, form.values) == ("", [0])


def test_a_vm_abort_is_said_in_the_form_decoded(client: ReadLog, scene: Scene) -> None:
    # object::owner asserts an ObjectCore at the address: an account holds none.
    form = view_form(AccountExplorer(client, "0x1"), "object", "owner")
    call_view(form, [OBJECT_CORE], [scene.alice])
    assert (
        "Move abort in 0x1::object: EOBJECT_DOES_NOT_EXIST(0x60002): "
        "No object exists at that address"
    ) in form.error
    assert form.error.startswith("400 invalid_input: Failed to execute view function ")
    assert form.values == []
    assert form.result.value == ""
    assert len(client.asked("view")) == 1


def test_a_bad_u64_is_said_in_the_form_naming_the_argument(client: ReadLog) -> None:
    form = view_form(AccountExplorer(client, "0x1"), "ledger_demo", "echo")
    typed = list(ECHOED)
    typed[3] = "12.5"
    call_view(form, ["u64"], typed)
    assert form.error.startswith(
        "0x1::ledger_demo::echo: argument 3 (parameter 3) expects u64, got '12.5': "
    )
    assert "lk-invalid" in form.inputs[3]._dom_classes
    typed[3], typed[11] = "1", "[[1, 2]"
    call_view(form, ["u64"], typed)
    assert form.error == (
        "0x1::ledger_demo::echo: argument 11 (parameter 11) expects vector<vector<u64>>: "
        "not JSON: '[[1, 2]' (vector<vector<u64>> is written as JSON)"
    )
    assert "lk-invalid" not in form.inputs[3]._dom_classes
    assert "lk-invalid" in form.inputs[11]._dom_classes
    assert client.asked("view") == []
