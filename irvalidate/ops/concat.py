"""Concat-1: its inputs joined along ``axis`` (concat_shape_inference).

Shape: every input of static rank normalises ``axis`` against its own rank; the dims off the
axis are merged (intersected) across inputs, the axis dims are added.  A dynamic-rank input
adds ``?`` to the axis dim but leaves the output's rank to the others; all of them dynamic
rank gives a dynamic rank.  ``axis`` is 0 when missing.  Element types must agree.
Value: evaluated for 1-D shape values (the common ``Concat(Gather(ShapeOf(x)), Const)`` of a
computed target); a Broadcast reading a Concat it cannot evaluate has its own fallback.
"""
from __future__ import annotations

from ..shapes import arith, values as vals
from ..shapes.dims import DYNAMIC, Dim, Shape, format_shape
from ..shapes.values import Tensor, Unresolved
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.evaluating import int_attr, origin
from .support.node import Node
from .support.spec import ARITY, INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("axis", "int", 0),)


def _infer(node: Node) -> Result:
    if not node.inputs:
        raise OpError(ARITY, "Concat takes 1 or more inputs, but none is connected")
    (axis,) = read(node, "Concat", _FIELDS)
    labels = [f"input {i}" for i in range(len(node.inputs))]
    node.show(labels)
    node.how = f"concatenation along axis {axis}"
    et = merge_types(node, labels, [v.element_type for v in node.inputs])
    out: Shape = None
    joined = Dim(0, 0)
    where: int | None = None
    for label, value in zip(labels, node.inputs):
        shape = value.shape
        if shape is None:
            joined = arith.add(joined, DYNAMIC)
            continue
        a = arith.normalize_axis(axis, len(shape))
        if a is None:
            raise OpError(INCOMPATIBLE, f"axis {axis} is out of the range of {label} "
                                        f"{format_shape(shape)} ([{-len(shape)}, {len(shape) - 1}])")
        where = a
        joined = arith.add(joined, shape[a])
        rest = shape[:a] + (DYNAMIC,) + shape[a + 1:]
        merged = arith.merge_shapes(out, rest)
        if merged is None:
            raise OpError(INCOMPATIBLE, _mismatch(out, rest, label, a))  # type: ignore[arg-type]  # only a known out fails
        out = merged
    if out is not None and where is not None:
        out = out[:where] + (joined,) + out[where + 1:]
    return Result((out,), (et,))


def _mismatch(before: tuple[Dim, ...], shape: tuple[Dim, ...], label: str, axis: int) -> str:
    detail = f"ranks {len(before)} and {len(shape)}" if len(before) != len(shape) else \
        "dim " + ", ".join(str(i) for i, (x, y) in enumerate(zip(before, shape))
                           if arith.merge(x, y) is None)
    return (f"{label} {format_shape(shape)} cannot join {format_shape(before)} along axis "
            f"{axis}: every other dim must be equal ({detail} differ)")


def _evaluate(node: Node) -> Tensor:
    t = node.tensors()
    if t is None:
        raise Unresolved("an input has no value")
    return vals.concat(t, int_attr(node.layer, "axis", 0), origin(node.layer, t))


SPECS = {"concat": (OpSpec("Concat", fields=_FIELDS, symbolic=True, infer=_infer,
                           symbolic_values=True, evaluate=_evaluate),)}
