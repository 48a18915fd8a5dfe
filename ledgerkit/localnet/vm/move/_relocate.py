"""A module moved to another address, as the Move compiler places a package written with
a named address (``aptos move publish --named-addresses issuer=0x…``).

A compiled module names its own address once, in the address pool (the self module
handle's entry), and the source's ``@issuer`` literals are address constants of that
value; nothing else in the bytes depends on it (functions, structs and the Aptos metadata
name things by pool index or by name). So one set of bytes serves every publisher: read
it, swap the address there, write it back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ledgerkit.localnet.vm.move._format import BytecodeError, Constant
from ledgerkit.localnet.vm.move._reader import read_module
from ledgerkit.localnet.vm.move._writer import write_module

__all__ = ["relocate_module"]

_ADDRESS: Final = ("address",)


def relocate_module(code: bytes, address: bytes) -> bytes:
    """The module ``code`` placed at ``address`` (32 bytes): its own address in the address
    pool and every address constant equal to it become ``address``; the addresses of
    other modules it uses (the framework's) stay.

    :class:`BytecodeError` when ``code`` does not read as a module (``MALFORMED`` and the
    reader's other statuses), when ``address`` is not 32 bytes, or when the module already
    uses a module at ``address`` (two pool entries would be equal: ``DUPLICATE_ELEMENT``).
    """
    if len(address) != 32:
        raise BytecodeError("MALFORMED", f"an address is 32 bytes, not {len(address)}")
    module = read_module(code)
    own = module.address
    if address != own and address in module.address_identifiers:
        raise BytecodeError("DUPLICATE_ELEMENT", "the module already uses that address")
    pool = tuple(address if a == own else a for a in module.address_identifiers)
    constants = tuple(
        Constant(c.type_, address) if c.type_ == _ADDRESS and c.data == own else c
        for c in module.constant_pool
    )
    return write_module(replace(module, address_identifiers=pool, constant_pool=constants))
