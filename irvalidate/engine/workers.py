"""``-j N``: files checked by N processes, the parent being one of them.

Every process (the parent and N - 1 worker processes) runs the same loop: take the next file
index from one counter in shared memory, check that file, go on until none is left.  No
process waits for another to hand it work, so the last file to start ends at most one file
after the others, and the parent works from the moment it has forked, rather than waiting
for its workers to start and import what they need (~30 ms of a 1.5 s folder).  Each worker
sends each file's result through its own pipe as soon as it is done (a thread of the parent
receives them), so a worker that is killed loses one file, which the report names.  Workers
end with their parent: SIGTERM, Ctrl-C's unwinding, stops them, and on Linux the kernel
sends it when the parent ends, however it ends.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from ..settings.config import Settings
    from .validation import FileResult

#: objects a worker may leave uncollected (the cyclic garbage of the files it has checked)
#: before it collects them
GARBAGE = 500_000

#: the shared counter, in a worker (given at its start: a shared value is inherited, never
#: sent later)
_counter = None
#: the exit status of a worker stopped by SIGTERM (128 + 15, as shells report it)
STOPPED = 143
#: Linux's prctl option: the signal a process gets when its parent ends
_PR_SET_PDEATHSIG = 1
#: the parent's pid, in a worker (None: this process is the parent)
_parent: int | None = None


class LostFiles(RuntimeError):
    """A worker process ended before it sent the results of the files it had taken: the
    message names them; ``results`` holds every file's result in the order given, a lost
    file's an IRV000 finding saying it was not checked (and, for --fix, whether it was
    rewritten all the same)."""

    def __init__(self, message: str, results: list[FileResult]) -> None:
        super().__init__(message)
        self.results = results


def run(paths: Sequence[str], bin_path: str | None, configs: Sequence[Settings],
        work: Callable[..., FileResult], processes: int) -> list[FileResult]:
    """``work(path, bin_path, config)`` on every file, by ``processes`` processes (at least
    2, this one included); the results in the order of ``paths``.  Plain multiprocessing
    processes and pipes, not a pool: each worker has one task, and importing
    concurrent.futures' pool costs ~20 ms more, before the first fork.  LostFiles when a
    worker ended (killed) before sending the results of the files it had taken."""
    import gc
    import multiprocessing

    from ..ir import scan_process
    # the largest files first: the files still being checked when the others are done are
    # then small ones (a 100 MB IR taken last would be checked by one process alone)
    order = sorted(range(len(paths)), key=lambda i: -_size(paths[i]))
    paths, configs = [paths[i] for i in order], [configs[i] for i in order]
    before = [_identity(path) for path in paths]  # to tell a lost file --fix rewrote
    _preload(paths[0])
    counter = multiprocessing.Value("q", 0)
    workers: list = []
    forked = multiprocessing.get_start_method() == "fork"
    # what the parent holds is frozen while the workers are forked: their collections neither
    # walk those objects nor write to their pages (which fork shares until written); they
    # are unfrozen after, unless the caller had frozen objects (gc.unfreeze would thaw those)
    unfreeze = gc.get_freeze_count() == 0
    gc.freeze()
    pipelined, scan_process.enabled = scan_process.enabled, False  # (the cores are busy)
    try:
        for _ in range(processes - 1):
            receiver, sender = multiprocessing.Pipe(duplex=False)
            # a forked worker closes the other workers' ends it inherits: when the parent
            # is gone, nobody reads its pipe, and writing to it fails instead of blocking
            inherited = [r for _, r in workers] if forked else []
            worker = multiprocessing.Process(target=_worker, daemon=True, args=(
                sender, counter, work, paths, bin_path, configs, os.getpid(), inherited))
            worker.start()
            sender.close()  # the worker's end: the parent sees EOF if the worker dies
            workers.append((worker, receiver))
        collector = _Collector(workers)
        done = drain(work, paths, bin_path, configs, counter)
        done += collector.results()
    except BaseException:
        for worker, _ in workers:  # Ctrl-C, or a worker that failed: the others stop now
            worker.terminate()
        for worker, _ in workers:
            worker.join(5)  # reaped (a worker stuck in the kernel is not waited for long)
        raise
    finally:
        scan_process.enabled = pipelined
        if unfreeze:
            gc.unfreeze()
    results: list = [None] * len(paths)
    for index, result in done:
        results[order[index]] = result
    if len(done) < len(paths):
        _lose([i for i in range(len(paths)) if results[order[i]] is None], paths, before,
              order, results, collector.ended)
    return results


def _preload(path: str) -> None:
    """Import the op modules the layers of the first file need before forking, so that every
    process has them (each would import its own: ~40 ms of a 0.6 s folder of 20 files).
    The types are read from the start of the file, as text: a guess, which costs 1 ms."""
    import re

    from ..ops.support import registry
    try:
        with open(path, "rb") as file:
            head = file.read(1 << 20)
    except OSError:
        return
    types = re.findall(rb' type="([A-Za-z0-9_]{1,64})"', head)
    registry.preload({t.decode("ascii") for t in types})


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # the check says what is wrong with it


def _identity(path: str) -> tuple[int, int, int] | None:
    """What a rewrite changes: --fix replaces a file by a rename (a new inode)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_ino, info.st_mtime_ns, info.st_size


class _Collector:
    """The workers' results, received on a thread of the parent as each file is done (the
    parent checks files meanwhile): a worker that is killed loses only the file it was on."""

    def __init__(self, workers: list) -> None:
        import threading
        self.workers = workers
        self.done: list = []
        self.error: BaseException | None = None
        #: the exit code of each worker that ended without saying it was done
        self.ended: list[int | None] = []
        self.thread = threading.Thread(target=self._receive, daemon=True)
        self.thread.start()

    def _receive(self) -> None:
        from multiprocessing.connection import Connection, wait
        pending = {receiver: worker for worker, receiver in self.workers}
        finished = set()
        while pending:
            for ready in wait(list(pending)):
                receiver = cast(Connection, ready)  # wait() gives back what it was given
                try:
                    kind, value = receiver.recv()
                except (EOFError, OSError):  # ended, or died mid-message
                    worker = pending.pop(receiver)
                    receiver.close()
                    if worker not in finished:
                        worker.join()
                        self.ended.append(worker.exitcode)
                    continue
                except Exception as err:  # noqa: BLE001 - a message that does not unpickle fails the run
                    receiver.close()  # (the worker's next send fails, and it ends)
                    finished.add(pending.pop(receiver))
                    self.error = self.error or err
                    continue
                if kind == "result":
                    self.done.append(value)
                    continue
                finished.add(pending[receiver])
                if kind == "done":
                    self.done.extend(value)
                elif self.error is None:
                    self.error = value

    def results(self) -> list:
        """Every result received, once the workers are done; a worker's exception raised
        here, as -j 1 would raise it."""
        self.thread.join()
        for worker, _ in self.workers:
            worker.join()
        if self.error is not None:
            raise self.error
        return self.done


def _lose(lost: list[int], paths: Sequence[str], before: list, order: list[int],
          results: list, ended: list[int | None]) -> None:
    """Raise LostFiles for the files (``lost``: indices in the order taken) whose results
    died with a worker; a file rewritten since the run started is said to be."""
    from ..reporting.names import shown_path
    from ..rules import INTERNAL_ERROR
    from ..rules.findings import FileFix, Finding
    from .validation import FileResult
    codes = ", ".join(str(code) for code in ended) or "unknown"
    fixing = any(getattr(r, "fix", None) is not None for r in results)
    names = []
    for index in lost:
        path, written = paths[index], _identity(paths[index]) != before[index]
        why = f"not checked: the worker process that took it ended with exit code {codes}"
        if written:
            why += ", and the file changed since the run started (rewritten by its --fix)"
        finding = Finding(path=path, line=None, code=INTERNAL_ERROR.CODE,
                          slug=INTERNAL_ERROR.SLUG, level="error", message=why)
        fix = FileFix(written=written, refused=why, failed=True) if fixing or written else None
        results[order[index]] = FileResult(path, [finding], [], fix)
        names.append(shown_path(path) + (" (rewritten)" if written else ""))
    raise LostFiles(f"a worker process ended with exit code {codes} before its files were "
                    f"checked; not checked: {', '.join(names)}", results)


def _worker(sender, counter, work, paths, bin_path, configs, parent: int | None = None,
            inherited: Sequence = ()) -> None:
    """A worker's one task: drain, sending each file's result as it is done, then say it is
    done or send the exception.  It ignores Ctrl-C: the terminal sends it to the whole
    process group, and the parent alone handles it (exit 130, see cli.main) instead of every
    worker printing a KeyboardInterrupt traceback.  SIGTERM (the parent's terminate, or its
    death) ends it, through the same unwinding (a temporary file of --fix removed)."""
    import signal

    from ..ir import scan_process
    global _counter, _parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    for receiver in inherited:
        receiver.close()
    _parent = parent
    _end_with_parent(parent)
    scan_process.enabled = False  # (started by spawn, it imported the module afresh)
    _counter = counter
    try:
        drain(work, paths, bin_path, configs, sent=lambda index, result: sender.send(
            ("result", (index, result))))
        message: tuple = ("done", [])
    except Exception as err:  # noqa: BLE001 - an internal error: the parent raises it, as -j 1 would
        message = ("error", err)
    try:
        sender.send(message)
    except OSError:
        pass  # nobody reads this pipe any more: the parent is gone, or stopped reading it
    except Exception as err:  # noqa: BLE001 - what cannot be pickled travels as words
        what = message[1] if message[0] == "error" else err
        sender.send(("error", RuntimeError(f"in a worker: {type(what).__name__}: {what}")))
    sender.close()


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(STOPPED)


def _end_with_parent(parent: int | None) -> None:
    """Have the kernel send this worker SIGTERM when its parent ends, however it ends (kill
    -9 included, when nothing of the parent runs); Linux only: elsewhere a worker sees it
    between files (drain) or when its pipe has no reader."""
    if parent is None:
        return
    import signal
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM))
        except (OSError, AttributeError):
            pass  # no prctl: the checks between files remain
    if os.getppid() != parent:  # it ended before the signal was asked for
        raise SystemExit(STOPPED)


def drain(work: Callable[..., FileResult], paths: Sequence[str], bin_path: str | None,
          configs: Sequence[Settings], counter=None,
          sent: Callable[[int, FileResult], None] | None = None
          ) -> list[tuple[int, FileResult]]:
    """Check the files whose indices this process takes from ``counter`` (a worker's own:
    the one it was started with) until none is left; (index, result) pairs, or each handed
    to ``sent`` as it is done (a worker's, which stops if its parent has ended).

    Collections triggered while a file is checked cost a worker 15-20% of its time (20
    medium IRs); the cycles the files leave are collected between files once they pass
    GARBAGE objects, and what is left when the worker ends goes with its process."""
    import gc
    in_worker = counter is None
    counter = _counter if in_worker else counter
    done: list[tuple[int, FileResult]] = []
    was_enabled = gc.isenabled()
    gc.disable()  # as a run without workers (engine.collector)
    try:
        while True:
            with counter.get_lock():
                index = counter.value
                counter.value = index + 1
            if index >= len(paths):
                return done
            if in_worker and gc.get_count()[0] > GARBAGE:
                gc.collect()
            if _parent is not None and os.getppid() != _parent:
                raise SystemExit(STOPPED)  # the parent is gone: nobody reads the results
            result = work(paths[index], bin_path, configs[index])
            if sent is None:
                done.append((index, result))
            else:
                sent(index, result)
    finally:
        if was_enabled:
            gc.enable()
