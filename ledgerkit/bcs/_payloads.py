"""Transaction payloads: entry functions, scripts, multisig and the versioned inner payload."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from ledgerkit._errors import BCSDecodeError, BCSEncodeError, InputError, MoveValueError
from ledgerkit.bcs._codec import BCSStruct, Deserializer, Serializer
from ledgerkit.bcs._enums import StructEnum
from ledgerkit.bcs._move_value_codec import MoveValueCodec
from ledgerkit.bcs._typetag import deserialize_type_tag, read_identifier, serialize_type_tag
from ledgerkit.types import Address, EntryFunctionId, ModuleId, MoveType, parse_uint

__all__ = [
    "EntryFunction",
    "Multisig",
    "Script",
    "ScriptArgument",
    "TransactionPayload",
    "TransactionPayloadV1",
    "deserialize_payload",
    "serialize_payload",
]

_DEFAULT_CODEC: Final = MoveValueCodec()


@functools.lru_cache(maxsize=1024)
def _call_prefix(module: ModuleId, function: str) -> bytes:
    """Module address, module name and function name: the same for every call of one function."""
    s = Serializer()
    s.address(module.address)
    s.string(module.name)
    s.string(function)
    return s.output()


_ARGUMENT_NAMES: Final = tuple(f"argument {i}" for i in range(16))


def _write_type_args(s: Serializer, type_args: tuple[MoveType, ...]) -> None:
    s.sequence(type_args, lambda t: serialize_type_tag(s, t))


def _read_type_args(d: Deserializer) -> tuple[MoveType, ...]:
    return tuple(d.field("type_args", d.sequence, lambda: deserialize_type_tag(d), "type_arg"))


@dataclass(frozen=True, slots=True)
class EntryFunction(BCSStruct):
    """A call of a public entry function, its arguments already BCS-encoded one by one.

    Build one from Move values with :meth:`build`.
    """

    module: ModuleId
    function: str
    type_args: tuple[MoveType, ...] = ()
    args: tuple[bytes, ...] = ()

    @classmethod
    def build(
        cls,
        function: str | EntryFunctionId,
        type_args: Iterable[str | MoveType] = (),
        args: Iterable[tuple[str | MoveType, Any]] = (),
        *,
        codec: MoveValueCodec | None = None,
    ) -> EntryFunction:
        """An entry function call from its id, type arguments and ``(type, value)`` pairs.

        Values are in the API's JSON form (or plain Python ints, bytes and addresses);
        ``codec`` supplies struct layouts for struct arguments.

        Examples
        --------
        >>> args = [("address", "0x2"), ("u64", 10)]
        >>> ef = EntryFunction.build("0x1::aptos_account::transfer", [], args)
        >>> str(ef.function_id), len(ef.args[0]), ef.args[1].hex()
        ('0x1::aptos_account::transfer', 32, '0a00000000000000')
        """
        fid = EntryFunctionId.parse(function)
        codec = codec or _DEFAULT_CODEC
        # All arguments go into one buffer; the cut points split it afterwards.
        s = Serializer()
        cuts = [0]
        for i, (move_type, value) in enumerate(args):
            codec.encoder(move_type)(s, value, _ARGUMENT_NAMES[i] if i < 16 else f"argument {i}")
            cuts.append(len(s))
        out = s.output()
        encoded = [out[a:b] for a, b in itertools.pairwise(cuts)]
        types = tuple(map(MoveType.parse, type_args)) if type_args else ()
        return cls(fid.module, fid.name, types, tuple(encoded))

    @property
    def function_id(self) -> EntryFunctionId:
        return EntryFunctionId(self.module, self.function)

    def serialize(self, s: Serializer) -> None:
        s.fixed_bytes(_call_prefix(self.module, self.function))
        _write_type_args(s, self.type_args)
        s.sequence(self.args, s.var_bytes)

    @classmethod
    def deserialize(cls, d: Deserializer) -> EntryFunction:
        address = d.field("module_address", d.address)
        module = d.field("module_name", read_identifier, d)
        function = d.field("function", read_identifier, d)
        type_args = _read_type_args(d)
        args = d.field("args", d.sequence, d.var_bytes, "arg")
        return cls(ModuleId(address, module), function, type_args, tuple(args))

    def decode_args(
        self, types: Sequence[str | MoveType], *, codec: MoveValueCodec | None = None
    ) -> list[Any]:
        """The arguments in JSON form, given their Move types (from the function's ABI)."""
        if len(types) != len(self.args):
            raise MoveValueError(f"{len(self.args)} arguments but {len(types)} types given")
        codec = codec or _DEFAULT_CODEC
        return [codec.decode(t, arg) for t, arg in zip(types, self.args, strict=True)]


@dataclass(frozen=True, slots=True)
class ScriptArgument(BCSStruct):
    """One argument of a script transaction: a tagged primitive value.

    ``kind`` is one of ``u8 u16 u32 u64 u128 u256 address u8_vector bool``, or
    ``serialized``: ``value`` is then the BCS of a value of the script parameter's type
    (any type a transaction argument may have: ``vector<address>``, ``String``,
    ``Option<u64>`` ...), read by the node by that type.
    """

    kind: str
    value: Any

    KINDS: ClassVar[tuple[str, ...]] = (
        "u8",
        "u64",
        "u128",
        "address",
        "u8_vector",
        "bool",
        "u16",
        "u32",
        "u256",
        "serialized",
    )
    #: The Move type each kind stands for, as a script's ABI names it.
    MOVE_TYPES: ClassVar[dict[str, str]] = {
        "u8": "u8",
        "u16": "u16",
        "u32": "u32",
        "u64": "u64",
        "u128": "u128",
        "u256": "u256",
        "bool": "bool",
        "address": "address",
        "u8_vector": "vector<u8>",
    }

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise BCSEncodeError(f"unknown script argument kind {self.kind!r}")
        try:
            if self.kind == "address":
                object.__setattr__(self, "value", Address.parse(self.value))
            elif self.kind in ("u8_vector", "serialized"):
                object.__setattr__(self, "value", bytes(self.value))
            elif self.kind != "bool":
                bits = int(self.kind[1:])
                object.__setattr__(self, "value", parse_uint(self.value, bits))
        except (InputError, TypeError) as exc:
            raise BCSEncodeError(f"bad {self.kind} script argument: {exc}") from None

    def serialize(self, s: Serializer) -> None:
        kind = self.kind
        s.u8(self.KINDS.index(kind))
        if kind == "address":
            s.address(self.value)
        elif kind in ("u8_vector", "serialized"):
            s.var_bytes(self.value)
        elif kind == "bool":
            s.boolean(self.value)
        else:
            getattr(s, kind)(self.value)

    @classmethod
    def deserialize(cls, d: Deserializer) -> ScriptArgument:
        start = d.position
        tag = d.u8()
        if tag >= len(cls.KINDS):
            raise BCSDecodeError(f"unknown script argument tag {tag}", offset=start)
        kind = cls.KINDS[tag]
        if kind == "address":
            return cls(kind, d.address())
        if kind in ("u8_vector", "serialized"):
            return cls(kind, d.var_bytes())
        if kind == "bool":
            return cls(kind, d.boolean())
        return cls(kind, getattr(d, kind)())


@dataclass(frozen=True, slots=True)
class Script(BCSStruct):
    """A script transaction: bytecode, type arguments and tagged arguments."""

    code: bytes
    type_args: tuple[MoveType, ...] = ()
    args: tuple[ScriptArgument, ...] = ()

    def serialize(self, s: Serializer) -> None:
        s.var_bytes(self.code)
        _write_type_args(s, self.type_args)
        s.sequence(self.args, s.struct)

    @classmethod
    def deserialize(cls, d: Deserializer) -> Script:
        code = d.field("code", d.var_bytes)
        type_args = _read_type_args(d)
        args = d.field("args", d.sequence, lambda: ScriptArgument.deserialize(d), "arg")
        return cls(code, type_args, tuple(args))


@dataclass(frozen=True, slots=True)
class Multisig(BCSStruct):
    """A transaction on behalf of a multisig account; the call may be stored on chain already."""

    multisig_address: Address
    payload: EntryFunction | None = None

    def serialize(self, s: Serializer) -> None:
        s.address(self.multisig_address)
        if self.payload is None:
            s.u8(0)
        else:
            s.u8(1)
            s.uleb128(0)  # MultisigTransactionPayload::EntryFunction
            self.payload.serialize(s)

    @classmethod
    def deserialize(cls, d: Deserializer) -> Multisig:
        address = d.field("multisig_address", d.address)

        def inner() -> EntryFunction:
            d.variant(("EntryFunction",), "multisig payload")
            return EntryFunction.deserialize(d)

        payload = d.field("payload", d.option, inner)
        return cls(address, payload)


@dataclass(frozen=True, slots=True)
class TransactionPayloadV1(BCSStruct):
    """The versioned payload: an executable plus extra config (multisig address, nonce).

    Orderless transactions use it with a ``replay_protection_nonce`` and the sequence
    number ``2^64 - 1``.
    """

    executable: Script | EntryFunction | None
    multisig_address: Address | None = None
    replay_protection_nonce: int | None = None

    def serialize(self, s: Serializer) -> None:
        s.uleb128(0)  # TransactionPayloadInner::V1
        if isinstance(self.executable, Script):
            s.uleb128(0)
            self.executable.serialize(s)
        elif isinstance(self.executable, EntryFunction):
            s.uleb128(1)
            self.executable.serialize(s)
        else:
            s.uleb128(2)  # Empty
        s.uleb128(0)  # TransactionExtraConfig::V1
        s.option(self.multisig_address, s.address)
        s.option(self.replay_protection_nonce, s.u64)

    @classmethod
    def deserialize(cls, d: Deserializer) -> TransactionPayloadV1:
        d.variant(("V1",), "inner payload")
        kind = d.variant(("Script", "EntryFunction", "Empty"), "executable")
        executable: Script | EntryFunction | None
        if kind == 0:
            executable = d.field("script", Script.deserialize, d)
        elif kind == 1:
            executable = d.field("entry_function", EntryFunction.deserialize, d)
        else:
            executable = None
        d.variant(("V1",), "extra config")
        multisig = d.field("multisig_address", d.option, d.address)
        nonce = d.field("replay_protection_nonce", d.option, d.u64)
        return cls(executable, multisig, nonce)


TransactionPayload = Script | EntryFunction | Multisig | TransactionPayloadV1

_PAYLOAD_ENUM: Final = StructEnum[TransactionPayload](
    ("script", "module_bundle", "entry_function", "multisig", "payload_v1"),
    {0: Script, 2: EntryFunction, 3: Multisig, 4: TransactionPayloadV1},
    what="transaction payload",
    noun="a transaction payload",
    unsupported="module bundle payloads are deprecated and not decoded",
)


def serialize_payload(s: Serializer, payload: TransactionPayload) -> None:
    """Write a payload with its TransactionPayload variant index."""
    _PAYLOAD_ENUM.serialize(s, payload)


def deserialize_payload(d: Deserializer) -> TransactionPayload:
    """Read a TransactionPayload (the deprecated module bundle is refused)."""
    return _PAYLOAD_ENUM.deserialize(d)
