"""BatchToSpace-2 and SpaceToBatch-2 (class v1): the batch traded for spatial blocks.

Inputs: data, block_shape, and crops (BatchToSpace) or pads (SpaceToBatch) begin and end; the
three value inputs must have one shape, of rank 1, and their values must be exact (a Const,
or a subgraph the runtime folds to constants); unknown values give ``?`` dims.

BatchToSpace: the batch is divided by the product of the blocks (it must hold a multiple),
each other dim multiplied by its block and cropped (crops >= 0, blocks >= 1, and the value
count must equal the data rank).  An unknown block_shape multiplies by ``1..``.
SpaceToBatch: the batch is multiplied by that product, each other dim padded and divided by
its block (it must hold a multiple; an unbounded dim divides its lower bound only).  Each pad
is added on its own, so -1 pads by ``?`` and below that by 0.  The runtime does not compare
the value count with the rank: extra values are ignored, and too few are read past their end
(refused here).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from ..ir import elements
from ..shapes import arith, windows as win
from ..shapes.dims import DYNAMIC, INF, Dim, format_dim, format_shape
from .support.input_types import INTEGER_LIKE, require_type
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result


def _common(node: Node, labels: Sequence[str], how: str, same_types: bool) -> list[int] | None:
    """The checks both ops share; the length the value inputs have (None: unknown)."""
    node.require_inputs((4,))
    node.show(labels)
    node.how = how
    _types(node, labels, same_types)
    merged: tuple | None = None
    shapes = [node.inputs[i].shape for i in (2, 3, 1)]
    for shape in shapes:
        found = arith.merge_shapes(merged, shape)
        if found is None:
            listed = ", ".join(f"{labels[i]} {format_shape(node.inputs[i].shape)}" for i in (1, 2, 3))
            raise OpError(INCOMPATIBLE, f"{', '.join(labels[1:])} must have the same shape ({listed})")
        merged = found
    if merged is not None and len(merged) != 1:
        raise OpError(INCOMPATIBLE, f"{', '.join(labels[1:])} must be 1-D tensors, but have shape "
                                    f"{format_shape(merged)}")
    data = node.inputs[0].shape
    if data is not None and len(data) < 2:
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has rank {len(data)}; it needs 2 "
                                    f"or more")
    return None if merged is None or not merged[0].is_static else [merged[0].lo]


def _values(node: Node, index: int, count: int, label: str) -> list[int] | None:
    found = node.exact_values(index)
    if found is not None and len(found) < count:
        raise OpError(INCOMPATIBLE, f"{label} has {len(found)} values for data of rank {count}; "
                                    f"the runtime reads past their end")
    return found


def _types(node: Node, labels: Sequence[str], same: bool) -> None:
    types = [node.inputs[i].element_type for i in (1, 2, 3)]
    for index in (1, 2, 3):
        require_type(node, index, labels[index], INTEGER_LIKE)
    if same and len({t for t in types if elements.is_known(t)}) > 1:
        node.note(TYPE, f"{', '.join(labels[1:])} must have the same element type "
                        f"({', '.join(map(str, types))})")


def _batch_to_space(node: Node) -> Result:
    labels = ("data", "block_shape", "crops_begin", "crops_end")
    length = _common(node, labels, "batch to space", True)
    data, et = node.inputs[0].shape, node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    rank = len(data)
    if length is not None and length[0] != rank:
        raise OpError(INCOMPATIBLE, f"block_shape and the crops have {length[0]} values for data "
                                    f"{format_shape(data)} of rank {rank}")
    blocks = _values(node, 1, rank, "block_shape")
    batch = DYNAMIC
    if blocks is not None:
        if any(b < 1 for b in blocks):
            raise OpError(INCOMPATIBLE, f"block_shape {blocks} holds a value below 1")
        product = win.i64(math.prod(blocks))
        found = arith.divide(data[0], product)
        if found is None:
            raise OpError(INCOMPATIBLE, f"the batch {format_dim(data[0])} of data "
                                        f"{format_shape(data)} holds no multiple of the blocks' "
                                        f"product {product}")
        batch = found
    begin, end = _values(node, 2, rank, "crops_begin"), _values(node, 3, rank, "crops_end")
    if begin is None or end is None:
        return Result(((batch,) + (DYNAMIC,) * (rank - 1),), (et,))
    if any(c < 0 for c in begin + end):
        raise OpError(INCOMPATIBLE, f"crops_begin {begin} and crops_end {end} must be 0 or more")
    out = [batch]
    for axis in range(1, rank):
        block = arith.from_int(blocks[axis]) if blocks is not None else Dim(1, INF)
        grown = arith.mul(data[axis], block)
        crop = win.i64(begin[axis] + end[axis])
        if blocks is not None and grown.is_static and crop > grown.lo:
            raise OpError(INCOMPATIBLE, f"crops at axis {axis} ({begin[axis]} + {end[axis]}) exceed "
                                        f"the dim times its block ({format_dim(grown)})")
        out.append(arith.sub(grown, arith.from_int(crop)))
    return Result((tuple(out),), (et,))


def _space_to_batch(node: Node) -> Result:
    labels = ("data", "block_shape", "pads_begin", "pads_end")
    _common(node, labels, "space to batch", False)
    data, et = node.inputs[0].shape, node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    rank = len(data)
    blocks = node.exact_values(1)
    batch = DYNAMIC
    if blocks is not None:
        batch = arith.mul(data[0], arith.from_int(win.i64(math.prod(blocks))))
    begin, end = node.exact_values(2), node.exact_values(3)
    if blocks is None or begin is None or end is None:
        return Result(((batch,) + (DYNAMIC,) * (rank - 1),), (et,))
    for label, values in (("block_shape", blocks), ("pads_begin", begin), ("pads_end", end)):
        if len(values) < rank:
            raise OpError(INCOMPATIBLE, f"{label} has {len(values)} values for data of rank "
                                        f"{rank}; the runtime reads past their end")
    out = [batch]
    for axis in range(1, rank):
        if blocks[axis] <= 0:
            raise OpError(INCOMPATIBLE, f"block_shape {blocks} holds {blocks[axis]} at axis {axis}; "
                                        f"every block must be 1 or more")
        # begin and end are added one at a time, each an int turned into a dim (measured:
        # 5 + -1 + 2 is `6..`, not 6)
        padded = win.add_int(win.add_int(data[axis], begin[axis]), end[axis])
        if padded.hi >= INF:  # the lower bound divided, rounding up; no upper bound
            found: Dim | None = Dim(-(-padded.lo // blocks[axis]), INF)
        else:
            found = arith.divide(padded, blocks[axis])
        if found is None:
            raise OpError(INCOMPATIBLE, f"dim {axis} of data {format_shape(data)} padded to "
                                        f"{format_dim(padded)} holds no multiple of its block "
                                        f"{blocks[axis]}")
        out.append(found)
    return Result((tuple(out),), (et,))


SPECS = {
    "batchtospace": (OpSpec("BatchToSpace", (2, 16), frozenset(),
                            dim_inputs=(1, 2, 3), infer=_batch_to_space),),
    "spacetobatch": (OpSpec("SpaceToBatch", (2, 16), frozenset(),
                            dim_inputs=(1, 2, 3), infer=_space_to_batch),),
}
