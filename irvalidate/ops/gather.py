"""Gather-1, -7 and -8: elements of ``data`` picked by ``indices`` along ``axis`` (input 2).

Its shape inference is not modelled yet.  Its value is evaluated for the shape subgraphs
that feed Broadcast targets: a 1-D value gathered along axis 0 with ``batch_dims`` 0, negative
indices counted from the end, an out-of-range index read as 0 (every version, in bound
evaluation), and only the element types the runtime has kernels for.
"""
from __future__ import annotations

from ..shapes import values as vals
from ..shapes.values import Tensor, Unresolved
from .evaluating import int_attr, origin, scalar, short, tensors
from .node import Node
from .spec import OpSpec


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (3,))
    if int_attr(node.layer, "batch_dims", 0) != 0:
        raise Unresolved("Gather with batch_dims")
    axis = scalar(t[2], "the Gather axis")
    indices = t[1].static_values()
    return vals.gather(t[0], t[1], axis,
                       origin(node.layer, t[:1], f"axis {axis}, indices {short(indices)}"))


SPECS = {"gather": (OpSpec("Gather", (1, 6), evaluate=_evaluate),
                    OpSpec("Gather", (7, 16), evaluate=_evaluate))}
