"""``irvalidate inspect PATH...``: each model's interface (``interface.inspect``), as text or
as one JSON document (``interface.model.InspectReport``, schemas/inspect.schema.json).

A file that cannot be read as an IR is named on standard error with the reason, the others
are still reported, and the exit status is 2 (as for a usage error: there is no finding to
make of a file that is not an IR); else 0.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence

from .options import one_line_parser
from .shapes import file_arguments, parsed_files


def run(argv: Sequence[str]) -> int:
    """``argv`` starts with ``inspect``."""
    parser = one_line_parser(prog="irvalidate inspect", description="Summarise each model: "
                             "its inputs and outputs (names, types, shapes), layers, weights, "
                             "compression, producer and rt_info")
    file_arguments(parser)
    parser.add_argument("--reshapeable", choices=("auto", "always", "never"), default="auto",
                        help="state the sizes each input axis takes (reshapeable's analysis): "
                        "auto does so up to 3,000 layers (default: %(default)s)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the report to FILE instead of stdout")
    found = parsed_files(parser, argv)
    if isinstance(found, int):
        return found
    args, files = found
    from . import output
    if args.output is not None:
        from ..engine.validation import default_bin
        weights = [args.bin] if args.bin else [default_bin(f) for f in files]
        unusable = output.problem(args.output, files + weights)
        if unusable:
            print(f"irvalidate: error: --output {args.output}: {unusable}", file=sys.stderr)
            return 2
    text, failed = _report(files, args)
    try:
        if args.output in (None, "-"):
            output.write_stdout(text, json_document=args.format == "json")
        else:
            output.write_file(args.output, text)
    except output.OutputError as err:
        print(f"irvalidate: error: {err}", file=sys.stderr)
        return 2
    return 2 if failed else 0


def _report(files: list[str], args) -> tuple[str, bool]:
    """The report's text, and whether a file could not be read (said on stderr)."""
    from ..interface.inspect import InspectError, summary
    from ..reporting.names import display_path, printed_lines
    found, failed = [], []
    for path in files:
        try:
            model = summary(path, args.bin, reshapeable=args.reshapeable)
        except (InspectError, OSError) as err:
            message = str(err) if isinstance(err, InspectError) else (err.strerror or str(err))
            print(printed_lines(f"irvalidate: error: {display_path(path)}: {message}"),
                  file=sys.stderr)
            failed.append((display_path(path), message))
            continue
        found.append({**model, "file": display_path(path)})
    if args.format == "json":
        import json

        from ..interface.model import SCHEMA_VERSION
        from ..version import read
        # the document of interface.model.InspectReport, from dicts (pydantic costs a start
        # ~0.1 s; tests/cli/test_inspect_command.py validates it against the models)
        report = {"schema_version": SCHEMA_VERSION, "tool": "irvalidate", "version": read(),
                  "files": found, "errors": [{"file": f, "message": m} for f, m in failed]}
        return json.dumps(report, indent=1) + "\n", bool(failed)
    from ..interface.text import render
    return "".join(render(model) for model in found), bool(failed)
