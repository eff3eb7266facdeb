"""DepthToSpace-1 and SpaceToDepth-1: blocks of ``block_size`` moved between the channels
(dim 1) and the ``k = rank - 2`` spatial dims.

DepthToSpace divides the channels by ``block_size^k`` and multiplies each spatial dim by
``block_size``; SpaceToDepth the reverse.  A division must leave a multiple (``Dimension /
n``: an interval needs to hold one, ``?`` stays ``?``).  ``block_size`` is 0 when missing,
which both refuse, but only for data of static rank (a dynamic rank is passed through).
``mode`` does not change the shape.
"""
from __future__ import annotations

from ..shapes import arith, windows as win
from ..shapes.dims import Dim, format_dim, format_shape
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("block_size", "uint", 0),
           Field("mode", "enum", "blocks_first", ("blocks_first", "depth_first")))


def _divided(dim: Dim, by: int, axis: int, shape) -> Dim:
    found = arith.divide(dim, by)
    if found is None:
        raise OpError(INCOMPATIBLE, f"dim {axis} of data {format_shape(shape)} ({format_dim(dim)}) "
                                    f"holds no multiple of {by}")
    return found


def _power(block: int, count: int) -> int:
    """``static_cast<int64_t>(std::pow(block, count))``: a double power, so a result past
    int64 comes back negative (the runtime then refuses a negative divisor)."""
    value = float(block) ** count
    return int(value) if value < 2.0 ** 63 else -(1 << 63)


def _infer(node: Node, to_space: bool) -> Result:
    node.require_inputs((1,))
    node.show(("data",))
    node.how = "depth to space" if to_space else "space to depth"
    block, _ = read(node, node.layer.type, _FIELDS)
    data, et = node.inputs[0].shape, node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    if len(data) < 3:
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has rank {len(data)}; it needs "
                                    f"3 or more (N, C and spatial dims)")
    count = len(data) - 2
    if to_space:
        divisor = _power(block, count)
        if divisor == 0:
            raise OpError(ATTRIBUTE, "attribute block_size is 0 (a missing block_size reads as 0)")
        if divisor < 0:
            raise OpError(ATTRIBUTE, f"attribute block_size {win.i64(block)} makes the channel "
                                     f"divisor negative, which the runtime refuses")
        channels = _divided(data[1], divisor, 1, data)
        factor = arith.from_int(win.i64(block))
        out = (data[0], channels) + tuple(arith.mul(d, factor) for d in data[2:])
    else:
        if block == 0:
            raise OpError(ATTRIBUTE, "attribute block_size is 0 (a missing block_size reads as 0)")
        divisor = win.i64(block)
        if divisor < 0:
            raise OpError(ATTRIBUTE, f"attribute block_size {divisor} is negative, which the "
                                     f"runtime refuses as a divisor")
        channels = arith.mul(data[1], arith.from_int(win.i64(_power(block, count))))
        out = (data[0], channels) + tuple(_divided(d, divisor, axis + 2, data)
                                          for axis, d in enumerate(data[2:]))
    return Result((out,), (et,))


SPECS = {
    "depthtospace": (OpSpec("DepthToSpace", (1, 16), fields=_FIELDS,
                            infer=lambda node: _infer(node, True)),),
    "spacetodepth": (OpSpec("SpaceToDepth", (1, 16), fields=_FIELDS,
                            infer=lambda node: _infer(node, False)),),
}
