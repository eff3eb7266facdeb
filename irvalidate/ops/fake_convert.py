"""FakeConvert-13: data emulated in an f8 type by ``scale`` (and ``shift``).

The output is the data's shape merged with ``scale`` by numpy broadcasting, which may refine
it (``[?, 3, 4]`` with a scale ``[2, 1, 1]`` gives ``[2, 3, 4]``; a scale of dynamic rank gives a
dynamic rank), but broadcasting may not grow it: the result must still fit the data's shape
("unidirectional").  ``shift`` only has to be compatible with ``scale`` (same rank, each dim
able to be equal).  ``destination_type`` is f8e4m3 (the default) or f8e5m2, any case; data,
scale and shift are one type of bf16, f16 or f32 (a dynamic one takes the others', and
the output too).
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import arith, broadcasting as bc
from ..shapes.dims import format_shape
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_FIELDS = (Field("destination_type", "str", "f8e4m3"),)
_DESTINATIONS = ("f8e4m3", "f8e5m2")


def _infer(node: Node) -> Result:
    node.require_inputs((2, 3))
    labels = ("data", "scale", "shift")[:len(node.inputs)]
    node.show(labels)
    node.how = "numpy broadcast of scale into data (unidirectional)"
    (destination,) = read(node, "FakeConvert", _FIELDS)
    if destination.lower() not in _DESTINATIONS:
        raise OpError(ATTRIBUTE, f"destination_type {destination!r} is not one of: "
                                 f"{', '.join(_DESTINATIONS)}")
    et = merge_types(node, labels, [v.element_type for v in node.inputs])
    if elements.is_known(et) and et not in ("bf16", "f16", "f32"):
        node.note(TYPE, f"the inputs must be bf16, f16 or f32, not {et}")
    data, scale = node.inputs[0].shape, node.inputs[1].shape
    if len(node.inputs) == 3 and not arith.compatible_shapes(scale, node.inputs[2].shape):
        raise OpError(INCOMPATIBLE, f"shift {format_shape(node.inputs[2].shape)} does not fit "
                                    f"scale {format_shape(scale)}")
    try:
        out = bc.numpy_merge(data, scale).shape
    except bc.BroadcastError as err:
        raise OpError(INCOMPATIBLE, f"scale cannot broadcast into data: {err.message}",
                      err.column) from None
    if not arith.compatible_shapes(data, out):
        raise OpError(INCOMPATIBLE, f"scale {format_shape(scale)} would broadcast data "
                                    f"{format_shape(data)} to {format_shape(out)}: FakeConvert "
                                    f"broadcasts only into the data's shape")
    return Result((out,), (et,))


SPECS = {"fakeconvert": (OpSpec("FakeConvert", (13, 16), fields=_FIELDS,
                                infer=_infer),)}
