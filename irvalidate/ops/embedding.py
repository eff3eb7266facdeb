"""The embedding bags: EmbeddingBagOffsetsSum-3 / EmbeddingBagOffsets-15, EmbeddingBagPackedSum-3 /
EmbeddingBagPacked-15 and EmbeddingSegmentsSum-3 (embeddingbag_*_shape_inference,
embedding_segments_sum_shape_inference).

One rule for all: the output is the table ``emb_table`` with its first dim replaced by the
number of bags (a dynamic-rank table gives a dynamic rank; a scalar one is refused).  The bag
count is ``offsets[0]`` (Offsets), ``indices[0]`` merged with ``per_sample_weights[0]``
(Packed: the weights can supply it), or the value of ``num_segments`` (Segments), read as a
shape value: a Const's number (-1 is ``?``, below that 0), a computed scalar's bounds (a
bound that can be negative is refused), else ``?``.  The indices never meet the table's size.
The v15 classes add ``reduction`` (sum or mean; mean refuses per_sample_weights); the
element types of indices, offsets, segment ids and counts must be i32 or i64 and agree.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC, Dim, format_shape
from .support.attributes import Field, read
from .support.checking import ranked, same_shape, same_type
from .support.input_types import INDEX_TYPES, require_type
from .support.node import Node
from .support.spec import ARITY, INCOMPATIBLE, OpError, OpSpec, Result

_REDUCTION = (Field("reduction", "enum", "sum", ("sum", "mean")),)


def _table(node: Node, bags: Dim) -> Result:
    """The table with its first dim replaced by the bag count."""
    table = node.inputs[0]
    if table.shape is None:
        return Result((None,), (table.element_type,))
    if not table.shape:
        raise OpError(INCOMPATIBLE, "emb_table (input 0) must have rank 1 or more, not be a scalar")
    return Result(((bags,) + table.shape[1:],), (table.element_type,))


def _weights_type(node: Node, index: int) -> None:
    if index < len(node.inputs):
        same_type(node, index, "per_sample_weights", 0, "emb_table")


def _optional(node: Node, default: int) -> None:
    """default_index (a scalar of the indices' type) and per_sample_weights (one per index,
    of the table's type) at ``default`` and after it, when connected."""
    if default < len(node.inputs):
        require_type(node, default, "default_index", INDEX_TYPES)
        same_type(node, default, "default_index", 1, "indices")
        ranked(node, default, "default_index", 0)
    weights = default + 1
    if weights < len(node.inputs):
        _weights_type(node, weights)
        ranked(node, weights, "per_sample_weights", 1)
        same_shape(node, 1, "indices", weights, "per_sample_weights")


def _mean_without_weights(node: Node, weights: int, reduction: str) -> None:
    if reduction == "mean" and weights < len(node.inputs):
        raise OpError(ARITY, f"per_sample_weights (input {weights}) is connected, but reduction "
                             f"is mean: the weights are for reduction sum only")


def _offsets(v15: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((3, 4, 5))
        reduction = read(node, "EmbeddingBagOffsets", _REDUCTION)[0] if v15 else "sum"
        _mean_without_weights(node, 4, reduction)
        labels = ["emb_table", "indices", "offsets", "default_index", "per_sample_weights"]
        node.show(labels[:len(node.inputs)])
        node.how = "one row per bag, bags given by offsets"
        require_type(node, 2, "offsets", INDEX_TYPES)
        require_type(node, 1, "indices", INDEX_TYPES)
        same_type(node, 2, "offsets", 1, "indices")
        ranked(node, 1, "indices", 1)
        offsets = ranked(node, 2, "offsets", 1)
        _optional(node, 3)
        return _table(node, DYNAMIC if offsets is None else offsets[0])
    return infer


def _packed(v15: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((2, 3))
        reduction = read(node, "EmbeddingBagPacked", _REDUCTION)[0] if v15 else "sum"
        _mean_without_weights(node, 2, reduction)
        node.show(["emb_table", "indices", "per_sample_weights"][:len(node.inputs)])
        node.how = "one row per bag, a bag per row of indices"
        require_type(node, 1, "indices", INDEX_TYPES)
        _weights_type(node, 2)
        indices = ranked(node, 1, "indices", 2)
        if len(node.inputs) == 3:
            weights = ranked(node, 2, "per_sample_weights", 2)
            merged = arith.merge_shapes(indices, weights)
            if merged is None and (indices, weights) != (None, None):
                raise OpError(INCOMPATIBLE, f"indices (input 1) {format_shape(indices)} and "
                                            f"per_sample_weights (input 2) {format_shape(weights)} "
                                            f"must have the same shape")
            indices = merged  # the weights take part: they can give the bag count
        return _table(node, DYNAMIC if indices is None else indices[0])
    return infer


def _segments(node: Node) -> Result:
    node.require_inputs((4, 5, 6))
    labels = ["emb_table", "indices", "segment_ids", "num_segments", "default_index",
              "per_sample_weights"]
    node.show(labels[:len(node.inputs)])
    node.how = "one row per segment, num_segments of them"
    for index in (2, 1, 3):
        require_type(node, index, labels[index], INDEX_TYPES)
    same_type(node, 2, "segment_ids", 1, "indices")
    same_type(node, 3, "num_segments", 2, "segment_ids")
    ranked(node, 1, "indices", 1)
    ranked(node, 2, "segment_ids", 1)
    same_shape(node, 1, "indices", 2, "segment_ids")
    ranked(node, 3, "num_segments", 0)
    _optional(node, 4)
    if node.inputs[0].shape is None:  # the count is not even read
        return _table(node, DYNAMIC)
    return _table(node, _count(node))


def _count(node: Node) -> Dim:
    """num_segments as a shape value (get_input_const_data_as_shape on a scalar)."""
    values = node.const_ints(3)
    if values is not None:
        return arith.from_int(values[0]) if len(values) == 1 else DYNAMIC
    computed = node.computed_as_shape(3, "num_segments", rank=0)
    return computed[0] if computed else DYNAMIC


SPECS = {
    "embeddingbagoffsetssum": (OpSpec("EmbeddingBagOffsetsSum", (3, 16), frozenset(),
                                      infer=_offsets(False)),),
    "embeddingbagoffsets": (OpSpec("EmbeddingBagOffsets", (15, 16), fields=_REDUCTION, infer=_offsets(True)),),
    "embeddingbagpackedsum": (OpSpec("EmbeddingBagPackedSum", (3, 16), frozenset(),
                                     infer=_packed(False)),),
    "embeddingbagpacked": (OpSpec("EmbeddingBagPacked", (15, 16), fields=_REDUCTION, infer=_packed(True)),),
    "embeddingsegmentssum": (OpSpec("EmbeddingSegmentsSum", (3, 16), frozenset(),
                                    dim_inputs=(3,), infer=_segments),),
}
