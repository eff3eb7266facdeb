"""``irvalidate PATH...``: exit 0 when clean, 1 on an error finding, 2 on usage or internal failure.

Also ``irvalidate rules`` and ``irvalidate explain CODE...`` (commands.py).  Imports stay inside ``main`` so
``--help`` and a small file pay only for what they use.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .options import FORMAT_NAMES  # noqa: F401 - re-exported: tests and callers use it

if TYPE_CHECKING:  # the arguments are read, never made here: paths alone need no argparse
    from ..engine.validation import FileResult
    from ..files.hierarchy import Resolver
    from ..settings.config import Settings
    from .options import Arguments


def __getattr__(name: str) -> str:
    # cli.__version__ stays importable (and a test pins it), but is only read on demand
    if name == "__version__":
        from ..version import read
        return read()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _version() -> str:
    """The version shown by --version and the json/sarif/github reports; reading it costs
    importlib.metadata (~20 ms), so the text report of a small file never asks."""
    pinned = globals().get("__version__")
    return pinned if pinned is not None else __getattr__("__version__")


def _subcommand(argv: Sequence[str]) -> int | None:
    # the command wins over a file or folder of that name, as git's do: ./rules checks it
    if not argv or argv[0] not in ("rules", "explain", "shapes", "reshapeable", "inspect",
                                   "compat"):
        return None
    if argv[0] == "compat":
        from .compat import run as compat
        return compat(argv)
    if argv[0] == "shapes":
        from .shapes import run as shapes
        return shapes(argv)
    if argv[0] == "reshapeable":
        from .reshapeable import run as reshapeable
        return reshapeable(argv)
    if argv[0] == "inspect":
        from .inspect import run as inspect
        return inspect(argv)
    from .commands import run
    return run(argv)


def _usage_problem(args: Arguments) -> str | None:
    """What makes the command line unusable before anything is read, in one line."""
    if args.exit_non_zero_on_fix and not args.fix:
        return "--exit-non-zero-on-fix goes with --fix"
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        return f"no such file or directory: {', '.join(missing)}"
    # a named .bin that is a device or a FIFO is left to the engine, which reports it (IRV204)
    if args.bin is not None and (os.path.isdir(args.bin) or not os.path.exists(args.bin)):
        reason = "is a directory, not a file" if os.path.isdir(args.bin) else "no such file"
        return f"--bin {args.bin}: {reason}"
    return None


#: main() was called without argv: this process is irvalidate itself (see _loading)
_program = False


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised wherever the program is, as Ctrl-C raises KeyboardInterrupt: the same
    unwinding (a half-written temporary file removed, -j workers stopped), then exit 143."""


#: SIGTERM came: noted as well as raised, since Python swallows an exception raised where
#: it cannot propagate (a weakref callback of the import system: "Exception ignored in")
_terminated = False


def _terminate(signum: int, frame: object) -> None:
    global _terminated
    _terminated = True
    raise Terminated


def _unraisable(unraisable) -> None:
    """Ctrl-C or SIGTERM where Python cannot raise it: dropped without a traceback (SIGTERM
    is noted, and ends the run with 143); anything else as Python prints it."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)


def main(argv: Sequence[str] | None = None) -> int:
    """Run irvalidate on ``argv``; None (the console script, ``python -m irvalidate``) runs
    it as the program, on ``sys.argv``."""
    if argv is not None:
        return _guarded(list(argv))
    global _program
    _program = True
    # the program's own handler: an in-process caller keeps its own
    if TYPE_CHECKING:  # _signal has no stub; it holds what signal.py declares
        import signal
    else:
        try:
            import _signal as signal  # the C module: signal.py's enums cost ~0.7 ms of a start
        except ImportError:
            import signal
    signal.signal(signal.SIGTERM, _terminate)
    sys.unraisablehook = _unraisable
    try:
        status = _guarded(sys.argv[1:])
        return 143 if _terminated else status  # a SIGTERM swallowed on the way still ends it
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # past _guarded: ended as the default ends
        _program = False
        import gc
        # the exit's last collection would go over every object still alive (~7 ms of a
        # small file's run); frozen, they are left to the operating system
        gc.freeze()


@contextmanager
def _loading() -> Iterator[None]:
    """The cycle collector paused while modules load, in a process that is irvalidate itself
    (an in-process caller's collector is left alone).  Loading makes tens of thousands of
    objects and no garbage, and the collector's passes over them cost ~5 ms of a small
    file's start.  They are then frozen (they live as long as the process: no pass looks at
    them again), and the collector runs for the work itself as it would without the pause:
    a directory walk's parsers leave cycles to collect, and -j workers fork from here."""
    import gc
    if not (_program and gc.isenabled()):
        yield
        return
    gc.collect(1)  # what the work so far left in the young generations: frozen, it would stay
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _guarded(argv: list) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt as interrupt:
        # Ctrl-C or SIGTERM: no traceback; 128 + the signal's number, as shells report it
        return 143 if isinstance(interrupt, Terminated) else 130
    except BrokenPipeError:  # `irvalidate rules | head -1`: the reader has what it wanted
        from .output import detach_stdout
        detach_stdout()
        return 0
    except OSError as err:  # output.OutputError, from a command other than the check's own
        from .output import OutputError
        if not isinstance(err, OutputError):
            return _internal(err)
        print(f"irvalidate: error: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # noqa: BLE001 - a bug of ours: one line and exit 2, not a traceback
        return _internal(err)


def _internal(err: BaseException) -> int:
    """A failure of irvalidate itself (a subcommand's bug): said in one line, exit 2; with
    IRVALIDATE_TRACEBACK=1 the traceback too, for a report."""
    if os.environ.get("IRVALIDATE_TRACEBACK"):
        import traceback
        traceback.print_exception(err)
    print(f"irvalidate: internal error: {type(err).__name__}: {err} (a bug of irvalidate; "
          f"IRVALIDATE_TRACEBACK=1 shows where)", file=sys.stderr)
    return 2


def _main(argv: list) -> int:
    handled = _subcommand(argv)
    if handled is not None:
        return handled
    from .options import parser, without_argparse
    args: Arguments | None = without_argparse(argv)
    if args is None:
        options = parser(_version)
        try:
            args = options.parse_args(argv)
            if not args.paths and not args.show_settings:  # only --show-settings needs no PATH
                options.error("the following arguments are required: PATH")
        except SystemExit as exit_:
            return int(exit_.code or 0) and 2
    problem = _usage_problem(args)
    if problem:
        print(f"irvalidate: error: {problem}", file=sys.stderr)
        return 2
    with _loading():
        from ..settings.config import ConfigError
    try:
        return _run(args)
    except ConfigError as err:
        for line in str(err).splitlines():
            print(f"irvalidate: error: {line}", file=sys.stderr)
        return 2


def _run(args: Arguments) -> int:
    with _loading():
        from ..files import discovery  # noqa: F401 - loaded in this pause (_files reads it)
        from ..files.hierarchy import Resolver
        from ..reporting.names import printed_lines, shown_path
        from .options import Overrides
    overrides = Overrides(args)
    resolver = Resolver(overrides.apply, args.config, args.isolated)
    if args.show_settings:
        return _show_settings(args, resolver, overrides)
    run = resolver.run_wide()
    files = _files(args, resolver)
    if isinstance(files, int):
        return files
    if args.show_files:
        from .output import write_stdout
        write_stdout("".join(f"{shown_path(f)}\n" for f in files))
        return 0
    from . import output
    to_file = args.output not in (None, "-")
    problem = _unusable(args, files, to_file)
    if problem:
        print(f"irvalidate: error: {problem}", file=sys.stderr)
        return 2
    configs = [resolver.settings_for(f) for f in files]
    fixing = args.fix or args.diff
    planned = _what_if_work(args, files, fixing)
    if isinstance(planned, int):
        return planned
    work, usage_errors = planned
    try:
        results, incomplete = _report(args, files, configs, run, work, fixing, to_file)
    except output.OutputError as err:
        print(f"irvalidate: error: {err}", file=sys.stderr)
        return 2
    except usage_errors as err:
        print(printed_lines(f"irvalidate: error: --reshape: {err}"), file=sys.stderr)
        return 2
    except Exception as err:  # noqa: BLE001 - the tool itself failed: say so, exit 2
        print(f"irvalidate: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    return _status(args, run, results, fixing, incomplete)


def _files(args: Arguments, resolver: Resolver) -> list[str] | int:
    """The IR files the run checks, or exit status 2 (said on standard error)."""
    from ..files.discovery import DiscoveryError, find
    from ..reporting.names import printed, shown_path
    left_out: list = []
    try:
        files = find(args.paths, resolver, args.skip_non_ir, left_out)
    except DiscoveryError as err:
        print(f"irvalidate: error: {printed(str(err))}", file=sys.stderr)
        return 2
    if not files and not args.skip_non_ir:
        # a mistyped models folder must not pass CI; in the hook's mode (--skip-non-ir) a
        # commit without IRs is normal, and an empty report follows
        shown = ", ".join(shown_path(p) for p in args.paths)
        why = "".join(f"; --force-exclude leaves out {shown_path(path)}: {printed(reason)}"
                      for path, reason in left_out)
        print(f"irvalidate: no IR files found under {shown}{why}", file=sys.stderr)
        return 2
    return files


def _unusable(args: Arguments, files: list[str], to_file: bool) -> str | None:
    """Why --bin or --output cannot be used with these files, or None."""
    if args.bin and len(files) != 1:
        return "--bin needs exactly one IR file"
    if to_file:
        from . import output
        inputs = files + args.paths + [os.path.splitext(f)[0] + ".bin" for f in files]
        problem = output.problem(args.output, inputs + ([args.bin] if args.bin else []))
        if problem:
            return f"--output {args.output}: {problem}"
    return None


def _what_if_work(args: Arguments, files: list[str],
                  fixing: bool) -> int | tuple[Callable[..., FileResult] | None, tuple]:
    """With --reshape: what is done to each file, and the errors that are the user's
    (requests that do not fit a file's inputs); (None, ()) without; or exit status 2."""
    from ..reporting.names import printed, printed_lines, shown_path
    if not args.reshape:
        if args.no_smart_reshape:
            print("irvalidate: error: --no-smart-reshape goes with --reshape", file=sys.stderr)
            return 2
        return None, ()
    if fixing:
        print("irvalidate: error: --reshape does not go with --diff or --fix", file=sys.stderr)
        return 2
    from ..reshaping.spec import SpecError, parse_each
    try:
        requests = parse_each(args.reshape)
    except SpecError as err:
        from ..reshaping.run import inputs_of
        print(printed_lines(f"irvalidate: error: --reshape {err}"), file=sys.stderr)
        for path in files[:3]:
            listing = inputs_of(path)
            if listing:
                print(f"{shown_path(path)}: {printed(listing)}", file=sys.stderr)
        return 2
    from functools import partial

    from ..reshaping.run import UsageError, reshape_work
    return partial(reshape_work, requests=requests, smart=not args.no_smart_reshape), (UsageError,)


def _report(args: Arguments, files: list[str], configs: list, run: Settings,
            work: Callable[..., FileResult] | None, fixing: bool,
            to_file: bool) -> tuple[list[FileResult], str]:
    """Check the files and write the report (or --diff's patch); the results, and why some
    files were not checked ("" when all were)."""
    from . import output
    with _loading():
        from ..api import validate_files
    if fixing:
        from functools import partial

        from ..fixing.run import fix_file
        work = partial(fix_file, write=not args.diff)
    results, incomplete = _checked(validate_files, files, configs, args.bin, run.jobs, work)
    if args.reshape and not args.skip_non_ir:  # (the hook's mode: a commit without them is normal)
        _fits_somewhere(results, args.reshape)
    fmt = run.format or "text"
    if fixing and fmt in ("text", "auto") and args.diff:
        from ..fixing.report import diff_text
        report: str | bytes = diff_text(results)
    else:
        report = output.render(fmt, results, args, to_file, _version)
    if to_file:
        output.write_file(args.output, report)
    elif isinstance(report, bytes):
        output.write_stdout_bytes(report)
    else:
        output.write_stdout(report, json_document=fmt in ("json", "sarif"))
    return results, incomplete


def _fits_somewhere(results: list[FileResult], specs: Sequence[str]) -> None:
    """UsageError (exit 2, no report) for a --reshape request that fits no file checked."""
    from ..reshaping.run import UsageError, fits_nowhere, label
    from ..reshaping.spec import parse_each
    problem = fits_nowhere(results, [label(r) for r in parse_each(specs)])
    if problem is not None:
        raise UsageError(problem)


def _status(args: Arguments, run: Settings, results: list[FileResult], fixing: bool,
            incomplete: str) -> int:
    """The exit status of a run that checked its files (what --fix did said first)."""
    failed = any(f.level == "error" for r in results for f in r.findings)
    status = 1 if failed and not run.exit_zero else 0
    if fixing:
        from ..fixing.report import exit_status, notes
        for note in notes(results, args.diff, args.quiet):
            print(note, file=sys.stderr)
        status = exit_status(results, failed, args.diff, args.exit_non_zero_on_fix)
        # --exit-zero as in ruff: findings, pending edits and rewritten files all exit 0; a
        # file that could not be read or written still exits 2
        status = 0 if run.exit_zero and status == 1 else status
    if incomplete:
        print(f"irvalidate: error: {incomplete}", file=sys.stderr)
        return 2
    return status


def _checked(validate_files, files, configs, bin_path, jobs, work) -> tuple:
    """Every file's result, and why some were not checked ("" when all were): a -j worker
    that died lost them, and the report still names them (as IRV000)."""
    try:
        return validate_files(files, configs, bin_path, jobs=jobs, work=work), ""
    except RuntimeError as err:
        from ..engine.workers import LostFiles
        if not isinstance(err, LostFiles):
            raise
        return err.results, str(err)


def _show_settings(args: Arguments, resolver, overrides) -> int:
    if len(args.paths) > 1:
        print("irvalidate: error: --show-settings takes one PATH at most", file=sys.stderr)
        return 2
    from ..files.hierarchy import show_settings
    from .output import write_stdout
    write_stdout(show_settings(resolver, args.paths[0] if args.paths else os.getcwd(),
                                   overrides.given()))
    return 0
