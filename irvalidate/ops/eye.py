"""Eye-9: an identity-like matrix ``batch_shape + [num_rows, num_columns]`` of ``output_type``.

``num_rows`` and ``num_columns`` (inputs 0 and 1) are read as shape values: a Const's number
(a negative one is refused), or the bounds their subgraph evaluates to (a lower bound below 0
is refused), else ``?``.  ``diagonal_index`` (input 2) only has its shape checked.  The three
are scalars or hold one element, of type i32 or i64.  The optional ``batch_shape`` (input 3,
1-D, i32 or i64) is read as a Broadcast target is: a Const's values (-1 is ``?``, other
negatives 0), computed bounds, else as many ``?`` as its static length, else a dynamic rank
(and then the sizes are not read, nor refused).
``output_type`` may be any type; a missing one is ``dynamic``.
"""
from __future__ import annotations

from ..shapes.broadcasting import target_from_values
from ..shapes.dims import DYNAMIC, Dim, format_dim, format_shape
from ..shapes.values import NegativeTarget, Unresolved, as_target, describe
from .support.attributes import Field, read
from .support.axes import require_rank_at_most_one
from .support.input_types import INDEX_TYPES, require_type
from .support.node import Node
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("output_type", "type", "dynamic"),)
_LABELS = ("num_rows", "num_columns", "diagonal_index", "batch_shape")


def _one_value(node: Node, index: int) -> None:
    shape = node.inputs[index].shape
    what = f"{_LABELS[index]} (input {index})"
    if require_rank_at_most_one(node, index, _LABELS[index]) is None:
        return
    if shape and shape[0].is_static and shape[0].lo != 1:
        raise OpError(INCOMPATIBLE, f"{what} must hold one element, but has shape {format_shape(shape)}")


def _size(node: Node, index: int) -> Dim:
    """num_rows or num_columns as the runtime reads it into a dim."""
    what = f"{_LABELS[index]} (input {index})"
    values = node.const_ints(index)
    if values is not None:
        if not values:
            return DYNAMIC
        if values[0] < 0:
            raise OpError(INCOMPATIBLE, f"{what} is {values[0]}: a size cannot be negative")
        return Dim(values[0], values[0])
    tensor = node.computed(index)
    if tensor is None or not tensor.bounds:
        node.unknown_value(index)
        return DYNAMIC
    try:
        dim = as_target(tensor)[0]
    except NegativeTarget as neg:
        raise OpError(INCOMPATIBLE, f"{what} evaluates to {format_dim(neg.dim)}, computed as "
                                    f"{describe(tensor.origin)}; OpenVINO refuses a value that "
                                    f"can be negative") from None
    except Unresolved:
        return DYNAMIC
    node.source, node.source_input = tensor.origin, _LABELS[index]
    return dim


def _batch(node: Node) -> tuple[Dim, ...] | None:
    length = node.one_d_length(3, "batch_shape (input 3)")
    values = node.const_ints(3)
    if values is not None:
        return target_from_values(values)
    computed = node.computed_as_shape(3, "batch_shape")
    if computed is not None:
        return computed
    return None if length is None else (DYNAMIC,) * length


def _infer(node: Node) -> Result:
    node.require_inputs((3, 4))
    (output_type,) = read(node, "Eye", _FIELDS)
    node.show(_LABELS[:len(node.inputs)])
    node.how = "batch_shape + [num_rows, num_columns]"
    for index in range(len(node.inputs)):
        require_type(node, index, _LABELS[index], INDEX_TYPES)
    for index in (0, 1, 2):
        _one_value(node, index)
    batch: tuple[Dim, ...] | None = ()
    if len(node.inputs) == 4:
        batch = _batch(node)
    if batch is None:  # a dynamic rank: the runtime never reads the sizes then
        return Result((None,), (output_type,))
    return Result((batch + (_size(node, 0), _size(node, 1)),), (output_type,))


SPECS = {"eye": (OpSpec("Eye", (9, 16), fields=_FIELDS, dim_inputs=(0, 1, 3), infer=_infer),)}
