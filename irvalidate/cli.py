"""``irvalidate PATH...``: exit 0 when clean, 1 on an error finding, 2 on usage or internal failure.

Also ``irvalidate rules`` and ``irvalidate explain CODE``.  Imports stay inside ``main`` so
``--help`` and a small file pay only for what they use.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Dict, List, Optional, Sequence

#: kept in step with formatters.FORMATTERS (a test checks) so --help needs no formatter import
FORMAT_NAMES = ("auto", "github", "json", "sarif", "text")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="irvalidate", description="Check OpenVINO IR files: declared shapes against "
        "broadcast inference, graph integrity, constants.  Also: `irvalidate rules`, "
        "`irvalidate explain CODE`.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="IR .xml files or directories")
    add = parser.add_argument
    add("--format", choices=FORMAT_NAMES, help="report format; auto is github under GitHub "
        "Actions, else text (default: text)")
    add("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    add("--config", metavar="FILE", help="read settings from FILE instead of the nearest "
        "pyproject.toml's [tool.irvalidate]")
    add("--select", metavar="RULES", help="comma-separated codes, code prefixes or slugs to run")
    add("--ignore", metavar="RULES", help="rules not to run (replaces the configured list)")
    add("--extend-ignore", metavar="RULES", help="rules not to run, added to the configured list")
    add("--per-file-ignores", metavar="GLOB:RULES", action="append",
        help="rules not to run on files matching GLOB (repeatable)")
    add("--severity", metavar="RULE=LEVEL", action="append",
        help="set a rule's level: error, warning or info (repeatable)")
    add("--exit-zero", action="store_true", default=None,
        help="exit 0 even when there are error findings")
    add("-q", "--quiet", action="count", default=0,
        help="text: -q prints only the names of files with findings, -qq nothing")
    add("--statistics", action="store_true", help="text: count the findings of each rule")
    add("--color", choices=("auto", "always", "never"), default="auto",
        help="colour in text output (auto: on a terminal, unless NO_COLOR is set)")
    add("-j", "--jobs", type=int, metavar="N", help="validate N files in parallel (0: one per CPU)")
    add("--bin", metavar="PATH", help="the weights file, when a single IR is given and its .bin "
        "is not beside it with the same stem")
    add("--skip-non-ir", action="store_true", help="quietly skip named .xml files whose root is "
        "not <net> (for hooks that pass every staged XML file)")
    add("--version", action=_VersionAction)
    return parser


def __getattr__(name: str) -> str:
    # cli.__version__ stays importable (and a test pins it), but is only read on demand
    if name == "__version__":
        from . import __version__
        return __version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _version() -> str:
    """The version shown by --version and the json/sarif/github reports; reading it costs
    importlib.metadata (~20 ms), so the text report of a small file never asks."""
    pinned = globals().get("__version__")
    return pinned if pinned is not None else __getattr__("__version__")


class _VersionAction(argparse.Action):
    """argparse's version action, with the version read only when --version is given."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show program's version number and exit"):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(f"irvalidate {_version()}\n")
        parser.exit()


def _split(value: Optional[str]) -> Optional[List[str]]:
    return None if value is None else [v.strip() for v in value.split(",") if v.strip()]


def _pairs(values: Optional[List[str]], sep: str, what: str) -> Optional[Dict[str, str]]:
    if not values:
        return None
    table = {}
    for value in values:
        key, found, rest = value.rpartition(sep) if sep == ":" else value.partition(sep)
        if not found or not key or not rest:
            raise ValueError(f"{what} expects {'GLOB:RULES' if sep == ':' else 'RULE=LEVEL'}, "
                             f"got {value!r}")
        table[key.strip()] = rest.strip()
    return table


def _config(args: argparse.Namespace):
    from .config import resolve
    base = resolve(args.config)
    per_file = _pairs(args.per_file_ignores, ":", "--per-file-ignores")
    if per_file is not None:  # anchored at the working directory, whatever the file's root
        from .globs import anchored
        per_file = {anchored(k, os.getcwd()): v for k, v in per_file.items()}
    overrides = dict(
        select=_split(args.select), ignore=_split(args.ignore), format=args.format,
        exit_zero=args.exit_zero, jobs=args.jobs, severity=_pairs(args.severity, "=", "--severity"),
        per_file_ignores=None if per_file is None else {**base.per_file_ignores,
                                                        **{k: _split(v) for k, v in per_file.items()}})
    extend = _split(args.extend_ignore)
    if extend is not None:
        overrides["extend_ignore"] = list(base.extend_ignore) + extend
    if overrides["severity"] is not None:
        overrides["severity"] = {**base.severity, **overrides["severity"]}
    return base.merged(**overrides)


def _use_color(choice: str, to_file: bool) -> bool:
    if choice != "auto":
        return choice == "always"
    return not to_file and sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _render(fmt: str, results, args: argparse.Namespace, to_file: bool) -> str:
    if fmt == "auto":
        fmt = "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    if fmt == "text":
        from .formatters import text
        # the text report prints no version, so none is read for it
        return text.render(results, "", color=_use_color(args.color, to_file),
                           quiet=args.quiet, statistics=args.statistics)
    from .formatters import FORMATTERS
    return FORMATTERS[fmt](results, _version())


def _subcommand(argv: Sequence[str]) -> Optional[int]:
    if not argv or argv[0] not in ("rules", "explain") or os.path.exists(argv[0]):
        return None
    from .commands import explain, rules_table
    if argv[0] == "rules" and len(argv) == 1:
        sys.stdout.write(rules_table())
        return 0
    if argv[0] == "explain" and len(argv) == 2:
        try:
            sys.stdout.write(explain(argv[1]))
            return 0
        except ValueError as err:
            print(f"irvalidate: error: {err}", file=sys.stderr)
            return 2
    print("irvalidate: usage: irvalidate rules | irvalidate explain CODE", file=sys.stderr)
    return 2


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.exists(a) and os.path.samefile(a, b)
    except OSError:
        return False


def _usage_problem(args: argparse.Namespace) -> Optional[str]:
    """What makes the command line unusable before anything is read, in one line."""
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        return f"no such file or directory: {', '.join(missing)}"
    # a named .bin that is a device or a FIFO is left to the engine, which reports it (IRV204)
    if args.bin is not None and (os.path.isdir(args.bin) or not os.path.exists(args.bin)):
        reason = "is a directory, not a file" if os.path.isdir(args.bin) else "no such file"
        return f"--bin {args.bin}: {reason}"
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    handled = _subcommand(argv)
    if handled is not None:
        return handled
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    problem = _usage_problem(args)
    if problem:
        print(f"irvalidate: error: {problem}", file=sys.stderr)
        return 2
    from .config import ConfigError
    try:
        config = _config(args)
    except (ConfigError, ValueError) as err:
        print(f"irvalidate: configuration error:\n{err}", file=sys.stderr)
        return 2
    try:
        from .api import discover_files, validate_files
        from .names import display_path
        files = [f for p in args.paths for f in discover_files(p, args.skip_non_ir)]
        if not files and not args.skip_non_ir:
            # a mistyped models folder must not pass CI; in the hook's mode (--skip-non-ir) a
            # commit without IRs is normal, and an empty report follows
            shown = ", ".join(display_path(p) for p in args.paths)
            print(f"irvalidate: no IR files found under {shown}", file=sys.stderr)
            return 2
        if args.bin and len(files) != 1:
            print("irvalidate: error: --bin needs exactly one IR file", file=sys.stderr)
            return 2
        # the weights beside each IR are inputs too: a report must never replace them
        inputs = files + args.paths + [os.path.splitext(f)[0] + ".bin" for f in files]
        if args.output and any(_same_file(args.output, f) for f in inputs + [args.bin or ""]):
            print(f"irvalidate: error: --output {args.output} is one of the input files (an IR or its .bin); "
                  f"refusing to overwrite it", file=sys.stderr)
            return 2
        results = validate_files(files, config, args.bin)
        report = _render(config.format or "text", results, args, bool(args.output))
        if args.output:
            with open(args.output, "w", encoding="utf-8") as handle:
                handle.write(report)
        else:
            sys.stdout.write(report)
    except Exception as err:  # noqa: BLE001 - the tool itself failed: say so, exit 2
        print(f"irvalidate: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    failed = any(f.level == "error" for r in results for f in r.findings)
    return 1 if failed and not config.exit_zero else 0
