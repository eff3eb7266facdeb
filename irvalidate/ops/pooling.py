"""MaxPool-1/-8/-14 and AvgPool-1/-14/-16 (pooling_shape_inference_util).

``k`` is the length of ``kernel``; ``strides`` (and ``dilations`` where read: MaxPool-8/-14,
AvgPool-16; empty is 1s) must hold ``k`` values too, but unlike a convolution an empty
``strides`` is not filled in, so a layer without kernel or strides is refused.  Empty pads are
0s.  The data has rank 3, 4 or 5 and ``k + 2`` dims; a dynamic rank gives ``k + 2`` x ``?``.
Batch and channels are kept (a static 0 is refused); each spatial dim follows
:func:`~irvalidate.shapes.windows.pool_dim` (floor, ceil, or ceil_torch for the v14+ classes;
same_* padding makes an interval dim ``?``).  MaxPool-8/-14 have a second output, the
indices, of the same shape (their type, ``index_element_type``, is not asserted: old Model
Optimizer files declare FP32 there); their ``axis`` must fit the data rank.  AvgPool's
``exclude-pad`` (hyphenated; true when missing) refuses a window that can lie entirely in
the padding.
"""
from __future__ import annotations

from ..shapes import arith, windows as win
from ..shapes.dims import DYNAMIC, Dim, format_shape
from .convolution import PAD_TYPES, check_lengths
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, OpError, OpSpec, Result

_COMMON = (Field("strides", "uints", ()), Field("pads_begin", "uints", ()),
           Field("pads_end", "uints", ()), Field("kernel", "uints", ()),
           Field("rounding_type", "enum", "floor", win.ROUNDINGS),
           Field("auto_pad", "enum", "explicit", PAD_TYPES))
_DILATIONS = Field("dilations", "uints", ())
_MAX_V8 = _COMMON + (_DILATIONS, Field("index_element_type", "type", "i64"),
                     Field("axis", "int", 0))
_EXCLUDE = Field("exclude-pad", "bool", True)
_AVG = _COMMON + (_EXCLUDE,)
_AVG_V16 = _AVG + (_DILATIONS,)


def _spatial(node: Node, kernel, strides, dilations, pads, rounding: str, auto_pad: str,
             exclude_pad: bool, version: int) -> tuple[Dim, ...]:
    """The output shape's dims (all of them) after the runtime's checks."""
    count = len(kernel)
    pads = (pads[0] or (0,) * count, pads[1] or (0,) * count)
    dilations = dilations or (1,) * count
    check_lengths((("pads_begin", pads[0]), ("pads_end", pads[1]), ("strides", strides),
                   ("dilations", dilations)), count, f"the {count} values of kernel")
    data = node.inputs[0].shape
    if data is not None:
        if len(data) not in (3, 4, 5):
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has rank {len(data)}; it must "
                                        f"have rank 3, 4 or 5")
        if len(data) - 2 != count:
            raise OpError(ATTRIBUTE, f"attribute kernel has {count} value"
                                     f"{'' if count == 1 else 's'} for the {len(data) - 2} "
                                     f"spatial axes of data {format_shape(data)}")
    for name, values in (("strides", strides), ("dilations", dilations)):
        if 0 in values:
            raise OpError(ATTRIBUTE, f"attribute {name} ({','.join(map(str, values))}) holds a 0")
    if rounding == "ceil_torch" and version < 14:
        raise OpError(ATTRIBUTE, f"attribute rounding_type ceil_torch is refused by "
                                 f"{node.layer.type}-{version} (opset14's classes have it)")
    if data is None:
        return (DYNAMIC,) * (count + 2)
    for axis, what in ((0, "batch"), (1, "channel")):
        if data[axis] == Dim(0, 0):
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has a {what} dim of 0")
    out = list(data[:2])
    for axis in range(count):
        try:
            out.append(win.pool_dim(data[axis + 2], kernel[axis], strides[axis], dilations[axis],
                                    (pads[0][axis], pads[1][axis]), rounding, auto_pad, axis,
                                    exclude_pad))
        except win.WindowError as err:
            raise OpError(INCOMPATIBLE, str(err)) from None
    return tuple(out)


def _max_pool(node: Node, version: int) -> Result:
    node.require_inputs((1,))
    node.show(("data",))
    node.how = "max pooling"
    et = node.inputs[0].element_type
    if version == 1:
        strides, pads_begin, pads_end, kernel, rounding, auto_pad = read(
            node, "MaxPool", _COMMON)
        out = _spatial(node, kernel, strides, (), (pads_begin, pads_end), rounding, auto_pad,
                       False, 1)
        return Result((out,), (et,))
    strides, pads_begin, pads_end, kernel, rounding, auto_pad, dilations, _, axis = read(
        node, "MaxPool", _MAX_V8)
    data = node.inputs[0].shape
    if data is not None and arith.normalize_axis(axis, len(data)) is None:
        raise OpError(ATTRIBUTE, f"attribute axis {axis} is out of the range of data "
                                 f"{format_shape(data)} ([{-len(data)}, {len(data) - 1}])")
    out = _spatial(node, kernel, strides, dilations, (pads_begin, pads_end), rounding, auto_pad,
                   False, version)
    # the indices' type is index_element_type, but the Model Optimizer wrote FP32 on that
    # (usually unused) port of stock models the runtime loads, which ignores port precisions:
    # left unsaid, so that such files get no element-type error
    return Result((out, out), (et, None))


def _avg_pool(node: Node, version: int) -> Result:
    node.require_inputs((1,))
    node.show(("data",))
    node.how = "average pooling"
    fields = _AVG_V16 if version >= 16 else _AVG
    values = read(node, "AvgPool", fields)
    strides, pads_begin, pads_end, kernel, rounding, auto_pad, exclude_pad = values[:7]
    dilations = values[7] if version >= 16 else ()
    out = _spatial(node, kernel, strides, dilations, (pads_begin, pads_end), rounding, auto_pad,
                   exclude_pad, version)
    return Result((out,), (node.inputs[0].element_type,))


SPECS = {
    "maxpool": (OpSpec("MaxPool", (1, 7), fields=_COMMON, symbolic=True, infer=lambda n: _max_pool(n, 1)),
                OpSpec("MaxPool", (8, 13), fields=_MAX_V8, symbolic=True, infer=lambda n: _max_pool(n, 8)),
                OpSpec("MaxPool", (14, 16), fields=_MAX_V8, symbolic=True, infer=lambda n: _max_pool(n, 14))),
    "avgpool": (OpSpec("AvgPool", (1, 13), fields=_AVG, symbolic=True, infer=lambda n: _avg_pool(n, 1)),
                OpSpec("AvgPool", (14, 15), fields=_AVG, symbolic=True, infer=lambda n: _avg_pool(n, 14)),
                OpSpec("AvgPool", (16, 16), fields=_AVG_V16, symbolic=True, infer=lambda n: _avg_pool(n, 16))),
}
