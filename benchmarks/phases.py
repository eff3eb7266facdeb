"""Where irvalidate's time goes on one IR, in one process, phase by phase.

    python benchmarks/phases.py FILE.xml            # as the command checks it
    python benchmarks/phases.py --whole FILE.xml    # the whole-graph check, streaming off

A plain file of streaming.MIN_BYTES or more is checked as it streams (streaming.py); the
phases are then: the edge table read first, the scanner reading the layers, the analysis
of each layer (a layer alike one found clean only gets its values; the others are
inferred), the rules on each batch, and the forgetting of what no later layer reads.  The
whole-graph check's phases are parse, analysis and rules.  The cyclic garbage collector is
off, as the command runs it.  Wrapping the per-layer calls in timers costs about 0.3 us a
call, which the analysis figures include.  Prints each phase and the slowest rules; asserts
nothing.
"""
from __future__ import annotations

import gc
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

SPENT: dict[str, float] = defaultdict(float)
COUNT: dict[str, int] = defaultdict(int)


def timed(owner, name: str, label: str) -> None:
    """Wrap ``owner.name`` so that its time adds up under ``label``."""
    inner: Callable = getattr(owner, name)

    def wrapper(*args, **kwargs):
        began = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            SPENT[label] += time.perf_counter() - began
            COUNT[label] += 1
    setattr(owner, name, wrapper)


def rules_timed(rules) -> None:
    """A rule's check is a generator: its time is spent as it is consumed."""
    for rule in rules:
        inner, label = rule.check, f"rule {rule.CODE} {rule.SLUG}"

        def check(ctx, inner=inner, label=label):
            began = time.perf_counter()
            try:
                return iter(list(inner(ctx)))
            finally:
                SPENT[label] += time.perf_counter() - began
        rule.check = check


def streamed(path: str) -> None:
    from irvalidate.analysis import stream
    from irvalidate.engine import streaming
    from irvalidate.engine.validation import _weights
    from irvalidate.ir import edge_table
    from irvalidate.rules import RULES
    timed(edge_table, "read", "edge table")
    timed(stream.StreamAnalysis, "add", "analysis: every layer")
    timed(stream.StreamAnalysis, "_novel_layer", "analysis: of which inferred (unlike any clean)")
    timed(stream.StreamAnalysis, "release", "forgetting")
    timed(stream.StreamAnalysis, "settle", "likenesses found clean")
    timed(streaming, "_run_batch", "batches (rules, likenesses, forgetting)")
    rules_timed(RULES)
    began = time.perf_counter()
    found = streaming.check(path, _weights(path, None), [(rule, rule.LEVEL) for rule in RULES])
    total = time.perf_counter() - began
    if found is None:
        print("the stream declined this file: it is checked whole (see --whole)")
        return
    analysis = SPENT["analysis: every layer"]
    batches = SPENT["batches (rules, likenesses, forgetting)"]
    rules = sum(v for k, v in SPENT.items() if k.startswith("rule "))
    scan = total - SPENT["edge table"] - analysis - batches
    inferred = SPENT["analysis: of which inferred (unlike any clean)"]
    layers = COUNT["analysis: every layer"]
    print(f"streamed, {layers} layers, {COUNT['analysis: of which inferred (unlike any clean)']} "
          f"inferred and checked, the rest alike layers found clean")
    print(f"  edge table            {SPENT['edge table']:6.2f} s")
    print(f"  scanner (layers, end) {scan:6.2f} s")
    print(f"  analysis              {analysis:6.2f} s  (inferred layers {inferred:.2f} s, "
          f"alike {analysis - inferred:.2f} s)")
    print(f"  rules on batches      {rules:6.2f} s")
    print(f"  likenesses, forgetting {SPENT['likenesses found clean'] + SPENT['forgetting']:5.2f} s")
    print(f"  batch views, end      {batches - rules - SPENT['likenesses found clean'] - SPENT['forgetting']:6.2f} s")
    print(f"  total                 {total:6.2f} s")
    slowest(rules)


def whole(path: str) -> None:
    from irvalidate.analysis import GraphAnalysis
    from irvalidate.engine.validation import default_bin
    from irvalidate.ir.reader import parse
    from irvalidate.ir.weights import BinFile
    from irvalidate.rules import RULES
    from irvalidate.rules._common import Context
    began = time.perf_counter()
    doc = parse(path)
    parsed = time.perf_counter()
    weights = BinFile(default_bin(path), os.path.dirname(os.path.abspath(path)))
    contexts = [Context(doc, graph, GraphAnalysis(graph, weights), i == 0)
                for i, graph in enumerate(doc.graphs())]
    analysed = time.perf_counter()
    rules_timed(RULES)
    for rule in RULES:
        for ctx in contexts:
            list(rule.check(ctx))
    done = time.perf_counter()
    print(f"whole graph: parse {parsed - began:.2f} s, analysis {analysed - parsed:.2f} s, "
          f"rules {done - analysed:.2f} s, total {done - began:.2f} s")
    slowest(done - analysed)


def slowest(total: float) -> None:
    ranked = sorted(((v, k) for k, v in SPENT.items() if k.startswith("rule ")), reverse=True)
    for took, label in ranked[:8]:
        print(f"    {label[5:]}: {took:.3f} s")


def main(argv) -> None:
    gc.disable()
    began = time.perf_counter()
    import irvalidate.engine.validation  # noqa: F401  (what the command imports before any file)
    print(f"imports {time.perf_counter() - began:.2f} s")
    path = argv[-1]
    if "--whole" in argv:
        whole(path)
    else:
        streamed(path)


if __name__ == "__main__":
    main(sys.argv[1:])
