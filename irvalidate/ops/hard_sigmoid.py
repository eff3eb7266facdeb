"""HardSigmoid-1: ``max(0, min(1, alpha * data + beta))``; the output keeps the data's shape.

``alpha`` and ``beta`` (inputs 1 and 2) must be scalars when their shape is static: a ``[1]``,
common in converted models, is refused, while ``[?]`` or a dynamic rank passes.  Their element
types must equal the data's exactly (no type is refused on its own: i32 and boolean pass).
"""
from __future__ import annotations

from ..shapes.dims import format_shape
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_LABELS = ("data", "alpha", "beta")


def _infer(node: Node) -> Result:
    node.require_inputs((3,))
    node.show(_LABELS)
    node.how = "HardSigmoid (the output keeps the data's shape)"
    for index in (1, 2):
        shape = node.inputs[index].shape
        if shape is not None and shape and all(d.is_static for d in shape):
            raise OpError(INCOMPATIBLE, f"{_LABELS[index]} (input {index}) must be a scalar, "
                                        f"but has shape {format_shape(shape)}")
    types = [v.element_type for v in node.inputs]
    # only when all three are read for sure: a dynamic type is refused too, but a port whose
    # precision is unspecified may be any
    if all(t not in (None, "dynamic") for t in types) and len(set(types)) > 1:
        node.note(TYPE, f"alpha ({types[1]}) and beta ({types[2]}) must have the data's element "
                        f"type ({types[0]})")
    return Result((node.inputs[0].shape,), (types[0],))


SPECS = {"hardsigmoid": (OpSpec("HardSigmoid", (1, 16), frozenset(), symbolic=True, infer=_infer),)}
