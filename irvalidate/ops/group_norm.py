"""GroupNormalization-12: normalisation over channel groups; the output is the data's shape.

``data [N, C, ...]`` (rank >= 2), ``scale [C]`` and ``bias [C]`` (1-D, able to equal C and each
other).  ``num_groups`` must be positive (a missing one reads as 0 and is always refused)
and, when C is static, at most C and a divisor of it; an interval C is not checked.  No
element type is checked.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import compatible, format_dim, format_shape
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("num_groups", "int", 0), Field("epsilon", "float", 0.0))


def _refuse(message: str) -> None:
    raise OpError(INCOMPATIBLE, message)


def _infer(node: Node) -> Result:
    node.require_inputs((3,))
    node.show(("data", "scale", "bias"))
    groups, _ = read(node, "GroupNormalization", _FIELDS)
    node.how = f"group normalisation ({groups} groups): the shape is kept"
    if groups <= 0:
        missing = " (it is missing: the runtime reads 0)" if "num_groups" not in node.layer.data else ""
        raise OpError(ATTRIBUTE, f"num_groups {groups} must be positive{missing}")
    data, scale, bias = (v.shape for v in node.inputs)
    for label, shape in (("scale", scale), ("bias", bias)):
        if shape is not None and len(shape) != 1:
            _refuse(f"{label} {format_shape(shape)} must be 1-D [C]")
    if data is not None:
        if len(data) < 2:
            _refuse(f"data {format_shape(data)} must have rank 2 or more [N, C, ...]")
        channels = data[1]
        for label, shape in (("scale", scale), ("bias", bias)):
            if shape is not None and not compatible(channels, shape[0]):
                _refuse(f"{label} {format_shape(shape)} does not match the {format_dim(channels)} "
                        f"channels of data {format_shape(data)}")
        if channels.is_static and groups > channels.lo:
            _refuse(f"num_groups {groups} exceeds the {channels.lo} channels of data")
        if channels.is_static and channels.lo % groups:
            _refuse(f"the {channels.lo} channels of data do not divide into {groups} groups")
    if not arith.compatible_shapes(scale, bias):
        _refuse(f"scale {format_shape(scale)} and bias {format_shape(bias)} must match")
    return Result((data,), (node.inputs[0].element_type,))


SPECS = {"groupnormalization": (OpSpec("GroupNormalization", (12, 16), fields=_FIELDS,
                                       infer=_infer),)}
