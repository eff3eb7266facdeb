"""The ``reshapeable`` command: its arguments and output (the analysis is
``reshaping.constraints``)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ..reshaping.constraints import constraints_of, text_report
from .options import one_line_parser
from .shapes import file_arguments, parsed_files, report_files


def run(argv: Sequence[str]) -> int:
    """``argv`` starts with ``reshapeable``."""
    parser = one_line_parser(prog="irvalidate reshapeable", description="For every "
                                     "input axis: the sizes the model takes there, and the "
                                     "layers that decide them")
    file_arguments(parser)
    parser.add_argument("--no-smart-reshape", action="store_true",
                        help="plain re-inference, without SmartReshape's rewrites")
    found = parsed_files(parser, argv)
    if isinstance(found, int):
        return found
    args, files = found
    return report_files(files, args.format, "inputs",
                        lambda path: _paused(constraints_of, path, not args.no_smart_reshape,
                                             args.bin),
                        text_report)


def _paused(work: Callable[..., list], *args: object) -> list:
    """``work(*args)`` with the cycle collector paused, as a check runs (api.py): the
    symbolic run makes millions of objects and no cycles, and the collector's passes over
    them took a third of its time on the 100k-layer IR (10.0 s CPU against 6.6 s); the
    garbage a file left is collected before the next when it is large."""
    from ..engine.collector import collect_if_large, paused
    collect_if_large()
    return paused(lambda: work(*args))
