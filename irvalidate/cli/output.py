"""Where the report goes: standard output, or the file ``-o/--output`` names (``-``: stdout).

The file is checked before anything is validated, so a typo costs no run, and is written
only once the whole report exists, atomically (a temporary file beside it, then a rename): a
write that fails or is interrupted leaves the previous report whole and no half-written one
for a later CI step to upload.
"""
from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn


class OutputError(OSError):
    """The report cannot go where it was asked to; the message says why, in plain words."""


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.exists(a) and os.path.samefile(a, b)
    except OSError:
        return False


def problem(path: str, inputs: Sequence[str]) -> str | None:
    """What makes ``path`` unusable as the report file, or None."""
    if path == "-":
        return None
    if os.path.isdir(path):
        return "is a folder"
    parent = os.path.dirname(path) or os.curdir
    if not os.path.exists(parent):
        return f"folder {parent} does not exist"
    if not os.path.isdir(parent):
        return f"{parent} is not a folder"
    # the IRs and the weights beside them are inputs: a report must never replace them
    if any(_same_file(path, f) for f in inputs):
        return "is one of the input files (an IR or its .bin); refusing to overwrite it"
    exists = os.path.exists(path)
    if not os.access(path if exists else parent, os.W_OK if exists else os.W_OK | os.X_OK):
        return "permission denied"
    return None


def detach_stdout() -> None:
    """After a BrokenPipeError: point stdout at /dev/null, so the flush at exit does not fail
    again ("Exception ignored ... BrokenPipeError"); Python's documented recipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (an in-process capture)
        pass


#: what the text reports print outside ASCII, and what stands for it on a console that
#: cannot print it (PYTHONIOENCODING=ascii, LC_ALL=C without UTF-8 mode)
ASCII_STAND_INS = str.maketrans({"\u2192": "->", "\u2014": "--", "\u2026": "...",
                                 "\u00b7": "*", "\u2229": "&", "\u1d40": "^T",
                                 "\u00a7": "section ", "\u2264": "<=", "\u2265": ">="})


def _json_escape(match: re.Match) -> str:
    # json's own escapes (a character past U+FFFF as its surrogate pair, as ensure_ascii does)
    import json
    return json.dumps(match.group())[1:-1]


def printable(text: str, encoding: str | None, json_document: bool = False) -> str:
    """``text`` as a stream in ``encoding`` can take it: unchanged when it can; else a JSON
    document with its non-ASCII characters escaped (the same document, ``ensure_ascii``), and
    text with ASCII stand-ins (``->`` for an arrow) and ``\\uXXXX`` for the rest (names)."""
    if text.isascii():  # (any encoding takes it; the check costs nothing)
        return text
    encoding = encoding or "utf-8"
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:  # an encoding Python does not know: ASCII is safe
        encoding = "ascii"
    if json_document:
        return re.sub(r"[^\x00-\x7f]", _json_escape, text)
    text = text.translate(ASCII_STAND_INS)
    return text.encode(encoding, "backslashreplace").decode(encoding)


def write_stdout(text: str, json_document: bool = False) -> None:
    """Print the report.  A reader that went away (``irvalidate models/ | head -1``) or a
    closed stdout is not the run's failure: the rest is dropped quietly, as ruff and flake8
    do, and the exit status stays the run's own.  A console that cannot print a character
    gets what it can (see :func:`printable`), never an error that loses the report."""
    if sys.stdout is None:  # started with stdout closed
        return
    try:
        sys.stdout.write(printable(text, getattr(sys.stdout, "encoding", None), json_document))
        sys.stdout.flush()
    except BrokenPipeError:
        detach_stdout()
    except OSError as err:
        _stdout_failed(err)


def _stdout_failed(err: OSError) -> NoReturn:
    """A report that could not be printed (a full disk behind ``> report.txt``) is a failure
    to say in words, not an internal error; what is left in the buffer is dropped, or the
    flush at exit would fail again."""
    detach_stdout()
    raise OutputError(f"cannot write the report to standard output: {err.strerror or err}") \
        from None


def write_stdout_bytes(data: bytes) -> None:
    """Print bytes as they are (a diff keeps the file's own bytes for ``git apply``)."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:  # an in-process capture without bytes: text is the best it takes
            sys.stdout.write(data.decode("utf-8", "surrogateescape"))
        else:
            buffer.write(data)
        sys.stdout.flush()
    except BrokenPipeError:
        detach_stdout()
    except OSError as err:
        _stdout_failed(err)


def write_file(path: str, text) -> None:
    """Write the report (text, or bytes for a diff) atomically: a temporary file in the same
    folder, then a rename, so the previous report stays whole until the new one is; no
    signal that can be caught leaves the temporary file (SIGKILL's is removed by the next
    run).  A device or FIFO (``-o /dev/stderr``), or a folder that takes no new file, is
    written in place.  OutputError when it fails, leaving no part of it behind."""
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    target = os.path.realpath(path)  # a symlink stays one: its target gets the report
    if os.path.exists(target) and not os.path.isfile(target):
        _write_in_place(path, data)
        return
    from ..files.tempfiles import create_beside, held, remove_stale_in
    remove_stale_in(os.path.dirname(target) or os.curdir)
    temp = None
    try:
        try:
            with held():  # created and noted at once
                handle, temp = create_beside(target)
        except PermissionError:  # a writable report in a folder that takes no new file
            _write_in_place(path, data)
            return
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        _keep_mode(target, temp)
        with held():
            os.replace(temp, target)
            temp = None
    except OSError as err:
        raise OutputError(f"--output {path}: cannot write it: {err.strerror or err}") from None
    finally:
        if temp is not None:
            with held():
                _unlink(temp)


def _keep_mode(target: str, temp: str) -> None:
    """The report's mode as it was, or as a new file's would be (the umask's)."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temp, mode)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _write_in_place(path: str, data: bytes) -> None:
    opened = False
    try:
        with open(path, "wb") as handle:
            opened = True
            handle.write(data)
    except OSError as err:
        if opened and os.path.isfile(path):  # never a device such as /dev/full
            _unlink(path)
        raise OutputError(f"--output {path}: cannot write it: {err.strerror or err}") from None


def _use_color(choice: str, to_file: bool) -> bool:
    if choice != "auto":
        return choice == "always"
    terminal = sys.stdout is not None and sys.stdout.isatty()  # None: started with it closed
    return not to_file and terminal and not os.environ.get("NO_COLOR")


def render(fmt: str, results, args, to_file: bool, version: Callable[[], str]) -> str:
    """A report of findings in ``fmt`` (``auto``: github under GitHub Actions, else text),
    as the check and compat print it; ``version`` is read only by the formats that show it."""
    if fmt == "auto":
        fmt = "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    if fmt == "text":
        from ..reporting import text
        return text.render(results, "", color=_use_color(args.color, to_file),
                           quiet=args.quiet, statistics=args.statistics,
                           show_consequences=getattr(args, "show_consequences", False))
    from ..reporting import FORMATTERS
    return FORMATTERS[fmt](results, version())
