"""``-j N``: files checked by N processes, the parent being one of them.

Every process (the parent and N - 1 worker processes) runs the same loop: take the next file
index from one counter in shared memory, check that file, go on until none is left.  No
process waits for another to hand it work, so the last file to start ends at most one file
after the others, and the parent works from the moment it has forked, rather than waiting
for its workers to start and import what they need (~30 ms of a 1.5 s folder).  Each worker
sends its results back once, through its own pipe, when the counter is spent.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from .config import Config
    from .engine import FileResult

#: objects a worker may leave uncollected (the cyclic garbage of the files it has checked)
#: before it collects them
GARBAGE = 500_000

#: the shared counter, in a worker (given at its start: a shared value is inherited, never
#: sent later)
_counter = None


def run(paths: Sequence[str], bin_path: Optional[str], configs: Sequence["Config"],
        work: Callable[..., "FileResult"], processes: int) -> List["FileResult"]:
    """``work(path, bin_path, config)`` on every file, by ``processes`` processes (at least
    2, this one included); the results in the order of ``paths``.  Plain multiprocessing
    processes and pipes, not a pool: each worker has one task, and importing
    concurrent.futures' pool costs ~20 ms more, before the first fork."""
    import gc
    import multiprocessing

    from .ir import scan_process
    # the largest files first: the files still being checked when the others are done are
    # then small ones (a 100 MB IR taken last would be checked by one process alone)
    order = sorted(range(len(paths)), key=lambda i: -_size(paths[i]))
    paths, configs = [paths[i] for i in order], [configs[i] for i in order]
    _preload(paths[0])
    counter = multiprocessing.Value("q", 0)
    workers = []
    # what the parent holds is frozen while the workers are forked: their collections neither
    # walk those objects nor write to their pages (which fork shares until written); they
    # are unfrozen after, unless the caller had frozen objects (gc.unfreeze would thaw those)
    unfreeze = gc.get_freeze_count() == 0
    gc.freeze()
    pipelined, scan_process.enabled = scan_process.enabled, False  # (the cores are busy)
    try:
        for _ in range(processes - 1):
            receiver, sender = multiprocessing.Pipe(duplex=False)
            worker = multiprocessing.Process(target=_worker, daemon=True, args=(
                sender, counter, work, paths, bin_path, configs))
            worker.start()
            sender.close()  # the worker's end: the parent sees EOF if the worker dies
            workers.append((worker, receiver))
        done = drain(work, paths, bin_path, configs, counter)
        for worker, receiver in workers:
            done += _results_of(worker, receiver)
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
    results: List = [None] * len(paths)
    for index, result in done:
        results[order[index]] = result
    return results


def _preload(path: str) -> None:
    """Import the op modules the layers of the first file need before forking, so that every
    process has them (each would import its own: ~40 ms of a 0.6 s folder of 20 files).
    The types are read from the start of the file, as text: a guess, which costs 1 ms."""
    import re

    from .ops import registry
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


def _results_of(worker, receiver) -> list:
    """What a worker sends when the files are done; its exception raised here."""
    try:
        kind, value = receiver.recv()
    except EOFError:
        worker.join()
        raise RuntimeError(f"a worker process ended with exit code {worker.exitcode} "
                           "before its files were checked") from None
    finally:
        receiver.close()
    worker.join()
    if kind == "error":
        raise value
    return value


def _worker(sender, counter, work, paths, bin_path, configs) -> None:
    """A worker's one task: drain, and send the results or the exception back.  It ignores
    Ctrl-C: the terminal sends it to the whole process group, and the parent alone handles it
    (exit 130, see cli.main) instead of every worker printing a KeyboardInterrupt traceback."""
    import signal

    from .ir import scan_process
    global _counter
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    scan_process.enabled = False  # (started by spawn, it imported the module afresh)
    _counter = counter
    try:
        message = ("done", drain(work, paths, bin_path, configs))
    except Exception as err:  # an internal error: the parent raises it, as -j 1 would
        message = ("error", err)
    try:
        sender.send(message)
    except Exception as err:  # what cannot be pickled travels as words
        what = message[1] if message[0] == "error" else err
        sender.send(("error", RuntimeError(f"in a worker: {type(what).__name__}: {what}")))
    sender.close()


def drain(work: Callable[..., "FileResult"], paths: Sequence[str], bin_path: Optional[str],
          configs: Sequence["Config"], counter=None) -> List[Tuple[int, "FileResult"]]:
    """Check the files whose indices this process takes from ``counter`` (a worker's own:
    the one it was started with) until none is left; (index, result) pairs.

    Collections triggered while a file is checked cost a worker 15-20% of its time (20
    medium IRs); the cycles the files leave are collected between files once they pass
    GARBAGE objects, and what is left when the worker ends goes with its process."""
    import gc
    in_worker = counter is None
    counter = _counter if in_worker else counter
    done = []
    was_enabled = gc.isenabled()
    gc.disable()  # as a run without workers (api._without_cycle_collector)
    try:
        while True:
            with counter.get_lock():
                index = counter.value
                counter.value = index + 1
            if index >= len(paths):
                return done
            if in_worker and gc.get_count()[0] > GARBAGE:
                gc.collect()
            done.append((index, work(paths[index], bin_path, configs[index])))
    finally:
        if was_enabled:
            gc.enable()
