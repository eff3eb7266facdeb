"""ExtractImagePatches-3: ``sizes`` patches taken every ``strides`` with ``rates`` gaps from
a 4-D data, stacked along the channels.

``sizes``, ``strides`` and ``rates`` (each of 2 values; strides and rates above 0) and
``auto_pad`` (valid, same_upper or same_lower: its missing value, explicit, is refused) are
required.  Channels become ``C x sizes[0] x sizes[1]``; a spatial dim is ``ceil((D -
rate x (size - 1)) / stride)`` for valid (0 when the patch does not fit) and ``ceil(D /
stride)`` for same_*.  A dynamic rank gives ``[?,?,?,?]``.
"""
from __future__ import annotations

import math

from ..shapes import arith, windows as win
from ..shapes.dims import DYNAMIC, format_shape
from .convolution import PAD_TYPES
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("sizes", "uints", ()), Field("strides", "uints", ()), Field("rates", "uints", ()),
           Field("auto_pad", "enum", "explicit", PAD_TYPES))


def _infer(node: Node) -> Result:
    node.require_inputs((1,))
    node.show(("data",))
    node.how = "image patches"
    sizes, strides, rates, auto_pad = read(node, "ExtractImagePatches", _FIELDS)
    data, et = node.inputs[0].shape, node.inputs[0].element_type
    if data is not None and len(data) != 4:
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} must have rank 4")
    for name, values, positive in (("sizes", sizes, False), ("strides", strides, True),
                                   ("rates", rates, True)):
        if len(values) != 2:
            raise OpError(ATTRIBUTE, f"attribute {name} must hold 2 values (rows, cols), not "
                                     f"{len(values)}")
        if positive and 0 in values:
            raise OpError(ATTRIBUTE, f"attribute {name} ({values[0]},{values[1]}) holds a 0")
    if auto_pad == "explicit":
        raise OpError(ATTRIBUTE, "attribute auto_pad must be valid, same_upper or same_lower (a "
                                 "missing auto_pad reads as explicit, which is refused)")
    if data is None:
        return Result(((DYNAMIC,) * 4,), (et,))
    channels = arith.mul(data[1], arith.from_int(win.i64(math.prod(sizes))))
    spatial = []
    for axis in range(2):
        d, stride = data[axis + 2], win.i64(strides[axis])
        if auto_pad == "valid":
            span = win.i64(rates[axis] * (sizes[axis] - 1))
            d = arith.sub(d, arith.from_int(span))
        spatial.append(win.ceil_div(d, stride))
    return Result(((data[0], channels) + tuple(spatial),), (et,))


SPECS = {"extractimagepatches": (OpSpec("ExtractImagePatches", (3, 16),
                                        fields=_FIELDS, infer=_infer),)}
