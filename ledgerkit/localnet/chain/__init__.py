"""The chain: a deterministic history made from a seed, and the blocks that extend it.

* ``_generator``: genesis, then blocks of real signed workload transactions spread over a
  day (:func:`generate`), resumable, the same rows for the same seed and options;
* ``_workload``: the simulated users, their daily rhythm and congestion episodes;
* ``_day_stories``: the generated day's written plan beside them (digital assets, token
  v1, multisig accounts, key rotations);
* ``_block_builder``: one block (the metadata transaction, user transactions from the
  mempool, the epilogue), shared by the generator and the live node;
* ``_seeded_accounts``: the dev accounts, the faucet and the workload accounts the seed
  derives;
* ``_chain_cache``: generated chains kept in the user cache directory;
* ``_chain_clock``: the chain's time after the generated history ends.

Exports what the ledger and the services use: :func:`generate`, :class:`BlockBuilder`,
:class:`Workload`, :class:`ChainClock`, the cache copy and the seeded accounts.
"""

from __future__ import annotations

from ledgerkit.localnet.chain._block_builder import ZERO_HASH, BlockBuilder
from ledgerkit.localnet.chain._chain_cache import copy_cached_chain
from ledgerkit.localnet.chain._chain_clock import (
    ChainClock,
    TimeSource,
    WallClock,
    wall_time_usec,
)
from ledgerkit.localnet.chain._generator import generate
from ledgerkit.localnet.chain._seeded_accounts import (
    OCTAS_PER_APT,
    DevAccount,
    dev_accounts,
    faucet_account,
)
from ledgerkit.localnet.chain._workload import Workload

__all__ = [
    "OCTAS_PER_APT",
    "ZERO_HASH",
    "BlockBuilder",
    "ChainClock",
    "DevAccount",
    "TimeSource",
    "WallClock",
    "Workload",
    "copy_cached_chain",
    "dev_accounts",
    "faucet_account",
    "generate",
    "wall_time_usec",
]
