#!/usr/bin/env python3
"""Start-up of ``irvalidate FILE`` on small IRs (the pre-commit case), against its floor.

run.py's start-up row times ``irvalidate FILE`` alone; this adds what explains it, with
run.py's own measurement (whole processes, interleaved, medians): ``python -c pass`` and
``python -c "import lxml.etree"`` (which no change to irvalidate can remove), the text, json,
sarif and github reports, and an import-time breakdown (``python -X importtime``).  Nothing is
asserted.

Time a non-editable install (an editable install's finder adds ~12 ms to every start):

    python3 -m venv /tmp/v && /tmp/v/bin/pip install . && /tmp/v/bin/python benchmarks/startup.py
    .../python benchmarks/startup.py --runs 30 my.xml
    .../python benchmarks/startup.py --instructions   # also callgrind's count of each case

On a shared machine the wall times of two runs can differ by 20%; the instruction counts
(valgrind's callgrind, one run each, ~15 s) move by less than 0.1% and tell what a change
bought.
Without files: two sample models (one with a broadcasting layer, one without), and run.py's
stress-10.xml when it has been generated.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run  # noqa: E402  (run.py: measure, bench, table)

SAMPLES = [HERE.parent / "sample_models" / "valid" / n
           for n in ("incompatible-inputs.xml", "duplicate-port-id.xml")]


def irvalidate(*args: str) -> list:
    script = Path(run.PY).parent / "irvalidate"     # the console script, as pre-commit runs it
    return [str(script), *args] if script.exists() else [run.PY, "-m", "irvalidate", *args]


CASES = {
    "pass": lambda xml: [run.PY, "-c", "pass"],
    "lxml": lambda xml: [run.PY, "-c", "import lxml.etree"],
    "text": lambda xml: irvalidate(str(xml)),
    "json": lambda xml: irvalidate("--format", "json", str(xml)),
    "sarif": lambda xml: irvalidate("--format", "sarif", str(xml)),
    "github": lambda xml: irvalidate("--format", "github", str(xml)),
}


def import_times(xml: Path, top: int) -> str:
    """The top-level imports of one ``irvalidate FILE`` run, by cumulative time."""
    cmd = irvalidate(str(xml))
    cmd = [run.PY, "-X", "importtime", *(cmd[1:] if cmd[0] == run.PY else cmd)]
    err = subprocess.run(cmd, capture_output=True, text=True, cwd=xml.parent).stderr
    rows = []
    for line in err.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit() and not parts[2].startswith("  "):
            rows.append((int(parts[1]), parts[2].strip()))   # depth 0: one space before the name
    rows.sort(reverse=True)
    return "\n".join(f"  {us / 1000:6.1f} ms  {name}" for us, name in rows[:top])


def instructions(cmd: list, cwd: Path) -> float:
    """Millions of instructions one run of ``cmd`` executes (valgrind's callgrind)."""
    err = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                         capture_output=True, text=True, cwd=cwd).stderr
    found = re.search(r"Collected : (\d+)", err)
    return int(found.group(1)) / 1e6 if found else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="small IRs (default: see above)")
    ap.add_argument("--runs", type=int, default=30, help="runs of each case (30)")
    ap.add_argument("--top", type=int, default=15, help="top-level imports listed (15)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count each case's instructions once with valgrind's callgrind")
    args = ap.parse_args(argv)
    files = args.files or SAMPLES + [p for p in [Path(run.tempfile.gettempdir()) / "irv-bench"
                                                 / "stress-10.xml"] if p.exists()]
    run.command = lambda tool, xml, extra=(): CASES[tool](xml)   # run.measure times our cases
    rows = run.bench(files, tuple(CASES), args.runs)
    print(f"python {sys.version.split()[0]} ({run.PY}); whole-process wall time, median of "
          f"{args.runs} interleaved runs\n\n{run.table(rows, tuple(CASES))}")
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("\n--instructions: valgrind is not installed (apt-get install valgrind)")
        else:
            print("\ninstructions (callgrind, millions; one run each):")
            for xml in files:
                counts = "  ".join(f"{case} {instructions(make(xml), xml.parent):7.1f}"
                                   for case, make in CASES.items())
                print(f"  {xml.name}: {counts}")
    for xml in files:
        print(f"\nimport time of `irvalidate {xml.name}` (one run, -X importtime):\n"
              f"{import_times(xml, args.top)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
