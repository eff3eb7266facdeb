"""Value evaluation through the ops the runtime bound-evaluates in shape subgraphs, against
``read_model``: each case is a Broadcast whose target is ``f(ShapeOf(x))`` (tests/support/valuecheck.py).

Convert to every integer type (the narrow ones wrap), Abs, Clamp, FloorMod, Mod, Power,
Select with the conditions it reads (boolean Consts, Equal, exact comparisons), and the ops
that move values: Broadcast, Tile, Pad.  Hypothesis draws bounds for the maths.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("openvino")
import openvino.opset1 as opset1
import openvino.opset13 as op

from irvalidate.shapes import bounds, pointwise
from irvalidate.shapes.dims import INF, Dim
from irvalidate.shapes.values import RANGES, Origin, Unresolved, make_tensor
from support import valuecheck as vc
from support.valuecheck import Case, i64

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
    got = pointwise.absolute(_tensor(pairs), Origin("abs")).bounds
    assert [tuple(b) for b in got] == [
        (min(abs(lo), abs(hi)), max(abs(lo), abs(hi))) for lo, hi in pairs]


@settings(max_examples=200, deadline=None)
@given(st.lists(bound_pairs, min_size=1, max_size=6),
       st.floats(-2000, 2000), st.floats(0, 2000))
def test_clamp_bounds_follow_the_runtime_rule(pairs, low, width):
    """The runtime's Clamp of bounds: each bound clamped to [ceil(min), floor(max)]."""
    high = low + width
    lo_int, hi_int = math.ceil(low), math.floor(high)
    got = pointwise.clamp(_tensor(pairs), low, high, Origin("clamp")).bounds

    def one(v: int) -> int:
        return min(max(v, lo_int), hi_int) if lo_int <= hi_int else (lo_int if v < lo_int else hi_int)
    assert [tuple(b) for b in got] == [(one(lo), one(hi)) for lo, hi in pairs]


def test_clamp_of_an_unbounded_bound_saturates():
    t = make_tensor((1,), [Dim(3, INF)], "i64", Origin("t"))
    assert pointwise.clamp(t, 0, 1e30, Origin("c")).bounds == (Dim(3, INF),)
    assert pointwise.clamp(t, 0, 7.5, Origin("c")).bounds == (Dim(3, 7),)
    with pytest.raises(Unresolved):
        pointwise.clamp(t, 5, 1, Origin("c"))


# --- FloorMod, Mod, Power ----------------------------------------------------------------

_BINARY = {"floormod": op.floor_mod, "mod": op.mod, "power": op.power}


def _binary(kind: str, right, before: int = 0):
    """``kind(ShapeOf(x) - before, right)``, ``right`` a constant pair."""
    def make(s):
        dtype = s.get_output_element_type(0).to_dtype()
        if before:
            s = op.subtract(s, op.constant(np.array(before, dtype=dtype)))
        return _BINARY[kind](s, op.constant(np.array(right, dtype=dtype)))
    return make


#: divisors the Python API accepts in place of the case's own (whose target it refuses)
STAND_IN = [997, 991]


def binary_case(name: str, kind: str, right, before: int = 0, **kwargs) -> Case:
    """A case of :func:`_binary`, built with :data:`STAND_IN` when the API refuses it."""
    return Case(name, _binary(kind, right, before), stand_in=(STAND_IN, right),
                make_with=lambda numbers: _binary(kind, numbers, before), **kwargs)


X_BINARY = (((2, 6), 3), (-1, 3), ((3, -1), 5), ((0, 20), (5, 5)), (100, 17))


def _reversed(kind: str, left):
    def make(s):
        dtype = s.get_output_element_type(0).to_dtype()
        return _BINARY[kind](op.constant(np.array(left, dtype=dtype)), s)
    return make


def _grid(kind: str, rights, befores=(0, 3, 10), lefts=()) -> list[Case]:
    cases = [binary_case(f"{kind}-{right}-{before}-{x}-{et}".replace(" ", ""), kind, right,
                         before, x=x, et=et)
             for right in rights for before in befores for x in X_BINARY
             for et in ("i64", "i32")]
    cases += [Case(f"{kind}-of-{left}-{x}".replace(" ", ""), _reversed(kind, left), x=x)
              for left in lefts for x in (((2, 6), 3), (-1, 3), ((3, -1), 5), ((1, 20), (5, 5)))]
    return cases


def test_floor_mod(tmp_path):
    """The runtime's corners (``interval_bound_evaluator``): ``2..6`` floor-mod 4 is 2, and a
    zero divisor only where an unbounded operand masks the element."""
    cases = _grid("floormod", ([4, 4], [1, 1], [2, 3], [-4, 4], [-3, -5], [7, 1], [0, 2]),
                  lefts=([17, 17], [100, 3], [-7, 20]))
    for case in cases:  # by zero where no unbounded operand masks it: undefined
        masked = any(d == -1 or (isinstance(d, tuple) and d[1] == -1) for d in case.x)
        case.gives_up = case.name.startswith("floormod-[0,2]") and not masked
    outcomes = vc.check(cases, tmp_path)
    assert "[2,3]" in [o.runtime for o in outcomes]


def test_mod(tmp_path):
    """``mod_interval`` of the two bounds (a remainder's interval estimated), ``?`` where the
    divisor has a zero or the type's maximum as a bound, and 0 there when both inputs are
    exact."""
    cases = _grid("mod", ([4, 4], [1, 1], [2, 3], [-4, 4], [-3, -5], [7, 1], [0, 2], [2, 0]),
                  lefts=([17, 17], [100, 3], [-7, 20]))
    outcomes = vc.check(cases, tmp_path)
    assert "[..3,3]" in [o.runtime for o in outcomes]


def test_power(tmp_path):
    """Corners of ``(T)pow(x, y)``; where a corner is undefined (0 to a negative power, a
    power past the type) the runtime's answer rests on C++ undefined behaviour (x86 gives
    the type's minimum, a refused target) and irvalidate gives up."""
    cases = _grid("power", ([0, 0], [1, 1], [2, 3], [3, 2], [7, 1]), befores=(0, 3))
    cases += [Case("power-negative-exponent", _binary("power", [2, -1], 3), x=((1, 4), 4)),
              Case("power-negative-exponents", _binary("power", [-2, -1]), x=((1, 9), 1)),
              Case("power-of-minus-one", _binary("power", [3, -3], 4), x=(3, (3, 5)))]
    undefined = [  # 0 ** -k, overflow of i32 or past a double's integers
        Case("power-zero-to-negative", _binary("power", [-3, -5], 3), x=((2, 6), 3),
             gives_up=True),
        Case("power-i32-overflow", _binary("power", [7, 1]), x=(100, 17), et="i32",
             gives_up=True),
        Case("power-past-doubles", _reversed("power", [17, 17]), x=((1, 20), (5, 5)),
             gives_up=True)]
    vc.check([c for c in cases if not ("[7,1]" in c.name and "(100,17)-i32" in c.name)]
             + undefined, tmp_path)


def test_floor_mod_mod_power_random(tmp_path):
    rnd = random.Random(31)
    cases = []
    for n in range(120):
        kind = ("floormod", "mod", "power")[n % 3]
        et = rnd.choice(("i64", "i32"))
        x = vc.random_x(rnd, 2, 30)
        if kind == "power":  # bases of 1 and more, small exponents: no undefined corner
            x = [d if d == -1 else (max(d[0], 1), d[1]) if isinstance(d, tuple) else max(d, 1)
                 for d in x]
            right = [rnd.randint(-2, 3) for _ in range(2)]
            before = 0
        else:
            right = [rnd.choice([v for v in range(-7, 8) if v or kind == "mod"])
                     for _ in range(2)]
            before = rnd.choice((0, 0, 2, 5, 40))
        cases.append(binary_case(f"{kind}-random-{n}", kind, right, before, x=x, et=et))
    outcomes = vc.check(cases, tmp_path)
    assert sum(o.runtime.startswith("refused") for o in outcomes) >= 5


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(bound_pairs, st.integers(-50, 50).filter(bool), st.integers(0, 20)),
                min_size=1, max_size=4))
def test_floor_mod_bounds_follow_the_runtime_rule(items):
    """FloorMod of bounds: the extremes of the floored remainders of the four corners."""
    a = _tensor([p for p, _, _ in items])
    divisors = [(m, m + w) if m > 0 or m + w < 0 else (m, m) for _, m, w in items]
    b = _tensor(divisors)
    got = bounds.arithmetic("floormod", a, b, Origin("fm")).bounds
    want = []
    for (lo, hi), (m1, m2) in zip([p for p, _, _ in items], divisors):
        corners = [p % q for p in (lo, hi) for q in (m1, m2)]
        want.append((min(corners), max(corners)))
    assert [tuple(d) for d in got] == want


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.integers(0, 40), st.integers(0, 40)), st.integers(-12, 12),
       st.integers(-12, 12), st.sampled_from(["i64", "i32"]))
def test_mod_against_the_runtime(tmp_path_factory, dims, m1, m2, et):
    """Mod's estimate, drawn by hypothesis and compared with ``read_model``."""
    lo, width = dims
    case = binary_case("mod-drawn", "mod", [m1, m2], x=((lo, lo + width), (lo, lo + 3)), et=et)
    vc.check([case], tmp_path_factory.mktemp("mod"))


# --- Select and the conditions it reads ------------------------------------------------


def booleans(values) -> op.Node:
    return op.constant(np.array(values, dtype=bool))


def _same(s, values):
    return op.constant(np.array(values, dtype=s.get_output_element_type(0).to_dtype()))


SELECT_CASES = [
    Case("select-const", lambda s: op.select(booleans([True, False]), s, i64([7, 8]))),
    Case("select-const-unbounded", lambda s: op.select(booleans([False, True]), s, i64([7, 8])),
         x=(-1, (1, -1))),
    Case("select-scalar", lambda s: op.select(booleans(True), s, i64([7, 8]))),
    Case("select-scalar-else", lambda s: op.select(booleans(False), s, i64(7))),
    # Equal has its own bounds: true below where both sides are one number, true above where
    # they may meet; exact (lower = upper) when no interval meets the other side
    Case("select-equal", lambda s: op.select(op.equal(s, i64([0, 0])), i64([1, 1]), s)),
    Case("select-equal-one", lambda s: op.select(op.equal(s, i64([0, 3])), i64([1, 1]), s)),
    Case("select-equal-meets", lambda s: op.select(op.equal(s, i64([4, 3])), i64([1, 1]), s)),
    Case("select-equal-dynamic", lambda s: op.select(op.equal(s, i64([0, 3])), i64([1, 1]), s),
         x=(-1, 3)),
    Case("select-equal-static", lambda s: op.select(op.equal(s, i64([4, 3])), i64([1, 1]), s),
         x=(4, 3)),
    Case("select-equal-unbounded", lambda s: op.select(op.equal(s, i64([0, 3])), i64([1, 1]), s),
         x=((3, -1), 3)),
    Case("select-equal-unbounded-meets",
         lambda s: op.select(op.equal(s, i64([5, 3])), i64([1, 1]), s), x=((3, -1), 3)),
    # the other comparisons and the logical operations only on exact values
    Case("select-less-static", lambda s: op.select(op.less(s, i64([4, 4])), i64([1, 1]), s),
         x=(4, 3)),
    Case("select-less-interval", lambda s: op.select(op.less(s, i64([10, 4])), i64([1, 1]), s)),
    Case("select-not-equal-static",
         lambda s: op.select(op.not_equal(s, i64([4, 4])), i64([1, 1]), s), x=(4, 3)),
    Case("select-not-equal-interval",
         lambda s: op.select(op.not_equal(s, i64([0, 0])), s, i64([1, 1]))),
    Case("select-greater-equal-static",
         lambda s: op.select(op.greater_equal(s, i64([4, 4])), s, i64([1, 1])), x=(4, 3)),
    Case("select-less-equal-static",
         lambda s: op.select(op.less_equal(s, i64([4, 2])), s, i64([1, 1])), x=(4, 3)),
    Case("select-not", lambda s: op.select(op.logical_not(op.equal(s, i64([0, 0]))), s,
                                           i64([1, 1]))),
    Case("select-and", lambda s: op.select(
        op.logical_and(op.equal(s, i64([0, 3])), booleans([True, True])), i64([1, 1]), s)),
    Case("select-or", lambda s: op.select(
        op.logical_or(op.equal(s, i64([0, 3])), booleans([True, False])), i64([1, 1]), s)),
    Case("select-xor", lambda s: op.select(
        op.logical_xor(op.equal(s, i64([0, 3])), booleans([True, True])), i64([1, 1]), s)),
    Case("select-i32", lambda s: op.select(op.equal(s, _same(s, [0, 3])), _same(s, [1, 1]), s),
         et="i32"),
    # a negative pick is refused
    Case("select-negative", lambda s: op.select(op.equal(s, i64([0, 3])), i64([-1, -1]), s),
         stand_in=([5, 5], [-1, -1]),
         make_with=lambda v: lambda s: op.select(op.equal(s, i64([0, 3])), i64(v), s)),
]


def test_select(tmp_path):
    outcomes = vc.check(SELECT_CASES, tmp_path)
    assert "[2..6,1]" in [o.runtime for o in outcomes]


def _random_condition(rnd: random.Random, s):
    kind = rnd.random()
    if kind < 0.3:
        return booleans([rnd.random() < 0.5 for _ in range(2)] if rnd.random() < 0.8
                        else rnd.random() < 0.5)
    values = [rnd.randint(0, 8) for _ in range(2)]
    compare = rnd.choice((op.equal, op.equal, op.equal, op.less, op.not_equal, op.greater))
    cond = compare(s, _same(s, values))
    if kind > 0.8:
        cond = op.logical_not(cond)
    return cond


def test_select_random(tmp_path):
    rnd = random.Random(5)
    cases = []
    for n in range(60):
        seed = rnd.random()

        def make(s, seed=seed):
            inner = random.Random(seed)
            cond = _random_condition(inner, s)
            pick = [lambda: s, lambda: _same(s, [inner.randint(1, 9)] * 2),
                    lambda: op.add(s, _same(s, inner.randint(0, 3)))]
            return op.select(cond, inner.choice(pick)(), inner.choice(pick)())
        cases.append(Case(f"select-random-{n}", make, x=vc.random_x(rnd, 2, 8),
                          et=rnd.choice(("i64", "i32"))))
    outcomes = vc.check(cases, tmp_path)
    assert sum("?" not in o.runtime for o in outcomes) >= 20


# --- Broadcast, Tile, Pad: values moved --------------------------------------------------


def first(s, index: int = 0):
    """``Gather(s, [index])``: one element of a shape, as a 1-D value."""
    return op.gather(s, _same(s, [index]), op.constant(0))


def pick(s, indices):
    return op.gather(s, _same(s, indices), op.constant(0))


def scalar(s, index: int = 0):
    return op.squeeze(first(s, index), _same(s, [0]))


MOVE_CASES = [
    Case("broadcast", lambda s: op.broadcast(first(s), i64([2]))),
    Case("broadcast-scalar", lambda s: op.broadcast(scalar(s), i64([2]))),
    Case("broadcast-bidirectional", lambda s: op.broadcast(first(s), i64([2]), broadcast_spec="bidirectional")),
    Case("broadcast-bidirectional-keeps", lambda s: op.broadcast(s, i64([1]), broadcast_spec="bidirectional")),
    Case("broadcast-explicit", lambda s: op.reshape(
        op.broadcast(first(s), i64([2, 1]), i64([0]), "explicit"), i64([2]), False)),
    Case("broadcast-explicit-dynamic", lambda s: op.reshape(
        op.broadcast(first(s), i64([1, 2]), i64([0]), "explicit"), i64([2]), False), x=(-1, 3)),
    Case("broadcast-2d", lambda s: op.reshape(op.broadcast(s, i64([1, 2])), i64([2]), False)),
    Case("broadcast-1", lambda s: opset1.broadcast(first(s), i64([2]))),
    Case("broadcast-1-explicit", lambda s: opset1.broadcast(first(s), i64([3]), i64([0]))),
    Case("broadcast-i32", lambda s: op.broadcast(first(s, 1), _same(s, [3])), et="i32",
         x=((3, -1), (1, 8))),
    Case("broadcast-unbounded", lambda s: op.broadcast(first(s), i64([2])), x=((3, -1), 3)),
    Case("broadcast-computed-target", lambda s: op.broadcast(first(s), first(s, 1)), x=(4, 3)),
    # the runtime needs an exact target shape for the value
    Case("broadcast-interval-target", lambda s: op.broadcast(first(s), first(s, 1)),
         x=(4, (1, 3))),
    Case("tile", lambda s: op.tile(first(s), i64([2]))),
    Case("tile-keeps", lambda s: op.tile(s, i64([1]))),
    Case("tile-scalar", lambda s: op.tile(scalar(s), i64([2]))),
    Case("tile-2d", lambda s: op.reshape(op.tile(first(s), i64([2, 1])), i64([2]), False)),
    Case("tile-zero", lambda s: op.concat([op.tile(first(s), i64([0])), s], 0)),
    Case("tile-i32", lambda s: op.tile(s, _same(s, [2])), et="i32", x=(-1, (2, 5))),
    Case("tile-interval-repeats", lambda s: op.tile(first(s), first(s, 1)), x=(4, (1, 3))),
    Case("pad", lambda s: op.pad(first(s), i64([1]), i64([0]), "constant", i64(5))),
    Case("pad-zero", lambda s: op.pad(first(s, 1), i64([1]), i64([0]), "constant")),
    Case("pad-edge", lambda s: op.pad(first(s), i64([1]), i64([0]), "edge")),
    Case("pad-reflect", lambda s: op.pad(s, i64([1]), i64([-1]), "reflect")),
    Case("pad-symmetric", lambda s: op.pad(s, i64([1]), i64([-1]), "symmetric")),
    Case("pad-crop", lambda s: op.pad(op.concat([s, i64([4])], 0), i64([-1]), i64([0]),
                                      "constant")),
    Case("pad-fill-computed", lambda s: op.pad(first(s), i64([1]), i64([0]), "constant",
                                               scalar(s, 1))),
    Case("pad-fill-interval", lambda s: op.pad(first(s, 1), i64([0]), i64([1]), "constant",
                                               scalar(s))),
    Case("pad-1", lambda s: opset1.pad(first(s), i64([1]), i64([0]), "constant", i64(5))),
    Case("pad-i32", lambda s: op.pad(s, _same(s, [0]), _same(s, [1]), "constant",
                                     _same(s, 7)), et="i32", x=(-1, (2, 5))),
    Case("pad-interval-pads", lambda s: op.pad(first(s), first(s, 1), i64([0]), "constant",
                                               i64(5)), x=(4, (0, 1))),
    # a negative fill is refused
    Case("pad-negative-fill", lambda s: op.pad(first(s), i64([1]), i64([0]), "constant",
                                               i64(-5)),
         stand_in=([5], [-5]),
         make_with=lambda v: lambda s: op.pad(first(s), i64([1]), i64([0]), "constant",
                                              i64(v[0]))),
]


def test_broadcast_tile_pad(tmp_path):
    outcomes = vc.check(MOVE_CASES, tmp_path)
    assert {"[2..6,2..6]", "[5,2..6]"} <= {o.runtime for o in outcomes}


def _random_move(rnd: random.Random):
    """One of Broadcast, Tile or Pad over a piece of ``ShapeOf(x)`` (rank 3)."""
    kind = rnd.choice(("broadcast", "tile", "pad"))
    indices = rnd.sample(range(3), rnd.randint(1, 2))
    if kind == "broadcast":
        mode = rnd.choice(("numpy", "bidirectional", "explicit"))
        length = len(indices) if len(indices) > 1 else rnd.randint(1, 3)
        if mode == "explicit":
            return kind, lambda s: op.broadcast(pick(s, indices), _same(s, [length]),
                                                _same(s, [0]), "explicit")
        if mode == "bidirectional" and rnd.random() < 0.5:
            length = 1
        return kind, lambda s: op.broadcast(pick(s, indices), _same(s, [length]),
                                            broadcast_spec=mode)
    if kind == "tile":
        repeats = [rnd.randint(0, 3)] if rnd.random() < 0.7 else [1, rnd.randint(1, 2)]
        if len(repeats) == 2:
            return kind, lambda s: op.reshape(op.tile(pick(s, indices), _same(s, repeats)),
                                              _same(s, [-1]), False)
        return kind, lambda s: op.tile(pick(s, indices), _same(s, repeats))
    n = len(indices)
    mode = rnd.choice(("constant", "constant", "edge", "reflect", "symmetric"))
    limit = {"constant": 2, "edge": 2, "reflect": n - 1, "symmetric": n}[mode]
    begin, end = rnd.randint(-n + 1, limit), rnd.randint(-1, limit)
    if n + begin + end < 0 or begin < -n or end < -n:
        begin, end = 0, 0
    fill = rnd.choice((None, rnd.randint(0, 9), "computed"))

    def make(s):
        args = [pick(s, indices), _same(s, [begin]), _same(s, [end]), mode]
        if mode == "constant" and fill is not None:
            args.append(scalar(s, 2) if fill == "computed" else _same(s, fill))
        return op.pad(*args)
    return f"{kind}-{mode}-{begin}-{end}", make


def test_broadcast_tile_pad_random(tmp_path):
    rnd = random.Random(11)
    cases = []
    for n in range(90):
        name, make = _random_move(rnd)
        cases.append(Case(f"{name}-random-{n}", make, x=vc.random_x(rnd, 3, 6),
                          et=rnd.choice(("i64", "i32"))))
    outcomes = vc.check(cases, tmp_path)
    assert sum("?" not in o.runtime for o in outcomes) >= 20


def test_what_the_runtime_does_not_follow(tmp_path):
    """Relu, Negative, Sign, SquaredDifference and real arithmetic have no bound evaluation
    in the runtime: the target is ``?`` there, in irvalidate too."""
    cases = [
        Case("relu", lambda s: op.relu(s)),
        Case("negative-twice", lambda s: op.negative(op.negative(s))),
        Case("sign", lambda s: op.sign(s)),
        Case("squared-difference", lambda s: op.squared_difference(s, i64([0, 0]))),
        Case("floor-of-real", lambda s: op.convert(op.floor(op.convert(s, "f32")), "i64")),
        Case("less-of-intervals", lambda s: op.select(op.less(s, i64([9, 9])), s, i64([1, 1]))),
    ]
    outcomes = vc.check(cases, tmp_path)
    assert {o.runtime for o in outcomes} == {"[?,?]"}
