# ruff: noqa: E501  (the SDK's queries are kept as it sends them, long lines and all)
"""Helpers of the indexer's tests: GraphQL requests, and waiting for the processors as
the SDKs wait (``processor_status`` polled until it reaches a version)."""

from __future__ import annotations

import time
from typing import Any

import httpx

#: The TypeScript SDK's queries (aptos-ts-sdk, src/internal/queries), as it sends them.
GET_PROCESSOR_STATUS = """query getProcessorStatus($where_condition: processor_status_bool_exp) {
  processor_status(where: $where_condition) {
    last_success_version
    processor
    last_updated
  }
}"""
GET_ACCOUNT_COINS_DATA = """query getAccountCoinsData(
  $where_condition: current_fungible_asset_balances_bool_exp!
  $offset: Int
  $limit: Int
  $order_by: [current_fungible_asset_balances_order_by!]
) {
  current_fungible_asset_balances(where: $where_condition, offset: $offset, limit: $limit, order_by: $order_by) {
    amount
    asset_type
    is_frozen
    is_primary
    last_transaction_timestamp
    last_transaction_version
    owner_address
    storage_id
    token_standard
    metadata {
      token_standard
      symbol
      supply_aggregator_table_key_v1
      supply_aggregator_table_handle_v1
      project_uri
      name
      last_transaction_version
      last_transaction_timestamp
      icon_uri
      decimals
      creator_address
      asset_type
    }
  }
}"""
GET_ACCOUNT_COINS_COUNT = """query getAccountCoinsCount($address: String) {
  current_fungible_asset_balances_aggregate(where: { owner_address: { _eq: $address } }) {
    aggregate {
      count
    }
  }
}"""
GET_ACCOUNT_TRANSACTIONS_COUNT = """query getAccountTransactionsCount($address: String) {
  account_transactions_aggregate(where: { account_address: { _eq: $address } }) {
    aggregate {
      count
    }
  }
}"""
GET_FUNGIBLE_ASSET_ACTIVITIES = """query getFungibleAssetActivities($where_condition: fungible_asset_activities_bool_exp, $offset: Int, $limit: Int) {
  fungible_asset_activities(where: $where_condition, offset: $offset, limit: $limit) {
    amount
    asset_type
    block_height
    entry_function_id_str
    event_index
    gas_fee_payer_address
    is_frozen
    is_gas_fee
    is_transaction_success
    owner_address
    storage_id
    storage_refund_amount
    token_standard
    transaction_timestamp
    transaction_version
    type
  }
}"""
GET_OBJECT_DATA = """query getObjectData(
  $where_condition: current_objects_bool_exp
  $offset: Int
  $limit: Int
  $order_by: [current_objects_order_by!]
) {
  current_objects(where: $where_condition, offset: $offset, limit: $limit, order_by: $order_by) {
    allow_ungated_transfer
    state_key_hash
    owner_address
    object_address
    last_transaction_version
    last_guid_creation_num
    is_deleted
  }
}"""
GET_EVENTS = """query getEvents($where_condition: events_bool_exp, $offset: Int, $limit: Int, $order_by: [events_order_by!]) {
  events(where: $where_condition, offset: $offset, limit: $limit, order_by: $order_by) {
    account_address
    creation_number
    data
    event_index
    sequence_number
    transaction_block_height
    transaction_version
    type
    indexed_type
  }
}"""
GET_FUNGIBLE_ASSET_METADATA = """query getFungibleAssetMetadata($where_condition: fungible_asset_metadata_bool_exp, $offset: Int, $limit: Int) {
  fungible_asset_metadata(where: $where_condition, offset: $offset, limit: $limit) {
    icon_uri
    project_uri
    supply_aggregator_table_handle_v1
    supply_aggregator_table_key_v1
    creator_address
    asset_type
    decimals
    last_transaction_timestamp
    last_transaction_version
    name
    symbol
    token_standard
    supply_v2
    maximum_v2
  }
}"""
GET_ACCOUNT_OWNED_TOKENS = """query getAccountOwnedTokens(
  $where_condition: current_token_ownerships_v2_bool_exp!
  $offset: Int
  $limit: Int
  $order_by: [current_token_ownerships_v2_order_by!]
) {
  current_token_ownerships_v2(where: $where_condition, offset: $offset, limit: $limit, order_by: $order_by) {
    ...CurrentTokenOwnershipFields
  }
}
fragment CurrentTokenOwnershipFields on current_token_ownerships_v2 {
  token_standard
  token_properties_mutated_v1
  token_data_id
  table_type_v1
  storage_id
  property_version_v1
  owner_address
  last_transaction_version
  last_transaction_timestamp
  is_soulbound_v2
  is_fungible_v2
  amount
  current_token_data {
    collection_id
    description
    is_fungible_v2
    largest_property_version_v1
    last_transaction_timestamp
    last_transaction_version
    maximum
    supply
    token_data_id
    token_name
    token_properties
    token_standard
    token_uri
    decimals
    current_collection {
      collection_id
      collection_name
      creator_address
      current_supply
      description
      last_transaction_timestamp
      last_transaction_version
      max_supply
      mutable_description
      mutable_uri
      table_handle_v1
      token_standard
      total_minted_v2
      uri
    }
  }
}"""

GET_COLLECTION_DATA = """query getCollectionData(
  $where_condition: current_collections_v2_bool_exp!
) {
  current_collections_v2(where: $where_condition) {
    collection_id
    collection_name
    creator_address
    current_supply
    description
    last_transaction_timestamp
    last_transaction_version
    max_supply
    mutable_description
    mutable_uri
    table_handle_v1
    token_standard
    total_minted_v2
    uri
  }
}"""
GET_TOKEN_DATA = """query getTokenData($where_condition: current_token_datas_v2_bool_exp, $offset: Int, $limit: Int, $order_by: [current_token_datas_v2_order_by!]) {
  current_token_datas_v2(
    where: $where_condition
    offset: $offset
    limit: $limit
    order_by: $order_by
  ) {
    collection_id
    description
    is_fungible_v2
    largest_property_version_v1
    last_transaction_timestamp
    last_transaction_version
    maximum
    supply
    token_data_id
    token_name
    token_properties
    token_standard
    token_uri
    decimals
    current_collection {
      collection_id
      collection_name
      creator_address
      current_supply
      description
      last_transaction_timestamp
      last_transaction_version
      max_supply
      mutable_description
      mutable_uri
      table_handle_v1
      token_standard
      total_minted_v2
      uri
    }
  }
}"""
GET_TOKEN_ACTIVITY = """query getTokenActivity($where_condition: token_activities_v2_bool_exp!, $offset: Int, $limit: Int, $order_by: [token_activities_v2_order_by!]) {
  token_activities_v2(
    where: $where_condition
    order_by: $order_by
    offset: $offset
    limit: $limit
  ) {
    ...TokenActivitiesFields
  }
}
fragment TokenActivitiesFields on token_activities_v2 {
  after_value
  before_value
  entry_function_id_str
  event_account_address
  event_index
  from_address
  is_fungible_v2
  property_version_v1
  to_address
  token_amount
  token_data_id
  token_standard
  transaction_timestamp
  transaction_version
  type
}"""


def endpoint(client: httpx.Client) -> str:
    """``/v1/graphql`` itself (httpx adds a slash to a base URL's path)."""
    return str(client.base_url).rstrip("/")


def graphql(
    client: httpx.Client, query: str, variables: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``data`` of a query that must succeed (status 200, no errors)."""
    response = client.post(endpoint(client), json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


def wait_for_indexer(client: httpx.Client, version: int, processor: str) -> int:
    """Poll ``processor_status`` until ``processor`` reached ``version``, as the SDK's
    ``waitForIndexer`` does; the version it reports."""
    where = {"processor": {"_eq": processor}}
    for _ in range(400):
        found = graphql(client, GET_PROCESSOR_STATUS, {"where_condition": where})
        rows = found["processor_status"]
        if rows and rows[0]["last_success_version"] >= version:
            return int(rows[0]["last_success_version"])
        time.sleep(0.05)
    raise AssertionError(f"{processor} did not reach version {version}")
