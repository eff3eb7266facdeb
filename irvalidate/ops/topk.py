"""TopK-1/-3/-11: the k largest (or smallest) elements along ``axis``, and their indices.

Shape (topk_shape_inference): both outputs are data's shape with the axis dim set to k.  k is
read as a shape value: a constant k is taken as it is (even above the dim: the runtime does
not clamp it); an interval k is clamped by the dim (``min`` of the lower bounds, ``min`` of
the upper ones); an unknown k gives ``..max(dim)``.  k must be a scalar, not negative; TopK-1
takes only i8, i32 and i64 for it.  ``index_element_type`` (i32 or i64) types output 1.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes.dims import INF, Dim, format_dim, format_shape, static
from .support.attributes import Field, read
from .support.axes import normalize
from .support.node import Node
from .support.shaping import refuse_unless
from .support.spec import ATTRIBUTE, DIVERGENCE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_COMMON = (Field("axis", "int", 0), Field("mode", "enum", "max", ("max", "min")),
           Field("sort", "enum", "none", ("none", "index", "value")),
           Field("index_element_type", "str", "i32"))
_V11 = _COMMON + (Field("stable", "bool", False),)


def _topk(version: int):
    fields = _V11 if version == 11 else _COMMON

    def infer(node: Node) -> Result:
        node.require_inputs((2,))
        axis, _, _, index_text = read(node, "TopK", fields)[:4]
        index_et = elements.from_element_type(index_text)
        if index_et not in ("i32", "i64"):
            raise OpError(ATTRIBUTE, f"index_element_type must be i32 or i64, not {index_text[:40]!r}")
        node.show(["data", "k"])
        node.how = f"top k along axis {axis}"
        data, k_shape = node.inputs[0].shape, node.inputs[1].shape
        et = node.inputs[0].element_type
        k_et = node.inputs[1].element_type
        if version == 1 and k_et not in ("i8", "i32", "i64", None):
            node.note(TYPE, f"k (input 1) must be i8, i32 or i64 for TopK-1, not {k_et}")
        elif elements.is_known(k_et) and k_et not in elements.INTEGRAL:
            node.note(TYPE, f"k (input 1) must be an integer, not {k_et}")
        refuse_unless(k_shape is None or k_shape == (), f"k (input 1) must be a scalar, not "
                      f"{format_shape(k_shape)}")
        refuse_unless(data != (), "data (input 0) must have rank 1 or more, not be a scalar")
        bounds = node.input_bounds(1)
        k = bounds[0] if bounds is not None and len(bounds) == 1 else None
        if k is not None and k.is_static and k.lo < 0:
            raise OpError(INCOMPATIBLE, f"k is {k.lo}: it must not be negative")
        if data is None:
            return Result((None, None), (et, index_et))
        a = normalize(axis, len(data))
        d = data[a]
        if k is None:
            dim = Dim(0, d.hi)
        elif k.is_static:
            dim = static(k.lo)
            if d.hi != INF and k.lo > d.hi:
                node.note(DIVERGENCE, f"k is {k.lo}, above the dim {format_dim(d)} along axis "
                                      f"{a}: OpenVINO 2026.4 reads the model (its outputs take "
                                      f"{k.lo}), but every input fails at inference")
        else:
            dim = Dim(min(d.lo, max(k.lo, 0)), INF if d.hi == INF else min(d.hi, k.hi))
        out = data[:a] + (dim,) + data[a + 1:]
        return Result((out, out), (et, index_et))
    return infer


SPECS = {"topk": (OpSpec("TopK", (1, 2), fields=_COMMON,
                         dim_inputs=(1,), infer=_topk(1), own_types=(1,)),
                  OpSpec("TopK", (3, 10), fields=_COMMON,
                         dim_inputs=(1,), infer=_topk(3), own_types=(1,)),
                  OpSpec("TopK", (11, 16), fields=_V11,
                         dim_inputs=(1,), infer=_topk(11), own_types=(1,)))}
