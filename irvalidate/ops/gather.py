"""Gather-1/-7/-8, GatherND-5/-8 and GatherElements-6: elements of ``data`` picked by ``indices``.

Gather (gather_shape_inference): ``data[:b] ∩ indices[:b] + data[b:axis] + indices[b:] +
data[axis+1:]`` with ``b = batch_dims`` (v7/v8; v1 has none and ignores the attribute).  The
axis (input 2) is const-only; unknown, the dims after the batch are ``?`` (a dynamic rank
when either rank is).  The indices' values never matter.  A batch_dims that stays negative
after normalising, or scalar data, make the runtime read garbage or crash: refused here.
GatherND: the last indices dim K picks K leading data dims after the batch (v5 fuses the batch
dims into their product when there are two or more).  GatherElements: the indices' shape,
its other dims intersected with data's.
Value (Gather): evaluated through shape subgraphs, batch_dims included; an index out of range
reads 0, as the runtime's bound evaluation does.
"""
from __future__ import annotations

from ..shapes import arith, values as vals
from ..shapes.dims import DYNAMIC, Dim, Shape, format_shape
from ..shapes.layout import gather_values
from ..shapes.values import Tensor
from .support.attributes import Field, read
from .support.axes import normalize
from .support.evaluating import int_attr, origin, scalar, short, tensors
from .support.input_types import require_type
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_BATCH = (Field("batch_dims", "int", 0),)
_BATCH_ND = (Field("batch_dims", "uint", 0),)
_AXIS = (Field("axis", "int", 0),)


def _merge(a: Dim, b: Dim, what: str, i: int, data: Shape, indices: Shape) -> Dim:
    found = arith.merge(a, b)
    if found is None:
        raise OpError(INCOMPATIBLE, f"{what} dim {i} of data {format_shape(data)} and of indices "
                                    f"{format_shape(indices)} differ ({a} and {b})", column=i)
    return found


def _gather(v7: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((3,))
        batch = read(node, "Gather", _BATCH)[0] if v7 else 0
        node.show(["data", "indices", "axis"])
        node.how = "gather"
        data, indices, axis_in = (v.shape for v in node.inputs)
        et = node.inputs[0].element_type
        if v7:
            require_type(node, 1, "indices")
            require_type(node, 2, "axis")
        if axis_in is not None and axis_in not in ((), (Dim(1, 1),)):
            raise OpError(INCOMPATIBLE, f"axis (input 2) must be a scalar or hold one element, "
                                        f"but has shape {format_shape(axis_in)}")
        found = node.exact_values(2)
        axis: int | None = found[0] if found is not None and len(found) == 1 else None
        if data == ():
            raise OpError(INCOMPATIBLE, "data (input 0) is a scalar: the runtime crashes on it "
                                        "(\"vector::_M_default_append\")")
        b = batch
        if b < 0 and indices is not None:
            b += len(indices)
        if axis is not None and data is not None:
            axis = normalize(axis, len(data))
        if axis is not None and not (b <= axis or b < 0 or axis < 0):
            raise OpError(INCOMPATIBLE, f"batch_dims {batch} must not exceed the axis {axis}")
        if indices is not None and b >= 0 and b > len(indices):
            raise OpError(INCOMPATIBLE, f"batch_dims {batch} exceeds the rank {len(indices)} of "
                                        f"the indices")
        if data is None or indices is None:
            return Result((None,), (et,))
        if b < 0:
            raise OpError(ATTRIBUTE, f"batch_dims {batch} is below -{len(indices)} (the indices' "
                                     f"rank): the runtime does not refuse it but builds a "
                                     f"meaningless shape")
        if len(data) + len(indices) - 1 - b < b:
            # the output would be shorter than its batch dims: the runtime reads past its
            # shapes ("Accessing out-of-range dimension")
            raise OpError(INCOMPATIBLE, f"batch_dims {batch} leaves data {format_shape(data)} "
                                        f"no dim to gather from")
        head = tuple(_merge(data[i], indices[i], "batch", i, data, indices) for i in range(b))
        if axis is None:
            out = head + (DYNAMIC,) * (len(data) + len(indices) - 1 - 2 * b)
        else:
            out = head + data[b:axis] + indices[b:] + data[axis + 1:]
        return Result((out,), (et,))
    return infer


def _gather_nd(v8: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((2,))
        (b,) = read(node, "GatherND", _BATCH_ND)
        node.show(["data", "indices"])
        node.how = "gather of index tuples"
        data, indices = (v.shape for v in node.inputs)
        et = node.inputs[0].element_type
        require_type(node, 1, "indices")
        for shape, what in ((data, "data"), (indices, "indices")):
            if shape is not None and not shape:
                raise OpError(INCOMPATIBLE, f"{what} must have rank 1 or more, not be a scalar")
            if shape is not None and b >= len(shape):
                raise OpError(INCOMPATIBLE, f"batch_dims {b} must be below the rank of {what} "
                                            f"{format_shape(shape)}")
        if data is None or indices is None or not indices[-1].is_static:
            return Result((None,), (et,))
        k = indices[-1].lo
        if k + b > len(data):
            raise OpError(INCOMPATIBLE, f"index tuples of length {k} after {b} batch dims "
                                        f"exceed the rank of data {format_shape(data)}")
        head = tuple(_merge(data[i], indices[i], "batch", i, data, indices) for i in range(b))
        if not v8 and b > 1:
            head = (arith.product(head),)
        return Result((head + indices[b:-1] + data[b + k:],), (et,))
    return infer


def _gather_elements(node: Node) -> Result:
    node.require_inputs((2,))
    (axis,) = read(node, "GatherElements", _AXIS)
    node.show(["data", "indices"])
    node.how = f"gather of elements along axis {axis}"
    data, indices = (v.shape for v in node.inputs)
    et = node.inputs[0].element_type
    ie = node.inputs[1].element_type
    if ie not in ("i32", "i64"):
        node.note(TYPE, f"indices (input 1) must be i32 or i64, not {ie}")
    for shape, what in ((data, "data"), (indices, "indices")):
        if shape is not None and not shape:
            raise OpError(INCOMPATIBLE, f"{what} must have rank 1 or more, not be a scalar")
    if data is None and indices is None:
        return Result((None,), (et,))
    if data is None:
        normalize(axis, len(indices))  # type: ignore[arg-type]  # not both None (above)
        return Result((indices,), (et,))
    a = normalize(axis, len(data))
    if indices is None:
        return Result((data[:a] + (DYNAMIC,) + data[a + 1:],), (et,))
    if len(data) != len(indices):
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} and indices "
                                    f"{format_shape(indices)} must have the same rank")
    out: list[Dim] = [indices[i] if i == a else _merge(data[i], indices[i], "off-axis", i, data,
                                                        indices) for i in range(len(data))]
    return Result((tuple(out),), (et,))


def _evaluate(v7: bool):
    def evaluate(node: Node) -> Tensor:
        t = tensors(node, (3,))
        batch = int_attr(node.layer, "batch_dims", 0) if v7 else 0  # v1 ignores it
        axis = scalar(t[2], "the Gather axis")
        indices = t[1].static_values()
        detail = f"axis {axis}, indices {short(indices)}" + (f", batch_dims {batch}" if batch else "")
        where = origin(node.layer, t[:1], detail)
        if t[0].rank == 1 and batch == 0:  # the common case: one dim of a shape
            return vals.gather(t[0], t[1], axis, where)
        return gather_values(t[0], t[1], axis, batch, where)
    return evaluate


SPECS = {
    "gather": (OpSpec("Gather", (1, 6), frozenset(), value_inputs=(2,), symbolic=True, infer=_gather(False),
                      symbolic_values=True, evaluate=_evaluate(False)),
               OpSpec("Gather", (7, 7), fields=_BATCH, value_inputs=(2,), symbolic=True, infer=_gather(True),
                      symbolic_values=True, evaluate=_evaluate(True)),
               OpSpec("Gather", (8, 16), fields=_BATCH, value_inputs=(2,), symbolic=True, infer=_gather(True),
                      symbolic_values=True, evaluate=_evaluate(True))),
    "gathernd": (OpSpec("GatherND", (5, 7), fields=_BATCH_ND, infer=_gather_nd(False)),
                 OpSpec("GatherND", (8, 16), fields=_BATCH_ND, infer=_gather_nd(True))),
    "gatherelements": (OpSpec("GatherElements", (6, 16), fields=_AXIS,
                              infer=_gather_elements),),
}
