#!/usr/bin/env python3
"""How irvalidate's time grows on hostile inputs: long chains, and n against 4n of one thing.

Issue 25 moved these measurements out of tests/test_hostile.py, where they were asserted
and flaky on a shared CI machine.  The inputs are that file's own (``add_chain``, ``_wide``
and ``WIDE``), so the benchmark measures what the tests check for behaviour.  Each case is
checked in this process by ``validate_file``, the fastest of ``--rounds`` runs, with the
objects already held frozen out of the collector's sight and the collector off: what remains
is the algorithm's own growth (CPython's collections make allocation-heavy code look ~20%
superlinear, and noisy).  Growth is judged on CPU time, which other jobs on the machine do
not stretch.  Nothing is asserted: the targets are printed as met / NOT met; a 4x step may
cost at most 6x the CPU time (a quadratic walk costs 16x), and the largest input of each
case stays under 10 s of wall-clock time with the collector on.

    python benchmarks/hostile.py             # every case (~1-2 min on 2 cores)
    python benchmarks/hostile.py --rounds 1  # one run per size
    python benchmarks/hostile.py cycle fan-out
"""
from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "tests")]

from test_hostile import WIDE, _wide, _write, add_chain  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402

#: the largest ratio of CPU times a 4x step may show (linear: 4x; quadratic: 16x)
MAX_GROWTH = 6.0
#: wall-clock seconds the largest input of a case may take, collector on
TIME_LIMIT = 10.0
#: CPU seconds under which a baseline is mostly noise and warm-up: ratios divide by at least this
NOISE_FLOOR = 0.1
CHAIN_SIZES = (2000, 8000, 32000)


@dataclass
class Timing:
    wall: float  #: wall-clock seconds (perf_counter): what the time limit bounds
    cpu: float   #: CPU seconds of this process: what growth is judged on


def timed(path: Path, repeat: int, collect: bool) -> Timing:
    """validate_file on ``path``, the fastest of ``repeat`` runs; ``collect=False`` turns the
    cyclic collector off for the runs."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.freeze()
        if not collect:
            gc.disable()
        try:
            start, start_cpu = time.perf_counter(), time.process_time()
            validate_file(str(path))
            cpu = min(cpu, time.process_time() - start_cpu)
            wall = min(wall, time.perf_counter() - start)
        finally:
            gc.enable()
            gc.unfreeze()
    return Timing(wall, cpu)


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def growth_cells(small: Timing, large: Timing) -> str:
    """The CPU times, their ratio, and the verdict on it (judged against NOISE_FLOOR when
    the small input took less)."""
    judged = large.cpu / max(small.cpu, NOISE_FLOOR)
    return (f"{small.cpu:.3f} | {large.cpu:.3f} | {large.cpu / small.cpu:.2f} | "
            f"{verdict(judged < MAX_GROWTH)}")


def chain_rows(folder: Path, rounds: int) -> list[str]:
    """Add chains of 2k, 8k and 32k layers: the growth of each 4x step."""
    paths = [add_chain(n).write(folder, f"chain{n}") for n in CHAIN_SIZES]
    times = [timed(path, rounds, collect=False) for path in paths]
    real = timed(paths[-1], 1, collect=True)
    rows = []
    for (n1, t1), (n2, t2) in zip(zip(CHAIN_SIZES, times), zip(CHAIN_SIZES[1:], times[1:])):
        rows.append(f"| add-chain | {n1} -> {n2} | {growth_cells(t1, t2)} | |")
    rows.append(f"| add-chain | {CHAIN_SIZES[-1]}, collector on | | | | | "
                f"{real.wall:.2f} s, {verdict(real.wall < TIME_LIMIT)} |")
    return rows


def wide_row(kind: str, folder: Path, rounds: int) -> str:
    """n and 4n of one thing (inputs of a layer, edges into a port, ...)."""
    n = WIDE[kind]
    small = _write(_wide(kind, n), folder, f"{kind}-small")
    large = _write(_wide(kind, 4 * n), folder, f"{kind}-large")
    t1, t2 = timed(small, rounds, collect=False), timed(large, rounds, collect=False)
    real = timed(large, 1, collect=True)
    return (f"| {kind} | {n} -> {4 * n} | {growth_cells(t1, t2)} | {real.wall:.2f} s, "
            f"{verdict(real.wall < TIME_LIMIT)} |")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="*", help=f"add-chain and/or some of: {', '.join(sorted(WIDE))}")
    ap.add_argument("--rounds", type=int, default=3, help="runs per size; the fastest counts")
    args = ap.parse_args(argv)
    known = {"add-chain", *WIDE}
    chosen = args.cases or ["add-chain", *sorted(WIDE)]
    unknown = sorted(set(chosen) - known)
    if unknown:
        ap.error(f"unknown case(s): {', '.join(unknown)}")
    print(f"| case | sizes | CPU s (n) | CPU s (4n) | growth | < {MAX_GROWTH:g}x | "
          f"largest, wall, < {TIME_LIMIT:g} s |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="irv-hostile-") as tmp:
        for kind in chosen:
            rows = (chain_rows(Path(tmp), args.rounds) if kind == "add-chain"
                    else [wide_row(kind, Path(tmp), args.rounds)])
            print("\n".join(rows), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
