"""Where irvalidate's time goes, in one process, phase by phase.

    python benchmarks/phases.py FILE.xml            # as the command checks it
    python benchmarks/phases.py --whole FILE.xml    # the whole-graph check, streaming off
    python benchmarks/phases.py --warm PATH...      # files and folders, each checked once
                                                    # untimed first, the phases summed

A plain file of streaming.MIN_BYTES or more is checked as it streams (streaming.py); the
phases are then: the edge table read first, the scanner reading the layers, the analysis
of each layer (a layer alike one found clean only gets its values; the others are
inferred), the rules on each batch, and the forgetting of what no later layer reads.  The
whole-graph check's phases are parse, analysis and rules; with several files, those the
stream declines (or that are too small for it) are checked whole and summed apart.  The
cyclic garbage collector is off, as the command runs it.  ``--warm`` leaves out what only
a process's first file pays (op modules imported, patterns compiled, tables built): what
a check costs next to ``read_model`` in one process.  Times are the process's CPU time;
wrapping the per-layer calls in timers costs about 2 us a call, which the analysis figures
include.  Prints each phase
and the slowest rules; asserts nothing.
"""
from __future__ import annotations

import gc
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

#: CPU time, this process's own: the machine is shared, and a wall clock counts the others
CLOCK = time.process_time
SPENT: dict[str, float] = defaultdict(float)
COUNT: dict[str, int] = defaultdict(int)


def timed(owner, name: str, label: str) -> None:
    """Wrap ``owner.name`` so that its time adds up under ``label``."""
    inner: Callable = getattr(owner, name)

    def wrapper(*args, **kwargs):
        began = CLOCK()
        try:
            return inner(*args, **kwargs)
        finally:
            SPENT[label] += CLOCK() - began
            COUNT[label] += 1
    setattr(owner, name, wrapper)


def rules_timed(rules) -> None:
    """A rule's check is a generator: its time is spent as it is consumed."""
    for rule in rules:
        inner, label = rule.check, f"rule {rule.CODE} {rule.SLUG}"

        def check(ctx, inner=inner, label=label):
            began = CLOCK()
            try:
                return iter(list(inner(ctx)))
            finally:
                SPENT[label] += CLOCK() - began
        rule.check = check


def wrap_streamed() -> None:
    from irvalidate.analysis import stream
    from irvalidate.engine import streaming
    from irvalidate.ir import edge_table
    timed(edge_table, "read", "edge table")
    timed(stream.StreamAnalysis, "add", "analysis: every layer")
    timed(stream.StreamAnalysis, "_novel_layer", "analysis: of which inferred (unlike any clean)")
    timed(stream.StreamAnalysis, "release", "forgetting")
    timed(stream.StreamAnalysis, "settle", "likenesses found clean")
    timed(streaming, "_run_batch", "batches (rules, likenesses, forgetting)")


def streamed(path: str) -> bool:
    """Check ``path`` as the stream does, its phases added up; False when it declines."""
    from irvalidate.engine import streaming
    from irvalidate.engine.validation import _weights
    from irvalidate.rules import RULES
    before, counted = dict(SPENT), dict(COUNT)
    began = CLOCK()
    found = streaming.check(path, _weights(path, None), [(rule, rule.LEVEL) for rule in RULES])
    total = CLOCK() - began
    if found is None:  # (what the declined file spent is left out: it is checked whole)
        SPENT.clear()
        SPENT.update(before)
        COUNT.clear()
        COUNT.update(counted)
        return False
    spent = {label: SPENT[label] - before.get(label, 0.0) for label in STREAMED}
    SPENT["scanner"] += total - spent["edge table"] - spent["analysis: every layer"] - \
        spent["batches (rules, likenesses, forgetting)"]
    SPENT["rules streamed"] += sum(v - before.get(k, 0.0) for k, v in SPENT.items()
                                   if k.startswith("rule "))
    SPENT["total streamed"] += total
    COUNT["streamed files"] += 1
    return True


#: the phases a streamed check adds up
STREAMED = ("edge table", "analysis: every layer",
            "analysis: of which inferred (unlike any clean)", "forgetting",
            "likenesses found clean", "batches (rules, likenesses, forgetting)")


def print_streamed() -> None:
    analysis = SPENT["analysis: every layer"]
    inferred = SPENT["analysis: of which inferred (unlike any clean)"]
    batches = SPENT["batches (rules, likenesses, forgetting)"]
    rules, kept = SPENT["rules streamed"], SPENT["likenesses found clean"] + SPENT["forgetting"]
    files = f"{COUNT['streamed files']} files, " if COUNT["streamed files"] > 1 else ""
    print(f"streamed, {files}{COUNT['analysis: every layer']} layers, "
          f"{COUNT['analysis: of which inferred (unlike any clean)']} inferred and checked, the "
          f"rest alike layers found clean")
    print(f"  edge table            {SPENT['edge table']:6.2f} s")
    print(f"  scanner (layers, end) {SPENT['scanner']:6.2f} s")
    print(f"  analysis              {analysis:6.2f} s  (inferred layers {inferred:.2f} s, "
          f"alike {analysis - inferred:.2f} s)")
    print(f"  rules on batches      {rules:6.2f} s")
    print(f"  likenesses, forgetting {kept:5.2f} s")
    print(f"  batch views, end      {batches - rules - kept:6.2f} s")
    print(f"  total                 {SPENT['total streamed']:6.2f} s")


def whole(path: str) -> None:
    from irvalidate.analysis import GraphAnalysis
    from irvalidate.engine.validation import default_bin
    from irvalidate.ir.reader import parse
    from irvalidate.ir.weights import BinFile
    from irvalidate.rules import RULES
    from irvalidate.rules._common import Context
    began = CLOCK()
    doc = parse(path)
    parsed = CLOCK()
    weights = BinFile(default_bin(path), os.path.dirname(os.path.abspath(path)))
    contexts = [Context(doc, graph, GraphAnalysis(graph, weights), i == 0)
                for i, graph in enumerate(doc.graphs())]
    analysed = CLOCK()
    for rule in RULES:
        for ctx in contexts:
            list(rule.check(ctx))
    done = CLOCK()
    SPENT["parse"] += parsed - began
    SPENT["analysis whole"] += analysed - parsed
    SPENT["rules whole"] += done - analysed
    COUNT["whole files"] += 1


def print_whole() -> None:
    files = f"{COUNT['whole files']} files, " if COUNT["whole files"] > 1 else ""
    total = SPENT["parse"] + SPENT["analysis whole"] + SPENT["rules whole"]
    print(f"whole graph: {files}parse {SPENT['parse']:.2f} s, analysis "
          f"{SPENT['analysis whole']:.2f} s, rules {SPENT['rules whole']:.2f} s, total "
          f"{total:.2f} s")


def slowest(total: float) -> None:
    ranked = sorted(((v, k) for k, v in SPENT.items() if k.startswith("rule ")), reverse=True)
    for took, label in ranked[:8]:
        print(f"    {label[5:]}: {took:.3f} s")


def files_of(paths: list[str]) -> list[str]:
    found = []
    for path in paths:
        if os.path.isdir(path):
            found += sorted(os.path.join(top, name) for top, _, names in os.walk(path)
                            for name in names if name.endswith(".xml"))
        else:
            found.append(path)
    return found


def check(path: str, whole_only: bool) -> None:
    from irvalidate.engine import streaming
    from irvalidate.ops.support import memo
    memo.clear()  # (as the engine does for each file: a warm run remembers nothing of it)
    if whole_only or not streaming.wanted(path) or not streamed(path):
        whole(path)


def main(argv) -> None:
    gc.disable()
    began = CLOCK()
    import irvalidate.engine.validation  # noqa: F401  (what the command imports before any file)
    print(f"imports {CLOCK() - began:.2f} s")
    from irvalidate.rules import RULES
    paths = files_of([a for a in argv if not a.startswith("--")])
    whole_only = "--whole" in argv
    wrap_streamed()
    rules_timed(RULES)
    if "--warm" in argv:
        for path in paths:
            check(path, whole_only)
        SPENT.clear()
        COUNT.clear()
    for path in paths:
        check(path, whole_only)
    if COUNT["streamed files"]:
        print_streamed()
    elif len(paths) == 1 and not whole_only:
        print("the stream declined this file: it is checked whole")
    if COUNT["whole files"]:
        print_whole()
    slowest(0)


if __name__ == "__main__":
    main(sys.argv[1:])
