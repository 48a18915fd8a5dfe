"""No notebook under ``notebooks/`` shows a secret.

Every output of every cell is read (stream text, ``text/plain``, ``text/html``, SVG, any
other data, error names, values and tracebacks with their colour codes removed), and the
widget state a notebook may keep in its metadata. Refused there:

- a private key in the AIP-80 form (``ed25519-priv-0x`` or ``secp256k1-priv-0x`` and hex
  digits; the bare prefix with a placeholder, as the docs write it, is no key);
- the private key of a dev account of the embedded node's default chain, in hex, with or
  without ``0x``, in any case;
- a JWT (``eyJ….eyJ….``: an ID token, or any signed token);
- an ``Authorization: Bearer`` header with a value (``Bearer <ID token>`` and ``Bearer …``
  are placeholders).

Code and Markdown are read too, for the first three: a key or a token written into a cell
is as public as one printed by it.

A finding names the notebook, the cell, the output and the kind of secret, never the secret
itself. The tests on made-up notebooks show that each kind, in each kind of output, fails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import jwt
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from ledgerkit import Ed25519PrivateKey, LocalNode, Secp256k1PrivateKey

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

AIP80 = "an AIP-80 private key"
DEV_KEY = "a dev account's private key"
JWT = "a JWT"
BEARER = "an Authorization: Bearer header"

_PATTERNS: Final = {
    AIP80: re.compile(r"(?:ed25519|secp256k1)-priv-0x[0-9a-f]", re.IGNORECASE),
    JWT: re.compile(r"eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\."),
    # The header as HTTP writes it, or as a mapping or a pair of strings shows it; then a
    # value that is not a placeholder (<…>, {…}, an ellipsis).
    BEARER: re.compile(
        r"authorization['\"]?\s*[:=,]\s*['\"]?bearer[ \t]+(?![<{…]|\.\.\.)\S", re.IGNORECASE
    ),
}
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _notebooks() -> list[Path]:
    return sorted(
        path for path in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts
    )


@pytest.fixture(scope="module")
def dev_keys() -> list[str]:
    """The dev accounts' private keys of the default chain, 64 hex digits each, read from a
    node of that seed (the keys come from the seed alone, not from the blocks)."""
    with LocalNode(services=False, blocks=1) as node:
        keys = [account.private_key.secret_hex() for account in node.dev_accounts]
    return [key.removeprefix("0x").lower() for key in keys]


def _text(value: Any) -> Iterator[str]:
    """Every string in an output, a list of strings joined as nbformat splits one text."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        yield "".join(value)
        yield "\n".join(value)  # a traceback: one frame a string
    elif isinstance(value, list):
        for item in value:
            yield from _text(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _text(item)


def _places(notebook: Mapping[str, Any]) -> Iterator[tuple[str, str, bool]]:
    """(where, text, is_output) for every text of a notebook that could show a secret."""
    for number, cell in enumerate(notebook.get("cells", [])):
        yield f"cell {number} ({cell.get('cell_type')} source)", "".join(cell["source"]), False
        for index, output in enumerate(cell.get("outputs", [])):
            where = f"cell {number}, output {index} ({output.get('output_type')})"
            for text in _text(output):
                yield where, _ANSI.sub("", text), True
    widgets = notebook.get("metadata", {}).get("widgets")
    if widgets:
        yield "metadata (widget state)", json.dumps(widgets), True


def secrets_in(notebook: Mapping[str, Any], dev_keys: Sequence[str]) -> list[str]:
    """Where the notebook shows a secret, and of which kind (never the secret)."""
    found: list[str] = []
    for where, text, is_output in _places(notebook):
        kinds = [kind for kind, pattern in _PATTERNS.items() if pattern.search(text)]
        lowered = text.lower()
        if any(key in lowered for key in dev_keys):
            kinds.append(DEV_KEY)
        if not is_output and BEARER in kinds:
            kinds.remove(BEARER)  # code builds the header; only a shown one is a leak
        found += [f"{where}: {kind}" for kind in kinds if f"{where}: {kind}" not in found]
    return found


def check_notebook(path: Path, dev_keys: Sequence[str]) -> None:
    """Raise AssertionError listing where ``path`` shows a secret."""
    with path.open(encoding="utf-8") as file:
        notebook = json.load(file)
    found = secrets_in(notebook, dev_keys)
    if found:
        raise AssertionError(f"{path.name} shows secrets:\n  " + "\n  ".join(found))


# -- the notebooks -----------------------------------------------------------------------


def test_the_notebooks_are_found() -> None:
    names = [path.name for path in _notebooks()]
    assert "01-quickstart.ipynb" in names


@pytest.mark.parametrize("path", _notebooks(), ids=lambda path: path.name)
def test_no_notebook_shows_a_secret(path: Path, dev_keys: list[str]) -> None:
    check_notebook(path, dev_keys)


def test_the_dev_keys_are_those_of_the_default_chain(dev_keys: list[str]) -> None:
    assert len(dev_keys) == 8
    assert all(re.fullmatch(r"[0-9a-f]{64}", key) for key in dev_keys)
    assert len(set(dev_keys)) == len(dev_keys)
    with LocalNode(services=False, blocks=0, seed=1) as other:
        assert dev_keys[0] not in other.dev_accounts[0].private_key.secret_hex()


# -- made-up notebooks -------------------------------------------------------------------


def _outputs(text: str) -> dict[str, Any]:
    """One output of each kind, each showing ``text``."""
    return {
        "stream": new_output("stream", name="stdout", text=f"first line\n{text}\n"),
        "text/plain": new_output(
            "execute_result", data={"text/plain": f"Result({text!r})"}, execution_count=1
        ),
        "text/html": new_output("display_data", data={"text/html": f"<td>{text}</td>"}),
        "svg": new_output(
            "display_data", data={"image/svg+xml": f"<svg><text>{text}</text></svg>"}
        ),
        "json": new_output("display_data", data={"application/json": {"value": text}}),
        "traceback": new_output(
            "error",
            ename="ValueError",
            evalue="bad input",
            traceback=[
                "\x1b[0;31m---------------------------------------------------------\x1b[0m",
                f"\x1b[0;31mValueError\x1b[0m: \x1b[1;32m{text}\x1b[0m",
            ],
        ),
        "error value": new_output("error", ename="ValueError", evalue=text, traceback=[]),
    }


def _notebook_showing(tmp_path: Path, output: Any) -> Path:
    cell = new_code_cell("print(result)", execution_count=1)
    cell.outputs = [new_output("stream", name="stdout", text="nothing to see\n"), output]
    notebook = new_notebook(cells=[new_markdown_cell("# A notebook"), cell])
    path = tmp_path / "made-up.ipynb"
    nbformat.write(notebook, path)
    return path


def _secrets(dev_keys: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Made-up secrets of every kind: label -> (text, kind)."""
    token = jwt.encode({"sub": "ada", "email": "ada@example.com"}, "k" * 32, algorithm="HS256")
    return {
        "ed25519 AIP-80": (Ed25519PrivateKey.generate().secret_aip80(), AIP80),
        "secp256k1 AIP-80": (Secp256k1PrivateKey.generate().secret_aip80(), AIP80),
        "dev key 0x": ("0x" + dev_keys[0], DEV_KEY),
        "dev key bare, upper case": (dev_keys[-1].upper(), DEV_KEY),
        "JWT": (token, JWT),
        "Authorization header": (f"Authorization: Bearer {token[:12]}", BEARER),
        "headers mapping": ("{'authorization': 'Bearer abc123'}", BEARER),
    }


_SECRET_LABELS = [
    "ed25519 AIP-80",
    "secp256k1 AIP-80",
    "dev key 0x",
    "dev key bare, upper case",
    "JWT",
    "Authorization header",
    "headers mapping",
]
_OUTPUT_KINDS = list(_outputs(""))


@pytest.mark.parametrize("output_kind", _OUTPUT_KINDS)
@pytest.mark.parametrize("label", _SECRET_LABELS)
def test_a_secret_in_any_output_fails(
    tmp_path: Path, dev_keys: list[str], label: str, output_kind: str
) -> None:
    secret, kind = _secrets(dev_keys)[label]
    path = _notebook_showing(tmp_path, _outputs(secret)[output_kind])

    with pytest.raises(AssertionError, match=r"cell 1, output 1 \(") as failure:
        check_notebook(path, dev_keys)
    message = str(failure.value)
    assert kind in message
    assert "made-up.ipynb" in message
    assert secret not in message
    assert secret.lower() not in message.lower()


def test_a_secret_split_by_colour_codes_fails(tmp_path: Path, dev_keys: list[str]) -> None:
    key = Ed25519PrivateKey.generate().secret_aip80()
    coloured = f"\x1b[0;32m{key[:14]}\x1b[0m\x1b[0;32m{key[14:]}\x1b[0m"
    output = new_output("error", ename="KeyError", evalue="", traceback=[coloured])
    with pytest.raises(AssertionError, match=AIP80):
        check_notebook(_notebook_showing(tmp_path, output), dev_keys)


def test_a_secret_in_widget_state_fails(tmp_path: Path, dev_keys: list[str]) -> None:
    path = _notebook_showing(tmp_path, new_output("stream", name="stdout", text="ok\n"))
    notebook = nbformat.read(path, as_version=4)
    token = jwt.encode({"sub": "ada"}, "k" * 32, algorithm="HS256")
    notebook.metadata["widgets"] = {
        "application/vnd.jupyter.widget-state+json": {"state": {"m": {"value": token}}}
    }
    nbformat.write(notebook, path)
    with pytest.raises(AssertionError, match=r"metadata \(widget state\): a JWT"):
        check_notebook(path, dev_keys)


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("KEY = 'ed25519-priv-0x{key}'", id="AIP-80 key in code"),
        pytest.param("TOKEN = '{token}'", id="JWT in code"),
        pytest.param("See `0x{dev}`.", id="dev key in Markdown"),
    ],
)
def test_a_secret_written_into_a_cell_fails(
    tmp_path: Path, dev_keys: list[str], source: str
) -> None:
    text = source.format(
        key="ab" * 32,
        token=jwt.encode({"sub": "ada"}, "k" * 32, algorithm="HS256"),
        dev=dev_keys[2],
    )
    notebook = new_notebook(cells=[new_code_cell(text), new_markdown_cell(text)])
    path = tmp_path / "made-up.ipynb"
    nbformat.write(notebook, path)
    with pytest.raises(AssertionError, match=r"cell 0 \(code source\)"):
        check_notebook(path, dev_keys)


@pytest.mark.parametrize("output_kind", _OUTPUT_KINDS)
def test_what_only_looks_like_a_secret_passes(
    tmp_path: Path, dev_keys: list[str], output_kind: str
) -> None:
    key = Ed25519PrivateKey.generate()
    harmless = "\n".join(
        [
            "keys are written ed25519-priv-0x… (AIP-80)",
            f"public key {key.public_key}, address {key.address()}",
            "hash 0x" + "5e" * 32,
            "sent as `Authorization: Bearer <ID token>` or Authorization: Bearer …",
            '{"id_token": "...", "token_type": "Bearer", "expires_in": 3600}',
            "header eyJhbGciOiJSUzI1NiJ9 alone",
        ]
    )
    check_notebook(_notebook_showing(tmp_path, _outputs(harmless)[output_kind]), dev_keys)


def test_code_that_builds_a_bearer_header_passes(tmp_path: Path, dev_keys: list[str]) -> None:
    notebook = new_notebook(cells=[new_code_cell('headers = {"Authorization": "Bearer " + token}')])
    path = tmp_path / "made-up.ipynb"
    nbformat.write(notebook, path)
    check_notebook(path, dev_keys)
