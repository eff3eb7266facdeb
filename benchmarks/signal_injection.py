#!/usr/bin/env python3
"""Random kills during ``--fix`` and ``-o``: every file is always old or new, nothing is left.

Each trial restores a folder of fixable models (small ones and one of ~2 MB) and a previous
report, starts ``irvalidate --fix --format json -o REPORT -j {1,2} MODELS`` (half the
trials) or ``irvalidate --format json -o REPORT CHAIN`` (a 1.8 MB report) with its own
``$TMPDIR``, sends SIGTERM, SIGINT (to the process group, as a terminal does) or SIGKILL
after a random delay (uniform over a clean run's duration; its second half for the large
report, which is written at the end), waits for every process of the run to end, then
checks:

* each model is byte for byte its original or what a clean ``--fix`` writes;
* the report is the previous one or what a clean run writes;
* no temporary file is left (``*.irvalidate`` beside the models or the report, anything in
  ``$TMPDIR``), and no traceback was printed.

What is promised for SIGKILL, which nothing can catch: the files are old or new, a temporary
file may remain, and the next run removes it; a SIGKILL trial that leaves one runs again
without a signal, and counts whether that run removed it.

    python benchmarks/signal_injection.py [--trials 120] [--seed 1] [--source DIR]

``--source`` runs another checkout's irvalidate (a folder holding its ``irvalidate``
package), to compare.  Figures are printed; the exit status is 1 when a promise is broken.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "sample_models" / "broken" / "IRV101-output-shape-mismatch"
SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGKILL)
LIMIT = 120  # seconds; reached only by a hang


def make_models(folder: Path) -> dict[str, bytes]:
    """Six small fixable models and one padded to ~2 MB (a long write): name -> bytes."""
    folder.mkdir(parents=True)
    text = SAMPLE.with_suffix(".xml").read_bytes()
    models = {f"m{i}.xml": text for i in range(6)}
    models["large.xml"] = text + b"<!-- " + b"x" * (2 << 20) + b" -->\n"
    for name, data in models.items():
        (folder / name).write_bytes(data)
        shutil.copyfile(SAMPLE.with_suffix(".bin"), folder / name.replace(".xml", ".bin"))
    return models


def make_large_report_model(folder: Path) -> Path:
    """A chain of 3,000 ReLUs, every other one declaring a stale dim: a 1.8 MB JSON report."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    from support.irbuilder import IR
    ir = IR()
    last = ir.parameter("2,3")
    for i in range(3000):
        last = ir.op("Relu", [last], [[2, 4] if i % 2 == 0 else [2, 3]])
    ir.result(last)
    folder.mkdir()
    ir.write(folder, "chain")
    return folder / "chain.xml"


class Bench:
    def __init__(self, work: Path, source: Path) -> None:
        self.work, self.source = work, source
        self.models, self.reports, self.private = work / "models", work / "reports", work / "tmp"
        self.original = make_models(self.models)
        self.chain = make_large_report_model(work / "chain")
        self.reports.mkdir()
        self.private.mkdir()
        self.report = self.reports / "report.json"
        self.previous = b"the previous report\n"
        self.scenario = "fix"

    def command(self, jobs: int) -> list[str]:
        if self.scenario == "report":  # -o alone, a large report
            return [sys.executable, "-m", "irvalidate", "--format", "json", "-o",
                    str(self.report), str(self.chain)]
        return [sys.executable, "-m", "irvalidate", "--fix", "--format", "json", "-o",
                str(self.report), "-j", str(jobs), str(self.models)]

    def env(self) -> dict:
        return {**os.environ, "PYTHONPATH": str(self.source), "TMPDIR": str(self.private)}

    def run(self, jobs: int, **kwargs):
        # run from the work folder: ``-m`` puts the working directory first on the path
        return subprocess.run(self.command(jobs), env=self.env(), capture_output=True,
                              timeout=LIMIT, cwd=self.work, **kwargs)

    def reset(self) -> None:
        for name, data in self.original.items():
            (self.models / name).write_bytes(data)
        self.report.write_bytes(self.previous)

    def clean_run(self) -> tuple[float, dict[str, bytes], bytes]:
        """A run of the scenario without a signal: its duration, the fixed models, the
        report."""
        self.reset()
        start = time.monotonic()
        done = self.run(1)
        took = time.monotonic() - start
        assert done.returncode in (0, 1), done.stderr
        fixed = {name: (self.models / name).read_bytes() for name in self.original}
        if self.scenario == "fix":
            assert all(fixed[n] != self.original[n] for n in fixed), "a model was not fixed"
        return took, fixed, self.report.read_bytes()

    def leftovers(self) -> list[str]:
        left = [p.name for folder in (self.models, self.reports) for p in folder.iterdir()
                if p.name.endswith(".irvalidate")]
        return left + [f"$TMPDIR/{p.name}" for p in self.private.iterdir()]


def _wait_group(pgid: int) -> None:
    """Until no process of the run's group is left (a -j worker ends with its parent)."""
    deadline = time.monotonic() + LIMIT
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    os.killpg(pgid, signal.SIGKILL)
    raise AssertionError("a process of the run outlived it")


def trial(bench: Bench, rng: random.Random, took: float, sig: int) -> dict:
    bench.reset()
    # the report scenario aims at its end, where the report is written
    start = took / 2 if bench.scenario == "report" else 0
    jobs, delay = rng.choice((1, 2)), rng.uniform(start, took)
    proc = subprocess.Popen(bench.command(jobs), env=bench.env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, cwd=bench.work)
    time.sleep(delay)
    try:
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # Ctrl-C: the terminal signals the whole group
        else:
            os.kill(proc.pid, sig)
    except ProcessLookupError:
        pass  # it ended first
    _, err = proc.communicate(timeout=LIMIT)
    _wait_group(proc.pid)
    return {"jobs": jobs, "delay": delay, "status": proc.returncode,
            "traceback": _ours(err), "start-up": b"Traceback" in err and not _ours(err),
            "left": bench.leftovers(),
            "last": err.decode(errors="replace").strip().splitlines()[-12:]}


def _ours(err: bytes) -> bool:
    """A traceback through irvalidate's code; not one of Python's start-up (site's .pth files,
    runpy), where a signal lands before any of irvalidate runs and nothing is written."""
    return b"Traceback" in err and any(
        b"/irvalidate/" in line for line in err.splitlines() if line.startswith(b"  File "))


def judge(bench: Bench, fixed: dict[str, bytes], report: bytes) -> tuple[int, int, int, int]:
    """(models new, models neither old nor new, report new, report neither)."""
    new = broken = 0
    for name, data in bench.original.items():
        now = (bench.models / name).read_bytes()
        new += now == fixed[name] != data
        broken += now not in (data, fixed[name])
    written = bench.report.read_bytes()
    return new, broken, int(written == report), int(written not in (bench.previous, report))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=HERE.parent,
                        help="the folder holding the irvalidate package to run")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="irv-signals-"))
    try:
        bench = Bench(work, args.source.resolve())
        clean = {}
        for scenario in ("fix", "report"):
            bench.scenario = scenario
            clean[scenario] = bench.clean_run()
            took, fixed, report = clean[scenario]
            print(f"clean {scenario} run: {took:.2f} s; report {len(report)} bytes")
        counts: dict[str, collections.Counter] = {}
        for number in range(args.trials):
            sig = SIGNALS[number % len(SIGNALS)]
            bench.scenario = ("fix", "report")[number // len(SIGNALS) % 2]
            took, fixed, report = clean[bench.scenario]
            outcome = trial(bench, rng, took, sig)
            new, broken, new_report, bad_report = judge(bench, fixed, report)
            name = f"{bench.scenario} {signal.Signals(sig).name}"
            c = counts.setdefault(name, collections.Counter())
            c["trials"] += 1
            c[f"exit {outcome['status']}"] += 1
            c["models new"] += new
            c["models torn"] += broken
            c["reports new"] += new_report
            c["reports torn"] += bad_report
            c["tracebacks"] += outcome["traceback"]
            c["start-up tracebacks"] += outcome["start-up"]
            if outcome["left"] or outcome["traceback"] or outcome["start-up"]:
                print(f"  trial {number}: {name} after {outcome['delay']:.2f} s"
                      f", -j {outcome['jobs']}, exit {outcome['status']}, left {outcome['left']}"
                      f"{', a traceback:' if outcome['traceback'] else ''}"
                      f"{', a start-up traceback' if outcome['start-up'] else ''}")
                if outcome["traceback"]:
                    print("\n".join("    | " + line for line in outcome["last"]))
            if outcome["left"]:
                c["left files"] += 1
                if sig == signal.SIGKILL:  # the next run must remove them
                    bench.run(1)
                    still = bench.leftovers()
                    c["left after the next run"] += bool(still)
                    print(f"    after the next run: {still}")
                for left in outcome["left"]:
                    path = (bench.private if left.startswith("$TMPDIR/") else bench.models)
                    shutil.rmtree(path / left.split("/")[-1], ignore_errors=True)
                    for folder in (bench.models, bench.reports):
                        if (folder / left).is_file():
                            (folder / left).unlink()
        broken = 0
        for name, c in counts.items():
            print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
            broken += c["models torn"] + c["reports torn"] + c["tracebacks"] + \
                c["left after the next run"] + (c["left files"] if not name.endswith("SIGKILL") else 0)
        print("every file old or new, nothing left behind" if not broken else
              f"{broken} broken promises")
        return 1 if broken else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
