"""How the Broadcast layers of an IR get their target_shape: what value propagation adds.

    python benchmarks/propagation.py FILE.xml [...]

Counts every Broadcast (top level and bodies) by where its target comes from:

* constant   - a Const layer (checked dim by dim before value propagation too);
* computed   - a shape subgraph that bound evaluation resolves (checked dim by dim now);
* fallback   - a Concat OpenVINO cannot bound-evaluate: Const inputs give values, others ``?``;
* rank only  - nothing resolves the values: every dim is ``?`` (only the rank is checked);
* not run    - the layer's inference stopped earlier (attributes, arity, an earlier error).

Before value propagation, only the ``constant`` row was checked dim by dim.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from irvalidate.analysis import GraphAnalysis
from irvalidate.engine.validation import default_bin
from irvalidate.ir.parser import parse
from irvalidate.ir.records import CONST_TYPES
from irvalidate.ir.weights import BinFile


def classify(path: str) -> Counter[str]:
    counts: Counter[str] = collections.Counter()
    doc = parse(path)
    weights = BinFile(default_bin(path), os.path.dirname(os.path.abspath(path)))
    for graph in doc.graphs():
        analysis = GraphAnalysis(graph, weights)
        for inference in analysis.inferences.values():
            if inference.layer.type.lower() != "broadcast":
                continue
            target = inference.operands[1].shape if len(inference.operands) > 1 else None
            if len(inference.operands) < 2:
                counts["not run"] += 1
            elif inference.source is None:
                producer = analysis.propagation.input_values(inference.layer)[1].producer
                const = producer is not None and producer.type.lower() in CONST_TYPES
                counts["constant" if const and target is not None else "rank only"] += 1
            elif isinstance(inference.source, str):  # the Concat fallback, in words
                counts["fallback"] += 1
            else:
                counts["computed"] += 1
    return counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    rows = ("constant", "computed", "fallback", "rank only", "not run")
    print("| file | Broadcast layers | " + " | ".join(rows) + " | dim by dim before | now | s |")
    print("|---|---|" + "---|" * (len(rows) + 3))
    for path in args.files:
        start = time.perf_counter()
        counts = classify(path)
        took = time.perf_counter() - start
        total = sum(counts.values())
        now = counts["constant"] + counts["computed"] + counts["fallback"]
        print(f"| {os.path.basename(path)} | {total} | " + " | ".join(str(counts[r]) for r in rows)
              + f" | {counts['constant']} | {now} | {took:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
