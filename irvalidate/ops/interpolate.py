"""Interpolate-1 (class v0), -4 and -11 (interpolate_shape_inference): the data resized on
some axes.

v0: ``axes`` is a set (sorted, repeats collapse; missing: no axis); each is given the next
value of input 1 (read as a shape: a Const's -1 is ``?``; unknown values give ``?``).  The
runtime does not count the values: fewer than the axes reads past the buffer (refused here).

v4 (inputs data, sizes, scales[, axes]) and v11 (data, sizes or scales[, axes]): the data is
padded first by ``pads_begin + pads_end`` (unsigned lists cut or zero-filled to the rank);
then on each axis (input ``axes``, whose values must be exact, else every dim is ``?``; all
axes without it) the dim becomes the size (``shape_calculation_mode`` sizes: read as a shape)
or ``floor(dim * (scale + 1e-6))`` in float32 arithmetic (scales: a Const's reals), ``?``
when unknown.  A later repeat of an axis wins.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from ..ir import elements
from ..shapes import dims as shape_dims, windows as win
from ..shapes.arith import f32
from ..shapes.dims import DYNAMIC, INF, Dim, format_shape
from .support.attributes import Field, read
from .support.input_types import INTEGER_LIKE, require_type
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result
from .support.value_inputs import refuse_bufferless

_V0_FIELDS = (Field("axes", "uints", ()), Field("mode", "str", ""),
              Field("align_corners", "bool", False), Field("antialias", "bool", False),
              Field("pads_begin", "uints", ()), Field("pads_end", "uints", ()))
_MODES = ("nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow")
_FIELDS = (Field("mode", "enum", "nearest", _MODES),
           Field("shape_calculation_mode", "enum", "sizes", ("sizes", "scales")),
           Field("coordinate_transformation_mode", "enum", "half_pixel",
                 ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn",
                  "align_corners")),
           Field("nearest_mode", "enum", "round_prefer_floor",
                 ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")),
           Field("antialias", "bool", False), Field("pads_begin", "uints", ()),
           Field("pads_end", "uints", ()), Field("cube_coeff", "float", -0.75))
_DATA_TYPES = ("f32", "f16", "bf16", "i8", "u8", "i32", "i64", "f64")
_SIZE_TYPES = ("i32", "i64", "u32", "u64")
_SCALE_TYPES = ("f32", "f16", "bf16")
_EPSILON = f32(1e-6)


def scale_dim(d: Dim, scale: float) -> Dim:
    """``dim::scale``: each bound times ``scale + 1e-6`` in float32, truncated; a scale of
    exactly 1 changes nothing."""
    scale = f32(scale)
    if scale == 1.0:
        return d
    hi = -1 if d.hi >= INF else _times(d.hi, scale)
    found = win.dimension(hi, hi) if d.is_static else win.dimension(_times(d.lo, scale), hi)
    if shape_dims.SYMBOLIC is not None:  # reshapeable: floor(size * p / q), where it is that
        return shape_dims.SYMBOLIC.scaled(d, _ratio(scale), found)
    return found


def _times(bound: int, scale: float) -> int:
    product = f32(f32(float(bound)) * f32(scale + _EPSILON))
    return int(product) if math.isfinite(product) and abs(product) < 2.0 ** 63 else -1


#: the sizes on which a scale's float32 arithmetic is checked to be floor(size * p / q)
RATIO_CHECKED = 1 << 16


@lru_cache(maxsize=64)
def _ratio(scale: float) -> tuple[int, int] | None:
    """(p, q) when ``floor(size * (scale + 1e-6))`` in float32 is ``size * p // q`` for every
    size up to RATIO_CHECKED (a scale such as 2.0 or 0.5), else None."""
    exact = Fraction(scale)
    if exact <= 0 or exact.denominator > 1024 or exact.numerator > 1024:
        return None
    p, q = exact.numerator, exact.denominator
    if all(_times(n, scale) == n * p // q for n in range(1, RATIO_CHECKED)):
        return p, q
    return None


def _check_type(node: Node, index: int, what: str, legal: tuple[str, ...]) -> None:
    et = node.inputs[index].element_type
    if elements.is_known(et) and et not in legal:
        node.note(TYPE, f"{what} (input {index}) must be {', '.join(legal[:-1])} or {legal[-1]}, "
                        f"not {et}")


def _unsigned_pads(node: Node) -> None:
    """The pads are lists of size_t read by a parser that refuses a sign (``-1`` and ``+1``
    alike: measured), unlike the Shape and Strides lists of the convolutions."""
    for name in ("pads_begin", "pads_end"):
        text = node.layer.data.get(name)
        if text is None:
            continue
        signed = [item for item in (t.strip() for t in text.split(",")) if item[:1] in ("-", "+")]
        if signed:
            raise OpError(ATTRIBUTE, f"attribute {name}: {signed[0]!r} has a sign, which the "
                                     f"reader refuses in this unsigned list")


def _too_few(what: str, found: int, axes: Sequence[int]) -> OpError:
    return OpError(INCOMPATIBLE, f"{what} has {found} value{'' if found == 1 else 's'} for "
                                 f"{len(axes)} axes ({','.join(map(str, axes))})")


def _infer_v0(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(("data", "target_spatial_shape"))
    node.how = "interpolation"
    axes = sorted(set(read(node, "Interpolate", _V0_FIELDS)[0]))
    _unsigned_pads(node)
    require_type(node, 1, "target_spatial_shape", INTEGER_LIKE)
    data, et = node.inputs[0].shape, node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    _check_axes(axes, data)
    out = list(data)
    refuse_bufferless(node, 1)
    values = node.as_shape(1, "target_spatial_shape")
    if values is not None and len(values) < len(axes):  # the runtime reads past the buffer
        raise _too_few("target_spatial_shape (input 1)", len(values), axes)
    for j, axis in enumerate(axes):
        out[axis] = DYNAMIC if values is None else values[j]
    return Result((tuple(out),), (et,))


def _check_axes(axes: Sequence[int], data: tuple[Dim, ...]) -> None:
    # compared as the runtime compares them (signed against the unsigned rank): a negative
    # axis "passes", then indexes before the shape; refused here either way
    wrong = [a for a in axes if not 0 <= a < len(data)]
    if wrong:
        raise OpError(INCOMPATIBLE, f"axis {wrong[0]} is out of the range of data "
                                    f"{format_shape(data)} (every axis must be in "
                                    f"[0, {len(data) - 1}])")


def _infer(node: Node, v11: bool) -> Result:
    node.require_inputs((2, 3) if v11 else (3, 4))
    labels = ("data", "sizes_or_scales", "axes") if v11 else ("data", "sizes", "scales", "axes")
    node.show(labels[:len(node.inputs)])
    node.how = "interpolation"
    mode, calc, _, _, _, pads_begin, pads_end, _ = read(node, "Interpolate", _FIELDS)
    _unsigned_pads(node)
    _check_type(node, 0, "data", _DATA_TYPES)
    axes_at = 2 if v11 else 3
    scales_at = 1 if v11 else 2
    if v11:
        legal = _SCALE_TYPES if calc == "scales" else _SIZE_TYPES
        _check_type(node, 1, "scales" if calc == "scales" else "sizes", legal)
    else:
        _check_type(node, 1, "sizes", _SIZE_TYPES)
        _check_type(node, 2, "scales", _SCALE_TYPES)
        if mode.endswith("_pillow"):
            raise OpError(ATTRIBUTE, f"attribute mode {mode} needs Interpolate-11 (version 4 "
                                     f"refuses it)")
    if len(node.inputs) > axes_at:
        _check_type(node, axes_at, "axes", _SIZE_TYPES)
    for index in range(1, len(node.inputs)):
        if v11 or index == axes_at or index == (scales_at if calc == "scales" else 1):
            node.one_d_length(index, f"{labels[index]} (input {index})")
    data, et = node.inputs[0].shape, node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    rank = len(data)
    axes = list(range(rank))
    if len(node.inputs) > axes_at:
        given = node.exact_values(axes_at)
        if given is None:
            return Result(((DYNAMIC,) * rank,), (et,))
        axes = given
        _check_axes(axes, data)
    pads = [(pads_begin[i] if i < len(pads_begin) else 0) + (pads_end[i] if i < len(pads_end) else 0)
            for i in range(rank)]
    out = [win.padded(d, win.i64(p)) for d, p in zip(data, pads)]
    if v11:  # measured: v11 fails on a bufferless empty sizes/scales Const, v4 does not
        refuse_bufferless(node, 1)
    if calc == "scales":
        scales = _scales(node, scales_at)
        if scales is not None and len(scales) < len(axes):
            raise _too_few(f"scales (input {scales_at})", len(scales), axes)
        for j, axis in enumerate(axes):
            out[axis] = DYNAMIC if scales is None else scale_dim(out[axis], scales[j])
    else:
        sizes = node.as_shape(1, "sizes")
        if sizes is not None and len(sizes) < len(axes):
            raise _too_few("sizes (input 1)", len(sizes), axes)
        for j, axis in enumerate(axes):
            out[axis] = DYNAMIC if sizes is None else sizes[j]
    return Result((tuple(out),), (et,))


def _scales(node: Node, index: int) -> list[float] | None:
    """A Const's scales.  The runtime also folds a subgraph computing exact reals; real
    values are not evaluated here, so such scales are unknown (``?``: less precise, never
    wrong)."""
    return node.const_floats(index)


SPECS = {"interpolate": (
    OpSpec("Interpolate", (1, 3), fields=_V0_FIELDS, dim_inputs=(1,), infer=_infer_v0),
    OpSpec("Interpolate", (4, 10), fields=_FIELDS, dim_inputs=(1, 2), value_inputs=(3,),
           symbolic=True, infer=lambda node: _infer(node, False)),
    OpSpec("Interpolate", (11, 16), fields=_FIELDS, dim_inputs=(1,), value_inputs=(2,),
           symbolic=True, infer=lambda node: _infer(node, True)),
)}
