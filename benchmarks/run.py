#!/usr/bin/env python3
"""Time irvalidate against OpenVINO's reader and the iterparse floor, as whole processes.

Why this shape (issue 6): a user pays for a whole process, start-up and imports included, so
each measurement is a fresh subprocess: ``irvalidate FILE``, ``ov.Core().read_model(FILE)`` in
a fresh python, and ``benchmarks/floor.py FILE``.  The machine may be shared, so the three are
interleaved round by round (order rotating) and medians reported; each child's own peak RSS and
CPU time come from ``os.wait4``.  Nothing is asserted: the issue's targets are printed as
met / NOT met (issue 16's).  Parts: the start-up case (a ~10-layer IR), the main table
(LLM-like and stress IRs), a scaling series whose log-log slope is given raw, minus the
start-up time, between the two largest sizes, and over the sizes of 10,000 layers or more
(the target's: the start-up flattens the raw slope at small sizes), with the time per layer,
and ``-j 2`` against ``-j 1`` on a folder of 20 medium IRs (copies of llm-3000).

    python benchmarks/run.py                 # full run (~5-10 min on 2 cores)
    python benchmarks/run.py --quick         # smoke run: small models, 1 round
    python benchmarks/run.py --llm 0 --series 1000,10000 --json out.json
    python benchmarks/run.py --baseline REV  # also time irvalidate at git revision REV
Models are generated on demand by make_models.py into --dir (default: irv-bench in the temporary directory).
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
#: every child runs ``python -S`` with this environment's site-packages on its path: what a
#: clean install pays, not the .pth files of the benchmark's own environment (an editable
#: install's import hook alone costs ~18 ms a process here)
SITE = sysconfig.get_paths()["purelib"]
ISOLATED = f"import sys; sys.path.append({SITE!r}); "
READ_MODEL = ISOLATED + "import openvino as ov; ov.Core().read_model(sys.argv[1])"
FROM_SOURCES = ISOLATED + ("sys.path.insert(0, sys.argv.pop(1))\n"
                           "try: from irvalidate.cli.main import main\n"
                           "except ImportError: from irvalidate.cli import main\n"  # a baseline before the cli/ package
                           "sys.exit(main(sys.argv[1:]))")
FLOOR = ISOLATED + ("sys.path.insert(0, sys.argv.pop(1)); from floor import floor; "
                    "print(*floor(sys.argv[1]))")
TOOLS = ("irvalidate", "baseline", "read_model", "floor")
#: the irvalidate sources each irvalidate tool runs (a snapshot, a baseline), or none: installed
SOURCES: dict = {}


def command(tool: str, xml: Path, extra: tuple = ()) -> list:
    if tool in SOURCES:
        return [PY, "-S", "-c", FROM_SOURCES, str(SOURCES[tool]), str(xml), *extra]
    if tool == "irvalidate":  # the live sources (an editable install's hook needs site)
        return [PY, "-S", "-c", FROM_SOURCES, str(HERE.parent), str(xml), *extra]
    if tool == "read_model":
        return [PY, "-S", "-c", READ_MODEL, str(xml)]
    return [PY, "-S", "-c", FLOOR, str(HERE), str(xml)]


def measure(tool: str, xml: Path, extra: tuple = ()) -> dict:
    """One whole-process run: wall s, the child's own CPU s and peak RSS (MB), exit code."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(command(tool, xml, extra), stdout=out, stderr=subprocess.STDOUT,
                                cwd=xml.parent)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        tail = out.read()[-400:].decode(errors="replace")
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024,
            "rc": proc.returncode, "tail": tail if proc.returncode else ""}


def snapshot(dest: Path, revision: str = "") -> Path:
    """Copy irvalidate's sources (as they are, or at a git revision) to dest and return it.
    The install is editable and the project may change during a long run: one run must not
    time two versions.  Byte-compiled up front, so no timed run pays for compiling."""
    dest.mkdir(parents=True, exist_ok=True)
    if revision:
        archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", revision, "irvalidate",
                                  "schemas"],  # older revisions link data/ir.rng there
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    else:
        shutil.copytree(HERE.parent / "irvalidate", dest / "irvalidate",
                        ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([PY, "-m", "compileall", "-q", str(dest)], check=True)
    return dest


def ensure(kind: str, layers: int, out: Path, gen: dict) -> Path:
    """The model's path, generated first if missing (the seconds it took go into gen)."""
    xml = out / f"{kind}-{layers}.xml"
    if not xml.exists():
        args = [PY, str(HERE / "make_models.py"), "--layers", str(layers), "--out", str(out)]
        t0 = time.perf_counter()
        subprocess.run(args + (["--stress"] if kind == "stress" else []), check=True,
                       stdout=subprocess.DEVNULL)
        gen[xml.name] = round(time.perf_counter() - t0, 1)
    return xml


def layer_count(xml: Path) -> int:
    """<layer> elements, counted in 64 KB chunks: the runner must stay small (see runner_rss)."""
    count, tail = 0, b""
    with open(xml, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            buf = tail + chunk
            count += buf.count(b"<layer ")
            tail = buf[-6:]            # a split "<layer " is counted once, in the next buffer
    return count


def runner_rss() -> float:
    """The runner's peak RSS (MB): Linux carries it into a child through fork/vfork + exec."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench(files: list, tools: tuple, rounds: int) -> list:
    """Interleaved rounds over every (file, tool); one summary row per file."""
    runs = {(f, t): [] for f in files for t in tools}
    for r in range(rounds):
        for f in files:
            order = tools[r % len(tools):] + tools[:r % len(tools)]   # rotate position
            for t in order:
                res = measure(t, f)
                runs[f, t].append(res)
                print(f"  round {r + 1}/{rounds} {f.name:<20} {t:<10} {res['wall']:7.2f} s "
                      f"{res['rss_mb']:7.1f} MB rc={res['rc']}", file=sys.stderr)
    rows = []
    for f in files:
        row = {"file": f.name, "layers": layer_count(f), "xml_mb": f.stat().st_size / 1e6}
        for t in tools:
            rs = runs[f, t]
            row[t] = {k: statistics.median(r[k] for r in rs) for k in ("wall", "cpu", "rss_mb")}
            row[t].update(walls=[r["wall"] for r in rs], rcs=sorted({r["rc"] for r in rs}))
            if any(r["rc"] for r in rs):
                row[t]["tail"] = next(r["tail"] for r in rs if r["rc"])
        rows.append(row)
    return rows


def ratio(row: dict, a: str, b: str, key: str = "wall") -> float:
    ok = a in row and b in row and row[b][key] > 0
    return row[a][key] / row[b][key] if ok else float("nan")


#: the smallest series size the slope target is read on
LARGE = 10_000


def slope(xs: list, ys: list) -> float:
    """Least-squares slope of log(y) against log(x) (nan with fewer than two usable points)."""
    pts = [(math.log(x), math.log(y)) for x, y in zip(xs, ys) if x > 0 and y > 0]
    if len({x for x, _ in pts}) < 2:
        return float("nan")
    return statistics.linear_regression(*zip(*pts)).slope


def fmt(v, spec=".2f") -> str:
    return "–" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def table(rows: list, tools: tuple, key: str = "wall") -> str:
    """A markdown table of medians (`key`: wall or cpu), ratios and peak RSS, per file."""
    pairs = [(a, b) for a, b in (("irvalidate", "read_model"), ("irvalidate", "floor"),
                                 ("irvalidate", "baseline"))
             if a in tools and b in tools]
    head = (["file", "layers", "XML MB"] + [f"{t} s" for t in tools]
            + [f"{a[:3]}/{b}" for a, b in pairs] + [f"RSS {t} MB" for t in tools])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = ([row["file"], str(row["layers"]), fmt(row["xml_mb"], ".1f")]
                 + [fmt(row[t][key], ".3f") for t in tools]
                 + [fmt(ratio(row, a, b, key)) for a, b in pairs]
                 + [fmt(row[t]["rss_mb"], ".0f") for t in tools])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def targets(startup: list, main: list, slopes: dict, jobs: dict) -> list:
    """Issue 16's targets against the measured figures (informative, never asserted)."""
    nan = float("nan")
    get = lambda r, t, k: r[t][k] if t in r else nan   # noqa: E731
    checks = []
    for r in [r for r in main if r["file"].startswith("llm")][:1]:
        checks += [(f"irv/read_model on {r['file']}", ratio(r, "irvalidate", "read_model"), 0.50),
                   (f"irv/floor on {r['file']}", ratio(r, "irvalidate", "floor"), 1.5)]
    for r in [r for r in main if r["file"].startswith("stress")][:1]:
        checks.append((f"irvalidate peak RSS MB on {r['file']}", get(r, "irvalidate", "rss_mb"), 60))
    for r in startup[:1]:
        checks.append((f"start-up s on {r['file']} ({r['layers']} layers)",
                       get(r, "irvalidate", "wall"), 0.100))
    checks.append((f"log-log slope of irvalidate time vs layers ({LARGE:,} or more)",
                   slopes.get("irvalidate", nan), 1.05))
    lines = [f"- {label}: {fmt(v, '.3f')} (target <= {lim}): "
             + ("n/a" if math.isnan(v) else "met" if v <= lim else "NOT met")
             for label, v, lim in checks]
    if jobs:
        speedup = jobs["speedup"]
        lines.append(f"- -j 2 against -j 1 on {jobs['files']} files: {speedup:.2f}x "
                     f"(target >= 1.7): {'met' if speedup >= 1.7 else 'NOT met'}")
    return lines


def parallel(folder: Path, rounds: int) -> dict:
    """``irvalidate -j 1 FOLDER`` against ``-j 2 FOLDER``, interleaved: medians and speed-up
    (of the medians), the CPU times (the workers' included: os.wait4 counts the children a
    process has waited for), and the median of each round's own ratio, which a machine whose
    speed drifts between rounds moves less."""
    runs: dict = {1: [], 2: []}
    for i in range(rounds):
        for jobs in ((1, 2) if i % 2 == 0 else (2, 1)):
            runs[jobs].append(measure("irvalidate", folder, ("-j", str(jobs))))
    walls = {j: statistics.median(r["wall"] for r in rs) for j, rs in runs.items()}
    cpus = {j: statistics.median(r["cpu"] for r in rs) for j, rs in runs.items()}
    paired = statistics.median(a["wall"] / b["wall"] for a, b in zip(runs[1], runs[2]))
    return {"files": len(list(folder.glob("*.xml"))), "rounds": rounds, "wall_j1": walls[1], "wall_j2": walls[2],
            "speedup": walls[1] / walls[2], "speedup_paired": paired, "cpu_j1": cpus[1],
            "cpu_j2": cpus[2], "rcs": sorted({r["rc"] for rs in runs.values() for r in rs})}


def medium_folder(out: Path, gen: dict, count: int = 20, layers: int = 3000) -> Path:
    """A folder of ``count`` copies of llm-``layers`` (a repository of medium IRs)."""
    source = ensure("llm", layers, out, gen)
    folder = out / f"folder-{count}x{source.stem}"
    folder.mkdir(exist_ok=True)
    for i in range(count):
        for suffix in (".xml", ".bin"):
            target = folder / f"m{i:02d}{suffix}"
            if not target.exists():
                shutil.copyfile(source.with_suffix(suffix), target)
    return folder


def code_state() -> str:
    """irvalidate's commit (read-only git), '+dirty' when its sources differ from it."""
    git = ["git", "-C", str(HERE.parent)]
    try:
        commit = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(git + ["status", "--porcelain", "--", "irvalidate"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")


def env_note() -> str:
    from importlib import metadata  # late: importing it grows the runner (see runner_rss)
    versions = {p: metadata.version(p) for p in ("openvino", "irvalidate", "lxml")}
    return (f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {os.cpu_count()} cores "
            f"({platform.processor() or platform.machine()}), python {platform.python_version()}, "
            + ", ".join(f"{k} {v}" for k, v in versions.items()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "irv-bench", help="model directory")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per main/series run (3)")
    ap.add_argument("--startup-rounds", type=int, default=10, help="runs of the start-up case")
    ap.add_argument("--llm", type=int, default=100_000, help="LLM-like layers (0: skip)")
    ap.add_argument("--stress", type=int, default=200_000, help="stress layers (0: skip)")
    ap.add_argument("--series", default="1000,3000,10000,30000,100000,200000",
                    help="comma-separated layer counts for the slope ('' to skip)")
    ap.add_argument("--series-kind", choices=("llm", "stress"), default="llm")
    ap.add_argument("--tools", default=",".join(TOOLS), help="subset of " + ",".join(TOOLS))
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: llm 3000, stress 5000, series 1000,3000,10000, 1 round "
                    "(options given explicitly still win)")
    ap.add_argument("--no-snapshot", action="store_true",
                    help="run the live irvalidate sources, not a copy taken at the start")
    ap.add_argument("--baseline", metavar="REV", default="",
                    help="also time irvalidate at this git revision, side by side (irv/baseline)")
    ap.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    ap.add_argument("--jobs-files", type=int, default=20, help="-j 2 against -j 1 on a folder of "
                    "this many medium IRs (llm-3000 copies; 0: skip)")
    ap.add_argument("--jobs-rounds", type=int, default=15,
                    help="rounds of the -j part (15: a round takes ~2.5 s, and this machine "
                    "class's speed drifts by 25%% between seconds)")
    args = ap.parse_args(argv)
    quick = dict(llm=3000, stress=5000, series="1000,3000,10000", rounds=1, startup_rounds=3,
                 jobs_files=6, jobs_rounds=1)
    for k, v in quick.items():   # --quick changes only what the command line left at default
        if args.quick and getattr(args, k) == ap.get_default(k):
            setattr(args, k, v)
    wanted = args.tools.split(",") + (["baseline"] if args.baseline else [])
    tools = tuple(t for t in TOOLS if t in wanted and (t != "baseline" or args.baseline))
    series = [int(s) for s in args.series.split(",") if s.strip()]

    gen: dict = {}
    small = ensure("stress", 10, args.dir, gen)
    big = [ensure(k, n, args.dir, gen) for k, n in (("llm", args.llm), ("stress", args.stress))
           if n]
    ser = [ensure(args.series_kind, n, args.dir, gen) for n in series]

    code0, snapdir = code_state(), tempfile.TemporaryDirectory(prefix="irv-snapshot-")
    if not args.no_snapshot:
        SOURCES["irvalidate"] = snapshot(Path(snapdir.name) / "now")
    if args.baseline:
        SOURCES["baseline"] = snapshot(Path(snapdir.name) / "baseline", args.baseline)
    load0, t0 = os.getloadavg(), time.perf_counter()
    print(f"start-up case: {small.name}, {args.startup_rounds} runs", file=sys.stderr)
    startup = bench([small], tools, args.startup_rounds)
    print(f"main table: {[f.name for f in big]}, {args.rounds} rounds", file=sys.stderr)
    main_rows = bench(big, tools, args.rounds)
    print(f"series: {[f.name for f in ser]}, {args.rounds} rounds", file=sys.stderr)
    ser_tools = tuple(t for t in ("irvalidate", "baseline", "floor") if t in tools)
    ser_rows = bench(ser, ser_tools, args.rounds) if ser else []
    jobs = {}
    if args.jobs_files and "irvalidate" in tools:
        folder = medium_folder(args.dir, gen, args.jobs_files)
        print(f"-j 2 against -j 1: {folder.name}, {args.jobs_rounds} rounds", file=sys.stderr)
        jobs = parallel(folder, max(args.jobs_rounds, 1))
    elapsed, load1, own_rss = time.perf_counter() - t0, os.getloadavg(), runner_rss()

    start_s = startup[0]["irvalidate"]["wall"] if "irvalidate" in tools else 0.0
    xs = [r["layers"] for r in ser_rows]
    slopes, net, top, large = {}, {}, {}, {}
    for t in ser_tools:
        ys = [r[t]["wall"] for r in ser_rows]
        slopes[t] = slope(xs, ys)
        # from 10,000 layers on, where the start-up is a third of the time or less: the
        # slope the target is read on (the raw one is flattened by the small sizes)
        big = [(x, y) for x, y in zip(xs, ys) if x >= LARGE]
        large[t] = slope(*zip(*big)) if len(big) >= 2 else float("nan")
        net[t] = slope(xs, [y - (start_s if t == "irvalidate" else 0.0) for y in ys])
        top[t] = slope(xs[-2:], ys[-2:])    # the two largest sizes: start-up no longer matters

    code1 = code_state()
    snapdir.cleanup()
    code = code0 + ("" if args.no_snapshot else " (a copy of the sources taken at the start)")
    if args.baseline:
        code += f"; baseline: {args.baseline}"
    if code1 != code0:
        code += f"; the sources were at {code1} by the end" + (
            " (CHANGED DURING RUN: timings mix versions)" if args.no_snapshot else "")
    out = [f"Machine: {env_note()}", f"irvalidate commit: {code}",
           f"Load average (1/5/15 min) at start {'/'.join(f'{x:.2f}' for x in load0)}, "
           f"at end {'/'.join(f'{x:.2f}' for x in load1)}; benchmark wall time {elapsed:.0f} s",
           "", f"Whole-process wall time, median; start-up row: {args.startup_rounds} runs, "
           f"others: {args.rounds} interleaved rounds", "",
           table(startup + main_rows, tools), "",
           "Same runs, CPU time (user+sys of the child) instead of wall time", "",
           table(startup + main_rows, tools, "cpu"), "",
           f"Peak RSS is each child's own (os.wait4); the runner's own peak was {own_rss:.0f} MB"
           " and Linux carries it into children, so no figure can read below it.", ""]
    if ser_rows:
        each = lambda d: ", ".join(f"{t} {fmt(d[t], '.3f')}" for t in ser_tools)  # noqa: E731
        out += [f"Scaling series ({args.series_kind}), {args.rounds} rounds", "",
                table(ser_rows, ser_tools), "", "Log-log slope of wall time vs layers:",
                f"- least squares over the series: {each(slopes)}",
                f"- least squares over the sizes of {LARGE:,} layers or more: {each(large)}",
                "- irvalidate's time per layer, start-up taken off (us): " + ", ".join(
                    f"{r['layers']:,} {(r['irvalidate']['wall'] - start_s) / r['layers'] * 1e6:.1f}"
                    for r in ser_rows if "irvalidate" in r),
                f"- the same, irvalidate minus its {start_s * 1000:.0f} ms start-up: "
                f"{fmt(net.get('irvalidate'), '.3f')}",
                f"- between the two largest sizes only: {each(top)}", ""]
    bad = [(r["file"], t, r[t]["rcs"]) for r in startup + main_rows + ser_rows for t in tools
           if t in r and r[t]["rcs"] != [0]]
    if jobs:
        out += [f"A folder of {jobs['files']} medium IRs, {jobs['rounds']} interleaved rounds: "
                f"-j 1 {jobs['wall_j1']:.2f} s, -j 2 "
                f"{jobs['wall_j2']:.2f} s, {jobs['speedup']:.2f}x (exit codes {jobs['rcs']}); "
                f"median of the rounds' own ratios {jobs['speedup_paired']:.2f}x; CPU time -j 1 "
                f"{jobs['cpu_j1']:.2f} s, -j 2 {jobs['cpu_j2']:.2f} s (workers included)", ""]
    out += [f"Non-zero exit codes: {bad}" if bad else "Every run exited 0.", "",
            "Issue 16 targets (informative):", *targets(startup, main_rows, large, jobs)]
    if gen:
        out += ["", "Generated this run (s): " + ", ".join(f"{k} {v}" for k, v in gen.items())]
    print("\n".join(out))
    if args.json:
        args.json.write_text(json.dumps({
            "machine": env_note(), "commit": code, "load_start": load0, "load_end": load1,
            "elapsed_s": elapsed, "rounds": args.rounds, "runner_rss_mb": own_rss,
            "startup": startup, "main": main_rows, "series": ser_rows,
            "series_kind": args.series_kind, "slope": slopes, "slope_minus_startup": net,
            "slope_two_largest": top, "slope_large": large, "jobs": jobs, "generated_s": gen}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
