"""SegmentMax-16 and SparseFillEmptyRows-16: outputs sized by the *values* of index inputs.

* SegmentMax: the data's shape with dim 0 replaced by ``num_segments`` (a scalar, const-only:
  -1 is ``?``, other negative values 0; unknown, ``?``), or without that input by
  ``max(segment_ids) + 1`` (the ids const-only, sorted, one per data row; the same reading
  of negative sums), else ``?``.
  A dynamic data rank stays dynamic.  Empty ids without num_segments are refused: the
  runtime reads the maximum of nothing (a segfault, measured).
* SparseFillEmptyRows: ``values [N]``, ``dense_shape [2]`` (rows, cols), ``indices [N, 2]``,
  a scalar ``default_value``.  The dense shape (a Const or an exactly known subgraph; a -1
  or an interval makes it unknown, measured) gives the empty-row indicator ``[rows]``; with
  constant indices too (each row and column range-checked), the ``E`` empty rows give
  ``[N + E, 2]`` and ``[N + E]``; otherwise ``?``.  Types: indices', values', boolean.
"""
from __future__ import annotations

from typing import NoReturn

from ..ir import elements
from ..shapes import arith
from ..shapes.dims import DYNAMIC, Dim, compatible, format_shape, static
from .support.attributes import Field, read
from .support.input_types import INDEX_TYPES, require_type
from .support.node import Node
from .support.shaping import ints_text
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_SEGMENT_MAX = (Field("fill_mode", "enum", "zero", ("zero", "lowest")),)
_INDEX_TYPES = ("i32", "i64")


def _refuse(message: str) -> NoReturn:
    raise OpError(INCOMPATIBLE, message)


def _segment_max(node: Node) -> Result:
    node.require_inputs((2, 3))
    node.show(("data", "segment_ids", "num_segments")[:len(node.inputs)])
    (mode,) = read(node, "SegmentMax", _SEGMENT_MAX)
    node.how = f"the data's shape, dim 0 the segment count (empty segments {mode})"
    require_type(node, 1, "segment_ids", INDEX_TYPES)
    if len(node.inputs) == 3:
        require_type(node, 2, "num_segments", INDEX_TYPES)
    data, ids_shape = node.inputs[0].shape, node.inputs[1].shape
    if data is not None and not data:
        _refuse("data must not be a scalar")
    if ids_shape is not None and len(ids_shape) != 1:
        _refuse(f"segment_ids must be 1-D, but has shape {format_shape(ids_shape)}")
    ids = node.exact_values(1)
    if data is not None and ids_shape is not None and not compatible(data[0], ids_shape[0]):
        _refuse(f"segment_ids holds {ids_shape[0]} ids for the {data[0]} rows of data "
                f"{format_shape(data)}")
    if ids is not None and any(a > b for a, b in zip(ids, ids[1:])):
        _refuse(f"segment_ids {ints_text(ids)} must be sorted")
    count: Dim | None = None
    if len(node.inputs) == 3:
        shape = node.inputs[2].shape
        if shape is not None and len(shape) != 0:
            _refuse(f"num_segments must be a scalar, but has shape {format_shape(shape)}")
        given = node.exact_values(2)
        # an unknown num_segments gives ?, whatever the ids (measured)
        count = arith.from_int(given[0]) if given else DYNAMIC
    elif ids is not None and ids_shape is not None:
        if not ids:
            _refuse("segment_ids is empty and there is no num_segments: the runtime reads the "
                    "maximum of no ids (undefined behaviour; it crashes)")
        count = arith.from_int(max(ids) + 1)
    et = node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    return Result(((count or DYNAMIC,) + data[1:],), (et,))


def _dense_shape(node: Node) -> list[int] | None:
    """(rows, cols) when every value is known and none is -1; negative values count as 0."""
    values = node.const_ints(1)
    if values is None:
        computed = node.computed_as_shape(1, "dense_shape")
        if computed is None or not all(d.is_static for d in computed):
            return None
        values = [d.lo for d in computed]
    if len(values) < 2 or -1 in values:
        return None
    return [max(v, 0) for v in values]


def _sparse_fill(node: Node) -> Result:
    node.require_inputs((4,))
    node.show(("values", "dense_shape", "indices", "default_value"))
    node.how = "the values of dense_shape and indices (rows without an index get one)"
    dense_et, index_et = node.inputs[1].element_type, node.inputs[2].element_type
    try:
        merged = elements.merge(index_et, dense_et)
    except ValueError:
        node.note(TYPE, f"dense_shape is {dense_et} and indices {index_et}: they must be one type")
    else:
        if dense_et is not None and index_et is not None and merged not in _INDEX_TYPES:
            node.note(TYPE, f"dense_shape and indices must be i32 or i64, not {merged}")
    values, dense, indices, default = (v.shape for v in node.inputs)
    if values is not None and len(values) != 1:
        _refuse(f"values {format_shape(values)} must be 1-D")
    if dense is not None and not (len(dense) == 1 and compatible(dense[0], static(2))):
        _refuse(f"dense_shape {format_shape(dense)} must hold 2 values (rows, cols)")
    if indices is not None and not (len(indices) == 2 and compatible(indices[1], static(2)) and (
            dense is None or values is None or compatible(indices[0], values[0]))):
        _refuse(f"indices {format_shape(indices)} must be [N, 2], N the length of values "
                f"{format_shape(values)}")
    if default is not None and len(default) != 0:
        _refuse(f"default_value {format_shape(default)} must be a scalar")
    types = (index_et, node.inputs[0].element_type, "boolean")
    rows_cols = _dense_shape(node)
    if rows_cols is None:
        return Result(((DYNAMIC, static(2)), (DYNAMIC,), (DYNAMIC,)), types)
    rows, cols = rows_cols[:2]
    pairs = node.exact_values(2)
    if pairs is None:
        return Result(((DYNAMIC, static(2)), (DYNAMIC,), (static(rows),)), types)
    for row, col in zip(pairs[0::2], pairs[1::2]):
        if not 0 <= row < rows:
            _refuse(f"indices hold row {row}, outside the {rows} rows of dense_shape")
        if not 0 <= col < cols:
            _refuse(f"indices hold column {col}, outside the {cols} columns of dense_shape")
    if values is None:
        _refuse("values has a dynamic rank: with known dense_shape and indices the runtime "
                "reads its first dim, which it does not have (\"Accessing out-of-range dimension\")")
    empty = static(rows - len(set(pairs[0::2])))
    return Result(((arith.add(indices[0], empty), static(2)),  # type: ignore[index]  # indices ranked (above)
                   (arith.add(values[0], empty),), (static(rows),)), types)


SPECS = {
    "segmentmax": (OpSpec("SegmentMax", (16, 16), fields=_SEGMENT_MAX,
                          dim_inputs=(1, 2), infer=_segment_max),),
    "sparsefillemptyrows": (OpSpec("SparseFillEmptyRows", (16, 16), frozenset(),
                                   dim_inputs=(1, 2), infer=_sparse_fill,
                                   own_types=(2,)),),
}
