"""OneHot-1 and -16: ``indices`` with a new dim of size ``depth`` inserted at ``axis``.

Shape (one_hot_shape_inference): depth is read as a shape value (a constant exactly, a
computed scalar as its interval, else ``?``); a negative constant depth is refused.  The axis
is normalised against ``rank(indices) + 1``.  depth, on_value and off_value are strict
scalars; the output has on_value's type (which must merge with off_value's).
"""
from __future__ import annotations

from ..ir import elements
from ..shapes.dims import DYNAMIC, INF, Dim, format_shape
from .support.attributes import Field, read
from .support.axes import normalize
from .support.input_types import require_type
from .support.node import Node
from .support.shaping import refuse_unless
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_V1 = (Field("axis", "int", 0),)
_V16 = _V1 + (Field("negative_indices_mode", "enum", "ignore_negative",
                    ("ignore_negative", "normalize")),)
_NAMES = ("indices", "depth", "on_value", "off_value")


def _one_hot(fields):
    def infer(node: Node) -> Result:
        node.require_inputs((4,))
        axis = read(node, "OneHot", fields)[0]
        node.show(list(_NAMES))
        node.how = f"one-hot along axis {axis}"
        require_type(node, 0, "indices")
        require_type(node, 1, "depth")
        for i in (1, 2, 3):
            shape = node.inputs[i].shape
            refuse_unless(shape is None or shape == (), f"{_NAMES[i]} (input {i}) must be a "
                                                        f"scalar, not {format_shape(shape)}")
        on, off = node.inputs[2].element_type, node.inputs[3].element_type
        try:
            et = elements.merge(on, off)
        except ValueError:
            node.note(TYPE, f"on_value ({on}) and off_value ({off}) must have one element type")
            et = None
        bounds = node.input_bounds(1)
        depth = DYNAMIC
        if bounds is not None and len(bounds) == 1:
            lo, hi = bounds[0]
            if lo == hi and lo < 0:
                raise OpError(INCOMPATIBLE, f"depth is {lo}: it must not be negative")
            depth = Dim(max(lo, 0), INF if hi < 0 else hi)
        indices = node.inputs[0].shape
        if indices is None:
            return Result((None,), (et,))
        a = normalize(axis, len(indices) + 1)
        return Result((indices[:a] + (depth,) + indices[a:],), (et,))
    return infer


SPECS = {"onehot": (OpSpec("OneHot", (1, 15), fields=_V1, dim_inputs=(1,), infer=_one_hot(_V1)),
                    OpSpec("OneHot", (16, 16), fields=_V16,
                           dim_inputs=(1,), infer=_one_hot(_V16)))}
