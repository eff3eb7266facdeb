"""The ``reshapeable`` command: its arguments and output (the analysis is
``reshaping.constraints``)."""
from __future__ import annotations

from collections.abc import Sequence

from ..reshaping.constraints import constraints_of, text_report
from .options import one_line_parser
from .shapes import parse_args, report_files


def run(argv: Sequence[str]) -> int:
    """``argv`` starts with ``reshapeable``."""
    parser = one_line_parser(prog="irvalidate reshapeable", description="For every "
                                     "input axis: the sizes the model takes there, and the "
                                     "layers that decide them")
    parser.add_argument("files", nargs="+", metavar="FILE", help="IR .xml files")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--no-smart-reshape", action="store_true",
                        help="plain re-inference, without SmartReshape's rewrites")
    args = parse_args(parser, argv)
    if isinstance(args, int):
        return args
    return report_files(args.files, args.format, "inputs",
                        lambda path: constraints_of(path, not args.no_smart_reshape), text_report)
