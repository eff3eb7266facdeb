"""Bucketize-3 and SearchSorted-15: an index per value; the output element type is
``output_type``.

Bucketize: the output has data's shape; ``buckets`` must be 1-D; data and buckets must be
numeric (boolean is refused, string passes); ``output_type`` is i32 or i64 and has no usable
default (a missing one is refused).  SearchSorted: ``sorted_sequence`` of rank 1 or dynamic
gives values' shape; otherwise values must have its rank, the leading dims merging with its
(the output takes the merged ones) and the last coming from values; the two share one element
type; ``output_type`` (i64 when missing) is i32 or i64.
"""
from __future__ import annotations

from ..shapes.dims import DYNAMIC, format_shape, intersect
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.axes import require_1d
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_BUCKETIZE = (Field("output_type", "type", None), Field("with_right_bound", "bool", True))
_SEARCH_SORTED = (Field("right_mode", "bool", False), Field("output_type", "type", "i64"))
_INDEX_TYPES = ("i32", "i64")


def _bucketize(node: Node) -> Result:
    node.require_inputs((2,))
    output_type, _ = read(node, "Bucketize", _BUCKETIZE)
    node.show(("data", "buckets"))
    node.how = "bucket indices (the output keeps the data's shape)"
    if output_type not in _INDEX_TYPES:
        given = "missing" if output_type is None else output_type
        raise OpError(ATTRIBUTE, f"attribute output_type is {given}: Bucketize needs i32 or i64")
    for index, what in ((0, "data (input 0)"), (1, "buckets (input 1)")):
        if node.inputs[index].element_type == "boolean":
            node.note(TYPE, f"{what} must be numeric, not boolean")
    require_1d(node.inputs[1].shape, "buckets (input 1)")
    return Result((node.inputs[0].shape,), (output_type,))


def _search_sorted(node: Node) -> Result:
    node.require_inputs((2,))
    _, output_type = read(node, "SearchSorted", _SEARCH_SORTED)
    labels = ("sorted_sequence", "values")
    node.show(labels)
    node.how = "insertion indices of values in sorted_sequence"
    if output_type not in _INDEX_TYPES:
        raise OpError(ATTRIBUTE, f"attribute output_type is {output_type}: SearchSorted needs "
                                 f"i32 or i64")
    merge_types(node, labels, [v.element_type for v in node.inputs])
    ordered, values = node.inputs[0].shape, node.inputs[1].shape
    if ordered == ():
        raise OpError(INCOMPATIBLE, "sorted_sequence (input 0) is a scalar: it needs rank 1 or more")
    if ordered is None or len(ordered) == 1:
        return Result((values,), (output_type,))
    if values is None:
        return Result((ordered[:-1] + (DYNAMIC,),), (output_type,))
    if len(values) != len(ordered):
        raise OpError(INCOMPATIBLE, f"values {format_shape(values)} must have the rank of "
                                    f"sorted_sequence {format_shape(ordered)} (which is not 1-D)")
    out = []
    for i, (a, b) in enumerate(zip(ordered[:-1], values[:-1])):
        merged = intersect(a, b)
        if merged is None:
            raise OpError(INCOMPATIBLE, f"dim {i} differs: sorted_sequence {format_shape(ordered)}, "
                                        f"values {format_shape(values)} (all but the last must "
                                        f"be equal)", column=i)
        out.append(merged)
    return Result((tuple(out) + values[-1:],), (output_type,))


SPECS = {
    "bucketize": (OpSpec("Bucketize", (3, 16), fields=_BUCKETIZE,
                         infer=_bucketize),),
    "searchsorted": (OpSpec("SearchSorted", (15, 16), fields=_SEARCH_SORTED,
                            infer=_search_sorted),),
}
