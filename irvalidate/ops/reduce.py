"""The Reduce family: ReduceMean, ReduceMax, ReduceMin, ReduceSum, ReduceProd (opset 1),
ReduceL1, ReduceL2 (opset 4), ReduceLogicalAnd, ReduceLogicalOr (opset 1).

Shape (reduce_shape_inference, one rule for all nine): ``data`` reduced over the ``axes``
(input 1, a scalar or 1-D integer tensor); ``keep_dims`` (false when missing) keeps each
reduced dim as a 1, else it goes.  The axes are read const-only: a Const, or a computed value
whose bounds agree.  When they are unknown, or the data rank is, the runtime falls back:
keep_dims gives the data rank of ``?`` dims; without it, an axes tensor of exactly one
element gives one dim fewer, anything else a dynamic rank.  Axes are range-checked against the
data rank (a scalar counts as rank 1, but keep_dims on a scalar with an axis is refused) and
may repeat.  The arithmetic reductions refuse boolean data, the logical ones want it.

Value (bound evaluation of shape subgraphs, as measured on 2026.4.1): ReduceMax and ReduceMin
reduce the lower and the upper bounds (``max`` of ``[?,3]`` is ``3..``); ReduceProd
multiplies bounds (rank <= 1); ReduceSum, ReduceMean and ReduceL1 give a value only when every
reduced element is exact; ReduceL2 and the logical ones none.
"""
from __future__ import annotations

from collections.abc import Callable

from ..shapes import bounds
from ..shapes.dims import DYNAMIC, ONE, Shape
from ..shapes.values import Tensor, Unresolved
from .support.attributes import Field, read
from .support.axes import normalize, require_rank_at_most_one
from .support.evaluating import bool_attr, origin, short, tensors
from .support.input_types import require_type
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_FIELDS = (Field("keep_dims", "bool", False),)
_LABELS = ("data", "axes")


def _check_types(node: Node, logical: bool) -> None:
    et = node.inputs[0].element_type
    if logical and et not in (None, "dynamic", "boolean"):
        node.note(TYPE, f"data (input 0) of a logical reduction must be boolean, not {et}")
    if not logical and et == "boolean":
        node.note(TYPE, "data (input 0) must be numeric, not boolean")
    require_type(node, 1, "axes")


def _unknown_axes(data: Shape, axes: Shape, keep_dims: bool) -> Shape:
    """What the runtime infers without the axes' values (or without the data rank)."""
    if data is None:
        return None
    if keep_dims:
        return (DYNAMIC,) * len(data)
    one_element = axes is not None and all(d.is_static for d in axes) and all(
        d.lo == 1 for d in axes)
    # a single axis removes exactly one dim, whichever it is
    return (DYNAMIC,) * max(len(data) - 1, 0) if one_element else None


def _infer_with(name: str, logical: bool) -> Callable[[Node], Result]:
    def infer(node: Node) -> Result:
        node.require_inputs((2,))
        (keep_dims,) = read(node, name, _FIELDS)
        node.show(_LABELS)
        data, axes = node.inputs[0].shape, node.inputs[1].shape
        _check_types(node, logical)
        require_rank_at_most_one(node, 1, "axes")
        values = node.exact_values(1)
        kept = " (keep_dims)" if keep_dims else ""
        if data is None or values is None:
            node.how = f"reduction over axes the runtime cannot read{kept}"
            return Result((_unknown_axes(data, axes, keep_dims),), (node.inputs[0].element_type,))
        rank = len(data)
        where = {normalize(a, rank, "reduction axis") for a in values}
        node.how = f"reduction over axes {short(sorted(where))}{kept}"
        if keep_dims:
            if rank == 0 and where:
                raise OpError(INCOMPATIBLE, f"keep_dims on a scalar reduced over axes "
                                            f"{short(values)}: the runtime has no dim to keep "
                                            f"(\"Accessing out-of-range dimension\")")
            out = tuple(ONE if i in where else d for i, d in enumerate(data))
        else:
            out = tuple(d for i, d in enumerate(data) if i not in where)
        return Result((out,), (node.inputs[0].element_type,))
    return infer


def _evaluate_with(kind: str) -> Callable[[Node], Tensor]:
    def evaluate(node: Node) -> Tensor:
        t = tensors(node, (2,))
        axes = t[1].static_values()  # the runtime needs exact axes (has_and_set_bound)
        keep_dims = bool_attr(node.layer, "keep_dims", False)
        return bounds.reduce(kind, t[0], axes, keep_dims,
                             origin(node.layer, t[:1], f"axes {short(axes)}"))
    return evaluate


def _reduce_prod(node: Node) -> Tensor:
    """ReduceProd of a value of rank 0 or 1 over axis 0, bounds multiplied."""
    t = tensors(node, (2,))
    axes = t[1].static_values()
    if any(a not in (0, -1) for a in axes) or t[0].rank > 1:
        raise Unresolved("ReduceProd over other axes")
    if not axes and t[0].rank == 1:
        raise Unresolved("ReduceProd with no axes")
    return bounds.reduce_prod(t[0], bool_attr(node.layer, "keep_dims", False),
                              origin(node.layer, t[:1]))


#: type -> (its opsets, logical, the value evaluation the runtime does)
_TYPES = {
    "ReduceMean": ((1, 16), False, _evaluate_with("mean")),
    "ReduceMax": ((1, 16), False, _evaluate_with("max")),
    "ReduceMin": ((1, 16), False, _evaluate_with("min")),
    "ReduceSum": ((1, 16), False, _evaluate_with("sum")),
    "ReduceProd": ((1, 16), False, _reduce_prod),
    "ReduceL1": ((4, 16), False, _evaluate_with("l1")),
    "ReduceL2": ((4, 16), False, None),
    "ReduceLogicalAnd": ((1, 16), True, None),
    "ReduceLogicalOr": ((1, 16), True, None),
}

SPECS: dict[str, tuple[OpSpec, ...]] = {
    name.lower(): (OpSpec(name, versions, fields=_FIELDS, value_inputs=(1,),
                          symbolic=True, infer=_infer_with(name, logical), evaluate=evaluate, arity=(2,)),)
    for name, (versions, logical, evaluate) in _TYPES.items()
}
