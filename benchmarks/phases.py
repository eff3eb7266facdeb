"""Where irvalidate's time goes on one IR, in one process: imports, parse, analysis, rules.

    python benchmarks/phases.py FILE.xml

The cyclic garbage collector is off, as the command runs it.  Prints each phase and the
slowest rules; asserts nothing.
"""
from __future__ import annotations

import gc
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))


def main(path: str) -> None:
    gc.disable()
    start = time.perf_counter()
    from irvalidate.analysis import GraphAnalysis
    from irvalidate.ir.weights import BinFile
    from irvalidate.engine import default_bin
    from irvalidate.ir.reader import parse
    from irvalidate.rules import RULES
    from irvalidate.ops.autobroadcast import AutoBroadcast
    from irvalidate.rules._common import Context
    AutoBroadcast()  # the attribute models are built on first use
    imported = time.perf_counter()
    doc = parse(path)
    parsed = time.perf_counter()
    weights = BinFile(default_bin(path), os.path.dirname(os.path.abspath(path)))
    contexts = [Context(doc, graph, GraphAnalysis(graph, weights), i == 0)
                for i, graph in enumerate(doc.graphs())]
    analysed = time.perf_counter()
    per_rule = []
    for rule in RULES:
        began = time.perf_counter()
        for ctx in contexts:
            list(rule.check(ctx))
        per_rule.append((time.perf_counter() - began, rule.CODE, rule.SLUG))
    done = time.perf_counter()
    print(f"imports {imported - start:.2f} s, parse {parsed - imported:.2f} s, analysis "
          f"{analysed - parsed:.2f} s, rules {done - analysed:.2f} s, total {done - start:.2f} s")
    for took, code, slug in sorted(per_rule, reverse=True)[:8]:
        print(f"  {code} {slug}: {took:.3f} s")


if __name__ == "__main__":
    main(sys.argv[1])
