"""The version of ledgerkit, written here alone.

The front door hands it out as ``ledgerkit.__version__``, packaging reads it (pyproject's
dynamic ``version``), and the modules below the front door that need it (the embedded
node's OpenAPI document) import it from here, without loading the front door.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0.dev0"
