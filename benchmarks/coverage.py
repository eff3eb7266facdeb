"""Mutation coverage: how many stale declared dims irvalidate catches, by op type.

    python benchmarks/coverage.py MODEL.xml... [--verify N] [--json out.json]

For every layer and every output port with a static dim, one mutant: the port's first static
dim changed (+1, or 1 for a 0), on the port and on every consumer input port its edges feed,
as a stale export would leave it.  A mutant is caught when an error finding names the layer.

Every mutant's verdict comes from one analysis of the unmutated file: a port's declared dims
feed nothing of its own layer's inference, and a modelled layer's consumers read what it
infers, not what it declares; so a mutant is caught exactly when the layer is modelled and
its inferred dim excludes the new value (output-shape-mismatch).  ``--verify N`` checks that
claim on N random mutants per file by writing them and running the validator on each.
Asserts nothing; prints a table (op type, layers, mutants, caught, coverage).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from irvalidate.analysis import analyse
from irvalidate.engine.validation import default_bin, validate_file
from irvalidate.ir.parser import parse
from irvalidate.ir.records import CONST_TYPES
from irvalidate.ir.weights import BinFile

Mutant = tuple[str, str, str, int, int, bool]   # layer id, name, type, port index, axis, caught


def mutants(path: str) -> list[Mutant]:
    """One mutant per output port with a static dim, top-level graph, with its verdict."""
    doc = parse(path)
    if doc.fatal:
        return []
    weights = BinFile(default_bin(path), os.path.dirname(os.path.abspath(path)))
    analysis = analyse(doc.graphs(), weights)[0]  # with the bodies, as the engine analyses
    found = []
    for layer in doc.graph.layers:
        kind = layer.type.lower()
        if kind in CONST_TYPES or kind == "parameter":
            continue  # their shape attribute is the truth: IRV214/215 compare it, not inference
        inferred = analysis.inferences.get(layer.id)
        for index, port in enumerate(layer.outputs):
            axis = next((i for i, d in enumerate(port.dims) if d is not None and d >= 0), None)
            if axis is None:
                continue
            new = port.dims[axis] + 1 if port.dims[axis] else 1
            shapes = inferred.outputs if inferred is not None else None
            shape = shapes[index] if shapes is not None and index < len(shapes) else None
            caught = (shape is not None and len(shape) == len(port.dims)
                      and not shape[axis].contains(new))
            found.append((layer.id, layer.name, layer.type, index, axis, caught))
    return found


def write_mutant(path: str, mutant: Mutant, folder: Path) -> Path:
    """The file with the mutant's dim changed on its port and its consumers' ports."""
    from lxml import etree
    layer_id, _, _, index, axis, _ = mutant
    tree = etree.parse(path)
    layer = tree.find(f"layers/layer[@id='{layer_id}']")
    port = layer.find("output").findall("port")[index]
    dim = port.findall("dim")[axis]
    new = str(int(dim.text) + 1 if int(dim.text) else 1)
    dim.text = new
    for edge in tree.findall("edges/edge"):
        if edge.get("from-layer") == layer_id and edge.get("from-port") == port.get("id"):
            target = tree.find(f"layers/layer[@id='{edge.get('to-layer')}']")
            for p in target.find("input").findall("port") if target is not None else ():
                if p.get("id") == edge.get("to-port") and len(p.findall("dim")) > axis:
                    p.findall("dim")[axis].text = new
    out = folder / "mutant.xml"
    tree.write(str(out))
    weights = Path(default_bin(path))
    if weights.exists():
        (folder / "mutant.bin").write_bytes(weights.read_bytes())
    return out


def mutant_bytes(path: str, mutant: Mutant) -> bytes:
    """The file's bytes with the mutant's dim changed in place (on its port and the input
    ports its edges feed), every other byte as it was: what a stale hand edit leaves."""
    from irvalidate.fixing.editing.spans import start_tag
    from irvalidate.ir.locate import dim_key, find_spans, record_keys
    layer_id, _, _, index, axis, _ = mutant
    doc = parse(path)
    layer = next(x for x in doc.graph.layers if x.id == layer_id)
    port = layer.outputs[index]
    ports = [port] + [p for e in doc.graph.edges if e.from_layer == layer_id and e.from_port == port.id
                      for x in doc.graph.layers if x.id == e.to_layer
                      for p in x.inputs if p.id == e.to_port and len(p.dims) > axis]
    keys = record_keys(doc, ports)
    data = Path(path).read_bytes()
    spans = find_spans(data, [dim_key(keys[id(p)], axis) for p in ports])
    new = b"%d" % (port.dims[axis] + 1 if port.dims[axis] else 1)
    for start, end in sorted(spans.values(), reverse=True):
        inner = start_tag(data, start)[0]
        data = data[:inner] + new + data[data.rfind(b"</", start, end):]
    return data


def fix_back(path: str, found: list[Mutant], count: int, rng: random.Random) -> tuple[int, int]:
    """(restored, tried): caught mutants that ``--fix`` turns back into the original file,
    byte for byte (the originals are loadable files on which irvalidate finds nothing)."""
    from irvalidate.fixing.run import fix_file
    original = Path(path).read_bytes()
    restored = tried = 0
    caught = [m for m in found if m[5]]
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "mutant.xml"
        weights = default_bin(path) if os.path.exists(default_bin(path)) else None
        for mutant in rng.sample(caught, min(count, len(caught))):
            target.write_bytes(mutant_bytes(path, mutant))
            fix_file(str(target), weights, write=True)
            restored += target.read_bytes() == original
            tried += 1
    return restored, tried


def verify(path: str, found: list[Mutant], count: int, rng: random.Random) -> tuple[int, int]:
    """(agreeing, checked) for ``count`` random mutants written out and validated."""
    agree = checked = 0
    with tempfile.TemporaryDirectory() as folder:
        for mutant in rng.sample(found, min(count, len(found))):
            mutated = write_mutant(path, mutant, Path(folder))
            named = any(f.level == "error" and f.layer is not None and f.layer.id == mutant[0]
                        for f in validate_file(str(mutated)).findings)
            agree += named == mutant[5]
            checked += 1
    return agree, checked


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+")
    parser.add_argument("--verify", type=int, default=0, metavar="N",
                        help="also write N random mutants per file and validate each")
    parser.add_argument("--fix-back", type=int, default=0, metavar="N",
                        help="also check that --fix turns N caught mutants per file back into "
                        "the original, byte for byte")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    by_type: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, set()])  # type: ignore
    agree = checked = restored = tried = 0
    rng = random.Random(0)
    for path in args.models:
        found = mutants(path)
        for layer_id, _, kind, _, _, caught in found:
            row = by_type[kind]
            row[0] += 1
            row[1] += caught
            row[2].add((path, layer_id))
        if args.verify and found:
            a, c = verify(path, found, args.verify, rng)
            agree, checked = agree + a, checked + c
        if args.fix_back and found:
            r, t = fix_back(path, found, args.fix_back, rng)
            restored, tried = restored + r, tried + t
    total = sum(r[0] for r in by_type.values())
    caught = sum(r[1] for r in by_type.values())
    print("| op type | layers | mutants | caught | coverage |")
    print("|---|---|---|---|---|")
    for kind, (n, c, layers) in sorted(by_type.items(), key=lambda kv: -kv[1][0]):
        print(f"| {kind} | {len(layers)} | {n} | {c} | {100 * c / n:.1f}% |")
    print(f"| all | {sum(len(r[2]) for r in by_type.values())} | {total} | {caught} | "
          f"{100 * caught / max(total, 1):.1f}% |")
    if checked:
        print(f"\nverified by writing and validating {checked} mutants: {agree} agree")
    if tried:
        print(f"\n--fix turned {restored} of {tried} caught mutants back into the original, byte "
              f"for byte")
    if args.json:
        args.json.write_text(json.dumps({k: {"mutants": n, "caught": c, "layers": len(layers)}
                                         for k, (n, c, layers) in by_type.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
