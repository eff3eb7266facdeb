"""Which layers compute integer shape values, and how their attributes map onto :mod:`values`.

The analysis calls :func:`evaluate` for every layer in topological order, so a value shared
by many consumers is computed once (memoized on the producing port).  A layer whose value
cannot be bounded gets none, exactly where OpenVINO's bound evaluation would fail or where
we do not follow it; its consumers then fall back as the runtime does.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from . import attributes as attrs
from ..shapes import bounds
from ..ir import elements
from . import kinds as ops
from ..shapes import values as vals
from ..shapes.dims import Dim, format_shape
from ..ir.records import Layer
from ..shapes.values import Origin, Tensor, Unresolved

#: the value of the Value reaching an input (None: not bounded)
TensorOf = Callable[[object], Optional[Tensor]]

ARITHMETIC = frozenset({"add", "subtract", "multiply", "divide", "maximum", "minimum"})
VALUE_OPS = ARITHMETIC | frozenset({"shapeof", "gather", "concat", "convert", "unsqueeze",
                                    "squeeze", "reshape", "slice", "stridedslice", "range",
                                    "reduceprod"})


def _int_attr(layer: Layer, name: str, default: int) -> int:
    text = layer.data.get(name)
    if text is None:
        return default
    try:
        return attrs.parse_int(text)
    except ValueError as err:
        raise Unresolved(str(err)) from None


def _bool_attr(layer: Layer, name: str, default: bool) -> bool:
    text = layer.data.get(name)
    return default if text is None else text.strip().lower() in ("true", "1")


def _mask(layer: Layer, name: str) -> List[int]:
    text = layer.data.get(name, "").strip()
    try:
        return [attrs.parse_int(t) for t in text.split(",")] if text else []
    except ValueError as err:
        raise Unresolved(str(err)) from None


def _short(numbers: Sequence[int]) -> str:
    shown = ",".join(str(n) for n in numbers[:8])
    return f"[{shown}{',...' if len(numbers) > 8 else ''}]"


def _label(layer: Layer, detail: str = "") -> str:
    return f"{layer.type}({detail})" if detail else layer.type


def _scalar(t: Tensor, what: str) -> int:
    found = t.static_values()
    if len(found) != 1:
        raise Unresolved(f"{what} is not a single value")
    return found[0]


def evaluate(layer: Layer, inputs: Sequence[object], tensor_of: TensorOf) -> Optional[Tensor]:
    """The bounded value of ``layer``'s output 0, or None."""
    kind = layer.type.lower()
    if kind not in VALUE_OPS:
        return None
    try:
        if kind == "shapeof":
            return _shape_of(layer, inputs)
        # a computed input without a value settles it before any Const is decoded
        if not inputs or any(v.tensor is None and not _is_const(v) for v in inputs):  # type: ignore[attr-defined]
            return None
        if kind in _ARITY and len(inputs) not in _ARITY[kind]:
            return None  # the arity rule reports it
        tensors = [tensor_of(v) for v in inputs]
        if any(t is None for t in tensors):
            return None
        return _HANDLERS[kind](layer, tensors)  # type: ignore[arg-type]
    except Unresolved:
        return None


def _exact_rank(layer: Layer) -> bool:
    kind = layer.type.lower()
    return kind == "parameter" or kind in ops.CONST_TYPES or ops.family(layer.type) is not None


def _is_const(value: object) -> bool:
    producer = value.producer  # type: ignore[attr-defined]
    return producer is not None and producer.type.lower() in ops.CONST_TYPES


def _shape_of(layer: Layer, inputs: Sequence[object]) -> Tensor:
    if len(inputs) != 1:
        raise Unresolved("ShapeOf takes one input")
    value = inputs[0]
    et = "i64"
    if layer.version.lower() != "opset1":  # ShapeOf-3 chooses; ShapeOf-1 is always i64
        et = elements.from_element_type(layer.data.get("output_type", "i64")) or "?"
    producer: Optional[Layer] = value.producer  # type: ignore[attr-defined]
    if value.shape == () and producer is not None and not _exact_rank(producer):  # type: ignore[attr-defined]
        # a port without <dim> is a scalar or a dynamic rank: only a layer whose rank we
        # know (modelled, or a Parameter/Const shape attribute) tells which
        raise Unresolved("ShapeOf of a port that may be dynamic rank")
    source = f"layer {producer.id} '{producer.name}' " if producer is not None else ""
    origin = Origin(f"ShapeOf({source}{format_shape(value.shape)})")  # type: ignore[attr-defined]
    return vals.shape_of(value.shape, et, origin)  # type: ignore[attr-defined]


def _origin(layer: Layer, tensors: Sequence[Tensor], detail: str = "") -> Origin:
    """The layer's label, naming its constant inputs inline and linking to the others."""
    shown = ([detail] if detail else []) + [t.origin.label for t in tensors if t.origin.hidden]
    return Origin(_label(layer, ", ".join(shown)), tuple(t.origin for t in tensors if not t.origin.hidden))


def _arithmetic(layer: Layer, t: List[Tensor]) -> Tensor:
    if len(t) != 2:
        raise Unresolved("arithmetic takes two inputs")
    return bounds.arithmetic(layer.type.lower(), t[0], t[1], _origin(layer, t),
                           python_div=_bool_attr(layer, "m_pythondiv", True))


def _gather(layer: Layer, t: List[Tensor]) -> Tensor:
    if len(t) != 3 or _int_attr(layer, "batch_dims", 0) != 0:
        raise Unresolved("Gather with batch_dims")
    axis = _scalar(t[2], "the Gather axis")
    indices = t[1].static_values()
    return vals.gather(t[0], t[1], axis, _origin(layer, t[:1], f"axis {axis}, indices {_short(indices)}"))


def _concat(layer: Layer, t: List[Tensor]) -> Tensor:
    return vals.concat(t, _int_attr(layer, "axis", 0), _origin(layer, t))


def _convert(layer: Layer, t: List[Tensor]) -> Tensor:
    et = elements.from_element_type(layer.data.get("destination_type")) or "?"
    return vals.convert(t[0], et, _origin(layer, t, et))


def _unsqueeze(layer: Layer, t: List[Tensor]) -> Tensor:
    shape = vals.unsqueeze_shape(t[0].shape, t[1].static_values() if len(t) > 1 else [])
    return vals.reshaped(t[0], shape, _origin(layer, t[:1]))


def _squeeze(layer: Layer, t: List[Tensor]) -> Tensor:
    shape = vals.squeeze_shape(t[0].shape, t[1].static_values() if len(t) > 1 else None)
    return vals.reshaped(t[0], shape, _origin(layer, t[:1]))


def _reshape(layer: Layer, t: List[Tensor]) -> Tensor:
    if len(t) != 2:
        raise Unresolved("Reshape takes two inputs")
    shape = vals.reshape_target(t[0], t[1].static_values(), _bool_attr(layer, "special_zero", False))
    return vals.reshaped(t[0], shape, _origin(layer, t[:1]))


def _slice(layer: Layer, t: List[Tensor]) -> Tensor:
    if len(t) not in (4, 5):
        raise Unresolved("Slice takes 4 or 5 inputs")
    start, stop, step = (_scalar(x, "a Slice bound") for x in t[1:4])
    if len(t) == 5 and _scalar(t[4], "the Slice axes") not in (0, -1):
        raise Unresolved("Slice along another axis")
    return vals.slice_1d(t[0], start, stop, step, _origin(layer, t[:1], f"{start}:{stop}:{step}"))


def _strided_slice(layer: Layer, t: List[Tensor]) -> Tensor:
    """StridedSlice of a 1-D value: one position slices (or shrinks) it, new axes add 1s."""
    if len(t) not in (3, 4) or t[0].rank != 1:
        raise Unresolved("StridedSlice of a value that is not 1-D")
    begin, end = t[1].static_values(), t[2].static_values()
    strides = t[3].static_values() if len(t) == 4 else [1] * len(begin)
    if not len(begin) == len(end) == len(strides):
        raise Unresolved("StridedSlice bounds of different lengths")
    masks = {m: _mask(layer, m) for m in ("begin_mask", "end_mask", "new_axis_mask",
                                          "shrink_axis_mask", "ellipsis_mask")}

    def bit(mask: str, i: int) -> bool:
        return i < len(masks[mask]) and masks[mask][i] == 1

    n, part, shape, detail = t[0].shape[0], None, [], ""
    for i, step in enumerate(strides):
        if bit("ellipsis_mask", i):
            raise Unresolved("StridedSlice with an ellipsis")
        if bit("new_axis_mask", i):
            shape.append(1)
            continue
        if part is not None or step == 0:
            raise Unresolved("StridedSlice over more axes than the value has")
        shrink = bit("shrink_axis_mask", i)
        # a set begin/end mask bit means "ignore this bound" (but a shrunk axis keeps begin)
        start = None if bit("begin_mask", i) and not shrink else begin[i]
        stop = None if bit("end_mask", i) else end[i]
        lo = (0 if step > 0 else n - 1) if start is None else start
        hi = (n if step > 0 else -n - 1) if stop is None else stop
        detail = f"{'' if start is None else start}:{'' if stop is None else stop}:{step}"
        part = vals.slice_1d(t[0], lo, hi, step, t[0].origin, shrink=shrink)
        if part.shape:
            shape.append(part.shape[0])
    if part is None:
        part = t[0]
        shape.append(n)
    return vals.reshaped(part, shape, _origin(layer, t[:1], detail))


def _range(layer: Layer, t: List[Tensor]) -> Tensor:
    start, stop, step = (_scalar(x, "a Range input") for x in t[:3])
    et = elements.from_element_type(layer.data.get("output_type")) or t[0].et
    return vals.arange(start, stop, step, et, Origin(_label(layer, f"{start}, {stop}, {step}")))


def _reduce_prod(layer: Layer, t: List[Tensor]) -> Tensor:
    if len(t) != 2 or any(a not in (0, -1) for a in t[1].static_values()) or t[0].rank > 1:
        raise Unresolved("ReduceProd over other axes")
    if not t[1].static_values() and t[0].rank == 1:
        raise Unresolved("ReduceProd with no axes")
    return bounds.reduce_prod(t[0], _bool_attr(layer, "keep_dims", False), _origin(layer, t[:1]))


#: the input counts each operation takes (Concat: any)
_ARITY = {**{k: (2,) for k in ARITHMETIC}, "gather": (3,), "convert": (1,), "unsqueeze": (2,),
          "squeeze": (1, 2), "reshape": (2,), "slice": (4, 5), "stridedslice": (3, 4),
          "range": (3,), "reduceprod": (2,)}

_HANDLERS = {**{k: _arithmetic for k in ARITHMETIC}, "gather": _gather, "concat": _concat,
             "convert": _convert, "unsqueeze": _unsqueeze, "squeeze": _squeeze,
             "reshape": _reshape, "slice": _slice, "stridedslice": _strided_slice,
             "range": _range, "reduceprod": _reduce_prod}


def const_tensor(layer: Layer, numbers: List[int], shape: Tuple[Dim, ...], et: Optional[str]) -> Optional[Tensor]:
    """A Const layer's value (its shape must be static and its type one we follow)."""
    if et not in vals.RANGES or any(not d.is_static for d in shape):
        return None
    try:
        return vals.constant(numbers, [d.lo for d in shape], et,
                             Origin(f"Const '{layer.name}' {_short(numbers)}", hidden=True))
    except Unresolved:
        return None


def concat_fallback(inputs: Sequence[object], out_len: Optional[int],
                    first_value: Callable[[object], Optional[int]]) -> Optional[Tuple[Dim, ...]]:
    """OpenVINO's Broadcast fallback for a Concat target it cannot bound-evaluate.

    When the Concat output is 1-D of static length equal to its number of inputs, every
    Constant input gives its first value (a negative one reads as 0) and every other input
    gives ``?``.  The runtime may bound-evaluate layers we do not (anything with a kernel
    on constant inputs), so constant values are used only where every input is known to
    hold one element, which keeps them at their positions; otherwise every dim is ``?``.
    """
    if out_len is None or out_len != len(inputs):
        return None
    single = all(v.shape is not None and len(v.shape) == 1 and v.shape[0] == Dim(1, 1)  # type: ignore[attr-defined]
                 for v in inputs)
    dims = []
    for value in inputs:
        first = first_value(value) if single else None
        dims.append(vals.DYNAMIC if first is None else Dim(max(first, 0), max(first, 0)))
    return tuple(dims)
