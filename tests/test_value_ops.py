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


# --- Abs and Clamp ---------------------------------------------------------------------


def _minus(c: int, then=None):
    """``then(ShapeOf(x) - c)`` (``- c`` in the shape's own type)."""
    def make(s):
        dtype = s.get_output_element_type(0).to_dtype()
        value = op.subtract(s, op.constant(np.array(c, dtype=dtype)))
        return then(value) if then else value
    return make


ABS_CASES = [
    Case(f"abs-{c}-{name}-{et}", _minus(c, op.abs), x=x, et=et)
    for c in (0, 4, 10, -3) for name, x in (
        ("interval", ((2, 6), 3)), ("static", (5, 0)), ("dynamic", (-1, 3)),
        ("from3", ((3, -1), 3)), ("wide", ((0, 100), (7, 9))))
    for et in ("i64", "i32")
] + [
    # through u32 and u64: an unbounded bound stays unbounded
    Case("abs-u32", lambda s: op.convert(op.abs(op.convert(s, "u32")), "i64"), x=((3, -1), 3)),
    Case("abs-u64", lambda s: op.convert(op.abs(op.convert(s, "u64")), "i64"), x=((3, -1), 3)),
    # the runtime has no Abs kernel for i16 bounds
    Case("abs-i16", lambda s: op.convert(op.abs(op.convert(s, "i16")), "i64"), x=((3, 5), 3)),
]


def test_abs(tmp_path):
    outcomes = vc.check(ABS_CASES, tmp_path)
    assert "[2,1]" in [o.runtime for o in outcomes]  # abs(2..6 - 4) is 2: not interval maths


def _clamp(c: int, low: float, high: float):
    return _minus(c, lambda v: op.clamp(v, low, high))


CLAMP_CASES = [
    # no integer between min and max: a bound pair ends reversed (the runtime reads ``?``)
    Case(f"clamp-{c}-{low}-{high}-{name}-{et}", _clamp(c, low, high), x=x, et=et,
         gives_up=math.ceil(low) > math.floor(high))
    for c, low, high in ((0, 0, 4), (0, 2.5, 4.5), (4, -1, 1.99), (4, 0.0, 2.0), (0, 3, 3),
                         (10, -1e30, 1e30), (5, -3.5, 0.5), (0, 1, 1e19), (2, 0.1, 0.9))
    for name, x in (("interval", ((2, 6), 3)), ("dynamic", (-1, 3)), ("from3", ((3, -1), 3)),
                    ("static", (0, 8)))
    for et in ("i64", "i32")
] + [
    Case("clamp-u8", lambda s: op.convert(op.clamp(op.convert(s, "u8"), 1, 300), "i64"),
         x=((3, -1), 3)),
    Case("clamp-i16", lambda s: op.convert(op.clamp(op.convert(s, "i16"), 0, 7.5), "i64"),
         x=((3, 9), 3)),
    # ``3..`` is ``3..-1`` in i16, ``3..0`` clamped: reversed
    Case("clamp-i16-reversed", lambda s: op.convert(op.clamp(op.convert(s, "i16"), 0, 7.5),
                                                    "i64"), x=((3, -1), 3), gives_up=True),
]


def test_clamp(tmp_path):
    outcomes = vc.check(CLAMP_CASES, tmp_path)
    assert "[3..4,3]" in [o.runtime for o in outcomes]  # min rounded up, max down


def test_abs_and_clamp_random(tmp_path):
    rnd = random.Random(7)
    cases = []
    for n in range(60):
        c = rnd.randint(-5, 20)
        et = rnd.choice(("i64", "i32"))
        x = vc.random_x(rnd, 2, 16)
        if n % 2:
            cases.append(Case(f"abs-random-{n}", _minus(c, op.abs), x=x, et=et))
        else:
            low = rnd.choice((rnd.randint(-10, 10), round(rnd.uniform(-10, 10), 2)))
            high = max(low, 1) + rnd.choice((0, rnd.randint(0, 20), round(rnd.uniform(0, 20), 2)))
            cases.append(Case(f"clamp-random-{n}", _clamp(c, low, high), x=x, et=et,
                              may_give_up=math.ceil(low) > math.floor(high)))
    vc.check(cases, tmp_path)


I64_LOW, I64_HIGH = RANGES["i64"]
bound_pairs = st.tuples(st.integers(-1000, 1000), st.integers(0, 1000)).map(
    lambda p: (p[0], p[0] + p[1]))


def _tensor(pairs, et: str = "i64"):
    return make_tensor((len(pairs),), [Dim(lo, hi) for lo, hi in pairs], et, Origin("t"))


@settings(max_examples=200, deadline=None)
@given(st.lists(bound_pairs, min_size=1, max_size=6))
def test_abs_bounds_follow_the_runtime_rule(pairs):
    """The runtime's Abs of bounds: |lower| and |upper|, the smaller one the lower bound."""
    got = bounds.absolute(_tensor(pairs), Origin("abs")).bounds
    assert [tuple(b) for b in got] == [
        (min(abs(lo), abs(hi)), max(abs(lo), abs(hi))) for lo, hi in pairs]


@settings(max_examples=200, deadline=None)
@given(st.lists(bound_pairs, min_size=1, max_size=6),
       st.floats(-2000, 2000), st.floats(0, 2000))
def test_clamp_bounds_follow_the_runtime_rule(pairs, low, width):
    """The runtime's Clamp of bounds: each bound clamped to [ceil(min), floor(max)]."""
    high = low + width
    lo_int, hi_int = math.ceil(low), math.floor(high)
    got = bounds.clamp(_tensor(pairs), low, high, Origin("clamp")).bounds

    def one(v: int) -> int:
        return min(max(v, lo_int), hi_int) if lo_int <= hi_int else (lo_int if v < lo_int else hi_int)
    assert [tuple(b) for b in got] == [(one(lo), one(hi)) for lo, hi in pairs]


def test_clamp_of_an_unbounded_bound_saturates():
    t = make_tensor((1,), [Dim(3, INF)], "i64", Origin("t"))
    assert bounds.clamp(t, 0, 1e30, Origin("c")).bounds == (Dim(3, INF),)
    assert bounds.clamp(t, 0, 7.5, Origin("c")).bounds == (Dim(3, 7),)
    with pytest.raises(Unresolved):
        bounds.clamp(t, 5, 1, Origin("c"))
