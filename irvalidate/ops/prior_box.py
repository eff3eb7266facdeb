"""PriorBox-1, PriorBox-8 and PriorBoxClustered-1: ``[2, H * W * priors * 4]`` (prior_box
shape inference).

``output_size`` (input 0) holds ``[H, W]`` as a value: a Const (-1 is ``?``) or a shape
subgraph (``ShapeOf(feature) -> StridedSlice``), read as ``get_input_const_data_as_shape``
reads it; when it is unknown the output is ``[2, ?]``.  The image size (input 1) is never
read.  Both inputs must be integers and 1-D (a dynamic rank passes).

The prior count comes from the attributes.  PriorBox: the aspect ratios, de-duplicated after
rounding to 1e-6 in float32 arithmetic (1 always among them, each ratio's inverse with
``flip``), times the min sizes plus the max sizes (``scale_all_sizes``, true when missing) or
``ratios + min sizes - 1``; ``fixed_size`` replaces it by ``ratios * fixed sizes``; each
``density`` d adds ``(int(d)^2 - 1)`` times the fixed ratios (or the ratios).  A count the
runtime turns into a dim the way it turns any integer (-1 is ``?``, below that 0).
PriorBoxClustered: the number of ``width`` values, which must match the ``height`` values.
"""
from __future__ import annotations

import math

from ..shapes import arith
from ..shapes.arith import f32
from ..shapes.dims import DYNAMIC, static
from .support.attributes import Field, read
from .support.infer_helpers import text
from .support.input_types import require_type
from .support.node import Node
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result

_COMMON = (Field("min_size", "floats", ()), Field("max_size", "floats", ()),
           Field("aspect_ratio", "floats", ()), Field("density", "floats", ()),
           Field("fixed_ratio", "floats", ()), Field("fixed_size", "floats", ()),
           Field("clip", "bool", False), Field("flip", "bool", False),
           Field("step", "float", 0.0), Field("offset", "float", 0.0),
           Field("variance", "floats", ()), Field("scale_all_sizes", "bool", True))
_V8 = _COMMON + (Field("min_max_aspect_ratios_order", "bool", True),)
_CLUSTERED = (Field("width", "floats", ()), Field("height", "floats", ()),
              Field("clip", "bool", False), Field("step", "float", 0.0),
              Field("step_w", "float", 0.0), Field("step_h", "float", 0.0),
              Field("offset", "float", 0.0), Field("variance", "floats", ()))

def _round6(x: float) -> float:
    """``std::round(x * 1e6f) / 1e6f`` in float32 (half away from zero)."""
    scaled = f32(x * f32(1e6))
    if math.isfinite(scaled):
        scaled = math.copysign(math.floor(abs(scaled) + 0.5), scaled)
    return f32(scaled / f32(1e6))


def _ratio_count(ratios: tuple[float, ...], flip: bool) -> int:
    unique = {1.0}
    for ratio in ratios:
        r = f32(ratio)
        unique.add(_round6(r))
        if flip:
            unique.add(_round6(f32(1.0 / r) if r else math.copysign(math.inf, r)))
    return len(unique)


def _priors(node: Node, name: str, fields) -> int:
    (min_size, max_size, aspect_ratio, density, fixed_ratio, fixed_size, _clip, flip, _step,
     _offset, _variance, scale_all_sizes) = read(node, name, fields)[:12]
    ratios = _ratio_count(aspect_ratio, flip)
    if scale_all_sizes:
        count = ratios * len(min_size) + len(max_size)
    else:
        count = ratios + len(min_size) - 1
    if fixed_size:
        count = ratios * len(fixed_size)
    for d in density:
        # a float truncated towards zero, as static_cast<int64_t> does
        whole = int(d) if math.isfinite(d) else 0
        count += (len(fixed_ratio) if fixed_ratio else ratios) * (whole * whole - 1)
    return count


def _boxes(node: Node, priors: int) -> Result:
    """The rule both ops share, given their prior count."""
    node.show(("output_size", "image_size"))
    require_type(node, 0, "output_size")
    require_type(node, 1, "image_size")
    out_size, image = node.inputs[0].shape, node.inputs[1].shape
    if (out_size is not None and len(out_size) != 1) or (
            out_size is not None and image is not None and len(image) != len(out_size)):
        raise OpError(INCOMPATIBLE, f"output_size (input 0) {text(out_size)} and image_size "
                                    f"(input 1) {text(image)} must both be 1-D")
    size = node.as_shape(0, "output_size")
    if size is None:
        node.how = "an output_size whose values are unknown"
        return Result(((static(2), DYNAMIC),), ("f32",))
    if len(size) != 2:
        raise OpError(INCOMPATIBLE, f"output_size (input 0) must hold two values [H, W], but "
                                    f"holds {len(size)}")
    node.how = f"output_size {text(size)} and {priors} priors per position"
    count = arith.mul(arith.mul(arith.mul(size[0], size[1]), arith.from_int(priors)), static(4))
    return Result(((static(2), count),), ("f32",))


def _infer_prior_box(name: str, fields):
    def infer(node: Node) -> Result:
        node.require_inputs((2,))
        return _boxes(node, _priors(node, name, fields))
    return infer


def _infer_clustered(node: Node) -> Result:
    node.require_inputs((2,))
    width, height = read(node, "PriorBoxClustered", _CLUSTERED)[:2]
    if len(width) != len(height):
        raise OpError(INCOMPATIBLE, f"attributes width and height must have as many values, but "
                                    f"width has {len(width)} and height {len(height)}")
    return _boxes(node, len(width))


SPECS = {
    "priorbox": (
        OpSpec("PriorBox", (1, 7), fields=_COMMON,
               dim_inputs=(0,), infer=_infer_prior_box("PriorBox", _COMMON)),
        OpSpec("PriorBox", (8, 16), fields=_V8,
               dim_inputs=(0,), infer=_infer_prior_box("PriorBox8", _V8)),
    ),
    "priorboxclustered": (
        OpSpec("PriorBoxClustered", (1, 16), fields=_CLUSTERED,
               dim_inputs=(0,), infer=_infer_clustered),
    ),
}
