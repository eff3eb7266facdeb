"""Pad-1 and Pad-12 (pad_shape_inference): the same inference in 2026.4 (Pad-1 accepts
negative pads too, which its specification forbids: noted as a divergence).

Each dim grows by ``pads_begin + pads_end``, read as bounds (a Const's values, or what a shape
subgraph evaluates to): the lower bounds add to the lower bound and the upper ones to the
upper (:func:`~irvalidate.shapes.windows.padded_bound`: a bound that goes negative is no
bound, so a static ``10 - 15`` is ``?``).  When either pads input is unknown, every dim is
``?`` (its length, when known, may not exceed the rank).  Modes check static dims only:
edge needs a dim of at least 1 and reflect of 2 where a pad is positive; reflect's pads
must be below the dim, symmetric's at most the dim.  Value: once the pads are exact, the
data's bounds moved as the kernel moves elements, constant mode filling with pad_value's
bounds (:func:`irvalidate.shapes.layout.pad_values`).
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import dims as shape_dims, layout, windows as win
from ..shapes.dims import DYNAMIC, INF, Dim, format_shape
from ..shapes.values import Tensor, Unresolved
from .support.attributes import Field, read
from .support.evaluating import origin, tensors
from .support.input_types import INTEGER_LIKE, require_type
from .support.node import Node
from .support.spec import DIVERGENCE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_FIELDS = (Field("pad_mode", "enum", "constant", ("constant", "edge", "reflect", "symmetric")),)
_LABELS = ("data", "pads_begin", "pads_end", "pad_value")


def _bounds(node: Node, index: int) -> list[Dim] | None:
    """The pads as (lower, upper) pairs; a Const's are exact (negative ones kept; an empty
    one without bytes is fine here, unlike in the ops that read a Const's buffer)."""
    return node.input_bounds(index)


def _types(node: Node, mode: str) -> None:
    data = node.inputs[0].element_type
    if mode == "constant" and len(node.inputs) == 4:
        value = node.inputs[3].element_type
        try:
            elements.merge(data, value)
        except ValueError:
            node.note(TYPE, f"pad_value (input 3) must have the data's element type {data}, "
                            f"not {value}")
    for index in (1, 2):
        require_type(node, index, _LABELS[index], INTEGER_LIKE)


def _infer(node: Node, v1: bool) -> Result:
    node.require_inputs((3, 4))
    node.show(_LABELS[:len(node.inputs)])
    node.how = "padding"
    (mode,) = read(node, "Pad", _FIELDS)
    _types(node, mode)
    shapes = [v.shape for v in node.inputs]
    if mode == "constant" and len(shapes) == 4 and shapes[3] is not None and shapes[3]:
        raise OpError(INCOMPATIBLE, f"pad_value (input 3) {format_shape(shapes[3])} must be a scalar")
    for index in (1, 2):
        node.one_d_length(index, f"{_LABELS[index]} (input {index})")
    begin, end = _bounds(node, 1), _bounds(node, 2)
    data, et = shapes[0], node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    if begin is None or end is None:
        _unknown_lengths(shapes, len(data))
        return Result(((DYNAMIC,) * len(data),), (et,))
    if v1 and any(p.lo < 0 for p in begin + end):
        node.note(DIVERGENCE, "Pad-1's specification requires pads of 0 or more; OpenVINO 2026.4 "
                              "takes negative ones as Pad-12 does (they crop the data)")
    for label, pads in (("pads_begin", begin), ("pads_end", end)):
        if len(pads) != len(data):
            raise OpError(INCOMPATIBLE, f"{label} has {len(pads)} values for data "
                                        f"{format_shape(data)} of rank {len(data)}")
    out = []
    for axis, (d, b, e) in enumerate(zip(data, begin, end)):
        if d.is_static:
            _check_mode(mode, axis, d.lo, b.lo, e.lo)
        if shape_dims.SYMBOLIC is not None:  # reshapeable: the mode's check at any size
            _mode_conditions(shape_dims.SYMBOLIC, mode, d, b, e)
        out.append(_padded(d, b, e))
    return Result((tuple(out),), (et,))


def _mode_conditions(recording, mode: str, d: Dim, begin: Dim, end: Dim) -> None:
    """What ``_check_mode`` asks of a static size, as conditions on a symbolic one."""
    widest = max(begin.lo, end.lo)  # (what the static check reads of the pads)
    if mode == "reflect":
        least = max(widest + 1, 2 if begin.lo > 0 or end.lo > 0 else 1)
        recording.at_least(d, least, "reflect padding needs more than each pad (and 2)")
    elif mode == "symmetric" and widest > 0:
        recording.at_least(d, widest, "symmetric padding needs each pad at most the dim")


def _unknown_lengths(shapes, rank: int) -> None:
    """With unknown pads the runtime only checks a pads input of static length against the
    rank (measured: ``[5..6]`` and a dynamic rank pass)."""
    for index in (1, 2):
        shape = shapes[index]
        if shape is not None and shape[0].is_static and shape[0].lo > rank:
            raise OpError(INCOMPATIBLE, f"{_LABELS[index]} (input {index}) has {shape[0].lo} "
                                        f"values for data of rank {rank}")


def _check_mode(mode: str, axis: int, size: int, begin: int, end: int) -> None:
    if mode in ("edge", "reflect") and (begin > 0 or end > 0):
        least = 1 if mode == "edge" else 2
        if size < least:
            raise OpError(INCOMPATIBLE, f"{mode} padding needs a dim of at least {least} at axis "
                                        f"{axis}, which has {size}")
    if mode == "reflect" and not (begin < size and end < size):
        raise OpError(INCOMPATIBLE, f"reflect padding at axis {axis} pads {begin} and {end}; "
                                    f"each must be below the dim ({size})")
    if mode == "symmetric" and not (begin <= size and end <= size):
        raise OpError(INCOMPATIBLE, f"symmetric padding at axis {axis} pads {begin} and {end}; "
                                    f"each must be at most the dim ({size})")


def _padded(d: Dim, begin: Dim, end: Dim) -> Dim:
    low, high = win.i64(begin.lo + end.lo), win.i64(begin.hi + end.hi)
    if low == 0 and high == 0:
        return d
    lo = win.padded_bound(d.lo, low)
    unbounded = any(p.lo == 0 and p.hi >= INF for p in (begin, end))
    hi = -1 if unbounded else win.padded_bound(win.length(d.hi), high)
    found = win.dimension(lo, hi)
    if shape_dims.SYMBOLIC is not None:  # reshapeable: size + pads, for pads of one value
        if low == high >= 0:  # (below 0 the runtime's size may become ?, no expression)
            return shape_dims.SYMBOLIC.padded(d, low, found)
        return shape_dims.SYMBOLIC.lost(d, found)
    return found


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (3, 4), reals=(0, 3))
    try:
        (mode,) = read(node, "Pad", _FIELDS)
    except OpError:
        raise Unresolved("a pad_mode the reader refuses") from None
    fill = None
    if mode == "constant" and len(t) == 4:
        if t[3].et != t[0].et or t[3].rank != 0:
            raise Unresolved("a pad_value of another type, or not a scalar")
        fill = t[3].bounds[0]
    return layout.pad_values(t[0], t[1].static_values(), t[2].static_values(), mode, fill,
                             origin(node.layer, t, mode))


SPECS = {"pad": (OpSpec("Pad", (1, 11), fields=_FIELDS, symbolic=True,
                        dim_inputs=(1, 2), infer=lambda node: _infer(node, True),
                        evaluate=_evaluate, arity=(3, 4)),
                 OpSpec("Pad", (12, 16), fields=_FIELDS, symbolic=True,
                        dim_inputs=(1, 2), infer=lambda node: _infer(node, False),
                        evaluate=_evaluate, arity=(3, 4)))}
