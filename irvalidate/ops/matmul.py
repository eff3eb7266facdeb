"""MatMul-1: the matrix product of A and B over their last two dims, batch dims broadcast.

Shape (matmul_shape_inference): ``transpose_a``/``transpose_b`` (false when missing) swap the
last two dims of an input of rank 2 or more; a 1-D A becomes a row ``[1, K]``, a 1-D B a
column ``[K, 1]``, and those added dims are dropped again from the output.  A's columns must
equal B's rows, but only when both are static: the runtime accepts two intervals that cannot
be equal ("backward compatibility").  The batch dims (all but the last two, the shorter input
padded with 1s on the left) broadcast as numpy does, an interval containing 1 broadcasting;
two dims that cannot broadcast are refused when both are static and give ``?`` otherwise.
The output's last two dims are A's rows and B's columns, unrefined.  Either input of dynamic
rank gives a dynamic rank; a scalar is refused.  The element types must agree.
"""
from __future__ import annotations

from ..shapes.dims import DYNAMIC, ONE, Dim, broadcast_merge, format_dim, format_shape, intersect
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.node import Node
from .support.spec import DIVERGENCE, INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("transpose_a", "bool", False), Field("transpose_b", "bool", False))
_LABELS = ("A", "B")


def _matrix(shape: tuple, transpose: bool) -> list[Dim]:
    dims = list(shape)
    if transpose and len(dims) > 1:
        dims[-2], dims[-1] = dims[-1], dims[-2]
    return dims


def _infer(node: Node) -> Result:
    node.require_inputs((2,))
    transpose_a, transpose_b = read(node, "MatMul", _FIELDS)
    node.show(_LABELS)
    node.how = "matrix product" + "".join(
        f" ({w} transposed)" for w, t in (("A", transpose_a), ("B", transpose_b)) if t)
    et = merge_types(node, _LABELS, [v.element_type for v in node.inputs])
    a_shape, b_shape = node.inputs[0].shape, node.inputs[1].shape
    if a_shape is None or b_shape is None:
        return Result((None,), (et,))
    if not a_shape or not b_shape:
        which = " and ".join(w for w, s in zip(_LABELS, (a_shape, b_shape)) if not s)
        raise OpError(INCOMPATIBLE, f"MatMul takes inputs of rank 1 or more, but {which} "
                                    f"{'is a scalar' if ' ' not in which else 'are scalars'}")
    a, b = _matrix(a_shape, transpose_a), _matrix(b_shape, transpose_b)
    if len(a) == 1:
        a.insert(0, ONE)
    if len(b) == 1:
        b.append(ONE)
    cols, rows = a[-1], b[-2]
    if cols.is_static and rows.is_static and cols != rows:
        raise OpError(INCOMPATIBLE, f"B {format_shape(b_shape)} has {format_dim(rows)} rows where "
                                    f"A {format_shape(a_shape)} has {format_dim(cols)} columns"
                                    f"{_transposed(transpose_a, transpose_b)}")
    if intersect(cols, rows) is None:
        node.note(DIVERGENCE, f"A's columns {format_dim(cols)} and B's rows {format_dim(rows)} "
                              f"cannot be equal: OpenVINO 2026.4 reads the model (it checks only "
                              f"static dims, for backward compatibility), but every input fails "
                              f"at inference")
    rank = max(len(a), len(b))
    a = [ONE] * (rank - len(a)) + a
    b = [ONE] * (rank - len(b)) + b
    # the table: both inputs right-aligned (after the 1-D ones became matrices)
    node.operands = (node.operand(0, "A", tuple(a)), node.operand(1, "B", tuple(b)))
    out = []
    for i in range(rank - 2):
        merged = broadcast_merge(a[i], b[i])
        if merged is None:
            if a[i].is_static and b[i].is_static:
                raise OpError(INCOMPATIBLE, f"batch dim {i}: A's {format_dim(a[i])} and B's "
                                            f"{format_dim(b[i])} cannot broadcast (they differ "
                                            f"and neither is 1)", column=i)
            # two dims that cannot meet, one of them an interval: the runtime lets it pass
            node.note(DIVERGENCE, f"batch dim {i}: A's {format_dim(a[i])} and B's "
                                  f"{format_dim(b[i])} cannot broadcast: OpenVINO 2026.4 reads "
                                  f"the model (giving ?), but every input fails at inference")
            merged = DYNAMIC
        out.append(merged)
    if len(a_shape) > 1:
        out.append(a[-2])
    if len(b_shape) > 1:
        out.append(b[-1])
    return Result((tuple(out),), (et,))


def _transposed(transpose_a: bool, transpose_b: bool) -> str:
    said = [w for w, t in (("A", transpose_a), ("B", transpose_b)) if t]
    return f" ({' and '.join(said)} transposed)" if said else ""


SPECS = {"matmul": (OpSpec("MatMul", (1, 16), fields=_FIELDS, symbolic=True, infer=_infer),)}
