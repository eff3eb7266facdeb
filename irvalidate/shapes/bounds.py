"""Arithmetic on bounded integer values, as OpenVINO's bound evaluation does it.

Add, Subtract, Multiply, Maximum and Minimum take the extremes of the four corner
combinations of their operands' bounds, an element with an operand at the type's maximum
becoming ``?``; Divide has its own rule (``src/core/src/op/divide.cpp``); ReduceProd
multiplies the lower and the upper bounds.  Operands broadcast as numpy does.  Only the
element types the runtime has kernels for are followed (see :mod:`values`).
"""
from __future__ import annotations

import itertools
from collections.abc import Callable
from math import prod

from . import dims as _dims
from .dims import INF, Dim
from .values import (
    COMPUTED_REALS,
    COMPUTED_TYPES,
    DYNAMIC,
    FLOAT_TYPES,
    MAX_VALUE_ELEMENTS,
    RANGES,
    Origin,
    Tensor,
    Unresolved,
    make_tensor,
)


def numbers(b: Dim, et: str) -> tuple[int, int]:
    """A bound pair as the runtime holds it: an unbounded upper bound is the type's maximum."""
    high = RANGES[et][1]
    return (high if b.lo == INF else b.lo), (high if b.hi == INF else b.hi)


def broadcast_pairs(a: Tensor, b: Tensor) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """Numpy broadcasting of two value shapes: the result shape and index pairs per element."""
    rank = max(a.rank, b.rank)
    sa, sb = (1,) * (rank - a.rank) + a.shape, (1,) * (rank - b.rank) + b.shape
    out = []
    for x, y in zip(sa, sb):
        if x != y and 1 not in (x, y):
            raise Unresolved("value shapes do not broadcast")
        out.append(max(x, y) if 0 not in (x, y) else 0)
    if prod(out) > MAX_VALUE_ELEMENTS:
        raise Unresolved("too many elements")

    def flat(index: tuple[int, ...], shape: tuple[int, ...]) -> int:
        k = 0
        for i, d in zip(index, shape):
            k = k * d + (i if d != 1 else 0)
        return k
    pairs = [(flat(ix, sa), flat(ix, sb)) for ix in itertools.product(*(range(d) for d in out))]
    return tuple(out), pairs


def _floor_div(x: int, y: int, python: bool) -> int:
    q = x // y
    if not python and q < 0 and q * y != x:
        q += 1  # C++ truncates toward zero
    return q


def _div_bounds(a: Dim, b: Dim, python: bool, low: int, high: int) -> Dim:
    """Divide's own bound evaluation (src/core/src/op/divide.cpp), element by element:
    a positive divisor gives [a.lo / b.hi, a.hi / b.lo], a negative one [a.hi / b.lo,
    a.lo / b.hi]; a divisor interval that holds 0 inside gives [type min, unbounded], a
    zero divisor bound an unbounded upper bound, and an unbounded operand ``?``."""
    if INF in (a.hi, b.hi) or high in (a.hi, b.hi):
        return DYNAMIC
    positive = b.hi > 0
    if b.lo < 0 < b.hi:
        return Dim(low, INF)
    lower_divisor = b.hi if positive else b.lo
    if lower_divisor == 0:
        raise Unresolved("division by zero")  # the runtime's kernel throws
    lo = _floor_div(a.lo if positive else a.hi, lower_divisor, python)
    upper_divisor = b.lo if positive else b.hi
    hi = INF if upper_divisor == 0 else _floor_div(a.hi if positive else a.lo, upper_divisor, python)
    return Dim(lo, hi)


#: beyond this magnitude a double no longer holds every integer: FloorMod and Power compute
#: in doubles, and irvalidate does not follow their rounding there
EXACT_DOUBLE = 1 << 53


def _floor_mod(x: int, y: int) -> int:
    """``reference::func::floor_mod``: ``x % y`` for unsigned types, and for signed ones
    ``x - y * floor(x / (double)y)``, which is the floored remainder while doubles are exact
    (a zero divisor is undefined there, or a crash)."""
    if y == 0 or abs(x) + abs(y) >= EXACT_DOUBLE:
        raise Unresolved("FloorMod by zero, or past the integers a double holds")
    return x % y


def _power(x: int, y: int) -> int:
    """``reference::func::power``: ``(T)std::pow(x, y)``; a negative exponent gives 0 but for
    1 and -1 (and infinity, undefined once cast, for 0); only results a double holds exactly
    are followed."""
    if y < 0:
        if x == 0:
            raise Unresolved("0 to a negative power")
        return 1 if x == 1 or (x == -1 and y % 2 == 0) else -1 if x == -1 else 0
    if abs(x) > 1 and y >= 64:
        raise Unresolved("a power past the integers a double holds")
    result = x ** y
    if abs(result) > EXACT_DOUBLE:
        raise Unresolved("a power past the integers a double holds")
    return result


_CORNER: dict[str, Callable[[int, int], int]] = {
    "add": lambda x, y: x + y,
    "subtract": lambda x, y: x - y,
    "multiply": lambda x, y: x * y,
    "maximum": max,
    "minimum": min,
    "floormod": _floor_mod,
    "power": _power,
}


_REAL_CORNER: dict[str, Callable[[float, float], float]] = {
    "add": lambda x, y: x + y,
    "subtract": lambda x, y: x - y,
    "multiply": lambda x, y: x * y,
    "divide": lambda x, y: x / y,
    "maximum": max,
    "minimum": min,
}


def _real_arithmetic(kind: str, a: Tensor, b: Tensor, origin: Origin) -> Tensor:
    """The arithmetic of two floating values, as measured: the corners (``2..6`` times 2.0 is
    ``4..12``), an element with an unbounded operand ``?``; a divisor interval that reaches 0
    or below, and FloorMod, Power and the like, are not followed."""
    if kind not in _REAL_CORNER:
        raise Unresolved(f"{kind} of real values")
    shape, pairs = broadcast_pairs(a, b)
    bounds = []
    for i, j in pairs:
        x, y = a.bounds[i], b.bounds[j]
        if kind == "divide" and y.lo <= 0:
            raise Unresolved("a real divisor that may be 0 or negative")
        if INF in (x.hi, y.hi):
            bounds.append(DYNAMIC)
            continue
        corners = [_REAL_CORNER[kind](p, q) for p in (x.lo, x.hi) for q in (y.lo, y.hi)]
        bounds.append(Dim(min(corners), max(corners)))  # type: ignore[arg-type]  # reals ride in Dims
    return make_tensor(shape, bounds, a.et, origin)


def arithmetic(kind: str, a: Tensor, b: Tensor, origin: Origin, python_div: bool = True) -> Tensor:
    """Add, Subtract, Multiply, Divide, Maximum, Minimum, FloorMod or Power of two bounded
    values (the corners: ``interval_bound_evaluator``; so FloorMod of ``2..6`` by 4 is 2)."""
    if a.et == b.et and a.et in COMPUTED_REALS:
        return _real_arithmetic(kind, a, b, origin)
    if a.et != b.et or a.et not in COMPUTED_TYPES:
        raise Unresolved("operand types differ, or the runtime has no kernel for them")
    shape, pairs = broadcast_pairs(a, b)
    high = RANGES[a.et][1]
    bounds = []
    for i, j in pairs:
        x, y = a.bounds[i], b.bounds[j]
        if kind == "divide":
            bounds.append(_div_bounds(x, y, python_div, RANGES[a.et][0], high))
        # the runtime marks every element where an input bound is the type's maximum
        elif INF in (x.hi, y.hi) or high in (x.lo, x.hi, y.lo, y.hi):
            bounds.append(DYNAMIC)
        else:  # (a FloorMod by zero there is undefined: _floor_mod gives up)
            corners = [_CORNER[kind](p, q) for p in (x.lo, x.hi) for q in (y.lo, y.hi)]
            bounds.append(Dim(min(corners), max(corners)))
        if _dims.SYMBOLIC is not None:  # reshapeable: sizes computed from the inputs' sizes
            bounds[-1] = _dims.SYMBOLIC.valued(kind, x, y, bounds[-1])
    return make_tensor(shape, bounds, a.et, origin)


def _remainder(x: int, y: int, et: str) -> int:
    """C++ ``x % y`` in ``et`` (truncated; a zero divisor, or the minimum by -1, traps)."""
    if y == 0 or (x == RANGES[et][0] < 0 and y == -1):
        raise Unresolved("a remainder the runtime cannot compute")
    r = abs(x) % abs(y)
    return -r if x < 0 else r


def _wrapped(value: int, et: str) -> int:
    low, high = RANGES[et]
    return (value - low) % (high - low + 1) + low


def _mod_value(v1: int, v2: int, m: int, et: str) -> tuple[int, int]:
    """``reference::func::mod_interval_value``: ``[v1, v2] % m``, in ``et``'s arithmetic."""
    v_diff = _wrapped(v2 - v1, et)
    r = (_remainder(v1, m, et), _remainder(v2, m, et))
    if r[1] < r[0] or (v_diff != 0 and v_diff >= m):
        r = (0, _wrapped(m - 1, et))
    return r


def mod_interval(v1: int, v2: int, m1: int, m2: int, et: str) -> tuple[int, int]:
    """``reference::func::mod_interval``: ``[v1, v2] % [m1, m2]`` as the runtime estimates it,
    written for ``0 <= v1 <= v2`` and ``0 < m1 <= m2`` and applied to anything (so
    ``17 % 2..6`` is ``..5``, and ``17 % 2..`` is ``..max-1``)."""
    r = _mod_value(v1, v2, m1, et)
    if v2 != 0 and m1 != m2:
        r2 = _mod_value(v1, v2, m2, et)
        r = (min(r[0], r2[0]), max(r[1], r2[1]))
        if _wrapped(v2 - v1, et) == 0 and _wrapped(m2 - m1, et) != 1:
            half = abs(v2) // 2 * (1 if v2 >= 0 else -1)  # C++ division truncates
            if m1 < half or m1 < v2 < m2:
                upper = (_remainder(v2, _wrapped(half + 1, et), et) if half < m2 < v2
                         else _wrapped(m2 - 1, et))
                r = (0, upper)
    return r


#: the integer types Mod's bounds are followed for (the narrower ones compute in int)
MOD_TYPES = frozenset({"i32", "i64", "u32"})


def mod(a: Tensor, b: Tensor, origin: Origin) -> Tensor:
    """Mod (``src/core/src/op/mod.cpp``): ``mod_interval`` of the two bounds per element,
    except where the divisor's lower or upper bound is 0, the divisor's lower bound or the
    dividend's upper one the type's maximum: those are ``[0, unbounded]``.  When both
    inputs are exact the runtime keeps the lower result for both bounds."""
    if a.et != b.et or a.et not in MOD_TYPES:
        raise Unresolved("Mod of types not followed")
    shape, pairs = broadcast_pairs(a, b)
    exact = all(x.lo == x.hi for x in a.bounds + b.bounds)
    high = RANGES[a.et][1]
    out = []
    for i, j in pairs:
        v1, v2 = numbers(a.bounds[i], a.et)
        m1, m2 = numbers(b.bounds[j], b.et)
        if 0 in (m1, m2) or high in (m1, v2):
            out.append(Dim(0, 0) if exact else DYNAMIC)
            continue
        lo, hi = mod_interval(v1, v2, m1, m2, a.et)
        out.append(Dim(lo, lo if exact else hi))
    return make_tensor(shape, out, a.et, origin)


#: comparisons and logical operations: the runtime evaluates them on exact values only,
#: but Equal, which has its own bounds (see :func:`compare`)
def reduce_prod(t: Tensor, keep_dims: bool, origin: Origin) -> Tensor:
    """ReduceProd over every element of a value of rank <= 1."""
    if t.rank > 1 or (t.et not in COMPUTED_TYPES and t.et not in COMPUTED_REALS):
        raise Unresolved("ReduceProd of a value of rank above 1, or of a type not evaluated")
    lo, hi = 1, 1
    for b in t.bounds:
        lo *= b.lo
        hi = INF if INF in (hi, b.hi) else hi * b.hi
    if any(b.hi == 0 for b in t.bounds):
        hi = 0  # a zero element bounds the product, unbounded factors or not
    elif hi != INF and t.et in RANGES and hi > RANGES[t.et][1]:
        hi = INF
    if hi != INF and lo > hi:
        # the runtime multiplies the lower bounds and the upper bounds, as here; with
        # negative factors the two may cross ([2, -3..0] twice: 36 and 0), and it has none
        raise Unresolved("ReduceProd of a value whose bounds' products cross")
    shape = (1,) * t.rank if keep_dims else ()
    return make_tensor(shape, [Dim(lo, hi)], t.et, origin)


def _groups(shape: tuple[int, ...], where: frozenset, keep_dims: bool
            ) -> tuple[tuple[int, ...], list[list[int]]]:
    """The output shape of a reduction over the axes ``where`` and, per output element, the
    flat indices of the input elements it reduces (row-major)."""
    if keep_dims:
        out = tuple(1 if i in where else d for i, d in enumerate(shape))
    else:
        out = tuple(d for i, d in enumerate(shape) if i not in where)
    groups: list[list[int]] = [[] for _ in range(prod(out))]
    for flat, index in enumerate(itertools.product(*(range(d) for d in shape))):
        k = 0
        for i, (position, size) in enumerate(zip(index, shape)):
            if i in where:  # a reduced axis (kept as a 1 or dropped) picks no position
                continue
            k = k * size + position
        groups[k].append(flat)
    return out, groups


def reduce(kind: str, t: Tensor, axes: list[int], keep_dims: bool, origin: Origin) -> Tensor:
    """ReduceMax/ReduceMin of bounded values (the lower bounds reduced, and the upper ones, as
    the runtime's default bound evaluators do), and ReduceSum/ReduceMean/ReduceL1 of exact
    values only (the runtime evaluates those on constants, not on bounds)."""
    if t.et not in COMPUTED_TYPES and t.et not in COMPUTED_REALS:
        raise Unresolved(f"Reduce of {t.et} values")
    rank = max(t.rank, 1)
    if any(not -rank <= a < rank for a in axes):
        raise Unresolved("a reduction axis is out of range")
    where = frozenset(a % rank for a in axes) if t.rank else frozenset()
    if t.rank == 0 and axes and keep_dims:
        raise Unresolved("keep_dims on a scalar")
    shape, groups = _groups(t.shape, where, keep_dims)
    bounds = []
    for group in groups:
        items = [t.bounds[i] for i in group]
        if not items and kind in ("sum", "l1"):  # (an empty sum is 0, measured)
            bounds.append(Dim(0, 0))
            continue
        if not items and kind in ("min", "max") and t.et in RANGES and RANGES[t.et][1] < INF:
            # the runtime's identities: the type's maximum (a number, not unbounded: a
            # Broadcast to it is [2147483647] for i32; i64's is not told from unbounded
            # here) and its lowest
            low, high = RANGES[t.et]
            bounds.append(Dim(high, high) if kind == "min" else Dim(low, low))
            continue
        if not items:
            raise Unresolved("a reduction over no element")
        if kind == "max":
            bounds.append(Dim(max(b.lo for b in items), max(b.hi for b in items)))
        elif kind == "min":
            bounds.append(Dim(min(b.lo for b in items), min(b.hi for b in items)))
        else:
            if any(b.lo != b.hi or b.hi == INF for b in items):
                raise Unresolved("the runtime reduces only constant values here")
            numbers = [b.lo for b in items]
            total: float
            if kind == "l1":
                total = sum(abs(n) for n in numbers)
            else:
                total = sum(numbers)
            if kind == "mean" and t.et in FLOAT_TYPES:
                total = total / len(numbers)
            elif kind == "mean":
                total = abs(total) // len(numbers) * (1 if total >= 0 else -1)  # C++ truncates
            bounds.append(Dim(total, total))  # type: ignore[arg-type]  # a float mean rides in a Dim
    return make_tensor(shape, bounds, t.et, origin)
