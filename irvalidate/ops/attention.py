"""ScaledDotProductAttention-13: ``softmax(Q·Kᵀ·scale + mask)·V``, output ``[N..., L, Ev]``.

Inputs: query ``[N..., L, E]``, key ``[N..., S, E]``, value ``[N..., S, Ev]``, then optionally
attention_mask, scale and sink; the runtime takes 3 or more inputs and ignores those past the
sixth (measured on 2026.4.1; the stored sources predate the sink).

Shape, in the runtime's order: Q of static rank needs rank >= 3.  K and V, when their rank is
static, need rank >= 3; their batch dims broadcast (numpy, an interval containing 1
broadcasting) into N, which may grow past Q's rank; E merges with K's last dim and S (K's
``-2``) with V's.  A mask of static rank other than 0, read only when ``causal`` is false (the
default), needs rank >= 2 and broadcasts into L, S and N (so it may narrow L).  Scale (only
with exactly 5 inputs) of static shape must hold one element.  A sink (only with exactly 6
inputs) must have Q's rank, a last dim that may be 1, and dims that broadcast with Q's; it
never changes the output.  Q of dynamic rank gives a dynamic rank; V's gives ``?`` for Ev.

Types: every input but the mask shares one floating-point type; a mask (when read) is boolean
or of that type.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import dims as shape_dims
from ..shapes.broadcasting import BroadcastError, numpy_merge
from ..shapes.dims import (
    DYNAMIC,
    ONE,
    Dim,
    Shape,
    broadcast_merge,
    compatible,
    format_shape,
    intersect,
)
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.node import Node
from .support.spec import ARITY, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_FIELDS = (Field("causal", "bool", False),)
_LABELS = ("query", "key", "value", "attention_mask", "scale", "sink")


def _refuse(what: str, why: str) -> OpError:
    return OpError(INCOMPATIBLE, f"{what} {why}")


def _batch(n: Shape, prefix: tuple[Dim, ...], what: str, shape: Shape) -> Shape:
    """N broadcast (numpy) with another input's batch dims; a dynamic-rank N stays one."""
    try:
        return numpy_merge(n, prefix).shape
    except BroadcastError as err:
        raise _refuse(f"{what} {format_shape(shape)}", f"does not broadcast with the batch dims "
                                                        f"{format_shape(n)}: {err.message}") from None


def _types(node: Node, causal: bool) -> str | None:
    labels = [f"{label} (input {i})" for i, label in enumerate(_LABELS)] + [
        f"input {i}" for i in range(len(_LABELS), len(node.inputs))]
    pairs = [(label, v.element_type) for i, (label, v) in enumerate(zip(labels, node.inputs))
             if i != 3]
    et = merge_types(node, [p[0] for p in pairs], [p[1] for p in pairs])
    if elements.is_known(et) and not _floating(et):
        node.note(TYPE, f"query, key and value must be floating point, not {et}")
    if len(node.inputs) > 3 and not causal:
        mask = node.inputs[3].element_type
        if elements.is_known(mask) and mask != "boolean":
            if not _floating(mask):
                node.note(TYPE, f"attention_mask (input 3) must be boolean or floating point, "
                                f"not {mask}")
            elif elements.is_known(et) and mask != et:
                node.note(TYPE, f"a floating-point attention_mask (input 3) must have the "
                                f"query's type {et}, not {mask}")
            else:
                et = et or mask
    return et


def _floating(et: str) -> bool:
    return et in ("f16", "f32", "f64", "bf16") or et.startswith("f8")


def _infer(node: Node) -> Result:
    count = len(node.inputs)
    if count < 3:
        raise OpError(ARITY, f"ScaledDotProductAttention takes 3 or more inputs (query, key, "
                             f"value, then optional ones), but {count} "
                             f"{'is' if count == 1 else 'are'} connected")
    (causal,) = read(node, "ScaledDotProductAttention", _FIELDS)
    node.show(_LABELS[:count])
    node.how = "attention (query's batch dims and rows, value's columns)"
    et = _types(node, causal)
    q, k, v = (x.shape for x in node.inputs[:3])
    n: Shape = None
    length, e, s, ev = DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC
    if q is not None:
        if len(q) < 3:
            raise _refuse(f"query {format_shape(q)}", "must have rank 3 or more")
        n, length, e = q[:-2], q[-2], q[-1]
    if k is not None:  # E merges with K's last dim, S is K's rows
        n, e = _key_or_value(k, "key", n, e, -1, "last dim", "the query's")
        s = k[-2]
    if v is not None:  # S merges with V's rows, Ev is V's last dim
        n, s = _key_or_value(v, "value", n, s, -2, "rows", "the key's")
        ev = v[-1]
    if count > 3 and not causal:
        n, length = _mask(node.inputs[3].shape, n, length, s)
    if count == 5:
        _scale(node.inputs[4].shape)
    if count == 6 and q is not None:
        _sink(node.inputs[5].shape, q)
    if shape_dims.SYMBOLIC is not None:  # reshapeable: the checks that no merge records
        _unsure(shape_dims.SYMBOLIC, node, count)
    out = None if n is None else n + (length, ev)
    return Result((out,), (et,))


def _unsure(recording, node: Node, count: int) -> None:
    """The scale's one element and the sink's last 1 are checked on the dims themselves,
    not through a merge: sizes of the inputs' axes that reach them are not followed."""
    for index in (4,) if count == 5 else (5,) if count == 6 else ():
        for d in node.inputs[index].shape or ():
            recording.unsure(d)


def _key_or_value(shape: tuple[Dim, ...], what: str, n: Shape, dim: Dim, at: int, name: str,
                  whose: str) -> tuple[Shape, Dim]:
    """Key or value: rank 3 or more, batch dims broadcast into N, one dim merged with ``dim``."""
    if len(shape) < 3:
        raise _refuse(f"{what} {format_shape(shape)}", "must have rank 3 or more")
    n = _batch(n, shape[:-2], what, shape)
    merged = intersect(dim, shape[at])
    if merged is None:
        raise _refuse(f"{what} {format_shape(shape)}", f"has {name} {shape[at]} where {whose} "
                                                       f"is {dim}")
    return n, merged


def _mask(mask: Shape, n: Shape, length: Dim, s: Dim) -> tuple[Shape, Dim]:
    if mask is None or not mask:
        return n, length
    what = f"attention_mask {format_shape(mask)}"
    if len(mask) < 2:
        raise _refuse(what, "must be a scalar or have rank 2 or more")
    rows, cols = broadcast_merge(length, mask[-2]), broadcast_merge(s, mask[-1])
    if rows is None:
        raise _refuse(what, f"has {mask[-2]} rows, which do not broadcast with the query's {length}")
    if cols is None:
        raise _refuse(what, f"has {mask[-1]} columns, which do not broadcast with the key's {s}")
    if len(mask) >= 3:
        n = _batch(n, mask[:-2], "attention_mask", mask)
    return n, rows


def _scale(scale: Shape) -> None:
    if scale is None or any(not d.is_static for d in scale):
        return
    if len(scale) > 1 or (scale and scale[0] != ONE):
        raise _refuse(f"scale {format_shape(scale)}", "must be a scalar or hold one element")


def _sink(sink: Shape, q: tuple[Dim, ...]) -> None:
    if sink is None:
        return
    what = f"sink {format_shape(sink)}"
    if len(sink) != len(q):
        raise _refuse(what, f"must have the query's rank {len(q)}")
    wrong: list[int] = [i for i in range(len(q) - 1) if broadcast_merge(q[i], sink[i]) is None]
    if not compatible(sink[-1], ONE) or wrong:
        raise _refuse(what, f"does not fit the query {format_shape(q)}: its last dim must be 1 "
                            f"and the others must broadcast with the query's")


SPECS = {"scaleddotproductattention": (
    OpSpec("ScaledDotProductAttention", (13, 16), fields=_FIELDS, symbolic=True, infer=_infer),)}
