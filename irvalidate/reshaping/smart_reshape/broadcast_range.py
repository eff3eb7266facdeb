"""BroadcastConstRangeReplacement: BERT's ``position_ids = arange(n)`` broadcast
bidirectionally (Broadcast-3) to the input ids' shape.  When the data is an integer Const
with one dim other than 1, of ``5 < n < 500`` elements ``0, 1, ..., n-1``, it becomes a Range
as long as the target's size on that axis (``n`` where that size is 1), so the sequence
length may change.  The length goes through Select and Convert in the runtime, which keeps
no interval: unless the target's size is exact, the new dim is ``?``.
"""
from __future__ import annotations

from ...ir.elements import INTEGRAL
from ...ir.records import Layer
from ...ops.support.spec import Value
from ...shapes.dims import DYNAMIC, Dim
from ...shapes.values import resolved
from .graph import GraphView, is_type

_SMALLEST, _LARGEST = 5, 500


def broadcast(view: GraphView, layer: Layer) -> None:
    if not is_type(layer, "broadcast") or layer.version.lower() == "opset1" or \
            layer.data.get("mode", "numpy").strip().lower() != "bidirectional":
        return
    found = view.producer(layer, 0)
    if found is None or found[0].type.lower() not in ("const", "constant"):
        return
    const = found[0]
    shape = view.shape_out(const)
    values = view.const_values(layer, 0)
    if shape is None or values is None or const.data.get("element_type") not in INTEGRAL:
        return
    long = [i for i, d in enumerate(shape) if d.lo != 1]
    n = len(values)
    if len(long) != 1 or not _SMALLEST < n < _LARGEST or values != list(range(n)):
        return
    axis, rank = long[0], len(shape)

    def apply(lay: Layer, inputs: list[Value], _prop) -> tuple[Layer, list[Value]]:
        target = resolved(inputs[1].tensor) if len(inputs) > 1 else None
        dim = DYNAMIC
        if target is not None and target.rank == 1 and target.shape[0] >= rank - axis:
            size = target.bounds[target.shape[0] - (rank - axis)]
            if size.is_static:
                dim = Dim(n, n) if size.lo == 1 else Dim(size.lo, size.lo)
        dims = tuple(dim if i == axis else Dim(1, 1) for i in range(rank))
        return lay, [Value(dims, inputs[0].element_type)] + inputs[1:]
    view.add(layer, "BroadcastConstRangeReplacement",
             f"the constant arange({n}) it broadcasts becomes a Range as long as the target's "
             f"dim {axis - rank}", apply)
