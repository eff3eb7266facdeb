"""Tile-1 (tile_shape_inference): the data repeated ``repeats`` (input 1) times per axis.

The repeats are read as a shape (a Const's negative values become 0; a computed negative
bound is refused).  The shorter of data rank and repeats is padded with leading 1s, and each
dim is multiplied by its repeat (interval multiplication).  With unknown repeats of a known
length ``n`` the output is ``max(rank, n)`` x ``?``; otherwise a dynamic rank.  Value: once
the repeats are exact, the data's bounds tiled (:func:`irvalidate.shapes.layout.tile_values`).
"""
from __future__ import annotations

from ..shapes import arith, layout
from ..shapes.dims import DYNAMIC, ONE, Dim
from ..shapes.values import Tensor
from .support.evaluating import origin, tensors
from .support.input_types import INTEGER_LIKE, require_type
from .support.node import Node
from .support.spec import OpSpec, Result
from .support.value_inputs import refuse_bufferless


def _infer(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(("data", "repeats"))
    node.how = "tiling"
    require_type(node, 1, "repeats", INTEGER_LIKE | {"boolean"})  # is_integral: booleans pass
    length = node.one_d_length(1, "repeats (input 1)")
    refuse_bufferless(node, 1)
    numbers = node.const_numbers(1)
    repeats = (tuple(Dim(max(v, 0), max(v, 0)) for v in numbers) if numbers is not None
               else node.computed_as_shape(1, "repeats"))
    data = node.inputs[0].shape
    out_et = node.inputs[0].element_type
    if data is not None and repeats is not None:
        rank = max(len(data), len(repeats))
        repeats = (ONE,) * (rank - len(repeats)) + tuple(repeats)
        data = (ONE,) * (rank - len(data)) + tuple(data)
        return Result((tuple(arith.mul(d, r) for d, r in zip(data, repeats)),), (out_et,))
    if data is not None and length is not None:
        return Result(((DYNAMIC,) * max(len(data), length),), (out_et,))
    return Result((None,), (out_et,))


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (2,))
    return layout.tile_values(t[0], t[1].static_values(), origin(node.layer, t))


SPECS = {"tile": (OpSpec("Tile", (1, 16), frozenset(),
                         dim_inputs=(1,), symbolic=True, infer=_infer, evaluate=_evaluate,
                         arity=(2,)),)}
