"""Inverse-14 and GroupedMatMul-17: matrix operations on the last dims.

* Inverse: ``[..., N, N]`` (rank >= 2, floating-point) keeps its shape; the two matrix dims
  are compared only when both are static (``[1, 2..9]`` passes, measured; the note said any
  two that can be equal) and never merged.
* GroupedMatMul (opset 17, measured on 2026.4.1; the mixture-of-experts matmul): ``mat_b`` is
  ``[G, N, K]``; ``mat_a [G, M, K]`` gives ``[G, M, N]`` (an ``offsets`` input, if any, is
  not read), ``mat_a [T, K]`` with ``offsets`` gives ``[T, N]``.  G and K are merged
  strictly (``2..3`` against 4 is refused); any other ranks are refused, and a dynamic
  rank gives a dynamic rank.  ``mat_a`` and ``mat_b`` share one type; ``offsets`` is i32/i64.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import arith
from ..shapes.dims import format_dim, format_shape
from .support.attributes import Field, read
from .support.input_types import INDEX_TYPES, require_type
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_INVERSE = (Field("adjoint", "bool", False),)


def _inverse(node: Node) -> Result:
    node.require_inputs((1,))
    node.show(("data",))
    (adjoint,) = read(node, "Inverse", _INVERSE)
    node.how = "matrix inverse" + (" (adjoint)" if adjoint else "") + ": the shape is kept"
    data, et = node.inputs[0].shape, node.inputs[0].element_type
    require_type(node, 0, "data", elements.REAL, "floating-point")
    if data is not None:
        if len(data) < 2:
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} must be at least a 2-D matrix")
        if data[-2].is_static and data[-1].is_static and data[-2] != data[-1]:
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} holds {format_dim(data[-2])}x"
                                        f"{format_dim(data[-1])} matrices: they must be square")
    return Result((data,), (et,))


def _merged(a, b, what: str, first: str, second: str):
    found = arith.merge(a, b)
    if found is None:
        raise OpError(INCOMPATIBLE, f"{what}: mat_a has {format_dim(a)} ({first}) where mat_b has "
                                    f"{format_dim(b)} ({second})")
    return found


def _grouped(node: Node) -> Result:
    node.require_inputs((2, 3))
    labels = ("mat_a", "mat_b", "offsets")[:len(node.inputs)]
    node.show(labels)
    node.how = "grouped matrix product"
    try:
        et = elements.merge(node.inputs[0].element_type, node.inputs[1].element_type)
    except ValueError:
        et = None
        node.note(TYPE, f"mat_a is {node.inputs[0].element_type} and mat_b "
                        f"{node.inputs[1].element_type}: they must be one type")
    if len(node.inputs) == 3:
        require_type(node, 2, "offsets", INDEX_TYPES)
    a, b = node.inputs[0].shape, node.inputs[1].shape
    if a is None or b is None:
        return Result((None,), (et,))
    if len(a) == 3 and len(b) == 3:
        groups = _merged(a[0], b[0], "the group counts differ", "dim 0", "dim 0")
        _merged(a[2], b[2], "the inner dims differ", "dim 2", "dim 2")
        return Result(((groups, a[1], b[1]),), (et,))
    if len(a) == 2 and len(b) == 3:
        if len(node.inputs) != 3:
            raise OpError(INCOMPATIBLE, "a 2-D mat_a with a 3-D mat_b needs the offsets input")
        offsets = node.inputs[2].shape
        if offsets is not None and len(offsets) != 1:
            raise OpError(INCOMPATIBLE, f"offsets must be a 1-D tensor, but has shape "
                                        f"{format_shape(offsets)}")
        _merged(a[1], b[2], "the inner dims differ", "dim 1", "dim 2")
        return Result(((a[0], b[1]),), (et,))
    raise OpError(INCOMPATIBLE, f"mat_a {format_shape(a)} and mat_b {format_shape(b)}: only a "
                                f"2-D or 3-D mat_a with a 3-D mat_b is supported")


SPECS = {
    "inverse": (OpSpec("Inverse", (14, 16), fields=_INVERSE, infer=_inverse),),
    "groupedmatmul": (OpSpec("GroupedMatMul", (17, 17), frozenset(), infer=_grouped),),
}
