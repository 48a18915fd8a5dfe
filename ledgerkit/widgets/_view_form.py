"""A form that calls a view function from the account explorer's Modules tab.

One input per type parameter and one per parameter (``signer`` ones left out), each
labelled with its Move type. What is typed is read by that type (integers and addresses
as written, ``true``/``false``, a ``String`` as its text, ``vector<u8>`` as ``0x`` hex,
anything else as JSON) and checked against the function's ABI before anything is sent
(:func:`ledgerkit.tx.encode_call`): a value that does not fit is said in the form,
naming the argument, and its input is marked. The call is the client's ``view`` at the
explorer's ledger version; its results are shown as trees of Move values
(:func:`~ledgerkit.widgets._value_tree.value_tree`, each node with its type), and a
refusal (a VM abort, decoded as the client's error says it) in the form.
"""

from __future__ import annotations

import html
import json
from typing import Any, Final

import ipywidgets

from ledgerkit._errors import ArgumentError, InputError, LedgerError
from ledgerkit.bcs import MoveValueCodec
from ledgerkit.models import MoveFunction
from ledgerkit.tx import encode_call, parameter_types, type_arguments_of
from ledgerkit.types import Address, MoveType, PrimitiveType, StructTag, VectorType
from ledgerkit.widgets._navigator import Navigator
from ledgerkit.widgets._value_tree import value_tree

__all__ = ["ViewForm", "read_argument"]

#: Longest error message shown in the form.
_MESSAGE_LIMIT: Final = 1_000
_TEXT_TYPES: Final = frozenset({"0x1::string::String"})
_INVALID: Final = "lk-invalid"


def read_argument(text: str, move_type: MoveType) -> Any:
    """What a form's input means for a parameter of ``move_type`` (checked later against
    the ABI): integers, addresses and ``vector<u8>`` hex as written, ``true``/``false``,
    a ``String`` as its text, an empty ``Option`` as ``None``, anything else as JSON.

    Raises
    ------
    InputError
        A value that should be JSON is not.
    """
    if str(move_type) in _TEXT_TYPES:
        return text
    text = text.strip()
    if isinstance(move_type, PrimitiveType):
        lowered = text.lower()
        if move_type.name == "bool" and lowered in ("true", "false"):
            return lowered == "true"
        return text
    if isinstance(move_type, VectorType) and str(move_type.element) == "u8" and text[:2] != "[":
        return text
    if isinstance(move_type, StructTag) and (move_type.module, move_type.name) == (
        "object",
        "Object",
    ):
        return text
    if isinstance(move_type, StructTag) and move_type.name == "Option" and not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        raise InputError(f"not JSON: {text[:80]!r} ({move_type} is written as JSON)") from None


def _tree_html(node: dict[str, Any]) -> str:
    name = html.escape(str(node["name"]))
    kind = f" <i class='lk-view-type'>{html.escape(node['type'])}</i>" if node["type"] else ""
    if node["children"]:
        inner = "".join(_tree_html(child) for child in node["children"])
        return f"<li><b>{name}</b>{kind}<ul>{inner}</ul></li>"
    value = html.escape(str(node["value"]))
    return f"<li><b>{name}</b>: <code>{value}</code>{kind}</li>"


def _lines(node: dict[str, Any], prefix: str = "") -> list[str]:
    path = f"{prefix}.{node['name']}" if prefix else str(node["name"])
    if node["children"]:
        return [line for child in node["children"] for line in _lines(child, path)]
    return [f"{path}: {node['value']} {node['type']}".rstrip()]


class ViewForm(ipywidgets.VBox):  # type: ignore[misc]
    """A view function's form: its inputs, a Call button, the message line and the
    results.

    Parameters
    ----------
    nav : Navigator
        The explorer: its client calls, its layouts type the results.
    module : str
        The module, ``address::name``.
    function : MoveFunction
        The view function, from the module's ABI.
    ledger_version : int, optional
        The version the call reads at (the explorer's).
    """

    def __init__(
        self,
        nav: Navigator,
        module: str,
        function: MoveFunction,
        *,
        ledger_version: int | None = None,
    ) -> None:
        self.nav = nav
        self.function = function
        self.function_id = f"{module}::{function.name}"
        self.ledger_version = ledger_version
        self.type_inputs = [
            self._input(f"T{i}", "a Move type, e.g. 0x1::aptos_coin::AptosCoin")
            for i in range(len(function.generic_type_params))
        ]
        shown = [p for p in function.params if p not in ("signer", "&signer")]
        self.inputs = [self._input(f"arg {i}: {p}", p) for i, p in enumerate(shown)]
        self.call_button = ipywidgets.Button(description="Call", button_style="primary")
        self.call_button.on_click(lambda _b: self.call())
        self.message = ipywidgets.HTML()
        self.result = ipywidgets.HTML()
        #: The results of the last call as Python values (empty before one succeeds).
        self.values: list[Any] = []
        #: Each result's leaves as text, ``path: value type`` (what :attr:`result` shows).
        self.result_lines: list[str] = []
        #: What the message line says (empty when the last call went through).
        self.error = ""
        title = ipywidgets.HTML(
            f"<b>Call</b> <code>{html.escape(self.function_id)}</code>"
            " <span class='lk-note'>(a view function: it reads, nothing is sent to the "
            "ledger)</span>"
        )
        super().__init__(
            [title, *self.type_inputs, *self.inputs, self.call_button, self.message, self.result]
        )
        self.add_class("lk-view-form")

    @staticmethod
    def _input(label: str, placeholder: str) -> ipywidgets.Text:
        return ipywidgets.Text(
            description=label,
            placeholder=placeholder,
            style={"description_width": "initial"},
            layout=ipywidgets.Layout(width="min(60em, 100%)"),
        )

    def _say(self, text: str) -> None:
        text = text if len(text) <= _MESSAGE_LIMIT else text[: _MESSAGE_LIMIT - 1] + "…"
        self.error = text
        self.message.value = (
            "<div class='lk-message' style='color:var(--jp-error-color1, #d32f2f);"
            f"white-space:pre-wrap'>{html.escape(text)}</div>"
            if text
            else ""
        )

    def _arguments(self) -> tuple[list[MoveType], list[Any]]:
        """The type arguments and arguments as typed, checked against the ABI.

        Raises
        ------
        ArgumentError
            One does not fit (its input is marked).
        """
        function, name = self.function, self.function_id
        texts = [box.value.strip() for box in self.type_inputs]
        type_args = type_arguments_of(name, function, texts)
        params = parameter_types(name, function, type_args)
        values = []
        for index, ((position, move_type), box) in enumerate(zip(params, self.inputs, strict=True)):
            try:
                values.append(read_argument(box.value, move_type))
            except InputError as exc:
                raise ArgumentError(
                    f"{name}: argument {index} (parameter {position}) expects {move_type}: {exc}",
                    function=name,
                    index=index,
                    position=position,
                    move_type=str(move_type),
                ) from None
        encode_call(name, type_args, params, values, MoveValueCodec(self.nav.layouts))
        return list(type_args), values

    def _mark(self, exc: ArgumentError | None) -> None:
        for box in [*self.type_inputs, *self.inputs]:
            box.remove_class(_INVALID)
        if exc is None:
            return
        boxes = self.inputs if exc.position is not None else self.type_inputs
        if exc.index is not None and 0 <= exc.index < len(boxes):
            boxes[exc.index].add_class(_INVALID)

    def call(self) -> None:
        """Check the inputs and call the function: its results, or why not, in the form."""
        self.values, self.result_lines = [], []
        self.result.value = ""
        try:
            type_args, values = self._arguments()
        except ArgumentError as exc:
            self._mark(exc)
            self._say(str(exc))
            return
        self._mark(None)
        view = getattr(self.nav.client, "view", None)
        if view is None:
            self._say("this client cannot call view functions (it has no view method)")
            return
        try:
            answer = view(
                self.function_id,
                values,
                type_arguments=[str(t) for t in type_args],
                ledger_version=self.ledger_version,
            )
        except LedgerError as exc:
            self._say(str(exc))
            return
        self._say("")
        self._show(type_args, list(answer.value))

    def _show(self, type_args: list[MoveType], values: list[Any]) -> None:
        returns = [MoveType.parse(t).substitute(tuple(type_args)) for t in self.function.return_]
        trees = [
            value_tree(
                Address.parse(str(value)).long if str(move_type) == "address" else value,
                move_type,
                self.nav.layouts,
                name=str(index),
            )
            for index, (value, move_type) in enumerate(zip(values, returns, strict=False))
        ]
        self.values = values
        self.result_lines = [line for tree in trees for line in _lines(tree)]
        items = "".join(_tree_html(tree) for tree in trees) or "<li>(no results)</li>"
        self.result.value = f"<ul class='lk-view-result'>{items}</ul>"
