"""``ModuleBuilder`` and ``ScriptBuilder``: a module or script described at the level of
its Move source (names, type text, instructions by name), built into the binary format's
data model with every table interned in the order the Move compiler fills them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ledgerkit.localnet.vm.move._format import (
    CodeUnit,
    CompiledModule,
    CompiledScript,
    FieldDefinition,
    FunctionDefinition,
    Metadata,
    StructDefinition,
)
from ledgerkit.types import Address

from . import _framework
from ._code import CodeAssembler, CodeItem, NamedConstant
from ._declarations import (
    FunctionDecl,
    QualifiedName,
    StructDecl,
    TypeParam,
    parse_function_decl,
    parse_struct_decl,
)
from ._declarations import abilities as parse_abilities
from ._declarations import type_params as parse_type_params
from ._metadata import METADATA_V1_KEY, ErrorCode, runtime_metadata_v1
from ._pools import LocalStruct, Pools
from ._types import AssemblyError, TypeText, parse_type

#: The bytecode version written unless asked otherwise (aptos-core's VERSION_DEFAULT).
DEFAULT_VERSION = 8
VISIBILITIES = {"private": 0x0, "public": 0x1, "friend": 0x3}


@dataclass(frozen=True, slots=True)
class _Struct:
    name: str
    abilities: int
    type_params: tuple[TypeParam, ...]
    fields: tuple[tuple[str, TypeText], ...] | None
    event: bool


@dataclass(frozen=True, slots=True)
class _Function:
    decl: FunctionDecl
    visibility: int
    entry: bool
    locals: tuple[TypeText, ...]
    local_names: dict[str, int]
    acquires: tuple[str, ...]
    code: tuple[CodeItem, ...] | None
    view: bool


class _Declarations:
    """Structs and functions of other modules a unit may name: the framework's, and
    whatever the author declares."""

    def __init__(self) -> None:
        self.structs: dict[QualifiedName, StructDecl] = {}
        self.functions: dict[QualifiedName, FunctionDecl] = {}
        for text in _framework.STRUCTS:
            self.declare_struct(text)
        for text in _framework.FUNCTIONS:
            self.declare_function(text)

    def declare_struct(self, text: str) -> None:
        decl = parse_struct_decl(text)
        self.structs[decl.name] = decl

    def declare_function(self, text: str) -> None:
        decl = parse_function_decl(text)
        self.functions[decl.name] = decl


def _types(texts: Iterable[str]) -> tuple[TypeText, ...]:
    return tuple(parse_type(_split_name(t)[1]) for t in texts)


def _split_name(text: str) -> tuple[str | None, str]:
    """``"account: &signer"`` as (``"account"``, ``"&signer"``); a bare type has no name.
    (Type text holds ``::`` but never a lone ``:``.)"""
    head, sep, rest = text.partition(":")
    if sep and not rest.startswith(":") and head.strip().isidentifier():
        return head.strip(), rest.strip()
    return None, text


def _local_names(texts: Iterable[str]) -> dict[str, int]:
    names: dict[str, int] = {}
    for index, text in enumerate(texts):
        name = _split_name(text)[0]
        if name is not None:
            if name in names:
                raise AssemblyError(f"two locals named {name!r}")
            names[name] = index
    return names


class ModuleBuilder:
    """A Move module, declared member by member, built into a ``CompiledModule``.

    Examples
    --------
    >>> m = ModuleBuilder("0xcafe", "hello")
    >>> m.function("answer", visibility="public", returns=["u64"],
    ...            code=[("LdU64", 42), "Ret"])  # doctest: +ELLIPSIS
    <...ModuleBuilder...>
    >>> m.build().name
    'hello'
    """

    def __init__(self, address: str, name: str, *, version: int = DEFAULT_VERSION) -> None:
        self.address = bytes(Address.parse(address))
        self.name = name
        self.version = version
        self._declarations = _Declarations()
        self._structs: list[_Struct] = []
        self._functions: list[_Function] = []
        self._constants: dict[str, NamedConstant] = {}
        self._errors: list[ErrorCode] = []
        self._friends: list[QualifiedName] = []

    # -- declarations -----------------------------------------------------------------

    def declare_struct(self, text: str) -> ModuleBuilder:
        """Make a struct of another module nameable: ``"0x1::m::S<phantom T> has store"``."""
        self._declarations.declare_struct(text)
        return self

    def declare_function(self, text: str) -> ModuleBuilder:
        """Make a function of another module callable: ``"0x1::m::f<T>(&signer, T): u64"``."""
        self._declarations.declare_function(text)
        return self

    def struct(
        self,
        name: str,
        abilities: str | Iterable[str] = (),
        fields: Sequence[tuple[str, str]] | None = (),
        *,
        type_params: Sequence[str] = (),
        event: bool = False,
    ) -> ModuleBuilder:
        """``struct name<type_params> has abilities { fields }``; ``fields=None`` declares
        a native struct; ``event=True`` marks it ``#[event]`` in the metadata."""
        if any(s.name == name for s in self._structs):
            raise AssemblyError(f"struct {name} defined twice")
        if fields is not None and len(fields) > 255:
            raise AssemblyError(f"struct {name} has more than 255 fields")
        field_types = None if fields is None else tuple((f, parse_type(t)) for f, t in fields)
        if field_types is not None and len({f for f, _ in field_types}) != len(field_types):
            raise AssemblyError(f"struct {name} names a field twice")
        self._structs.append(
            _Struct(
                name, parse_abilities(abilities), parse_type_params(type_params), field_types, event
            )
        )
        return self

    def function(
        self,
        name: str,
        *,
        visibility: str = "private",
        entry: bool = False,
        view: bool = False,
        params: Sequence[str] = (),
        returns: Sequence[str] = (),
        locals: Sequence[str] = (),
        type_params: Sequence[str] = (),
        acquires: Sequence[str] = (),
        code: Sequence[CodeItem] | None = (),
    ) -> ModuleBuilder:
        """A function: ``locals`` are the locals after the parameters (local ``i`` for
        ``i < len(params)`` is parameter ``i``), each a type or ``"name: type"`` (then
        the code may name it); ``code=None`` declares a native one;
        ``view=True`` marks it ``#[view]`` in the metadata."""
        if visibility not in VISIBILITIES:
            raise AssemblyError(f"unknown visibility {visibility!r}")
        if any(f.decl.name.name == name for f in self._functions):
            raise AssemblyError(f"function {name} defined twice")
        if len(acquires) > 255:
            raise AssemblyError(f"function {name} acquires more than 255 structs")
        if len(params) + len(locals) > 256:
            raise AssemblyError(f"function {name} has more than 256 locals")
        qname = QualifiedName(self.address, self.name, name)
        decl = FunctionDecl(qname, parse_type_params(type_params), _types(params), _types(returns))
        body = None if code is None else tuple(code)
        self._functions.append(
            _Function(
                decl,
                VISIBILITIES[visibility],
                entry,
                _types(locals),
                _local_names([*params, *locals]),
                tuple(acquires),
                body,
                view,
            )
        )
        return self

    def constant(self, name: str, type_text: str, value: object) -> ModuleBuilder:
        """A named constant for ``("LdConst", name)``."""
        self._constants[name] = NamedConstant(parse_type(type_text), value)
        return self

    def error(self, name: str, code: int, description: str) -> ModuleBuilder:
        """An abort code of the module's error map (a ``const E_...: u64`` with its doc)."""
        self._errors.append(ErrorCode(code, name, description))
        return self

    def friend(self, module: str) -> ModuleBuilder:
        """``friend address::module``."""
        parsed = parse_type(module + "::_")
        if parsed.address is None or parsed.module is None:
            raise AssemblyError(f"a friend is address::module, not {module!r}")
        self._friends.append(QualifiedName(parsed.address, parsed.module, ""))
        return self

    # -- building ---------------------------------------------------------------------

    def build(self) -> CompiledModule:
        """The compiled module, tables interned in the compiler's order."""
        local_structs = {
            s.name: LocalStruct(i, self._struct_decl(s), s.fields)
            for i, s in enumerate(self._structs)
        }
        local_functions = {f.decl.name.name: f.decl for f in self._functions}
        pools = Pools(
            (self.address, self.name),
            local_structs,
            self._declarations.structs,
            {**self._declarations.functions, **{f.decl.name: f.decl for f in self._functions}},
        )
        self_handle = pools.module_handle(self.address, self.name)
        struct_defs = tuple(self._struct_def(pools, local_structs[s.name]) for s in self._structs)
        assembler = CodeAssembler(pools, local_functions, self._constants)
        function_defs = tuple(
            self._function_def(pools, assembler, local_structs, f) for f in self._functions
        )
        friends = tuple(
            pools.module_handles.items[pools.module_handle(f.address, f.module)]
            for f in self._friends
        )
        return CompiledModule(
            version=self.version,
            self_handle=self_handle,
            module_handles=tuple(pools.module_handles.items),
            struct_handles=tuple(pools.struct_handles.items),
            function_handles=tuple(pools.function_handles.items),
            field_handles=tuple(pools.field_handles.items),
            friend_decls=friends,
            struct_def_instantiations=tuple(pools.struct_def_instantiations.items),
            function_instantiations=tuple(pools.function_instantiations.items),
            field_instantiations=tuple(pools.field_instantiations.items),
            signatures=tuple(pools.signatures.items),
            identifiers=tuple(pools.identifiers.items),
            address_identifiers=tuple(pools.addresses.items),
            constant_pool=tuple(pools.constants.items),
            metadata=self._metadata(),
            struct_defs=struct_defs,
            function_defs=function_defs,
            struct_variant_handles=(),
            struct_variant_instantiations=(),
            variant_field_handles=(),
            variant_field_instantiations=(),
        )

    def to_bytes(self) -> bytes:
        """The module's bytecode, as the model's writer serializes it."""
        from ledgerkit.localnet.vm.move._writer import write_module

        return write_module(self.build())

    def _struct_decl(self, struct: _Struct) -> StructDecl:
        name = QualifiedName(self.address, self.name, struct.name)
        return StructDecl(name, struct.abilities, struct.type_params)

    def _struct_def(self, pools: Pools, local: LocalStruct) -> StructDefinition:
        handle = pools.struct_handle(local.decl.name, local.decl)
        if local.fields is None:
            return StructDefinition(handle, None, None)
        fields = tuple(
            FieldDefinition(pools.identifier(name), pools.token(type_, local.decl.type_params))
            for name, type_ in local.fields
        )
        return StructDefinition(handle, fields, None)

    def _function_def(
        self,
        pools: Pools,
        assembler: CodeAssembler,
        local_structs: dict[str, LocalStruct],
        function: _Function,
    ) -> FunctionDefinition:
        handle = pools.function_handle(function.decl)
        scope = function.decl.type_params
        code = None
        if function.code is not None:
            instructions = assembler.assemble(function.code, scope, function.local_names)
            locals_sig = pools.types_signature(function.locals, scope)
            code = CodeUnit(locals_sig, instructions)
        acquires = []
        for name in function.acquires:
            if name not in local_structs:
                raise AssemblyError(f"{function.decl.name.name} acquires unknown {name!r}")
            acquires.append(local_structs[name].index)
        return FunctionDefinition(
            handle, function.visibility, function.entry, tuple(acquires), code
        )

    def _metadata(self) -> tuple[Metadata, ...]:
        events = [s.name for s in self._structs if s.event]
        views = [f.decl.name.name for f in self._functions if f.view]
        if not (self._errors or events or views):
            return ()
        return (Metadata(METADATA_V1_KEY, runtime_metadata_v1(self._errors, events, views)),)


class ScriptBuilder:
    """A Move script: one ``main`` with its type parameters, parameters, locals and code.

    Its code names functions by ``address::module::name`` (there is no module of its own).
    """

    def __init__(
        self,
        *,
        params: Sequence[str] = (),
        locals: Sequence[str] = (),
        type_params: Sequence[str] = (),
        code: Sequence[CodeItem] = (),
        version: int = DEFAULT_VERSION,
    ) -> None:
        self.version = version
        self._declarations = _Declarations()
        self._params = _types(params)
        self._locals = _types(locals)
        self._local_names = _local_names([*params, *locals])
        self._type_params = parse_type_params(type_params)
        self._code = tuple(code)
        self._constants: dict[str, NamedConstant] = {}

    def declare_struct(self, text: str) -> ScriptBuilder:
        self._declarations.declare_struct(text)
        return self

    def declare_function(self, text: str) -> ScriptBuilder:
        self._declarations.declare_function(text)
        return self

    def constant(self, name: str, type_text: str, value: object) -> ScriptBuilder:
        self._constants[name] = NamedConstant(parse_type(type_text), value)
        return self

    def build(self) -> CompiledScript:
        """The compiled script: the parameters' signature first, then what the code names,
        then the locals' signature."""
        pools = Pools(None, {}, self._declarations.structs, self._declarations.functions)
        parameters = pools.types_signature(self._params, self._type_params)
        assembler = CodeAssembler(pools, {}, self._constants)
        instructions = assembler.assemble(self._code, self._type_params, self._local_names)
        locals_sig = pools.types_signature(self._locals, self._type_params)
        return CompiledScript(
            version=self.version,
            module_handles=tuple(pools.module_handles.items),
            struct_handles=tuple(pools.struct_handles.items),
            function_handles=tuple(pools.function_handles.items),
            function_instantiations=tuple(pools.function_instantiations.items),
            signatures=tuple(pools.signatures.items),
            identifiers=tuple(pools.identifiers.items),
            address_identifiers=tuple(pools.addresses.items),
            constant_pool=tuple(pools.constants.items),
            metadata=(),
            code=CodeUnit(locals_sig, instructions),
            type_parameters=tuple(p.constraints for p in self._type_params),
            parameters=parameters,
            access_specifiers=None,
        )

    def to_bytes(self) -> bytes:
        """The script's bytecode, as the model's writer serializes it."""
        from ledgerkit.localnet.vm.move._writer import write_script

        return write_script(self.build())
