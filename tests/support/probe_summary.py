"""What the recorded reshape verdicts say, per axis, in a few words.

    python tests/support/probe_summary.py samples corpus     # one line per axis
    python tests/support/probe_summary.py --odd generated    # the axes no min/max/step fit

Each axis's set of working sizes (among the probed ones) is said as ``all``, ``none``,
``only 224``, ``1..512``, ``s>=32 and s%32==0`` or ``s%32==16``: the tightest constraint of
the contract's form (min, max, multiple_of with offset) that the set fits, or, where no such
constraint gives exactly the set, the set itself (``odd``). A constraint is fitted among the
probe sizes only: between 64 and 1024 the probes are sparse, so ``max`` and large steps are
what those ten sizes allow.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from math import gcd
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script

from support.constraint_check import allows, ranges
from support.reshape_probes import load, verdicts

#: a bounded set of at most this many sizes is said as a list
MAX_LISTED = 4


def fitted(probed: dict[int, bool]) -> dict | None:
    """The contract's constraint (min, max, multiple_of, offset, values) whose predicate
    gives exactly ``probed``, or None when none does."""
    works = sorted(s for s, ok in probed.items() if ok)
    if not works:
        return {"min": None, "max": None, "multiple_of": 1, "offset": 0, "values": []}
    if len(works) == 1:
        return {"min": None, "max": None, "multiple_of": 1, "offset": 0, "values": works}
    step = 0
    for s in works[1:]:
        step = gcd(step, s - works[0])
    top = None if works[-1] == max(probed) else works[-1]
    constraint = {"min": works[0], "max": top, "multiple_of": step,
                  "offset": works[0] % step, "values": None}
    if all(allows(constraint, s) == ok for s, ok in probed.items()):
        return constraint
    return None


def said(constraint: dict | None, probed: dict[int, bool]) -> str:
    """The constraint in a few words: ``none``, ``only 1, 3`` (a few sizes, up to
    MAX_LISTED), ``all``, ``s>=32 and s%32==0``, ``1..512``; ``odd: works at ...`` where no
    min, max, step and offset fit (a long list of values, or a union of residues that the
    sparse large probes miss: s%12 in {9, 10, 11, 0} fails at every one of them)."""
    works = [s for s, ok in sorted(probed.items()) if ok]
    if constraint is None:  # a long list of values at best (the large probes are sparse)
        return "odd: works at " + ranges(works)
    if not works:
        return "none"
    low, high, step = constraint["min"], constraint["max"], constraint["multiple_of"]
    if constraint["values"] is not None or (high is not None and len(works) <= MAX_LISTED):
        return "only " + ", ".join(map(str, works))
    parts = []
    if step > 1:
        parts.append(f"s%{step}=={constraint['offset']}")
    if high is not None:
        parts.insert(0, f"{low}..{high}")
    elif low > min(probed) and low > step:
        parts.insert(0, f"s>={low}")
    return " and ".join(parts) or "all"


def axes(data: dict) -> Iterator[tuple[str, dict, dict, dict[int, bool]]]:
    for key, record in sorted(data["models"].items()):
        for entry in record.get("inputs", []):
            for row in entry["axes"]:
                yield key, entry, row, verdicts(data, row, entry)


def main(argv: list[str]) -> int:
    odd_only = "--odd" in argv
    for name in [a for a in argv if a != "--odd"] or ["samples", "corpus"]:
        data = load(name)
        print(f"# {name}")
        for key, entry, row, probed in axes(data):
            text = said(fitted(probed), probed)
            if not odd_only or text.startswith("odd"):
                print(f"{key} {entry['name']} axis {row['axis']} (now {row['now']}): {text}")
        unreadable = [k for k, r in data["models"].items() if not r.get("readable", True)]
        print(f"# {len(unreadable)} not read by the runtime")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
