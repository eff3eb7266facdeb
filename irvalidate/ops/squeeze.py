"""Squeeze-0, Squeeze-15 and Unsqueeze-0: dims of size 1 removed or inserted at ``axes``.

Squeeze (squeeze_shape_inference, 2026.4): the axes (input 1, optional) are const-only.  An
axis pointing at a dim that cannot be 1 is ignored; one pointing at a dim that may be 1
(``?``, ``1..8``) removes it (Squeeze-15 with ``allow_axis_skip`` gives a dynamic rank
instead).  Without axes (or with an empty list) every static 1 goes, and a dim that only may
be 1 makes the rank dynamic.  Unknown axes: a single axis on a rank-r input gives ``[?]*(r-1)``
(v0) or a dynamic rank (v15) when a dim may be 1, else the input unchanged; anything else is a
dynamic rank.

Unsqueeze: the axes are const-only and required; duplicates (also after normalising against
the output rank) merge silently; unknown axes or a dynamic-rank input give a dynamic rank.
Values are evaluated (the value keeps its elements, only its shape changes).
"""
from __future__ import annotations

from ..shapes import dims as shape_dims, values as vals
from ..shapes.dims import DYNAMIC, ONE, Dim, Shape, compatible
from ..shapes.values import Tensor
from .support.attributes import Field, read
from .support.axes import normalize, require_rank_at_most_one
from .support.evaluating import origin, tensors
from .support.node import Node, is_const
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_SKIP = (Field("allow_axis_skip", "bool", False),)


def _axes_type(node: Node) -> None:
    if len(node.inputs) > 1 and node.inputs[1].element_type == "boolean":
        node.note(TYPE, "axes (input 1) must be numbers, not boolean (OpenVINO: \"Element not "
                        "supported\")")


def _may_be_one(shape) -> bool:
    return any(not d.is_static and compatible(d, ONE) for d in shape)


def _squeeze(v15: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((1, 2))
        skip = read(node, "Squeeze", _SKIP)[0] if v15 else False
        node.show(["data", "axes"])
        node.how = "squeeze"
        _axes_type(node)
        data = node.inputs[0]
        et = data.element_type
        if len(node.inputs) == 2:
            require_rank_at_most_one(node, 1, "axes")
        shape = data.shape
        if shape is None:
            return Result((None,), (et,))
        axes = node.exact_values(1) if len(node.inputs) == 2 else []
        if axes is None and is_const(node.inputs[1]):
            # a Const irvalidate does not decode (float axes, which the runtime reads): its
            # values set the rank, so the rank is left open rather than guessed
            return Result((None,), (et,))
        if axes is None:
            if shape_dims.SYMBOLIC is not None:
                _deciding(shape_dims.SYMBOLIC, shape, set())
            return Result((_unknown_axes(node, shape, v15),), (et,))
        rank = len(shape)
        where = set()
        for a in axes:
            if rank == 0:
                if a not in (0, -1):
                    raise OpError(INCOMPATIBLE, f"axis {a} is out of the range [-1, 0] of a "
                                                f"scalar input")
                continue
            where.add(normalize(a, rank))
        if shape_dims.SYMBOLIC is not None:
            _deciding(shape_dims.SYMBOLIC, shape, where)
        if not where:
            if _may_be_one(shape):
                node.how = "squeeze of every 1 (a dim that may be 1 makes the rank dynamic)"
                return Result((None,), (et,))
            return Result((tuple(d for d in shape if d != ONE),), (et,))
        if skip and any(not shape[i].is_static and compatible(shape[i], ONE) for i in where):
            return Result((None,), (et,))
        return Result((tuple(d for i, d in enumerate(shape)
                             if not (i in where and compatible(d, ONE))),), (et,))
    return infer


def _deciding(recording, shape: tuple[Dim, ...], where: set[int]) -> None:
    """reshapeable: a dim Squeeze may remove (``where``; empty: any) that carries an input
    axis's symbol is removed at size 1 only, so the output's rank depends on that size: it
    is not followed.  The other axes are answered with that one as it is now, so the
    output, as inferred now, stands for them."""
    for i, d in enumerate(shape):
        if not where or i in where:
            recording.unsure(d)


def _unknown_axes(node: Node, shape, v15: bool) -> Shape:
    """The runtime's fallback for axes whose values it cannot read."""
    axes_shape = node.inputs[1].shape
    single = axes_shape is not None and (axes_shape == () or axes_shape == (ONE,))
    if shape and single:
        if not any(compatible(d, ONE) for d in shape):
            return shape
        return None if v15 else (DYNAMIC,) * (len(shape) - 1)
    return None


def _unsqueeze(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(["data", "axes"])
    node.how = "unsqueeze"
    _axes_type(node)
    data = node.inputs[0]
    et = data.element_type
    require_rank_at_most_one(node, 1, "axes")
    axes = node.exact_values(1)
    if axes is None or data.shape is None:
        return Result((None,), (et,))
    if not axes:
        raise OpError(INCOMPATIBLE, "axes (input 1) is empty: Unsqueeze needs at least one axis")
    unique = set(axes)
    rank = len(data.shape) + len(unique)
    where = sorted({normalize(a, rank) for a in unique})
    out: list = list(data.shape)
    for a in where:
        if a <= len(out):
            out.insert(a, ONE)
        else:
            out.append(ONE)
    return Result((tuple(out),), (et,))


def _squeeze_value(node: Node) -> Tensor:
    t = tensors(node, (1, 2))
    shape = vals.squeeze_shape(t[0].shape, t[1].static_values() if len(t) > 1 else None)
    return vals.reshaped(t[0], shape, origin(node.layer, t[:1]))


def _unsqueeze_value(node: Node) -> Tensor:
    t = tensors(node, (2,))
    shape = vals.unsqueeze_shape(t[0].shape, t[1].static_values())
    return vals.reshaped(t[0], shape, origin(node.layer, t[:1]))


SPECS = {"squeeze": (OpSpec("Squeeze", (1, 14), frozenset(),
                            value_inputs=(1,), symbolic=True, infer=_squeeze(False),
                            symbolic_values=True, evaluate=_squeeze_value),
                     OpSpec("Squeeze", (15, 16), fields=_SKIP, symbolic=True,
                            value_inputs=(1,), infer=_squeeze(True), symbolic_values=True, evaluate=_squeeze_value)),
         "unsqueeze": (OpSpec("Unsqueeze", (1, 16), frozenset(),
                              value_inputs=(1,), symbolic=True, infer=_unsqueeze,
                              symbolic_values=True, evaluate=_unsqueeze_value),)}
