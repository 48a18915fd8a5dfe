"""A cross-origin preflight the embedded node refuses still says it varies by ``Origin``.

Its answers depend on the requesting origin (granted ones echo it back), so every one of
them, a refusal included, carries ``Vary: Origin``: without it a shared cache could hand
one origin's answer to another. Asked over HTTP, as a browser asks.
"""

from __future__ import annotations

import httpx
import pytest

from ledgerkit.localnet import LocalNode

ORIGIN = "https://app.example"


def _vary(response: httpx.Response) -> set[str]:
    values = response.headers.get_list("Vary", split_commas=True)
    return {value.strip().lower() for value in values}


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize("path", ["/", "/transactions", "/accounts/0x1/resources"])
def test_a_refused_preflight_varies_by_origin(node: LocalNode, method: str, path: str) -> None:
    refused = httpx.options(
        node.url + path,
        headers={"Origin": ORIGIN, "Access-Control-Request-Method": method},
        timeout=30,
    )
    assert refused.status_code == 403
    assert refused.json()["error_code"] == "web_framework_error"
    assert "Access-Control-Allow-Origin" not in refused.headers
    assert "origin" in _vary(refused)


def test_a_granted_and_a_refused_preflight_both_vary_by_origin(node: LocalNode) -> None:
    answers = [
        httpx.options(
            node.url + "/transactions",
            headers={"Origin": ORIGIN, "Access-Control-Request-Method": method},
            timeout=30,
        )
        for method in ("GET", "PUT")
    ]
    assert [answer.status_code for answer in answers] == [200, 403]
    assert all("origin" in _vary(answer) for answer in answers)
