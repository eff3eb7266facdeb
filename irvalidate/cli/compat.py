"""The ``compat`` command: ``irvalidate compat OLD NEW`` and ``irvalidate compat --against REV
[PATH...]``; the comparison is ``interface.compat``, the git side ``interface.against``.

The report goes through the check's formats, each finding located in the new file; the exit
status is a check's: 1 on an error finding, 0 otherwise, 2 on a usage error (an unknown
revision, no git work tree, a file that is not an IR).
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ..reporting import FORMAT_NAMES
from ..reporting.names import printed_lines
from .options import _rule_options, one_line_parser
from .shapes import parse_args

#: what the check's Overrides and report read, and compat does not offer
_NOT_OFFERED = dict(jobs=None, exclude=None, extend_exclude=None, force_exclude=None,
                    respect_gitignore=None, show_consequences=False)


def _parser() -> argparse.ArgumentParser:
    parser = one_line_parser(
        prog="irvalidate compat", description="What a change to a model's interface breaks: "
        "OLD against NEW, or each IR git says changed under PATH since REV (--against) "
        "against its version at REV.  Exit 1 on an error finding.")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="OLD NEW; with --against, "
                        "the files and folders to compare (default: .)")
    add = parser.add_argument
    add("--against", metavar="REV", help="compare the working tree with git revision REV")
    add("--format", choices=FORMAT_NAMES, type=str.lower, help="report format (default: text)")
    add("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    add("--config", metavar="FILE", help="read settings from FILE instead of the nearest "
        "configuration file")
    add("--isolated", action="store_true", help="read no configuration file")
    add("-q", "--quiet", action="count", default=0, help="text: -q prints only the names of "
        "files with findings, -qq nothing")
    add("--statistics", action="store_true", help="text: count the findings of each rule")
    add("--color", choices=("auto", "always", "never"), default="auto", type=str.lower,
        help="colour in text output")
    _rule_options(add)
    parser.set_defaults(**_NOT_OFFERED)
    return parser


def run(argv: Sequence[str]) -> int:
    """``argv`` starts with ``compat``."""
    parser = _parser()
    args = parse_args(parser, argv)
    if isinstance(args, int):
        return args
    if args.against is None and len(args.paths) != 2:
        return _usage("compat takes OLD NEW, or --against REV [PATH...]")
    if args.output not in (None, "-"):
        from .output import problem
        inputs = [p for p in args.paths if os.path.isfile(p)]
        unusable = problem(args.output, inputs + [os.path.splitext(p)[0] + ".bin" for p in inputs])
        if unusable:
            return _usage(f"--output {args.output}: {unusable}")
    from ..settings.config import ConfigError
    try:
        return _run(args)
    except ConfigError as err:
        return _usage(str(err))


def _usage(problem: str) -> int:
    print(printed_lines(f"irvalidate: error: {problem}"), file=sys.stderr)
    return 2


def _run(args: argparse.Namespace) -> int:
    from ..files.hierarchy import Resolver
    from ..interface.against import GitError
    from ..interface.compat import CompatError
    from .options import Overrides
    resolver = Resolver(Overrides(args).apply, args.config, args.isolated)
    try:
        results = _compared(args, resolver)
    except (CompatError, GitError) as err:
        return _usage(str(err))
    except Exception as err:  # noqa: BLE001 - the tool itself failed: say so, exit 2
        print(f"irvalidate: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    if args.output not in (None, "-"):  # (--against: the IRs git listed are inputs too)
        from .output import problem
        compared = [r.path for r in results]
        unusable = problem(args.output, compared + [os.path.splitext(p)[0] + ".bin"
                                                    for p in compared])
        if unusable:
            return _usage(f"--output {args.output}: {unusable}")
    return _reported(args, resolver.run_wide(), results)


def _compared(args: argparse.Namespace, resolver) -> list:
    if args.against is None:
        from ..interface.compat import compat_files
        old, new = args.paths
        return [compat_files(old, new, resolver.settings_for(new))]
    from ..interface.against import compare_against
    return compare_against(args.against, args.paths or ["."], resolver.settings_for)


def _reported(args: argparse.Namespace, run, results: list) -> int:
    from . import output
    to_file = args.output not in (None, "-")
    fmt = run.format or "text"
    from ..version import read
    report = output.render(fmt, results, args, to_file, read)
    try:
        if to_file:
            output.write_file(args.output, report)
        else:
            output.write_stdout(report, json_document=fmt in ("json", "sarif"))
    except output.OutputError as err:
        return _usage(str(err))
    failed = any(f.level == "error" for r in results for f in r.findings)
    return 1 if failed and not run.exit_zero else 0
