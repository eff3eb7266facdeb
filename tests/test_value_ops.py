"""Value evaluation through the ops the runtime bound-evaluates in shape subgraphs, against
``read_model``: each case is a Broadcast whose target is ``f(ShapeOf(x))`` (tests/valuecheck.py).

Convert to every integer type (the narrow ones wrap), Abs, Clamp.
"""
from __future__ import annotations

import math
import random
from typing import List, Optional, Tuple

import numpy as np
import openvino.opset13 as op
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import valuecheck as vc
from irvalidate.shapes import bounds
from irvalidate.shapes.dims import INF, Dim
from irvalidate.shapes.values import RANGES, Origin, Unresolved, make_tensor
from valuecheck import Case, i32, i64

#: shapes of x: static, an interval, ``?``, an unbounded interval, large and wrapping dims
X_SHAPES = {
    "interval": ((2, 6), 3),
    "static": (5, 0),
    "dynamic": (-1, 3),
    "from3": ((3, -1), 3),
    "big": (70000, 3),
    "neg16": (40000, 3),
    "wrap8": ((300, 310), 3),
}
TYPES = ("i8", "i16", "i32", "u8", "u16", "u32", "u64", "boolean")


def _signed(value: int, et: str) -> int:
    low, high = RANGES[et]
    return (value - low) % (high - low + 1) + low


def _wraps(spec, offset: int, chain) -> bool:
    """Whether an element of ``ShapeOf(x) + offset`` ends, through the Converts of ``chain``,
    with its lower bound above its upper one (the runtime reads such a pair as ``?``, which
    irvalidate does not follow: it gives the whole target up)."""
    for d in spec:
        lo, hi = (d, d) if isinstance(d, int) else d
        if lo == -1 or hi == -1:
            continue  # unbounded: ``?`` through the offset, followed exactly
        lo, hi = lo + offset, hi + offset
        for et in chain:
            lo, hi = _signed(lo, et) if et != "boolean" else int(lo != 0), \
                _signed(hi, et) if et != "boolean" else int(hi != 0)
            if lo > hi:
                return True
    return False


def _converts(chain, offset: int = 0):
    def make(s):
        if offset:
            dtype = s.get_output_element_type(0).to_dtype()
            s = op.add(s, op.constant(np.array([offset] * 2, dtype=dtype)))
        for et in chain:
            s = op.convert(s, et)
        return op.convert(s, "i64") if chain[-1] != "i64" else s
    return make


CONVERT_CASES = [
    Case(f"convert-{et}-{name}", _converts((et,)), x=x, may_give_up=_wraps(x, 0, (et,)))
    for et in TYPES for name, x in X_SHAPES.items()
] + [
    # straight into the target: a u64 maximum is read as -1, refused
    Case("u64-target-dynamic", lambda s: op.convert(s, "u64"), x=(-1, 3)),
    Case("u64-target", lambda s: op.convert(s, "u64"), x=((3, 5), 3)),
    Case("i8-target", lambda s: op.convert(s, "i8"), x=((3, 5), 3)),
    Case("i16-target-dynamic", lambda s: op.convert(s, "i16"), x=((3, -1), 3)),
    Case("u16-target-dynamic", lambda s: op.convert(s, "u16"), x=((3, -1), 3)),
    # through u64 and back, keeping the maximum unbounded between wide types
    Case("u64-i32", _converts(("u64", "i32")), x=((3, -1), 3)),
    Case("i32-u64", _converts(("i32", "u64")), x=((3, -1), 3)),
    Case("u64-u8", _converts(("u64", "u8")), x=((3, -1), 3)),
    Case("i16-u64", _converts(("i16", "u64")), x=((3, -1), 3)),
    Case("i8-u16", _converts(("i8", "u16")), x=((3, 5), 3)),
    Case("shape-i32-i16", _converts(("i16",)), x=((3, -1), 70000), et="i32"),
    Case("shape-i32-u64", _converts(("u64",)), x=((3, -1), 70000), et="i32"),
    Case("negative-u64", _converts(("u64",), -10), x=((3, 5), 3)),
    Case("negative-i16", _converts(("i16",), -10), x=((30, 50), 30)),
]


def test_convert_to_every_integer_type(tmp_path):
    vc.check(CONVERT_CASES, tmp_path)


def _random_x(rnd: random.Random) -> list:
    return vc.random_x(rnd, 2, rnd.choice((12, 300, 70000)))


def test_convert_random(tmp_path):
    rnd = random.Random(20261125)
    cases = []
    for n in range(80):
        chain = tuple(rnd.choice(TYPES) for _ in range(rnd.randint(1, 2)))
        et = rnd.choice(("i64", "i32"))
        offset = rnd.choice((0, 0, -5, 100, 250, 32760, 65530)
                            + ((2147483640, 4294967290) if et == "i64" else ()))
        x = _random_x(rnd)
        cases.append(Case(f"convert-random-{n}-{et}{offset:+}-{'-'.join(chain)}", _converts(chain, offset), x=x, et=et,
                          may_give_up=_wraps(x, offset, chain)))
    outcomes = vc.check(cases, tmp_path)
    assert sum(o.runtime.startswith("refused") for o in outcomes) >= 5
    assert sum("?" not in o.runtime and not o.runtime.startswith("refused") for o in outcomes) >= 20
