"""The day chain's issuer modules, package data of the embedded node: the committed
bytes are what the test assembler builds (rebuilt here and compared byte for byte), and
the node places a module at an issuer's address as the compiler would have built it
there (``relocate_module`` against the assembler building at that address)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest
from assembler.build_examples import write_issuers
from assembler.examples import DAY_ISSUERS, fa_coin, fa_issuer, issuer_package

from ledgerkit.localnet.chain._issuers import ISSUERS
from ledgerkit.localnet.chain._issuers import issuer_package as node_package
from ledgerkit.localnet.vm.move import BytecodeError, read_module, relocate_module
from ledgerkit.types import Address

DATA: Final = Path(__file__).resolve().parents[2] / "ledgerkit" / "localnet" / "chain" / "data"
ISSUER: Final = Address.parse("0x5eed")


def test_the_committed_issuer_modules_are_what_the_assembler_builds(tmp_path: Path) -> None:
    written = write_issuers(tmp_path)
    assert sorted(p.name for p in DATA.iterdir()) == sorted(p.name for p in written)
    for path in written:
        assert (DATA / path.name).read_bytes() == path.read_bytes(), path.name


def test_the_node_knows_the_assemblers_issuers() -> None:
    assert [(a.module, a.symbol, a.decimals) for a in DAY_ISSUERS] == [
        ("ledger_usd", "LUSD", 6),
        ("tidepool_gems", "GEM", 0),
        ("orbit_points", "ORBIT", 2),
        ("quartz", "QRTZ", 8),
    ]
    assert [(i.module, i.name, i.symbol, i.decimals) for i in ISSUERS.values()] == [
        (a.module, a.name, a.symbol, a.decimals) for a in DAY_ISSUERS
    ]
    assert len({i.account for i in ISSUERS.values()}) == 4


@pytest.mark.parametrize("asset", DAY_ISSUERS, ids=lambda a: a.module)
def test_a_module_placed_at_an_issuer_is_the_one_built_there(asset: object) -> None:
    module = asset.module  # type: ignore[attr-defined]
    metadata, code = node_package(module, ISSUER)
    assert code == fa_issuer(asset, ISSUER.standard).to_bytes()  # type: ignore[arg-type]
    assert metadata == issuer_package(asset)[1]  # type: ignore[arg-type]
    placed = read_module(code)
    assert (placed.address, placed.name) == (bytes(ISSUER), module)


def test_relocating_changes_the_own_address_and_its_constants_only() -> None:
    code = fa_coin().to_bytes()
    moved = read_module(relocate_module(code, bytes(ISSUER)))
    framework = bytes(Address.from_int(1))
    assert sorted(moved.address_identifiers) == sorted([framework, bytes(ISSUER)])
    addresses = [c.data for c in moved.constant_pool if c.type_ == ("address",)]
    assert addresses == [bytes(ISSUER)]  # get_metadata's @issuer
    # Back where it was: the same bytes.
    assert (
        relocate_module(relocate_module(code, bytes(ISSUER)), bytes(Address.parse("0xcafe")))
        == code
    )


def test_relocating_refuses_what_it_cannot_place() -> None:
    code = fa_coin().to_bytes()
    with pytest.raises(BytecodeError, match="MALFORMED"):
        relocate_module(code, b"\x01" * 31)
    with pytest.raises(BytecodeError, match="DUPLICATE_ELEMENT"):
        relocate_module(code, bytes(Address.from_int(1)))  # it uses the framework there
    with pytest.raises(BytecodeError, match="BAD_MAGIC"):
        relocate_module(b"not a module", bytes(ISSUER))
