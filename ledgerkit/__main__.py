"""``python -m ledgerkit``: the ``ledgerkit`` command, for environments without its script."""

from __future__ import annotations

import sys

from ledgerkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
