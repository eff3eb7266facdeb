"""Colour conversions of NHWC images: NV12/I420 to RGB/BGR (opset 8: NV12toRGB, NV12toBGR,
I420toRGB, I420toBGR) and RGB/BGR to NV12 (opset 17: RGBtoNV12, BGRtoNV12).

* NV12toRGB/BGR take one plane ``[N, H*3/2, W, 1]`` or two, ``Y [N, H, W, 1]`` and
  ``UV [N, H/2, W/2, 2]``; I420toRGB/BGR one plane or three (``Y``, ``U``, ``V``, the chroma
  planes ``[N, H/2, W/2, 1]``).  The output is ``[N, H, W, 3]``: one plane's height is
  ``H*3/2 * 2 / 3``, planes are merged with Y after their H and W are doubled.  H and W must
  be even (the interval must hold an even number; it is not narrowed).
* RGBtoNV12/BGRtoNV12 take ``[N, H, W, 3]`` (H and W even) and give one plane
  ``[N, H*3/2, W, 1]`` or, with ``single_plane="false"``, ``Y [N, H, W, 1]`` and
  ``UV [N, H/2, W/2, 2]``.

Divisions are ``Dimension / n`` (arith.divide), as the runtime computes them: an unbounded
height becomes a large bound (``3..`` * 2 / 3 is ``2..3074457345618258432``).  Element types
are u8 or floating-point, every plane the same (a dynamic one takes the others').
"""
from __future__ import annotations

from collections.abc import Sequence

from ..ir import elements
from ..shapes import arith
from ..shapes.dims import DYNAMIC, Dim, compatible, format_shape, static
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_SINGLE_PLANE = (Field("single_plane", "bool", True),)
ONE, TWO, THREE = static(1), static(2), static(3)


def _type(node: Node, labels: Sequence[str]) -> str | None:
    """The planes' one element type (u8 or floating-point), noting what the runtime refuses."""
    merged: str | None = None
    for et in (v.element_type for v in node.inputs):
        try:
            merged = elements.merge(merged, et)
        except ValueError:
            listed = ", ".join(f"{n} {v.element_type}" for n, v in zip(labels, node.inputs))
            node.note(TYPE, f"the planes must have one element type ({listed})")
            return None
    if elements.is_known(merged) and merged != "u8" and merged not in elements.REAL:
        node.note(TYPE, f"{labels[0]} is {merged}: the input must be u8 or floating-point")
    return merged


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise OpError(INCOMPATIBLE, message)


def _even(out: list[Dim], shown: str) -> None:
    """Height and width must each hold an even value (their intervals are kept)."""
    for axis, what in ((1, "height"), (2, "width")):
        _check(arith.divide(out[axis], 2) is not None,
               f"the image {what} must be even, but {shown} gives {out[axis]}")


def _luma(node: Node) -> list[Dim]:
    """Y (or the single plane): rank 4 with one channel; its dims start the output."""
    y = node.inputs[0].shape
    label = "Y" if len(node.inputs) > 1 else "the image"
    if y is None:
        return [DYNAMIC] * 4
    _check(len(y) == 4, f"{label} {format_shape(y)} must have 4 dims (N, H, W, C)")
    _check(compatible(y[3], ONE), f"{label} {format_shape(y)} must have 1 channel")
    return list(y)


def _single_plane(out: list[Dim]) -> None:
    """One plane is 3/2 the image's height."""
    height = arith.divide(arith.mul(out[1], TWO), 3)
    _check(height is not None, f"the single plane's height {out[1]} is not divisible by 3")
    out[1] = height  # type: ignore[assignment]  # height checked not None


def _doubled(chroma: tuple[Dim, ...]) -> tuple[Dim, ...]:
    return (chroma[0], arith.mul(chroma[1], TWO), arith.mul(chroma[2], TWO), chroma[3])


def _nv12_planes(node: Node, out: list[Dim]) -> list[Dim]:
    """Y merged with UV (``[N, H/2, W/2, 2]``, its H and W doubled)."""
    uv = node.inputs[1].shape
    if uv is not None:
        _check(len(uv) == 4 and compatible(uv[3], TWO),
               f"UV {format_shape(uv)} must have 4 dims with 2 channels")
        uv = _doubled(uv)
    out[3] = TWO
    merged, ok = arith.merge_into(tuple(out), uv)
    _check(ok, f"Y {format_shape(node.inputs[0].shape)} and UV {format_shape(node.inputs[1].shape)} "
               f"do not match (UV must be half of Y's height and width)")
    return list(merged)  # type: ignore[arg-type]  # ok: merged is known


def _i420_planes(node: Node, out: list[Dim]) -> list[Dim]:
    """Y merged with U and V (merged first: ``[N, H/2, W/2, 1]``, their H and W doubled)."""
    u, v = node.inputs[1].shape, node.inputs[2].shape
    uv, consistent = arith.merge_into(u, v)
    if uv is not None:
        _check(len(uv) == 4 and compatible(uv[3], ONE),
               f"U {format_shape(u)} and V {format_shape(v)} must have 4 dims with 1 channel")
        uv = _doubled(uv)
    merged, ok = arith.merge_into(tuple(out), uv)
    _check(consistent and ok, f"Y {format_shape(node.inputs[0].shape)}, U {format_shape(u)} "
                              f"and V {format_shape(v)} do not match (U and V must be equal, "
                              f"half of Y's height and width)")
    return list(merged)  # type: ignore[arg-type]  # ok: merged is known


def _to_rgb(node: Node) -> Result:
    """NV12 (1 or 2 planes) and I420 (1 or 3 planes) to RGB/BGR."""
    i420 = node.layer.type.lower().startswith("i420")
    node.require_inputs((1, 3) if i420 else (1, 2))
    labels = ("image",) if len(node.inputs) == 1 else ("Y", "U", "V") if i420 else ("Y", "UV")
    node.show(labels)
    node.how = f"{'I420' if i420 else 'NV12'} to RGB/BGR conversion"
    et = _type(node, labels)
    out = _luma(node)
    if len(node.inputs) == 1:
        _single_plane(out)
    else:
        out = (_i420_planes if i420 else _nv12_planes)(node, out)
    out[3] = THREE
    _even(out, "the input")
    return Result((tuple(out),), (et,))


def _to_nv12(node: Node) -> Result:
    node.require_inputs((1,))
    (single,) = read(node, node.layer.type, _SINGLE_PLANE)
    node.show(("image",))
    node.how = "RGB/BGR to NV12 conversion" + (" (one plane)" if single else " (Y and UV planes)")
    et = _type(node, ("the image",))
    rgb = node.inputs[0].shape
    if rgb is None:
        y = (DYNAMIC, DYNAMIC, DYNAMIC, ONE)
        return Result((y,), (et,)) if single else \
            Result((y, (DYNAMIC, DYNAMIC, DYNAMIC, TWO)), (et, et))
    _check(len(rgb) == 4, f"the image {format_shape(rgb)} must have 4 dims (N, H, W, C)")
    _check(compatible(rgb[3], THREE), f"the image {format_shape(rgb)} must have 3 channels")
    _even(list(rgb), "the image")
    if single:
        height = arith.divide(arith.mul(rgb[1], THREE), 2)
        _check(height is not None, f"the plane height {rgb[1]} * 3 / 2 is empty")
        return Result(((rgb[0], height, rgb[2], ONE),), (et,))  # type: ignore[arg-type]  # height checked not None
    uv = (rgb[0], arith.divide(rgb[1], 2), arith.divide(rgb[2], 2), TWO)
    return Result(((rgb[0], rgb[1], rgb[2], ONE), uv), (et, et))  # type: ignore[arg-type]  # even dims: divide gives a Dim


SPECS = {
    "nv12torgb": (OpSpec("NV12toRGB", (8, 16), frozenset(), infer=_to_rgb),),
    "nv12tobgr": (OpSpec("NV12toBGR", (8, 16), frozenset(), infer=_to_rgb),),
    "i420torgb": (OpSpec("I420toRGB", (8, 16), frozenset(), infer=_to_rgb),),
    "i420tobgr": (OpSpec("I420toBGR", (8, 16), frozenset(), infer=_to_rgb),),
    "rgbtonv12": (OpSpec("RGBtoNV12", (17, 17), fields=_SINGLE_PLANE, infer=_to_nv12),),
    "bgrtonv12": (OpSpec("BGRtoNV12", (17, 17), fields=_SINGLE_PLANE, infer=_to_nv12),),
}
