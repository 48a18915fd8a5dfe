"""The requests of the node API as the client's I/O-free core describes them: one
function per endpoint, each returning a :class:`~ledgerkit.client.Call`, its inputs
checked and made canonical (no I/O).

They are what :meth:`Client.send <ledgerkit.Client.send>` and
:meth:`AsyncClient.send <ledgerkit.AsyncClient.send>` take, to ask what an endpoint
method asks but read the answer some other way::

    from ledgerkit.client import calls

    page = client.send(calls.transactions(0, 100), decoder=decode_transaction_rows)
"""

from __future__ import annotations

from ledgerkit.client._calls import *  # noqa: F403 (the public names are _calls' own)
from ledgerkit.client._calls import __all__ as __all__
