"""``ledgerkit node`` as a local network starts: the node API on 8080 and an open faucet on
8081 by default (each a flag, 0 a free port), the URLs printed, a port in use named with
its flag, and the token-protected testnet faucet on request.

The node is started on free ports (``--port 0 --faucet-port 0``): the defaults are read
from the parsed command line, never bound.
"""

from __future__ import annotations

import re
import socket
import subprocess
import time
from collections.abc import Callable, Iterator

import httpx
import pytest
from test_node_cli import COMMAND, TIMEOUT, Child

from ledgerkit import Account
from ledgerkit._cli_node import faucet_options as _faucet_options
from ledgerkit.cli import _parser, main
from ledgerkit.localnet import FaucetSettings, LocalNode, PortInUseError

APT = "0x1::aptos_coin::AptosCoin"
ORIGIN = r"http://127\.0\.0\.1:\d+"


@pytest.fixture
def start() -> Iterator[Callable[..., Child]]:
    children: list[Child] = []

    def starter(*options: str) -> Child:
        children.append(Child(*options))
        return children[-1]

    yield starter
    for child in children:
        child.kill()


def line(text: str, pattern: str) -> str:
    """The first group of ``pattern`` matched on a whole line of ``text``."""
    found = re.search(pattern, text, re.MULTILINE)
    assert found, text
    return found[1]


def balance_after(node_url: str, txn_hash: str, address: str) -> int:
    committed = httpx.get(f"{node_url}/transactions/wait_by_hash/0x{txn_hash}", timeout=30)
    assert committed.json()["success"] is True
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:  # wait_by_hash is bounded by the node: ask again
        answer = httpx.get(f"{node_url}/accounts/{address}/balance/{APT}", timeout=10)
        if answer.status_code == 200:
            return int(answer.json())
        time.sleep(0.1)
    pytest.fail(f"{address} has no balance")


def test_the_defaults_are_a_local_networks_ports_and_its_open_faucet() -> None:
    args = _parser().parse_args(["node"])
    assert (args.port, args.faucet_port, args.indexer_port) == (8080, 8081, 8090)
    assert _faucet_options(args) == {"faucet_port": 8081, "faucet": FaucetSettings.local()}
    assert FaucetSettings.local().max_amount == 18_446_744_073_709_551_615  # no limit but a u64
    public = _parser().parse_args(["node", "--profile", "public", "--faucet-port", "0"])
    assert _faucet_options(public) == {"faucet_port": 0}  # the testnet faucet, as before
    limited = _parser().parse_args(["node", "--faucet-limit", "7"])
    assert _faucet_options(limited)["faucet"] == FaucetSettings.local(max_amount=7)


def test_the_command_prints_its_urls_and_its_faucet_funds_without_a_token(
    start: Callable[..., Child],
) -> None:
    text = start("--faucet-limit", "300000000000").read_until("Press Ctrl-C")
    node_url = line(text, rf"^ledgerkit local node: ({ORIGIN}/v1)$")
    faucet_url = line(text, rf"^  faucet +({ORIGIN})  \(open: POST /mint, POST /fund\)$")
    docs_url = line(text, rf"^  docs +({ORIGIN})$")
    indexer_url = line(text, rf"^  indexer +({ORIGIN}/v1/graphql)  \(GraphQL\)$")
    issuer = line(text, rf"^  issuer +({ORIGIN}/project)  \(project; sign in: POST .*\)$")
    origins = {
        node_url.removesuffix("/v1"),
        faucet_url,
        docs_url,
        indexer_url.removesuffix("/v1/graphql"),
    }
    assert len(origins) == 4
    assert httpx.get(f"{issuer}/.well-known/openid-configuration", timeout=10).status_code == 200
    assert httpx.get(faucet_url, timeout=10).text == "tap:ok"

    minted = Account.generate().address.long  # no account yet: the funding creates it
    assert httpx.get(f"{node_url}/accounts/{minted}", timeout=10).status_code == 404
    (mint_hash,) = httpx.post(
        f"{faucet_url}/mint", params={"amount": "100000000", "address": minted}, timeout=30
    ).json()
    assert balance_after(node_url, mint_hash, minted) == 100_000_000
    account = httpx.get(f"{node_url}/accounts/{minted}", timeout=10).json()
    assert account["sequence_number"] == "0"

    funded = Account.generate().address.long
    answer = httpx.post(
        f"{faucet_url}/fund", json={"address": funded, "amount": 300_000_000_000}, timeout=30
    )
    assert answer.status_code == 200, answer.text
    (fund_hash,) = answer.json()["txn_hashes"]
    assert balance_after(node_url, fund_hash, funded) == 300_000_000_000  # 3,000 APT
    over = httpx.post(f"{faucet_url}/fund", json={"address": funded, "amount": 300_000_000_001})
    assert over.status_code == 400
    assert over.json()["error_code"] == "InvalidRequest"


def test_the_protected_faucet_on_request_refuses_without_a_token(
    start: Callable[..., Child],
) -> None:
    text = start("--faucet", "protected").read_until("Press Ctrl-C")
    faucet_url = line(text, rf"^  faucet +({ORIGIN})  \(an ID token of an issuer below\)$")
    refused = httpx.post(f"{faucet_url}/fund", json={"address": "0x1", "amount": 5}, timeout=10)
    assert refused.status_code == 403
    assert refused.json()["error_code"] == "AuthTokenInvalid"
    mint = httpx.post(f"{faucet_url}/mint", params={"address": "0x1", "amount": "5"}, timeout=10)
    assert (mint.status_code, mint.json()["error_code"]) == (400, "EndpointNotEnabled")


@pytest.mark.parametrize(
    ("service", "flag"),
    [("node", "--port"), ("faucet", "--faucet-port"), ("indexer", "--indexer-port")],
)
def test_a_port_in_use_is_named_with_its_flag(service: str, flag: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ports = {"--port": "0", "--faucet-port": "0", "--indexer-port": "0", flag: str(port)}
        command = [*COMMAND[:4], *(x for pair in ports.items() for x in pair), "--blocks", "1"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 1
    assert done.stderr == (
        f"ledgerkit: PortInUseError: the {service} cannot listen on 127.0.0.1:{port}: the port "
        "is taken (Address already in use); free it, or ask for another port (0 picks a free "
        f"one) (set by {flag})\n"
    )
    assert done.stdout == ""


def test_a_port_in_use_is_a_typed_error_in_python() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        node = LocalNode(blocks=1, faucet_port=port)
        with pytest.raises(PortInUseError) as raised:
            node.start()
    assert (raised.value.service, raised.value.port, node.running) == ("faucet", port, False)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--port", "65536"], "argument --port: a port is 0 (a free one) to 65535, got 65536"),
        (["--faucet-port", "x"], "argument --faucet-port: not a port number: 'x'"),
        (["--faucet", "closed"], "argument --faucet: invalid choice: 'closed'"),
    ],
)
def test_bad_port_and_faucet_options_are_usage_errors(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["node", *argv])
    assert exited.value.code == 2
    assert said in capsys.readouterr().err


def test_a_limit_is_for_the_open_faucet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["node", "--faucet", "protected", "--faucet-limit", "5"]) == 1
    assert capsys.readouterr().err == (
        "ledgerkit: InputError: --faucet-limit: an option of the open faucet (--faucet open)\n"
    )
    assert main(["node", "--port", "0", "--faucet-port", "0", "--faucet-limit", "0"]) == 1
    assert capsys.readouterr().err.startswith(
        "ledgerkit: NodeConfigError: max_amount must be octas from 1 to 2^64 - 1 (a u64), got 0"
    )


def test_idle_interval_reaches_the_node_and_is_the_wall_clocks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import ledgerkit.localnet

    served: list[dict[str, object]] = []
    monkeypatch.setattr(ledgerkit.localnet, "serve", lambda **options: served.append(options))
    assert main(["node", "--idle-interval", "2.5"]) == 0
    assert main(["node"]) == 0
    assert served[0]["idle_interval"] == 2.5
    assert served[0]["clock"] == "wall"
    assert "idle_interval" not in served[1]  # NodeConfig's own 1 s
    assert main(["node", "--clock", "chain", "--idle-interval", "5"]) == 1
    assert capsys.readouterr().err == (
        "ledgerkit: InputError: --idle-interval: an option of the wall clock (--clock wall)\n"
    )
    assert len(served) == 2


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("0", "seconds from 0.001 to 86400, got 0"),
        ("-1", "seconds from 0.001 to 86400, got -1"),
        ("86401", "seconds from 0.001 to 86400, got 86401"),
        ("nan", "seconds from 0.001 to 86400, got nan"),
        ("inf", "seconds from 0.001 to 86400, got inf"),
        ("soon", "not a number of seconds: 'soon'"),
    ],
)
def test_an_idle_interval_out_of_bounds_is_a_usage_error(
    value: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["node", "--idle-interval", value])
    assert exited.value.code == 2
    assert f"argument --idle-interval: {said}" in capsys.readouterr().err
