#!/usr/bin/env python3
"""irvalidate.validate against ov.Core().read_model in one process, file by file (issue 26).

Why: as whole processes, importing openvino (~0.3 s) hides what reading a small IR costs;
a user who checks many files in one process (a test suite, a notebook, a CI step calling the
Python API) pays the per-file cost alone.  Both are imported before anything is timed, and
each file is read once by each first (lazy imports, op modules, caches: not counted).  Then
rounds interleave the two on every file, alternating which goes first, and each call's CPU
time (``time.process_time``: every thread of the process) and wall time are kept; the
caller takes medians.  ``IRVALIDATE_SCAN_PROCESS=0``: a reading process forked for a large
file would take CPU this process does not count.

    python benchmarks/inprocess.py [--sources DIR] [--rounds N] FILE.xml ...

Prints one JSON object: per file, whether read_model loaded it, and the times of each call
(a file read_model refuses is timed for irvalidate alone).  Two floors are timed in the same
rounds: ``lxml_parse`` (libxml2 building the tree, C alone) and ``python_read``
(floor.python_read: the least Python reading of the facts a check needs, no inference).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time


def timed(call, *args) -> tuple:
    """(CPU s, wall s, whether it returned) of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        call(*args)
        ok = True
    except Exception:  # noqa: BLE001  (a file the runtime refuses is a fact to record)
        ok = False
    return time.process_time() - cpu, time.perf_counter() - wall, ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--sources", default="", help="import irvalidate from this folder")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    os.environ["IRVALIDATE_SCAN_PROCESS"] = "0"
    if args.sources:
        sys.path.insert(0, args.sources)
    import openvino as ov
    from lxml import etree

    import irvalidate
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from floor import python_read

    core = ov.Core()
    tools = {"irvalidate": irvalidate.validate, "read_model": core.read_model,
             "lxml_parse": etree.parse, "python_read": python_read}
    loads = {f: timed(core.read_model, f)[2] for f in args.files}     # the warm-up
    for f in args.files:
        for t in ("irvalidate", "lxml_parse", "python_read"):
            timed(tools[t], f)
    runs: dict = {f: {t: [] for t in tools} for f in args.files}
    for r in range(args.rounds):
        for i, f in enumerate(args.files):
            order = list(tools)[r % len(tools):] + list(tools)[:r % len(tools)]
            order = order if i % 2 == 0 else order[::-1]
            for t in order:
                if t == "read_model" and not loads[f]:
                    continue
                cpu, wall, _ = timed(tools[t], f)
                runs[f][t].append((cpu, wall))
            gc.collect()      # what one call left behind is not the next call's cost
    print(json.dumps({"irvalidate": irvalidate.__file__, "files": [
        {"file": f, "loads": loads[f], **{t: runs[f][t] for t in tools}} for f in args.files]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
