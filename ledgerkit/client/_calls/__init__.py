"""The request builders of :mod:`ledgerkit.client.calls`, written by concept: an account's
state and history (``_accounts``), reading transactions (``_transactions``), sending them
(``_submit``: submission, batches, simulation, signing messages), Move state read by key or
by function (``_tables_view``: table items, view functions), and blocks and event streams
(``_blocks_events``). ``calls`` publishes them under its own name; the node-wide questions
(ledger info, health, gas price) are written there. ``_graphql`` holds the one question
that goes to the indexer instead: a GraphQL query, the step a flow yields for it and how
its answer is read.
"""
