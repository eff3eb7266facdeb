"""Integer tensor values with lower and upper bounds, as OpenVINO's bound evaluation computes them.

A Broadcast whose target_shape is not a Constant gets its target from the subgraph that
computes it (``ShapeOf -> Gather -> Concat -> Add ...``): OpenVINO evaluates a lower and an
upper bound for every element and reads each pair as a dimension.  This module is that
arithmetic, with no XML in it.  What it reproduces was measured on openvino 2026.4.1:

* an unbounded upper bound is the element type's maximum (``INF`` here, whatever the type);
* in arithmetic (Add, Subtract, Multiply, Divide, Maximum, Minimum), an element with an
  unbounded operand becomes ``?`` (``2..`` + 1 is ``?``, not ``3..``); the others are the
  extremes of the four corner combinations (``10 - 1..8`` is ``2..9``), except for Divide,
  which has its own rule (low/high and high/low; :func:`_div_bounds`);
* a divisor interval starting at 0 gives an unbounded upper bound (``100 / ..5`` is ``20..``);
* ReduceProd and Convert keep a finite lower bound under an unbounded upper one;
* Gather (every version) reads an out-of-range index as 0;
* a negative bound reaching a Broadcast target is an error (see :func:`as_target`);
* bound evaluation only runs where the runtime has a kernel for the element type: the
  arithmetic, Gather and ReduceProd for i32, i64 and u32 values, Gather indices of i32 and
  i64 (u8 and u16 values there make the runtime give up, or return garbage);
* Convert casts each bound like C++, and only between types wider than 16 bits does the
  type's maximum (an unbounded bound) stay the maximum: ``?`` to i16 is -1, to u8 255;
* booleans are 0 and 1 (conditions of Select); their maximum is no unbounded value;
* reals (f16, f32; f64 only moved: a size Converted to f32, as YOLO's anchors are) are
  rounded to their
  type; Convert to an integer type truncates them; Add, Subtract, Multiply, Divide, Maximum
  and Minimum take the corners, and an unbounded operand gives ``?`` (measured).

Whatever else the runtime might do (overflow, division by zero, element types we do not
follow) raises :class:`Unresolved`: the caller then falls back as the runtime does when
bound evaluation fails, which can only make a check less precise, never wrong.
"""
from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from itertools import chain
from math import prod
from operator import itemgetter
from typing import NamedTuple, cast

from . import dims as _dims
from .arith import normalize_axis
from .dims import INF, Dim, Shape

#: the most elements a value may have (shape tensors are short; this bounds the work)
MAX_VALUE_ELEMENTS = 4096
#: the highest rank a value may have (shape tensors are 0-D or 1-D; this bounds the work)
MAX_VALUE_RANK = 8
#: element types the runtime evaluates arithmetic, Gather and ReduceProd on (measured)
COMPUTED_TYPES = frozenset({"i32", "i64", "u32"})
#: element types Gather accepts as indices in bound evaluation
INDEX_TYPES = frozenset({"i32", "i64"})

RANGES = {"i64": (-(1 << 63), (1 << 63) - 1), "i32": (-(1 << 31), (1 << 31) - 1),
          "i16": (-(1 << 15), (1 << 15) - 1), "i8": (-128, 127),
          "u8": (0, 255), "u16": (0, 65535), "u32": (0, (1 << 32) - 1), "u64": (0, (1 << 64) - 1),
          "boolean": (0, 1)}
#: types whose maximum Convert keeps as the maximum when both sides are among them
WIDE_TYPES = frozenset({"i32", "i64", "u32", "u64"})
#: floating types whose values are followed (struct's code for each: a number is rounded to
#: the type as it is stored); their bounds are Python floats, ``INF`` an unbounded upper one.
#: Not bf16 (it behaves as f16 does, but its rounding is not followed here)
FLOAT_CODES = {"f16": "e", "f32": "f", "f64": "d"}
FLOAT_TYPES = frozenset(FLOAT_CODES)
#: the floating types that hold every number of a floating type, itself included: a Convert
#: to one keeps its input's bounds as they are
_HOLDS_EVERY = {"f16": ("f16", "f32", "f64"), "f32": ("f32", "f64"), "f64": ("f64",)}
#: reals the runtime computes on (arithmetic, Gather, the Reduce ops); f64 values are only
#: moved and converted (measured: Gather and ReduceMax of f64 give ``?``, Add ``?`` too, and
#: Multiply by 2.0 of ``2..6`` gives 0)
COMPUTED_REALS = frozenset({"f16", "f32"})
#: the most elements of a real value (sizes computed in f32 are short; a weight, a bias or a
#: broadcast mask, which no shape rests on, is left alone: following it would cost every model)
MAX_REAL_ELEMENTS = 64

DYNAMIC = Dim(0, INF)


class Unresolved(Exception):
    """The value cannot be bounded here; consumers fall back as on a failed bound evaluation."""


class NegativeTarget(Exception):
    """A computed target_shape has a negative lower bound: OpenVINO refuses the model."""

    def __init__(self, index: int, dim: Dim, why: str = "") -> None:
        super().__init__(index, dim)
        self.index, self.dim, self.why = index, dim, why


class Origin(NamedTuple):
    """How a value was computed: an operation label and the origins of its inputs."""
    label: str
    inputs: tuple[Origin, ...] = ()
    #: left out of descriptions (constants: their consumer's label names them)
    hidden: bool = False


class Deferred:
    """An operation's Origin made when first read (a message shows it): ``make()`` builds it.
    Why: a layer alike one already evaluated gets its value's bounds from that one; only
    its origin names its own layers, and almost no origin is ever shown.  The origin of a
    computed value is never hidden (only a constant's is)."""
    __slots__ = ("_make", "_made")
    hidden = False

    def __init__(self, make: Callable[[], Origin]) -> None:
        self._make: Callable[[], Origin] | None = make
        self._made: Origin | None = None

    def _origin(self) -> Origin:
        if self._made is None:
            self._made = self._make()  # type: ignore[misc]  # _make is set until made
            self._make = None
        return self._made

    @property
    def label(self) -> str:
        return self._origin().label

    @property
    def inputs(self) -> tuple[Origin, ...]:
        return self._origin().inputs


class Tensor:
    """A bounded integer value.  Compared by identity (equality would walk the origin
    chain); not a dataclass (importing dataclasses costs ~10 ms of each start)."""
    __slots__ = ("shape", "bounds", "et", "origin")

    def __init__(self, shape: tuple[int, ...], bounds: tuple[Dim, ...], et: str,
                 origin: Origin) -> None:
        self.shape = shape
        #: one bound pair per element, row-major; ``hi == INF`` is unbounded
        self.bounds = bounds
        self.et = et
        self.origin = origin

    def __repr__(self) -> str:
        return f"Tensor(shape={self.shape!r}, bounds={self.bounds!r}, et={self.et!r}, origin={self.origin!r})"

    @property
    def rank(self) -> int:
        return len(self.shape)

    def static_values(self) -> list[int]:
        """The values, when every element is known exactly (else Unresolved)."""
        if any(b.lo != b.hi for b in self.bounds):
            raise Unresolved(f"{self.origin.label} is not constant")
        return [b.lo for b in self.bounds]


class Pending:
    """A computed value made when something first reads it (``resolved``), which may then
    find there is none.  Why: a model's every block has its own small weights behind a
    Convert (layer-norm gammas, zero points, scales); the stream's alike layers would
    evaluate each, and almost none is ever read: the elementwise op after it stops at its
    other input, which carries no value."""
    __slots__ = ("_make", "_made")

    def __init__(self, make: Callable[[], Tensor | None]) -> None:
        self._make: Callable[[], Tensor | None] | None = make
        self._made: Tensor | None = None

    def resolve(self) -> Tensor | None:
        if self._make is not None:
            self._made = self._make()
            self._make = None
        return self._made


def resolved(tensor: Tensor | Pending | None) -> Tensor | None:
    """A value as its readers take it: a pending one made now (None if it has none)."""
    return tensor.resolve() if type(tensor) is Pending else tensor  # type: ignore[return-value]  # (the type tells them apart)


def _wrap(value: int, et: str) -> int:
    """A C++ cast of an integer into ``et`` (two's complement wrap-around; to boolean, 0 or 1)."""
    if et == "boolean":
        return int(value != 0)
    low, high = RANGES[et]
    return (value - low) % (high - low + 1) + low


def real(value: float, et: str) -> float:
    """A number as the floating type ``et`` stores it (the nearest); Unresolved past its range
    or for a number that is not finite (the runtime's bounds are not followed there)."""
    try:
        rounded = struct.unpack(FLOAT_CODES[et], struct.pack(FLOAT_CODES[et], value))[0]
    except (OverflowError, struct.error):
        raise Unresolved(f"a number past the range of {et}") from None
    if not math.isfinite(rounded):
        raise Unresolved(f"a number past the range of {et}")
    return rounded


def _real_tensor(shape: tuple[int, ...], bounds: Sequence[Dim], et: str, origin: Origin) -> Tensor:
    if len(bounds) > MAX_REAL_ELEMENTS:
        raise Unresolved("too many real elements")  # (data, not a size: not followed)
    rounded = _rounded(bounds, et)
    if rounded is not None:
        return Tensor(tuple(shape), rounded, et, origin)
    fitted = []  # (one by one: the first element out of range says why, as it always did)
    for lo, hi in bounds:
        if lo == INF:
            raise Unresolved("a lower bound is unbounded")
        upper = INF if hi == INF else real(hi, et)
        fitted.append(Dim(real(lo, et), upper))  # type: ignore[arg-type]  # reals ride in Dims
    return Tensor(tuple(shape), tuple(fitted), et, origin)


def _rounded(bounds: Sequence[Dim], et: str) -> tuple[Dim, ...] | None:
    """Every bound as ``et`` stores it (``real`` of each), in one struct call; the given
    Dims when rounding changed none (a Const's reals converted from f16 to f32). None when
    one is unbounded, past the type's range or not finite: the caller then goes bound by
    bound, which words the first of those."""
    flat = list(chain.from_iterable(bounds))
    reals = set(map(type, flat)) == {float}
    if not reals and INF in flat:  # (INF is an int: no float is it)
        return None
    rounded = _reals(flat, et)
    if rounded is None:
        return None
    if reals and rounded == tuple(flat) and all(type(b) is Dim for b in bounds):
        return tuple(bounds)  # (equal floats are the same number: the sign of 0 survives)
    return tuple(map(Dim, rounded[::2], rounded[1::2]))  # type: ignore[arg-type]  # reals ride in Dims


def _sized(shape: tuple[int, ...], count: int) -> None:
    if count > MAX_VALUE_ELEMENTS or prod(shape) != count or len(shape) > MAX_VALUE_RANK:
        raise Unresolved("too many elements")


def _reals(numbers: Sequence[float], et: str) -> tuple[float, ...] | None:
    """``real`` of every number, in one struct call; None when one is past ``et``'s range or
    not finite (the caller then rounds one by one, for the reason)."""
    code = f"={len(numbers)}{FLOAT_CODES[et]}"
    try:
        rounded = struct.unpack(code, struct.pack(code, *numbers))
    except (OverflowError, struct.error):
        return None
    return rounded if all(map(math.isfinite, rounded)) else None


def holds_value(shape: Shape, et: str | None) -> bool:
    """Whether a Const of this shape and element type can carry a value here: its dims all
    static and at most MAX_REAL_ELEMENTS reals or MAX_VALUE_ELEMENTS integers (a weight is
    data, not a size).  Told from the shape alone: nothing is decoded to find out."""
    if shape is None:
        return False
    most = MAX_REAL_ELEMENTS if et in FLOAT_TYPES else MAX_VALUE_ELEMENTS if et in RANGES else -1
    total = 1
    for dim in shape:
        if not dim.is_static:
            return False
        total *= dim.lo
        if total > most:
            return False
    return True


def make_tensor(shape: tuple[int, ...], bounds: Sequence[Dim], et: str, origin: Origin) -> Tensor:
    """A tensor of ``et``: an upper bound at the type's maximum is unbounded, as the
    runtime reads it; bounds outside the type are unresolved."""
    if et not in RANGES and et not in FLOAT_TYPES:
        raise Unresolved(f"element type {et} is not followed")
    _sized(shape, len(bounds))
    if et in FLOAT_TYPES:
        return _real_tensor(shape, bounds, et, origin)
    low, high = RANGES[et]
    fitted = []
    for b in bounds:
        lo, hi = b
        if lo == INF and hi != INF:  # (a constant int64 maximum is itself)
            raise Unresolved("a lower bound is unbounded")
        if not low <= lo <= high or (hi != INF and not low <= hi <= high):
            raise Unresolved(f"a bound leaves the range of {et}")
        if et == "u64" and lo == INF:
            # INF stands for the u64 maximum (an unbounded bound): a number equal to it is
            # not told apart; the numbers above it are u64 values past the int64 range
            raise Unresolved("a u64 bound at the int64 maximum")
        # a range reaching the type's maximum is unbounded; a constant maximum stays itself.
        # A size that carries a symbol (a shapes.symdims.SymDim ShapeOf read) and stays as
        # it is is kept itself: it carries the symbol on through the values that move it
        unbounded = hi == high and lo != hi and et != "boolean"
        fitted.append(b if type(b) is not Dim and not (unbounded and hi != INF) else
                      Dim(lo, INF if unbounded else hi))
    return Tensor(tuple(shape), tuple(fitted), et, origin)


def constant(values: Sequence[float], shape: Sequence[int], et: str, origin: Origin) -> Tensor:
    if et in RANGES and values and len(values) <= MAX_VALUE_ELEMENTS:
        exact = _integer_constant(values, tuple(shape), et, origin)
        if exact is not None:
            return exact
    # a real value rides in a Dim's bounds as a float (Dim is typed for dims)
    if et in FLOAT_TYPES and len(values) <= MAX_REAL_ELEMENTS and prod(shape) == len(values) \
            and len(shape) <= MAX_VALUE_RANK and INF not in values:
        rounded = _reals(values, et)  # (each number once, not as both bounds of its Dim)
        if rounded is not None:
            return Tensor(tuple(shape), tuple([Dim(v, v) for v in rounded]), et, origin)  # type: ignore[arg-type]  # (above)
    return make_tensor(tuple(shape), [Dim(v, v) for v in values], et, origin)  # type: ignore[arg-type]  # (above)


def _integer_constant(values: Sequence[float], shape: tuple[int, ...], et: str,
                      origin: Origin) -> Tensor | None:
    """What make_tensor makes of integers inside ``et``'s range, each value's Dim made once
    (a quantized weight's thousands of numbers take a few hundred values); None for
    anything else, which make_tensor words."""
    low, high = RANGES[et]
    if prod(shape) != len(values) or len(shape) > MAX_VALUE_RANK or \
            set(map(type, values)) != {int}:
        return None
    distinct = cast("set[int]", set(values))  # (ints: told above)
    if not low <= min(distinct) <= max(distinct) <= high or (et == "u64" and INF in distinct):
        return None
    points = _POINTS
    if len(points) + len(distinct) > MAX_POINTS:
        points.clear()
    for number in distinct - points.keys():
        points[number] = Dim(number, number)
    bounds = itemgetter(*values)(points)
    return Tensor(shape, bounds if len(values) > 1 else (bounds,), et, origin)


#: the Dim of each integer a constant held (a quantized weight's numbers are few: -128..255),
#: made once; forgotten past MAX_POINTS
_POINTS: dict[int, Dim] = {}
MAX_POINTS = 4096


def shape_values(shape: Shape, et: str, origin: Origin) -> Tensor:
    """ShapeOf: the dims of a shape, intervals included (bounds past the type are unbounded)."""
    if shape is None:
        raise Unresolved("ShapeOf of a dynamic rank")
    if et not in INDEX_TYPES:
        raise Unresolved(f"ShapeOf to {et}")
    high = RANGES[et][1]
    bounds = [d if type(d) is not Dim and (d.hi < high or d.hi == INF) else
              Dim(d.lo, INF if d.hi >= high else d.hi) for d in shape]
    return make_tensor((len(shape),), bounds, et, origin)


def _convert_real(t: Tensor, et: str, origin: Origin) -> Tensor:
    """Convert to or from a floating type (measured on openvino 2026.4.1): a number becomes
    the nearest of a floating type, and a real one an integer truncated towards zero; an
    unbounded bound stays unbounded both ways (``2..`` through f32 and back is ``2..``).
    A real past the integer type's range is not followed (C++ leaves it undefined)."""
    if et in FLOAT_TYPES:
        if len(t.bounds) > MAX_REAL_ELEMENTS:  # what make_tensor says, without the reals made
            _sized(t.shape, len(t.bounds))
            raise Unresolved("too many real elements")
        if set(map(type, chain.from_iterable(t.bounds))) <= {float}:
            if et in _HOLDS_EVERY.get(t.et, ()):  # (an f16 weight's decompression to f32)
                return Tensor(t.shape, t.bounds, et, origin)
            return make_tensor(t.shape, t.bounds, et, origin)  # (reals already: as below)
        return make_tensor(t.shape, [Dim(float(b.lo), INF if b.hi == INF else float(b.hi))  # type: ignore[arg-type]  # reals ride in Dims
                                     for b in t.bounds], et, origin)
    if et not in RANGES:
        raise Unresolved(f"Convert of reals to {et}")
    low, high = RANGES[et]

    def cast(value: float) -> int:
        if value == INF:
            return INF
        number = int(value)  # (towards zero)
        if not low <= number <= high:
            raise Unresolved(f"a real past the range of {et}")
        return number
    if et == "boolean":
        raise Unresolved("Convert of reals to boolean")
    return make_tensor(t.shape, [Dim(cast(b.lo), cast(b.hi)) for b in t.bounds], et, origin)


def _symbols_kept(t: Tensor, et: str) -> None:
    """reshapeable: a size Converted to a real type, or cast to a narrow integer type that
    wraps large sizes, is no longer the expression it carries; Unresolved (its readers are
    then not followed) rather than a number standing for every size.  The wide integer
    types (32 bits and more) hold every size the solver asks about."""
    recording = _dims.SYMBOLIC
    if recording is None or not any(recording.carries(b) for b in t.bounds):
        return
    if et not in WIDE_TYPES or t.et not in WIDE_TYPES:
        raise Unresolved(f"a size of the inputs converted to {et}")


def convert(t: Tensor, et: str, origin: Origin) -> Tensor:
    """Convert casts each bound like C++ (wrapping, so a lower bound may end above the upper
    one), as ``convert::evaluate_bound`` does: between two types wider than 16 bits a bound
    at the input type's maximum becomes the output type's maximum (``[4..]`` through u32 or
    u64 and back to i64 is ``[4..]``); to or from a narrower type it is a plain cast (``?``
    to u8 is ``..255``, to i16 ``..-1``; u8 ``..255`` to i64 is ``..255``).
    """
    _symbols_kept(t, et)
    if et in FLOAT_TYPES or t.et in FLOAT_TYPES:
        return _convert_real(t, et, origin)
    if et not in RANGES:
        raise Unresolved(f"Convert to {et}")
    source_max, target_max = RANGES[t.et][1], RANGES[et][1]
    keep_max = t.et in WIDE_TYPES and et in WIDE_TYPES

    def cast(value: int) -> int:
        value = source_max if value == INF else value
        if keep_max and value == source_max:
            return target_max
        value = _wrap(value, et)
        if et == "u64" and value == INF:
            raise Unresolved("a u64 value at the int64 maximum")  # it reads as unbounded
        return value
    casts = [(b, cast(b.lo), cast(b.hi)) for b in t.bounds]  # (a size cast as it is: kept,
    # an unbounded one too, whose maximum is the new type's: a size fits either)
    return make_tensor(t.shape, [b if type(b) is not Dim and lo == b.lo and (
        hi == b.hi or (keep_max and b.hi == INF and hi == target_max)) else Dim(lo, hi)
        for b, lo, hi in casts], et, origin)


def axis_index(axis: int, rank: int) -> int:
    """``axis`` of a value of ``rank`` counted from 0 (a negative one from the end)."""
    found = normalize_axis(axis, rank)
    if found is None:
        raise Unresolved(f"axis {axis} is out of range for rank {rank}")
    return found


def concat(parts: Sequence[Tensor], axis: int, origin: Origin) -> Tensor:
    if not parts or any(p.rank != 1 for p in parts) or axis_index(axis, 1) != 0:
        raise Unresolved("Concat of values that are not 1-D")
    if len({p.et for p in parts}) != 1:
        raise Unresolved("Concat of different element types")
    bounds = [b for p in parts for b in p.bounds]
    return make_tensor((len(bounds),), bounds, parts[0].et, origin)


def gather(data: Tensor, indices: Tensor, axis: int, origin: Origin) -> Tensor:
    """Gather along axis 0 of a 1-D value; indices may be negative, and an index out of
    range reads 0 in bound evaluation (every Gather version)."""
    if data.rank != 1 or axis_index(axis, 1) != 0:
        raise Unresolved("Gather of a value that is not 1-D")
    if (data.et not in COMPUTED_TYPES and data.et not in COMPUTED_REALS) or \
            indices.et not in INDEX_TYPES:
        raise Unresolved("Gather of types the runtime does not evaluate")
    n = data.shape[0]
    bounds = []
    for k in indices.static_values():
        bounds.append(data.bounds[k % n] if -n <= k < n else Dim(0, 0))
    return make_tensor(indices.shape, bounds, data.et, origin)


def reshaped(t: Tensor, shape: Sequence[int], origin: Origin) -> Tensor:
    return make_tensor(tuple(shape), t.bounds, t.et, origin)


def reshape_target(t: Tensor, pattern: Sequence[int], special_zero: bool) -> list[int]:
    """The output shape of Reshape(t, pattern)."""
    out = []
    for i, p in enumerate(pattern):
        if p == 0 and special_zero:
            if i >= t.rank:
                raise Unresolved("special zero beyond the input rank")
            p = t.shape[i]
        out.append(p)
    if out.count(-1) > 1 or any(p < -1 for p in out):
        raise Unresolved("bad Reshape pattern")
    if -1 in out:
        rest = prod([p for p in out if p != -1])
        if rest == 0 or prod(t.shape) % rest:
            raise Unresolved("bad Reshape pattern")
        out[out.index(-1)] = prod(t.shape) // rest
    if prod(out) != prod(t.shape):
        raise Unresolved("Reshape changes the element count")
    return out


def unsqueeze_shape(shape: tuple[int, ...], axes: Sequence[int]) -> list[int]:
    rank = len(shape) + len(axes)
    where = sorted({axis_index(a, rank) for a in axes})
    if len(where) != len(axes):
        raise Unresolved("repeated Unsqueeze axes")
    out, rest, inserted = [], iter(shape), set(where)
    for i in range(rank):
        out.append(1 if i in inserted else next(rest))
    return out


def squeeze_shape(shape: tuple[int, ...], axes: Sequence[int] | None) -> list[int]:
    if not axes:  # no axes (or an empty list): every 1 goes
        return [d for d in shape if d != 1]
    where = {axis_index(a, len(shape)) for a in axes} if shape else set()
    if any(shape[a] != 1 for a in where):
        raise Unresolved("Squeeze of an axis that is not 1")
    return [d for i, d in enumerate(shape) if i not in where]


def slice_1d(t: Tensor, start: int, stop: int, step: int, origin: Origin, shrink: bool = False) -> Tensor:
    """Python/numpy slicing of a 1-D value (Slice-8, StridedSlice); shrink keeps one element."""
    if t.rank != 1 or step == 0:
        raise Unresolved("slice of a value that is not 1-D")
    n = t.shape[0]
    if shrink:
        if not -n <= start < n:
            raise Unresolved("StridedSlice shrinks an out-of-range index")
        return make_tensor((), [t.bounds[start % n]], t.et, origin)
    picked = [t.bounds[i] for i in range(*slice(start, stop, step).indices(n))]
    return make_tensor((len(picked),), picked, t.et, origin)


def range_length(start: float, stop: float, step: float, integral: bool) -> int | None:
    """Range's element count as ``range_shape_inference`` computes it, in doubles: the three
    truncated towards zero for an integral output, ``ceil(|stop - start| / |step|)`` (0 when
    the step points away from stop), cast to uint32.  None where C++ leaves the result
    undefined (a step truncated to 0, a count past uint32)."""
    if integral:
        start, stop, step = (float(math.trunc(v)) for v in (start, stop, step))
    if step == 0 or not all(math.isfinite(v) for v in (start, stop, step)):
        return None
    away = (step > 0 and start >= stop) or (step < 0 and start <= stop)
    count = 0 if away else math.ceil(abs(stop - start) / abs(step))
    return count if count < 1 << 32 else None


def arange(start: float, stop: float, step: float, et: str, origin: Origin) -> Tensor:
    """Range's values, ``start + i * step``: integers (the three truncated) or reals."""
    integral = et not in FLOAT_TYPES
    count = range_length(start, stop, step, integral)
    if count is None or count > MAX_VALUE_ELEMENTS:
        raise Unresolved("Range with step 0, or too long")
    if integral:
        first, stride = math.trunc(start), math.trunc(step)
        return constant([first + i * stride for i in range(count)], (count,), et, origin)
    return make_tensor((count,), [Dim(start + i * step, start + i * step)  # type: ignore[arg-type]  # reals ride in Dims
                                  for i in range(count)], et, origin)


def as_target(t: Tensor) -> tuple[Dim, ...]:
    """The dims a Broadcast reads from a computed target_shape (its rank is checked before).

    An unbounded element is ``?`` for i32 and i64 values, and the type's maximum for the
    narrower types (the runtime's Convert to u8 of ``?`` gives ``..255``); the runtime reads
    the values as int64s, so a u64 value past the int64 range (its maximum too) is negative,
    which it refuses.
    """
    if t.et == "boolean" or t.et in FLOAT_TYPES:
        raise Unresolved(f"a {t.et} target")
    out = []
    for index, b in enumerate(t.bounds):
        if t.et == "u64" and (b.hi == INF or b.lo > INF or b.hi > INF):
            lo, hi = (_wrap(v, "i64") for v in (b.lo, RANGES["u64"][1] if b.hi == INF else b.hi))
            raise NegativeTarget(index, Dim(lo, hi), " (u64 values past the int64 range, "
                                                     "read as int64s)")
        if b.lo < 0 or b.hi < 0:
            raise NegativeTarget(index, b)
        if b.lo > b.hi:
            raise Unresolved("a wrapped bound")
        hi = b.hi if b.hi != INF or t.et in ("i32", "i64") else RANGES[t.et][1]
        out.append(b if type(b) is not Dim and hi == b.hi else Dim(b.lo, hi))  # (a symbol kept)
    return tuple(out)


def describe(origin: Origin, limit: int = 12) -> str:
    """The operations in the order they run: ``→`` where an operation reads the one before
    it, ``,`` between parallel branches, e.g.
    ``ShapeOf(layer 12 'ids') → Gather(axis 0, indices [0]), Gather(axis 0, indices [1]) → Concat``."""
    seen, order, stack = set(), [], [(origin, False)]
    while stack:
        node, done = stack.pop()
        if done:
            if not node.hidden:
                order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node.inputs))
    text = [order[0].label] if order else []
    for before, node in zip(order, order[1:]):
        reads = any(child is before for child in node.inputs)
        text.append((" → " if reads else ", ") + node.label)
    if len(text) > limit:
        skipped = len(text) - limit
        text = text[:limit // 2] + [f" → ... {skipped} more ..."] + text[-(limit // 2):]
    return "".join(text)
