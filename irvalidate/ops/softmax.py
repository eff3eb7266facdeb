"""Softmax-1, Softmax-8 (the reader also takes the type as ``SoftMax``) and LogSoftmax-5: the
output keeps the data's shape and type; only ``axis`` is checked.  A missing ``axis`` is 0 for
Softmax-1 but 1 for Softmax-8 and LogSoftmax (their C++ defaults, measured: a scalar or 1-D
input without the attribute is refused there).

Softmax-1 reads ``axis`` as an unsigned number, so a negative one becomes 2^64 - k and is
refused; it must be below the rank (a scalar takes axis 0).  Softmax-8 and LogSoftmax take
``[-r, r-1]`` (a scalar counts as rank 1).  A dynamic rank is not checked.  No element type
is refused (i32 and boolean data are read).
"""
from __future__ import annotations

from collections.abc import Callable

from ..shapes.dims import format_shape
from .support.attributes import Field, read
from .support.axes import normalize
from .support.node import Node
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result

_UNSIGNED = (Field("axis", "uint", 0),)
_SIGNED = (Field("axis", "int", 1),)


def _infer_with(name: str, unsigned: bool) -> Callable[[Node], Result]:
    fields = _UNSIGNED if unsigned else _SIGNED

    def infer(node: Node) -> Result:
        node.require_inputs((1,))
        (axis,) = read(node, name, fields)
        node.show(("data",))
        node.how = f"{name} along axis {axis} (the output keeps the data's shape)"
        data = node.inputs[0].shape
        if data is not None:
            if unsigned and axis >= max(len(data), 1):
                shown = f"{axis} (a negative axis, read as unsigned)" if axis >= 1 << 63 else axis
                raise OpError(INCOMPATIBLE, f"axis {shown} is out of range for data "
                                            f"{format_shape(data)}: {name}-1 takes 0 to "
                                            f"{max(len(data), 1) - 1}")
            if not unsigned:
                normalize(axis, len(data), "axis")
        return Result((data,), (node.inputs[0].element_type,))
    return infer


SPECS = {
    "softmax": (OpSpec("Softmax", (1, 7), fields=_UNSIGNED, symbolic=True, infer=_infer_with("Softmax", True)),
                OpSpec("Softmax", (8, 16), fields=_SIGNED, symbolic=True, infer=_infer_with("Softmax", False))),
    "logsoftmax": (OpSpec("LogSoftmax", (5, 16), fields=_SIGNED, symbolic=True, infer=_infer_with("LogSoftmax", False)),),
}
