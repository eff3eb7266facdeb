"""Temporary files that are never left behind by a signal that can be caught, and that a later
run removes when a signal that cannot (SIGKILL) left them.

Each name carries the host and the process that made it (``.m.xml.HOST-PID-XXXXXXXX.irvalidate``,
``irvalidate-fix-HOST-PID-XXXXXXXX``); a name whose process no longer runs on this host is
stale, and the next run that writes beside it removes it.  A live process with a reused pid
keeps its files: a stale file may stay longer, never is a live one removed.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING

#: the suffix of a temporary file beside the file it replaces
SUFFIX = ".irvalidate"
#: the prefix of --fix's private folder in $TMPDIR
PRIVATE_PREFIX = "irvalidate-fix-"
_OWNER = re.compile(r"(?P<host>[^/]*)-(?P<pid>\d+)-[a-z0-9_]{8}$")


def _signal_module() -> ModuleType:
    if TYPE_CHECKING:  # _signal has no stub; it holds what signal.py declares
        import signal
    else:
        try:
            import _signal as signal  # the C module: signal.py's enums cost ~0.7 ms of a start
        except ImportError:
            import signal
    return signal


@contextmanager
def held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back while the block runs (creating a temporary file and
    noting its name, renaming it, removing it), then acted on: a signal never falls between
    a file's creation and the code that removes it.  Handlers are set in the main thread
    only (Python runs them there); elsewhere the block runs as it is."""
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal = _signal_module()
    caught: list[int] = []
    wanted = (signal.SIGINT, signal.SIGTERM)
    before = {}
    for number in wanted:
        before[number] = signal.signal(number, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for number in wanted:
            signal.signal(number, before[number])
        if caught:
            _deliver(caught[0], before[caught[0]], signal)


def _deliver(number: int, handler, signal) -> None:
    """What the signal would have done had it not been held."""
    if callable(handler):
        handler(number, None)
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), number)


def _host() -> str:
    return os.uname().nodename if hasattr(os, "uname") else "host"


def _owner() -> str:
    return f"{_host()}-{os.getpid()}"


def _random() -> str:
    return next(tempfile._get_candidate_names())  # type: ignore[attr-defined]  # private in the stub, as tempfile names


def create_beside(target: str) -> tuple[int, str]:
    """A new empty file in ``target``'s folder, opened for writing: its descriptor and name.
    Call it within :func:`held` and note the name before the block ends."""
    folder = os.path.dirname(target) or os.curdir
    prefix = f".{os.path.basename(target)}.{_owner()}-"
    for _ in range(100):
        name = os.path.join(folder, prefix + _random() + SUFFIX)
        try:
            return os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                           0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")


def private_folder() -> str:
    """A new folder in $TMPDIR for --fix's private copies (within :func:`held`)."""
    return tempfile.mkdtemp(prefix=f"{PRIVATE_PREFIX}{_owner()}-")


def _stale(owner: str) -> bool:
    match = _OWNER.match(owner)
    if match is None or match["host"] != _host():
        return False
    pid = int(match["pid"])
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False


def _remove_stale(folder: str, owner_of: Callable[[str], str], remove: Callable[[str], None]
                  ) -> int:
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    count = 0
    for name in names:
        owner = owner_of(name)
        if owner and _stale(owner):
            try:
                remove(os.path.join(folder, name))
                count += 1
            except OSError:
                pass
    return count


#: the folders this process has cleaned of stale temporary files (once each: a listing)
_cleaned: set[str] = set()


def remove_stale_in(folder: str) -> int:
    """Remove the temporary files dead processes left in ``folder`` (once per process)."""
    key = os.path.realpath(folder)
    if key in _cleaned:
        return 0
    _cleaned.add(key)

    # .NAME.HOST-PID-XXXXXXXX.irvalidate, this host's only (a NAME may hold dots, a host too)
    beside = re.compile(r"\..+\.(?P<owner>" + re.escape(_host()) + r"-\d+-[a-z0-9_]{8})"
                        + re.escape(SUFFIX) + "$")

    def owner_of(name: str) -> str:
        match = beside.match(name)
        return match["owner"] if match else ""
    return _remove_stale(folder, owner_of, os.unlink)


def remove_stale_private() -> int:
    """Remove the private folders dead --fix runs left in $TMPDIR."""
    def owner_of(name: str) -> str:
        return name[len(PRIVATE_PREFIX):] if name.startswith(PRIVATE_PREFIX) else ""
    return _remove_stale(tempfile.gettempdir(), owner_of, shutil.rmtree)
