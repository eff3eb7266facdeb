"""The command line's options: the argparse parser, and the settings they override.

Kept apart from cli.py so the run itself stays short; nothing here imports pydantic unless a
setting is given on the command line.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import (
    TYPE_CHECKING,
    Any,
    NoReturn,
)

from ..reporting import FORMAT_NAMES

if TYPE_CHECKING:
    import argparse

#: configuration field -> the option that sets it, to name the option in error messages
OPTION_NAMES = {
    "select": "--select", "ignore": "--ignore", "extend_ignore": "--extend-ignore",
    "per_file_ignores": "--per-file-ignores", "severity": "--severity", "format": "--format",
    "exit_zero": "--exit-zero", "jobs": "-j/--jobs", "exclude": "--exclude",
    "extend_exclude": "--extend-exclude",
}


#: what the parser gives each option the command line leaves out (a test holds the two
#: together), for :func:`without_argparse`
DEFAULTS = {
    "format": None, "output": None, "config": None, "isolated": False, "show_settings": False,
    "show_files": False, "exclude": None, "extend_exclude": None, "force_exclude": None,
    "respect_gitignore": None, "select": None, "ignore": None, "extend_ignore": None,
    "per_file_ignores": None, "severity": None, "exit_zero": None, "quiet": 0,
    "statistics": False, "color": "auto", "jobs": None, "bin": None, "skip_non_ir": False,
    "diff": False, "fix": False, "exit_non_zero_on_fix": False, "reshape": None,
    "no_smart_reshape": False, "show_consequences": False,
}

#: the options :func:`without_argparse` reads that take no value: what each sets (the hooks'
#: entries, .pre-commit-hooks.yaml, and what CI adds to them; a test compares with argparse)
FLAGS = {
    "--skip-non-ir": ("skip_non_ir", True), "--force-exclude": ("force_exclude", True),
    "--fix": ("fix", True), "--exit-non-zero-on-fix": ("exit_non_zero_on_fix", True),
    "--diff": ("diff", True), "--exit-zero": ("exit_zero", True),
    "--isolated": ("isolated", True), "--statistics": ("statistics", True),
    "--show-consequences": ("show_consequences", True), "-v": ("show_consequences", True),
    "--respect-gitignore": ("respect_gitignore", True),
    "--no-respect-gitignore": ("respect_gitignore", False),
}
#: the options it reads that take one value of a few (lower-cased, as the parser's type does)
CHOICES = {"--format": ("format", FORMAT_NAMES), "--color": ("color", ("auto", "always", "never"))}


if TYPE_CHECKING:  # (a Union made at run time compiles its string: ~0.5 ms of a start)
    #: the parsed command line: argparse's, or without_argparse's for a plain one
    Arguments = argparse.Namespace | SimpleNamespace


def without_argparse(argv: Sequence[str]) -> SimpleNamespace | None:
    """The command line parsed as the parser parses it, when it is paths between options of
    :data:`FLAGS` and :data:`CHOICES` (``irvalidate --skip-non-ir --force-exclude FILE...``,
    as pre-commit runs it; ``--format sarif DIR`` or ``DIR --format sarif`` in CI); else None.
    Importing argparse and building the parser cost ~6 ms (gettext, locale, shutil), more than
    checking a small IR.  Anything else (an option not listed, a bad value, a path after an
    option that follows paths, which the parser refuses, a path that starts with ``-``) is
    left to argparse, which also words the errors."""
    parsed = dict(DEFAULTS)
    paths: list[str] = []
    closed = False  # an option came after the paths: no path may follow (the parser's rule)
    at = 0
    while at < len(argv):
        if not argv[at].startswith("-"):
            if closed:
                return None
            paths.append(argv[at])
        else:
            at = _plain_option(argv, at, parsed)
            if at < 0:
                return None
            closed = bool(paths)
        at += 1
    return SimpleNamespace(paths=paths, **parsed) if paths else None


def _plain_option(argv: Sequence[str], at: int, parsed: dict) -> int:
    """Read the option at ``argv[at]`` into ``parsed``; the index of its last word, or -1
    when it is not one of the plain options with a value they take."""
    option, equals, value = argv[at].partition("=")
    if option in FLAGS and not equals:
        dest, constant = FLAGS[option]
        parsed[dest] = constant
        return at
    if option not in CHOICES:
        return -1
    if not equals:  # the value is the next argument
        at += 1
        value = argv[at] if at < len(argv) else "-"
    dest, choices = CHOICES[option]
    if value.lower() not in choices:
        return -1
    parsed[dest] = value.lower()
    return at


def _suggestion(message: str, options: Sequence[str]) -> str:
    """'; did you mean --select?' for an option argparse did not recognise, else ''."""
    import difflib
    head, _, listed = message.partition(": ")
    if head != "unrecognized arguments":
        return ""
    for word in listed.split():
        if word.startswith("--"):
            close = difflib.get_close_matches(word.partition("=")[0], options, n=1)
            if close:
                return f"; did you mean {close[0]}?"
    return ""


def one_line_parser(**kwargs: Any) -> argparse.ArgumentParser:
    """An argparse parser whose mistakes are one line (the README's promise), not the usage
    block first; an unknown option gets the nearest known one as a suggestion."""
    import argparse

    class OneLineParser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            options = [o for o in self._option_string_actions if o.startswith("--")]
            self.exit(2, f"{self.prog}: error: {message}{_suggestion(message, options)}\n")

    return OneLineParser(**kwargs)


def parser(version: Callable[[], str]) -> argparse.ArgumentParser:
    import argparse

    class VersionAction(argparse.Action):
        """argparse's version action, with the version read only when asked for."""

        def __init__(self, option_strings, read_version: Callable[[], str],
                     dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                     help="show the version and exit"):
            super().__init__(option_strings, dest, nargs=0, default=default, help=help)
            self.version = read_version

        def __call__(self, parser, namespace, values, option_string=None):
            sys.stdout.write(f"irvalidate {self.version()}\n")
            parser.exit()

    parser = one_line_parser(
        prog="irvalidate", description="Check OpenVINO IR files: declared shapes and types "
        "against the inference of every op of opsets 1-16, graph integrity, constants and "
        "weights; --fix repairs stale dims, --reshape tries new input shapes.  Also: `irvalidate rules`, "
        "`irvalidate explain CODE...`, `irvalidate shapes PATH...` (each layer's inferred "
        "shapes), `irvalidate reshapeable PATH...` (which input axes Model.reshape can change), "
        "`irvalidate inspect PATH...` (each model's inputs, outputs and weights); "
        "`irvalidate compat OLD NEW` (what a change to a model's interface breaks); "
        "each has its own --help.")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="IR .xml files or directories")
    add = parser.add_argument
    _report_options(add)
    _walk_options(add)
    _rule_options(add)
    _output_options(add)
    _edit_options(add)
    add("-V", "--version", action=VersionAction, read_version=version)
    return parser


def _report_options(add: Callable[..., object]) -> None:
    """The report's format and destination, the configuration read, and what to list."""
    # format names are not case-sensitive (nor are colour names): --format JSON is json
    add("--format", choices=FORMAT_NAMES, type=str.lower, help="report format; auto is "
        "github under GitHub Actions, else text (default: text)")
    add("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    add("--config", metavar="FILE", help="read settings from FILE, for every file, instead of "
        "the nearest .irvalidate.toml, irvalidate.toml or pyproject.toml")
    add("--isolated", action="store_true", help="read no configuration file")
    add("--show-settings", action="store_true", help="print the settings for the working "
        "directory (or the one PATH given) and where each comes from, then exit")
    add("--show-files", action="store_true", help="list the files that would be checked, "
        "then exit")

def _walk_options(add: Callable[..., object]) -> None:
    """Which files directory walks skip."""
    import argparse
    add("--exclude", metavar="GLOBS", help="comma-separated path patterns directory walks skip "
        "(replaces the configured list and the default: hidden folders, venv, node_modules, "
        "__pycache__)")
    add("--extend-exclude", metavar="GLOBS", help="path patterns to skip, added to the list")
    add("--force-exclude", action="store_true", default=None, help="apply the exclusions to "
        "files named on the command line too (for pre-commit)")
    add("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
        help="in a git work tree, skip what .gitignore and .git/info/exclude exclude "
        "(default: on)")

def _rule_options(add: Callable[..., object]) -> None:
    """Which rules run, at which levels, and whether findings fail the run."""
    add("--select", metavar="RULES", help="comma-separated codes, code prefixes or slugs to run")
    add("--ignore", metavar="RULES", help="rules not to run (replaces the configured list)")
    add("--extend-ignore", metavar="RULES", help="rules not to run, added to the configured list")
    add("--per-file-ignores", metavar="GLOB:RULES", action="append",
        help="rules not to run on files matching GLOB (repeatable)")
    add("--severity", metavar="RULE=LEVEL", action="append",
        help="set a rule's level: error, warning or info (comma-separated or repeated; the "
        "last setting of a rule wins, and the command line wins over configuration files)")
    add("--exit-zero", action="store_true", default=None,
        help="exit 0 even when there are error findings")

def _output_options(add: Callable[..., object]) -> None:
    """What the text report shows, and how the files are checked."""
    add("-q", "--quiet", action="count", default=0,
        help="text: -q prints only the names of files with findings, -qq nothing")
    add("--statistics", action="store_true", help="text: count the findings of each rule")
    add("-v", "--show-consequences", action="store_true", help="text: list every finding that "
        "follows from another (a root) under it, where by default only their count is shown")
    add("--color", choices=("auto", "always", "never"), default="auto", type=str.lower,
        help="colour in text output (auto: on a terminal, unless NO_COLOR is set)")
    add("-j", "--jobs", type=int, metavar="N", help="validate N files in parallel (0: one per CPU)")
    add("--bin", metavar="PATH", help="the weights file, when a single IR is given and its .bin "
        "is not beside it with the same stem")
    add("--skip-non-ir", action="store_true", help="quietly skip named .xml files whose root is "
        "not <net> (for hooks that pass every staged XML file)")

def _edit_options(add: Callable[..., object]) -> None:
    """--diff and --fix, and the what-if of --reshape."""
    add("--diff", action="store_true", help="print a unified diff of the edits that make each "
        "file's declared dims and precisions agree with inference; write nothing (exit 1 "
        "when there is something to fix)")
    add("--fix", action="store_true", help="write those edits in place (atomically; only what "
        "inference proves; never to a file with unreadable, schema or integrity errors)")
    add("--exit-non-zero-on-fix", action="store_true", help="with --fix: exit 1 when a file was "
        "fixed, even if no error remains (for pre-commit)")
    add("--reshape", metavar="SPEC", action="append", help="what if the inputs had these shapes "
        "(ovc --input syntax: 'x[1,3,512,928]', 'ids[1,?],mask[1,1..2048]', '[4,3,224,224]' "
        "for a model with one input): whether Model.reshape works, the new output shapes, and "
        "the constant that pins a dim; repeatable: each SPEC is a request of its own, tried "
        "alone on each file (a file it does not fit is told, IRV303)")
    add("--no-smart-reshape", action="store_true", help="with --reshape: plain re-inference, "
        "without the graph rewrites Model.reshape makes first (SmartReshape)")


def _split(value: str | None) -> list[str] | None:
    return None if value is None else [v.strip() for v in value.split(",") if v.strip()]


def _pairs(values: list[str] | None, sep: str, option: str) -> dict[str, str] | None:
    """``GLOB:RULES`` or ``RULE=LEVEL`` options as a table, in the order given; ``--severity``
    also takes comma lists (``IRV101=error,IRV2=warning``).  A key given again moves to the
    end: the last setting wins."""
    if not values:
        return None
    table: dict[str, str] = {}
    items = values if sep == ":" else [p for v in values for p in v.split(",") if p.strip()]
    for value in items:
        key, found, rest = value.rpartition(sep) if sep == ":" else value.partition(sep)
        if not found or not key.strip() or not rest.strip():
            from ..settings.config import ConfigError
            raise ConfigError(f"{option}: expected {'GLOB:RULES' if sep == ':' else 'RULE=LEVEL'}"
                              f", got {value!r}")
        table.pop(key.strip(), None)
        table[key.strip()] = rest.strip()
    return table


class Overrides:
    """What the command line sets, checked once (ConfigError names the option) and applied
    on top of each configuration file's settings."""

    def __init__(self, args: Arguments):
        per_file = _pairs(args.per_file_ignores, ":", "--per-file-ignores")
        #: replace the configured value (of the types the model's fields have)
        self.values: dict[str, Any] = {k: v for k, v in dict(
            select=_split(args.select), ignore=_split(args.ignore), format=args.format,
            exit_zero=args.exit_zero, jobs=args.jobs, exclude=_split(args.exclude),
            force_exclude=args.force_exclude,
            respect_gitignore=args.respect_gitignore).items() if v is not None}
        #: added to the configured value
        self.extend: dict[str, Any] = {k: v for k, v in dict(
            extend_ignore=_split(args.extend_ignore),
            severity=_pairs(args.severity, "=", "--severity"),
            extend_exclude=_split(args.extend_exclude),
            per_file_ignores=None if per_file is None else
            {k: _split(v) for k, v in per_file.items()}).items() if v is not None}
        from ..settings.config import plain
        if self.extend or not plain(self.values):
            self._check()
        self._anchor(os.getcwd())

    def _anchor(self, cwd: str) -> None:
        """Command-line patterns mean the working directory, whichever configuration file
        (with its own folder) they are applied to."""
        if not {"exclude", "extend_exclude", "per_file_ignores"} & {*self.values, *self.extend}:
            return  # no pattern given: globs.py is not even imported
        from ..settings.globs import anchored
        for table in (self.values, self.extend):
            for key in ("exclude", "extend_exclude"):
                if key in table:
                    table[key] = [anchored(p, cwd) for p in table[key]]
        if "per_file_ignores" in self.extend:
            self.extend["per_file_ignores"] = {anchored(k, cwd): v for k, v
                                               in self.extend["per_file_ignores"].items()}

    def _check(self) -> None:
        from pydantic import ValidationError

        from ..settings.config import ConfigError, _model, describe
        try:
            _model()(**self.values, **self.extend)
        except ValidationError as err:
            raise ConfigError(describe(err, options=OPTION_NAMES)) from None

    def given(self) -> set[str]:
        return set(self.values) | set(self.extend)

    def apply(self, base):
        """``base`` (a Config or config.Defaults) with the command line on top."""
        if not self.values and not self.extend:
            return base
        merged = dict(self.values)
        for key, value in self.extend.items():
            current = getattr(base, key)
            if key == "severity":
                from ..settings.selection import severity_over
                merged[key] = severity_over(current, value)
            else:
                merged[key] = {**current, **value} if isinstance(value, dict) else [*current, *value]
        return base.merged(**merged)
