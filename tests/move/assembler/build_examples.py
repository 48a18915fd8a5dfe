"""Write each example's bytecode, and each module's package metadata, to a directory:

    python tests/move/assembler/build_examples.py OUT_DIR [--address 0xcafe] [--example NAME]...

For each module example ``NAME``: ``NAME.mv`` (the module's bytecode),
``NAME.package.bcs`` (the BCS of its ``0x1::code::PackageMetadata``), ``NAME.move`` (its
source) and ``NAME.listing.txt`` (the bytecode as text); for the script the same but the
package metadata. ``--example`` (repeatable) writes the examples named, not all. Prints one
line per file.

    python tests/move/assembler/build_examples.py ledgerkit/localnet/chain/data --issuers

writes the day chain's issuer modules instead: ``MODULE.mv`` at ``0xcafe`` (the node
places it at each issuer's address) and ``MODULE.package.bcs``, the package data the
embedded node publishes them from.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file: make ``assembler`` importable as the tests import it.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from assembler import listing
    from assembler.examples import DAY_ISSUERS, EXAMPLES, issuer_package
else:
    from ._listing import listing
    from .examples import DAY_ISSUERS, EXAMPLES, issuer_package


def write_examples(out_dir: Path, address: str, names: Sequence[str] | None = None) -> list[Path]:
    """Write every example (or those of ``names``) under ``out_dir``; the paths written,
    in order."""
    unknown = sorted(set(names or ()) - set(EXAMPLES))
    if unknown:
        raise ValueError(f"no examples named {unknown}; the examples: {sorted(EXAMPLES)}")
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, example in EXAMPLES.items():
        if names and name not in names:
            continue
        files = {f"{name}.mv": example.bytecode(address)}
        if example.package:
            files[f"{name}.package.bcs"] = example.package_metadata(address)
        files[f"{name}.move"] = example.source_at(address).encode()
        files[f"{name}.listing.txt"] = listing(example.build(address).build()).encode()
        for file_name, data in files.items():
            path = out_dir / file_name
            path.write_bytes(data)
            written.append(path)
    return written


def write_issuers(out_dir: Path) -> list[Path]:
    """Write the day chain's issuer modules and their package metadata under ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for asset in DAY_ISSUERS:
        code, metadata = issuer_package(asset)
        for file_name, data in (
            (f"{asset.module}.mv", code),
            (f"{asset.module}.package.bcs", metadata),
        ):
            path = out_dir / file_name
            path.write_bytes(data)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--address", default="0xcafe", help="the publishing address")
    parser.add_argument(
        "--example", action="append", choices=sorted(EXAMPLES), help="an example to write"
    )
    parser.add_argument(
        "--issuers", action="store_true", help="write the day chain's issuer modules instead"
    )
    args = parser.parse_args(argv)
    if args.issuers:
        paths = write_issuers(args.out_dir)
    else:
        paths = write_examples(args.out_dir, args.address, args.example)
    for path in paths:
        print(f"{path.stat().st_size:6d}  {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
