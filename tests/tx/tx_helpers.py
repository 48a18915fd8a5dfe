"""Helpers of the transaction toolkit's tests: the assets, a counting transport and a
balance read over plain HTTP."""

from __future__ import annotations

import hashlib
from typing import Final

import httpx

APT: Final = "0x1::aptos_coin::AptosCoin"
#: The demo token's metadata object, as the node documents it: SHA3-256(0x1 ‖ seed ‖ 0xFE).
LDT: Final = (
    "0x" + hashlib.sha3_256(bytes(31) + b"\x01" + b"ledgerkit::demo_token" + b"\xfe").hexdigest()
)


class Counting(httpx.HTTPTransport):
    """A real transport that keeps ``(method, path)`` of every request it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, str]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((request.method, request.url.path))
        return super().handle_request(request)

    def count(self, method: str, fragment: str = "") -> int:
        return sum(1 for m, path in self.sent if m == method and fragment in path)


def balance(http: httpx.Client, address: object, asset: str = APT) -> int:
    """The balance as the node's own balance endpoint says, read over plain HTTP."""
    answer = http.get(f"/accounts/{address}/balance/{asset}")
    assert answer.status_code == 200, answer.text
    return int(answer.json())
