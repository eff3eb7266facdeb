"""Bounds of the pointwise ops the runtime bound-evaluates on shape values: the
comparisons and logical ops (exact values only, or Equal's own rule), LogicalNot, Abs
(the extremes of ``|lower|`` and ``|upper|``, not interval maths: ``abs(2..6 - 4)`` is 2)
and Clamp (each bound clamped, the minimum rounded up and the maximum down).
"""
from __future__ import annotations

import math

from .bounds import broadcast_pairs, numbers
from .dims import Dim
from .values import COMPUTED_TYPES, RANGES, Origin, Tensor, Unresolved, make_tensor

_COMPARE = {
    "equal": lambda x, y: x == y, "notequal": lambda x, y: x != y,
    "less": lambda x, y: x < y, "lessequal": lambda x, y: x <= y,
    "greater": lambda x, y: x > y, "greaterequal": lambda x, y: x >= y,
    "logicaland": lambda x, y: bool(x and y), "logicalor": lambda x, y: bool(x or y),
    "logicalxor": lambda x, y: bool(x) != bool(y), "xor": lambda x, y: bool(x) != bool(y),
}
_LOGICAL = frozenset({"logicaland", "logicalor", "logicalxor", "xor"})


def compare(kind: str, a: Tensor, b: Tensor, origin: Origin) -> Tensor:
    """A comparison or logical operation of two values, giving booleans.  Equal has its own
    bounds (``src/core/src/op/equal.cpp``): true at the lower bound where both operands are
    one and the same number, true at the upper one where their intervals meet; the others
    need exact operands."""
    if a.et != b.et:
        raise Unresolved("operand types differ")
    if (kind in _LOGICAL) != (a.et == "boolean") or (
            a.et != "boolean" and a.et not in COMPUTED_TYPES):
        raise Unresolved(f"{kind} of {a.et} values is not followed")
    if kind != "equal":
        a.static_values(), b.static_values()
    shape, pairs = broadcast_pairs(a, b)
    test = _COMPARE[kind]
    out = []
    for i, j in pairs:
        (xl, xh), (yl, yh) = numbers(a.bounds[i], a.et), numbers(b.bounds[j], b.et)
        if kind == "equal":
            out.append(Dim(int(xl == xh == yl == yh), int(xl <= yh and yl <= xh)))
        else:
            value = int(test(xl, yl))
            out.append(Dim(value, value))
    return make_tensor(shape, out, "boolean", origin)


def logical_not(t: Tensor, origin: Origin) -> Tensor:
    """LogicalNot of an exact boolean value."""
    if t.et != "boolean":
        raise Unresolved("LogicalNot of a value that is not boolean")
    values = t.static_values()
    return make_tensor(t.shape, [Dim(1 - v, 1 - v) for v in values], "boolean", origin)


#: the integer types the runtime's Abs kernel takes (signed ones wrap at their minimum)
ABS_TYPES = frozenset({"i32", "i64", "u32", "u64"})
#: the integer types the runtime's Clamp kernel takes
CLAMP_TYPES = frozenset({"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"})


def absolute(t: Tensor, origin: Origin) -> Tensor:
    """Abs (``src/core/src/op/abs.cpp``): the absolute values of the lower and of the upper
    bound, the smaller one the new lower bound and the larger the upper; not interval maths
    (``-2..2`` gives 2, ``-8..-4`` gives ``4..8``)."""
    if t.et not in ABS_TYPES:
        raise Unresolved(f"Abs of {t.et} values")
    low = RANGES[t.et][0]
    out = []
    for b in t.bounds:
        lo, hi = numbers(b, t.et)
        if low in (lo, hi) and low < 0:
            raise Unresolved("Abs of the type's minimum")  # it wraps in C++
        out.append(Dim(min(abs(lo), abs(hi)), max(abs(lo), abs(hi))))
    return make_tensor(t.shape, out, t.et, origin)


def _saturated(value: float, et: str, rounding) -> int:
    """Clamp's limit for an integer type: rounded (ceil for min, floor for max), then
    saturated to the type as ``clamp::min_as``/``max_as`` do."""
    if not math.isfinite(value):
        raise Unresolved("a limit that is not a finite number")  # (how the reader reads it)
    low, high = RANGES[et]
    return min(max(int(rounding(value)), low), high)


def clamp(t: Tensor, minimum: float, maximum: float, origin: Origin) -> Tensor:
    """Clamp (the default bound evaluator: each bound clamped), ``min`` rounded up and ``max``
    down to the integer type, both saturated to it (``clamp(2..6, 2.5, 4.5)`` is ``3..4``)."""
    if t.et not in CLAMP_TYPES:
        raise Unresolved(f"Clamp of {t.et} values")
    if not minimum <= maximum:
        raise Unresolved("Clamp with min above max")  # the reader refuses the layer
    low, high = _saturated(minimum, t.et, math.ceil), _saturated(maximum, t.et, math.floor)

    def one(v: int) -> int:
        return low if v < low else high if v > high else v
    out = []
    for b in t.bounds:
        lo, hi = numbers(b, t.et)
        out.append(Dim(one(lo), one(hi)))
    return make_tensor(t.shape, out, t.et, origin)


#: the ops the runtime evaluates on exact values only (every element known: its default
#: bound evaluator), and the types followed for each
_EXACT = {
    "relu": (lambda v: max(v, 0), frozenset({"i32", "i64", "f16", "f32"})),
    "floor": (math.floor, frozenset({"i32", "i64", "f16", "f32"})),
    "ceiling": (math.ceil, frozenset({"i32", "i64", "f16", "f32"})),
}


def exact_only(kind: str, t: Tensor, origin: Origin) -> Tensor:
    """Relu, Floor or Ceiling of a value every element of which is known exactly (so the
    runtime bound-evaluates ``Relu([4, 6])`` and not ``Relu([4, 2..6])``, which is ``?``)."""
    apply, types = _EXACT[kind]
    if t.et not in types:
        raise Unresolved(f"{kind} of {t.et} values")
    out = [apply(v) for v in t.static_values()]
    return make_tensor(t.shape, [Dim(v, v) for v in out], t.et, origin)
