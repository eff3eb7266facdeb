"""``irvalidate PATH...``: exit 0 when clean, 1 on an error finding, 2 on usage or internal failure."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Iterator, List, Optional, Sequence

from . import __version__


def _discover(path: str) -> Iterator[str]:
    """Files to validate: a file as given; a directory's ``*.xml`` whose root is ``<net>``."""
    from .parser import sniff_root
    if not os.path.isdir(path):
        yield path
        return
    for folder, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith(".xml"):
                candidate = os.path.join(folder, name)
                if sniff_root(candidate) == "net":
                    yield candidate


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="irvalidate", description="Check OpenVINO IR files: declared shapes against "
        "broadcast inference, edges and constants.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="IR .xml files or directories")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="report format (default: text)")
    parser.add_argument("--bin", metavar="PATH", help="the weights file, when a single IR is "
                        "given and its .bin is not beside it with the same stem")
    parser.add_argument("--version", action="version", version=f"irvalidate {__version__}")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        print(f"irvalidate: error: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        from .engine import validate_file
        from .formatters import FORMATTERS
        files: List[str] = [f for p in args.paths for f in _discover(p)]
        if args.bin and len(files) != 1:
            print("irvalidate: error: --bin needs exactly one IR file", file=sys.stderr)
            return 2
        results = [validate_file(f, args.bin) for f in files]
        sys.stdout.write(FORMATTERS[args.format](results, __version__))
    except Exception as err:  # noqa: BLE001 - the tool itself failed: say so, exit 2
        print(f"irvalidate: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    return 1 if any(f.level == "error" for r in results for f in r.findings) else 0
