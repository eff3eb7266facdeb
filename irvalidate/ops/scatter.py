"""ScatterUpdate-3, ScatterNDUpdate-3/-15 and ScatterElementsUpdate-3/-12: ``data`` with some
elements replaced by ``updates``.  The output is always data's shape and type (updates never
refine it); what the runtime checks are the other shapes against it:

* ScatterUpdate: ``rank(updates) == rank(indices) + rank(data) - 1`` and, with a known axis
  (const-only, used only for checks), updates compatible with ``data[:a] + indices +
  data[a+1:]``;
* ScatterNDUpdate: ranks >= 1, the last indices dim K <= rank(data), updates compatible with
  ``indices[:-1] + data[K:]``;
* ScatterElementsUpdate: indices and data of one rank, indices and updates compatible, the
  axis in range.
Value (ScatterUpdate): evaluated in shape subgraphs (constant indices and axis).
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import Shape, compatible, format_shape
from ..shapes.layout import scatter_rows
from ..shapes.values import Tensor, Unresolved
from .support.attributes import Field, read
from .support.axes import normalize, require_rank_at_most_one
from .support.evaluating import origin, scalar, tensors
from .support.input_types import require_type
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_ND15 = (Field("reduction", "enum", "none", ("none", "sum", "sub", "prod", "min", "max")),)
_ELEMENTS12 = (Field("reduction", "enum", "none", ("none", "sum", "prod", "min", "max", "mean")),
               Field("use_init_val", "bool", True))


def _same_type(node: Node) -> None:
    data, updates = node.inputs[0].element_type, node.inputs[2].element_type
    if data not in (None, "dynamic") and updates not in (None, "dynamic") and data != updates:
        node.note(TYPE, f"updates (input 2) must have data's element type {data}, not {updates}")


def _axis(node: Node, index: int, rank: int | None) -> int | None:
    require_rank_at_most_one(node, index, "axis")
    found = node.exact_values(index)
    if found is None or len(found) != 1 or rank is None:
        return None
    return normalize(found[0], rank)


def _fits(updates: Shape, expected: tuple, what: str) -> None:
    if updates is None:
        return
    for i, (u, e) in enumerate(zip(updates, expected)):
        if not compatible(u, e):
            raise OpError(INCOMPATIBLE, f"updates {format_shape(updates)} must be {what} "
                                        f"{format_shape(expected)} (dim {i} differs)", column=i)


def _with_axis(node: Node) -> tuple:
    """ScatterUpdate's and ScatterElementsUpdate's common start: the shapes of data, indices
    and updates, their types checked."""
    node.show(["data", "indices", "updates", "axis"])
    node.how = "scatter update (the data's shape)"
    require_type(node, 1, "indices")
    require_type(node, 3, "axis")
    _same_type(node)
    return tuple(v.shape for v in node.inputs[:3])


def _scatter_update(node: Node) -> Result:
    node.require_inputs((4,))
    data, indices, updates = _with_axis(node)
    a = _axis(node, 3, None if data is None else len(data))
    if data is not None and indices is not None and updates is not None:
        if len(updates) != len(indices) + len(data) - 1:
            raise OpError(INCOMPATIBLE, f"updates have rank {len(updates)}, but rank(indices) + "
                                        f"rank(data) - 1 is {len(indices) + len(data) - 1}")
        if a is not None:
            _fits(updates, data[:a] + indices + data[a + 1:], "data[:axis] + indices + "
                                                             "data[axis+1:]")
    return Result((data,), (node.inputs[0].element_type,))


def _scatter_nd(v15: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((3,))
        if v15:
            read(node, "ScatterNDUpdate", _ND15)
        node.show(["data", "indices", "updates"])
        node.how = "scatter update (the data's shape)"
        data, indices, updates = (v.shape for v in node.inputs)
        if node.inputs[1].element_type not in ("i32", "i64", None):
            node.note(TYPE, f"indices (input 1) must be i32 or i64, not "
                            f"{node.inputs[1].element_type}")
        _same_type(node)
        if (data is not None and not data) or (indices is not None and not indices):
            raise OpError(INCOMPATIBLE, "data and indices must have rank 1 or more")
        if indices is not None and indices[-1].is_static:
            k = indices[-1].lo
            if data is not None and k > len(data):
                raise OpError(INCOMPATIBLE, f"the last indices dim {k} exceeds the rank of data "
                                            f"{format_shape(data)}")
            if data is not None and updates is not None:
                want = len(indices) - 1 + len(data) - k
                if len(updates) != want:
                    raise OpError(INCOMPATIBLE, f"updates have rank {len(updates)}, but "
                                                f"indices and data make it {want}")
                _fits(updates, indices[:-1] + data[k:], "indices[:-1] + data[K:]")
        return Result((data,), (node.inputs[0].element_type,))
    return infer


def _scatter_elements(v12: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((4,))
        et = node.inputs[0].element_type
        if v12:
            reduction, _ = read(node, "ScatterElementsUpdate", _ELEMENTS12)
            if reduction == "mean" and et == "boolean":
                raise OpError(ATTRIBUTE, "reduction mean is not supported on boolean data")
        data, indices, updates = _with_axis(node)
        if data is not None and indices is not None and len(data) != len(indices):
            raise OpError(INCOMPATIBLE, f"indices {format_shape(indices)} must have the rank of "
                                        f"data {format_shape(data)}")
        if indices is not None and updates is not None and \
                arith.merge_shapes(indices, updates) is None:
            raise OpError(INCOMPATIBLE, f"indices {format_shape(indices)} and updates "
                                        f"{format_shape(updates)} must have one shape")
        _axis(node, 3, None if data is None else len(data))
        return Result((data,), (et,))
    return infer


def _update_value(node: Node) -> Tensor:
    t = tensors(node, (4,), reals=(0, 2))
    axis = scalar(t[3], "the ScatterUpdate axis")
    if t[1].rank > 1:
        raise Unresolved("ScatterUpdate with indices of rank 2 or more")
    indices = t[1].static_values()
    if any(k < 0 for k in indices):  # what the runtime's evaluation does with them is not followed
        raise Unresolved("ScatterUpdate with a negative index")
    return scatter_rows(t[0], indices, t[2], axis, origin(node.layer, t[:1], f"axis {axis}"))


def _elements_value(node: Node) -> Tensor:
    """ScatterElementsUpdate of a shape vector (ONNX's CenterCropPad builds its crop from
    ``ShapeOf``): the runtime evaluates bounds with exact indices, lower and upper apart.
    Only rank-1 data, and no reduction, are followed."""
    t = tensors(node, (4,), reals=(0, 2))
    axis = scalar(t[3], "the ScatterElementsUpdate axis")
    reduction = (node.layer.data.get("reduction") or "none").strip().lower()
    if reduction != "none" or t[0].rank != 1 or t[1].rank != 1 or t[2].shape != t[1].shape:
        raise Unresolved("ScatterElementsUpdate beyond a 1-D vector without reduction")
    n = t[0].shape[0]
    indices = [k + n if -n <= k < 0 else k for k in t[1].static_values()]
    return scatter_rows(t[0], indices, t[2], axis, origin(node.layer, t[:1], f"axis {axis}"))


SPECS = {
    "scatterupdate": (OpSpec("ScatterUpdate", (3, 16), frozenset(),
                             value_inputs=(3,), infer=_scatter_update,
                             evaluate=_update_value),),
    "scatterndupdate": (OpSpec("ScatterNDUpdate", (3, 14), frozenset(), infer=_scatter_nd(False)),
                        OpSpec("ScatterNDUpdate", (15, 16), fields=_ND15,
                               infer=_scatter_nd(True))),
    "scatterelementsupdate": (
        OpSpec("ScatterElementsUpdate", (3, 11), frozenset(),
               value_inputs=(3,), infer=_scatter_elements(False),
               evaluate=_elements_value),
        OpSpec("ScatterElementsUpdate", (12, 16), fields=_ELEMENTS12,
               value_inputs=(3,), infer=_scatter_elements(True), evaluate=_elements_value)),
}
