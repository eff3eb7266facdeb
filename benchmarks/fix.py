#!/usr/bin/env python3
"""What --diff and --fix cost on top of checking, side by side in one run.

For one IR (default: the 100k-layer LLM-like benchmark model) and a stale copy of it (N
output dims of inferred layers changed in place, with their consumers' ports, as a stale
export leaves them), each measured as a whole process, rounds interleaved, medians:

    check       irvalidate FILE
    diff        irvalidate --diff FILE
    fix         irvalidate --fix FILE   (the stale copy is written anew before each run)
    floor       the lxml parse floor (benchmarks/floor.py)
    read_model  OpenVINO's reader

and whether --fix restored the original bytes.  Nothing is asserted; figures are printed.

    python benchmarks/fix.py [--model PATH] [--stale 100] [--rounds 3]
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from coverage import mutants  # noqa: E402
from run import PY, READ_MODEL, ensure, measure  # noqa: E402

from irvalidate.fixing.editing.spans import start_tag  # noqa: E402
from irvalidate.ir.locate import dim_key, find_spans, record_keys  # noqa: E402
from irvalidate.ir.parser import parse  # noqa: E402


def stale_copy(xml: Path, count: int, rng: random.Random) -> bytes:
    """The file with ``count`` caught mutants applied at once, in one scan."""
    chosen = rng.sample([m for m in mutants(str(xml)) if m[5]], count)
    doc = parse(str(xml))
    layers = {layer.id: layer for layer in doc.graph.layers}
    feeds = {}
    for edge in doc.graph.edges:
        feeds.setdefault((edge.from_layer, edge.from_port), []).append(edge)
    ports = []
    for layer_id, _, _, index, axis, _ in chosen:
        port = layers[layer_id].outputs[index]
        new = port.dims[axis] + 1 if port.dims[axis] else 1
        ports.append((port, axis, new))
        for edge in feeds.get((layer_id, port.id), ()):
            target = next(p for p in layers[edge.to_layer].inputs if p.id == edge.to_port)
            if len(target.dims) > axis:
                ports.append((target, axis, new))
    keys = record_keys(doc, [p for p, _, _ in ports])
    wanted = {dim_key(keys[id(p)], axis): new for p, axis, new in ports}
    data = xml.read_bytes()
    spans = find_spans(data, wanted)
    for key, (start, end) in sorted(spans.items(), key=lambda kv: -kv[1][0]):
        inner = start_tag(data, start)[0]
        data = data[:inner] + b"%d" % wanted[key] + data[data.rfind(b"</", start, end):]
    return data


def command(tool: str, xml: Path) -> list:
    script = str(Path(PY).parent / "irvalidate")
    return {"check": [script, str(xml)], "diff": [script, "--diff", str(xml)],
            "fix": [script, "--fix", str(xml)], "read_model": [PY, "-c", READ_MODEL, str(xml)],
            "floor": [PY, str(HERE / "floor.py"), str(xml)]}[tool]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, help="the IR (default: llm-100000 in --dir)")
    ap.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "irv-bench")
    ap.add_argument("--stale", type=int, default=100, help="dims made stale (100)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    xml = args.model or ensure("llm", 100_000, args.dir, {})
    original = xml.read_bytes()
    work = Path(tempfile.mkdtemp(prefix="irv-fix-bench-"))
    clean, stale = work / "clean.xml", work / "stale.xml"
    clean.write_bytes(original)
    stale_bytes = stale_copy(xml, args.stale, random.Random(0))
    for name in ("clean.bin", "stale.bin"):  # a copy: a link out of the folder is refused
        (work / name).write_bytes(xml.with_suffix(".bin").read_bytes())
    import run
    cases = [("clean", clean, ("floor", "read_model", "check", "diff", "fix")),
             ("stale", stale, ("check", "diff", "fix"))]
    results = {}
    restored = []
    for r in range(args.rounds):
        for label, path, tools in cases:
            for tool in tools[r % len(tools):] + tools[:r % len(tools)]:
                if label == "stale":
                    stale.write_bytes(stale_bytes)
                run.command = lambda t, x, tool=tool: command(tool, x)
                res = measure(tool, path)
                if label == "stale" and tool == "fix":
                    restored.append(stale.read_bytes() == original)
                results.setdefault((label, tool), []).append(res)
                print(f"  round {r + 1} {label:<6} {tool:<10} {res['wall']:6.2f} s "
                      f"{res['rss_mb']:7.1f} MB rc={res['rc']}", file=sys.stderr)
    med = {k: statistics.median(x["wall"] for x in v) for k, v in results.items()}
    rss = {k: statistics.median(x["rss_mb"] for x in v) for k, v in results.items()}
    print(f"model: {xml.name} ({len(original) / 1e6:.0f} MB), {args.stale} stale dims, "
          f"{args.rounds} rounds, medians")
    print("| file | run | wall s | peak RSS MB | / check | / floor | / read_model |")
    print("|---|---|---|---|---|---|---|")
    for (label, tool), wall in med.items():
        check = med[(label, "check")]
        print(f"| {label} | {tool} | {wall:.2f} | {rss[(label, tool)]:.0f} | {wall / check:.2f} | "
              f"{wall / med[('clean', 'floor')]:.2f} | {wall / med[('clean', 'read_model')]:.2f} |")
    print(f"\n--fix restored the original bytes in {sum(restored)} of {len(restored)} runs")
    subprocess.run(["rm", "-rf", str(work)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
