"""``GET /info``: the keys and value types an aptos-core node answers with
(``api/src/basic.rs``, ``info``: a free-form object in the reference schema)."""

from __future__ import annotations

import httpx
from node_http_helpers import assert_headers, ok


def test_info_answers_the_keys_of_an_aptos_node(http: httpx.Client) -> None:
    response = http.get("/info")
    assert_headers(response)
    body = ok(response)
    # The four keys every aptos-core node sends (the peer ids come per network it joins).
    assert sorted(body) == [
        "bootstrapping_mode",
        "continuous_syncing_mode",
        "internal_indexer_config",
        "new_storage_format",
    ]
    # aptos-core's BootstrappingMode and ContinuousSyncingMode variant names.
    assert body["bootstrapping_mode"] in {
        "ApplyTransactionOutputsFromGenesis",
        "DownloadLatestStates",
        "ExecuteTransactionsFromGenesis",
        "ExecuteOrApplyFromGenesis",
    }
    assert body["continuous_syncing_mode"] in {
        "ApplyTransactionOutputs",
        "ExecuteTransactions",
        "ExecuteTransactionsOrApplyOutputs",
    }
    assert isinstance(body["new_storage_format"], bool)
    # InternalIndexerDBConfig's fields, in serde's JSON: booleans and plain numbers.
    indexer = body["internal_indexer_config"]
    assert list(indexer) == [
        "enable_transaction",
        "enable_event",
        "enable_event_v2_translation",
        "event_v2_translation_ignores_below_version",
        "enable_statekeys",
        "batch_size",
    ]
    assert all(isinstance(indexer[k], bool) for k in [*list(indexer)[:3], "enable_statekeys"])
    assert indexer["event_v2_translation_ignores_below_version"] == 0
    assert indexer["batch_size"] == 10_000  # aptos-core's default


def test_info_is_in_the_openapi_document_as_a_free_form_object(http: httpx.Client) -> None:
    document = ok(http.get("/spec.json"))
    operation = document["paths"]["/info"]["get"]
    assert operation["operationId"] == "info"
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema.get("type") == "object"
