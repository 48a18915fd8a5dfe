"""How the client reads what the node answered: a 2xx answer becomes a :class:`Result`
or a :class:`~ledgerkit.DecodingError`; any other answer, and any failure of the HTTP
stack, becomes the right class of the one error tree. No I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, TypeVar

import httpx

from ledgerkit._errors import (
    DecodingError,
    InputError,
    LedgerError,
    NodeAPIError,
    RequestTimeoutError,
    TransportError,
    error_from_record,
)
from ledgerkit.client._secrets import redact
from ledgerkit.types import LedgerMeta, Result

if TYPE_CHECKING:
    from ledgerkit.client._base import Call

__all__ = ["node_error", "parse_answer", "snippet", "transport_error"]

_SNIPPET: Final = 200

T = TypeVar("T")


def snippet(body: bytes) -> str:
    """The start of a body, as text, for messages."""
    return body[:_SNIPPET].decode("utf-8", "replace")


def parse_answer(
    call: Call[T], label: str, status: int, headers: Mapping[str, str], body: bytes
) -> Result[T]:
    """A 2xx answer to ``call`` (written ``label`` in messages) as a :class:`Result`; a
    body that is not what was promised is a :class:`DecodingError` saying what came back."""
    ledger = LedgerMeta.from_headers(headers)
    if ledger is None:
        raise DecodingError(
            f"{label}: the answer carries no ledger headers (X-NODE-* or X-APTOS-*)",
            status=status,
            snippet=snippet(body),
        )
    media = (headers.get("content-type") or "").split(";", 1)[0].strip().lower()
    if media and media != call.accept:
        raise DecodingError(
            f"{label}: expected {call.accept}, the node answered {media}",
            status=status,
            snippet=snippet(body),
        )
    try:
        value = call.decode(body)
    except DecodingError as exc:
        raise DecodingError(f"{label}: {exc}", status=status) from exc
    except RecursionError:
        # Nested past the interpreter's limit: hostile or broken, never a ledger value.
        raise DecodingError(
            f"{label}: the answer is nested too deeply to decode",
            status=status,
            snippet=snippet(body),
        ) from None
    except (ValueError, TypeError, KeyError, IndexError, LedgerError) as exc:
        raise DecodingError(
            f"{label}: the answer does not decode: {exc}", status=status, snippet=snippet(body)
        ) from exc
    return Result(value, ledger)


def node_error(
    label: str,
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    secrets: Mapping[str, str],
) -> NodeAPIError:
    """The exception for a non-2xx answer to the request ``label``, from the node's error
    record, with the client's ``secrets`` redacted from it."""
    record: object
    try:
        record = json.loads(body)
    except (ValueError, RecursionError):
        text = snippet(body).strip()
        record = {"message": f"HTTP {status} without an error record: {text!r}"}
    if secrets and isinstance(record, dict):
        # A node (or a proxy before it) may echo the path it was asked, token and all.
        record = {k: redact(v, secrets) if isinstance(v, str) else v
                  for k, v in record.items()}  # fmt: skip
    return error_from_record(status, record, ledger=LedgerMeta.from_headers(headers), request=label)


def transport_error(label: str, exc: httpx.HTTPError, secrets: Mapping[str, str]) -> LedgerError:
    """Our exception for an httpx failure of the request ``label`` (no raw httpx
    exception leaves the client).

    A request the HTTP stack refuses to send (an unsendable header, say) is an
    :class:`InputError`, which is never retried; its detail may quote what was
    refused, so it is left out.
    """
    if isinstance(exc, httpx.LocalProtocolError | httpx.UnsupportedProtocol):
        return InputError(f"{label}: the request cannot be sent ({type(exc).__name__})")
    detail = redact(str(exc) or type(exc).__name__, secrets)
    if isinstance(exc, httpx.TimeoutException):
        return RequestTimeoutError(f"{label}: timed out ({type(exc).__name__}: {detail})")
    if isinstance(exc, httpx.DecodingError):
        return DecodingError(f"{label}: the body could not be decoded: {detail}")
    return TransportError(f"{label}: {type(exc).__name__}: {detail}")
