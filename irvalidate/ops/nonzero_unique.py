"""NonZero-3 and Unique-10: outputs whose size is a count of the data's values.

NonZero: ``[rank, ..N]`` (N the element count, as an interval product; ``[?,?]`` for a scalar
or a dynamic rank); when the data is constant (a Const, or a shape value known exactly) the
runtime evaluates it and the count is exact.  ``output_type`` i32 or i64 (default i64).
Unique: four outputs (unique elements, their first indices, the reverse indices, the counts);
without an axis, a capacity ``1..N``; with one (a Const only), the axis dim is replaced.  Data
that is a Const is evaluated by the runtime (the counts are exact); an empty Const crashes it
and is refused here.  Integer Consts only are read: for others the general rule (which holds
the exact answer) stands.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..ir import elements
from ..ir.weights import REAL_TYPES
from ..shapes import arith
from ..shapes.dims import DYNAMIC, INF, Dim, format_shape, static
from .support.attributes import Field, read
from .support.axes import normalize
from .support.node import Node, is_const
from .support.shaping import refuse_unless
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_NONZERO = (Field("output_type", "str", "i64"),)
_UNIQUE = (Field("sorted", "bool", True), Field("index_element_type", "str", "i64"),
           Field("count_element_type", "str", "i64"))


def _index_type(text: str, what: str) -> str:
    found = elements.from_element_type(text)
    if found not in ("i32", "i64"):
        raise OpError(ATTRIBUTE, f"{what} must be i32 or i64, not {text[:40]!r}")
    return found


def _constant(node: Node) -> Sequence[float] | None:
    """Data values the runtime folds: a Const's numbers (integer or real), or an exactly
    known value."""
    if is_const(node.inputs[0]):
        found = node.const_ints(0)
        return found if found is not None or node.inputs[0].element_type not in REAL_TYPES \
            else node.const_floats(0)
    tensor = node.computed(0)
    if tensor is None or any(not b.is_static for b in tensor.bounds):
        return None
    return [b.lo for b in tensor.bounds]


def _nonzero(node: Node) -> Result:
    node.require_inputs((1,))
    et = _index_type(read(node, "NonZero", _NONZERO)[0], "output_type")
    node.show(["data"])
    node.how = "indices of the non-zero elements"
    shape = node.inputs[0].shape
    values = _constant(node) if shape is not None else None
    if values is not None and len(values) == _count(shape):
        n = sum(1 for v in values if v)
        return Result(((static(len(shape) if shape else min(n, 1)), static(n)),), (et,))
    if not shape:
        return Result(((DYNAMIC, DYNAMIC),), (et,))
    return Result(((static(len(shape)), arith.mul(Dim(0, 1), arith.product(shape))),), (et,))


def _count(shape) -> int | None:
    if any(not d.is_static for d in shape):
        return None
    total = 1
    for d in shape:
        total *= d.lo
    return total


def _unique(node: Node) -> Result:
    node.require_inputs((1, 2))
    _, index_text, count_text = read(node, "Unique", _UNIQUE)
    index_et = _index_type(index_text, "index_element_type")
    count_et = _index_type(count_text, "count_element_type")
    node.show(["data", "axis"])
    node.how = "unique elements"
    data = node.inputs[0]
    types = (data.element_type, index_et, index_et, count_et)
    axis: int | None = None
    if len(node.inputs) == 2:
        a_shape = node.inputs[1].shape
        refuse_unless(is_const(node.inputs[1]), "axis (input 1) must come straight from a Const")
        refuse_unless(a_shape is None or a_shape in ((), (static(1),)),
                      f"axis (input 1) must be a scalar or hold one value, not "
                      f"{format_shape(a_shape)}")
        if node.inputs[1].element_type not in ("i32", "i64", None):
            node.note(TYPE, f"axis (input 1) must be i32 or i64, not {node.inputs[1].element_type}")
        found = node.const_ints(1)
        axis = found[0] if found else None
    shape = data.shape
    cap = _count(shape) if shape is not None else None
    if is_const(data) and cap == 0:
        raise OpError(INCOMPATIBLE, "data is an empty Const: the runtime crashes on it "
                                    "(a segmentation fault)")
    values = node.const_ints(0) if is_const(data) else None
    if values is not None and len(values) == cap and (len(node.inputs) == 1 or axis is not None):
        return Result(_evaluated(values, shape, axis), types)
    some = Dim(1, cap) if cap else DYNAMIC
    if len(node.inputs) == 1:
        # an empty input gives '?' everywhere, its static 0 included
        return Result(((some,), (some,), (static(cap),) if cap else (DYNAMIC,), (some,)), types)
    if shape is None or axis is None:
        out0 = None if shape is None else tuple(DYNAMIC for _ in shape)
        return Result((out0, (DYNAMIC,), (DYNAMIC,), (DYNAMIC,)), types)
    refuse_unless(len(shape) > 0, "data is a scalar: it has no axis (the runtime reads out of "
                                  "range)")
    a = normalize(axis, len(shape))
    d = shape[a]
    if d == static(0):
        along, some = static(0), static(0)
    else:
        along = DYNAMIC if d.hi == INF else (Dim(1, d.hi) if d.hi > 0 else static(0))
    return Result((shape[:a] + (along,) + shape[a + 1:], (some,), (d,), (some,)), types)


def _evaluated(values: list[int], shape, axis: int | None):
    if axis is None:
        n = len(set(values))
        return (static(n),), (static(n),), (static(len(values)),), (static(n),)
    dims = [d.lo for d in shape]
    a = normalize(axis, len(dims), scalar_as_1d=False)
    inner = 1
    for d in dims[a + 1:]:
        inner *= d
    outer = len(values) // (dims[a] * inner) if dims[a] * inner else 0
    slices = set()
    for k in range(dims[a]):
        slices.add(tuple(values[(o * dims[a] + k) * inner + i]
                         for o in range(outer) for i in range(inner)))
    n = len(slices)
    out0 = tuple(static(n) if i == a else static(d) for i, d in enumerate(dims))
    return out0, (static(n),), (static(dims[a]),), (static(n),)


SPECS = {"nonzero": (OpSpec("NonZero", (3, 16), fields=_NONZERO,
                            dim_inputs=(0,), infer=_nonzero, own_types=(0,)),),
         "unique": (OpSpec("Unique", (10, 16), fields=_UNIQUE,
                           dim_inputs=(0,), value_inputs=(1,), infer=_unique,
                            own_types=(1, 2, 3)),)}
