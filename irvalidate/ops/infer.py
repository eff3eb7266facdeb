"""What each broadcasting layer must produce, from its inputs, attributes and constants.

This is the glue between a parsed :class:`~irvalidate.ir.records.Layer` and the pure rules of
:mod:`irvalidate.shapes.broadcasting`: it picks the rule the layer's type and attributes select, runs it
on the shapes that reach the layer, and records everything a rule may want to report.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple, Optional, Sequence, Tuple, Union

from . import attributes as attrs
from ..shapes import broadcasting as bc
from ..ir import elements
from . import kinds as ops
from ..ir.weights import ConstError
from ..shapes.dims import ONE, Dim, Shape, format_dim, format_shape
from ..ir.records import Layer
from .targets import MAX_RANK, ConstReader, computed_axes, computed_target, const_values, one_dim_length
from ..shapes.values import Origin, Tensor, describe


class Value(NamedTuple):
    """What reaches one input: its shape, element type and producing layer (if any)."""
    shape: Shape
    element_type: Optional[str]
    producer: Optional[Layer] = None
    #: the bounded integer value, when a shape subgraph computes it (see valueprop)
    tensor: Optional[Tensor] = None
    #: the Broadcast target OpenVINO falls back to for a Concat it cannot bound-evaluate
    fallback: Optional[Tuple[Dim, ...]] = None


class Operand(NamedTuple):
    label: str
    shape: Shape
    #: first table column of this operand; None means right-aligned
    offset: Optional[int] = None
    #: the layer that produces it, named in the shape table
    source: Optional[Layer] = None


@dataclass(slots=True)
class Inference:
    layer: Layer
    family: str
    operands: Tuple[Operand, ...] = ()
    #: inferred output shapes, None when inference could not run or failed
    outputs: Optional[Tuple[Shape, ...]] = None
    output_types: Tuple[Optional[str], ...] = ()
    failure: Optional[bc.BroadcastError] = None
    attr_error: Optional[str] = None
    arity_error: Optional[str] = None
    # tuples, not lists: most layers have none, and an empty list costs 56 bytes a layer
    type_errors: Tuple[str, ...] = ()
    divergences: Tuple[str, ...] = ()
    const_problems: Tuple[Tuple[Layer, ConstError], ...] = ()
    #: where a computed target_shape came from: its Origin, or words for a fallback
    target_source: Union[Origin, str, None] = None

    @property
    def target_chain(self) -> Optional[str]:
        """``ShapeOf(...) → Gather(...) → Concat``: written only when a finding asks (a chain
        can be long, and a file may hold thousands of Broadcasts)."""
        if isinstance(self.target_source, Origin):
            return describe(self.target_source)
        return self.target_source

    def add_type_error(self, message: str) -> None:
        self.type_errors += (message,)

    def add_divergence(self, message: str) -> None:
        self.divergences += (message,)

    def add_const_problem(self, const: Layer, error: ConstError) -> None:
        self.const_problems += ((const, error),)


_BINARY_LABELS = ("A", "B")
_SELECT_LABELS = ("cond", "then", "else")
_FQ_LABELS = ("data", "input_low", "input_high", "output_low", "output_high")


def infer(layer: Layer, family: str, inputs: Sequence[Value], read_const: ConstReader) -> Inference:
    result = Inference(layer, family)
    if family == "unary":
        if inputs:
            result.outputs = (inputs[0].shape,)
            result.output_types = (_unary_type(layer, inputs),)
        return result
    handler = {"binary": _binary, "select": _select, "fakequantize": _fake_quantize,
               "broadcast": _broadcast}[family]
    handler(result, inputs, read_const)
    return result


def _unary_type(layer: Layer, inputs: Sequence[Value]) -> Optional[str]:
    """The element type a shape-preserving layer produces."""
    kind = layer.type.lower()
    if kind == "convert":
        return elements.from_element_type(layer.data.get("destination_type"))
    if kind == "convertlike":
        return inputs[1].element_type if len(inputs) > 1 else None
    if kind in ops.BOOLEAN_RESULT:
        return "boolean"
    return inputs[0].element_type


def _arity(result: Inference, inputs: Sequence[Value], allowed: Tuple[int, ...], why: str = "") -> bool:
    if len(inputs) in allowed:
        return True
    want = " or ".join(str(n) for n in allowed)
    connected = f"{len(inputs)} {'is' if len(inputs) == 1 else 'are'} connected"
    result.arity_error = f"{result.layer.type} takes {want} inputs{why}, but {connected}"
    return False


def _operands(labels: Sequence[str], inputs: Sequence[Value]) -> Tuple[Operand, ...]:
    return tuple(Operand(label, value.shape, None, value.producer)
                 for label, value in zip(labels, inputs))


def _merge_types(result: Inference, names: Sequence[str], types: Sequence[Optional[str]]) -> Optional[str]:
    merged: Optional[str] = None
    for et in types:
        try:
            merged = elements.merge(merged, et)
        except ValueError:
            listed = ", ".join(f"{n}: {t}" for n, t in zip(names, types))
            result.add_type_error(f"inputs must have the same element type ({listed})")
            return None
    return merged


def _run(result: Inference, compute: Callable[[], bc.Outcome], out_type: Optional[str]) -> Optional[bc.Outcome]:
    try:
        outcome = compute()
    except bc.BroadcastError as err:
        result.failure = err
        return None
    result.outputs = (outcome.shape,)
    result.output_types = (out_type,)
    for column, x, y in outcome.lenient:
        result.add_divergence(
            f"axis {column}: the runtime accepts {format_dim(x)} against {format_dim(y)} because "
            f"an interval containing 1 never conflicts; by the broadcast rules only the value 1 "
            f"works there, every other value in the interval fails at inference")
    return outcome


def _pdpd_divergence(result: Inference, spec: attrs.AutoBroadcast, later: Sequence[Shape],
                     fold: Callable[[Callable[[Shape, Shape], bc.Outcome]], bc.Outcome]) -> None:
    """Compare the runtime's pdpd with the specification's where the two can disagree."""
    spec_axis = spec.axis if spec.axis_given else -1
    outcomes = []
    for axis, merge in ((spec.axis, bc.pdpd_merge), (spec_axis, bc.pdpd_spec_merge)):
        try:
            outcomes.append(fold(lambda a, b, axis=axis, merge=merge: merge(a, b, axis)))
        except bc.BroadcastError as err:
            outcomes.append(err)
    runtime, document = outcomes
    if isinstance(runtime, bc.BroadcastError) == isinstance(document, bc.BroadcastError):
        return
    reasons = []
    if not spec.axis_given:
        reasons.append("there is no auto_broadcast axis attribute, which the runtime reads as 0 "
                       "and the specification as -1")
    if any(s and s[-1] == ONE for s in later):
        reasons.append("the specification ignores trailing 1s of B, the runtime does not")

    def verdict(o: object) -> str:
        return f"rejects it ({o.message})" if isinstance(o, bc.BroadcastError) else \
            f"accepts it, giving {format_shape(o.shape)}"  # type: ignore[union-attr]
    result.add_divergence(f"pdpd: {'; '.join(reasons) or 'the readings differ'}. "
                              f"OpenVINO 2026.4 {verdict(runtime)}; the specification "
                              f"{verdict(document)}")


def _auto_broadcast(result: Inference) -> Optional[attrs.AutoBroadcast]:
    try:
        return attrs.auto_broadcast(result.layer.data)
    except attrs.AttrError as err:
        result.attr_error = str(err)
        return None


def _pdpd_offsets(a: Shape, b: Shape, axis: int) -> Tuple[Optional[int], Optional[int]]:
    if a is None or b is None:
        return (None, None)
    return (0, len(a) - len(b) if axis == -1 else axis)


def _binary(result: Inference, inputs: Sequence[Value], read_const: ConstReader) -> None:
    if not _arity(result, inputs, (2,)):
        return
    spec = _auto_broadcast(result)
    a, b = inputs[0].shape, inputs[1].shape
    result.operands = _operands(_BINARY_LABELS, inputs)
    if spec is None:
        return
    if spec.mode == "pdpd":
        offsets = _pdpd_offsets(a, b, spec.axis)
        result.operands = tuple(o._replace(offset=off) for o, off in zip(result.operands, offsets))
    kind = ops.binary_kind(result.layer.type)
    types = [v.element_type for v in inputs]
    et = _merge_types(result, _BINARY_LABELS, types)
    known = [t for t in types if elements.is_known(t)]
    if kind == "arithmetic" and any(t in ("boolean", "string") for t in known):
        result.add_type_error(f"arithmetic operations do not support {'/'.join(sorted(set(known)))} inputs")
    elif kind == "logical" and any(t != "boolean" for t in known):
        result.add_type_error(f"logical operations need boolean inputs, got {'/'.join(sorted(set(known)))}")
    elif kind == "bitwise" and any(t not in elements.INTEGRAL and t != "boolean" for t in known):
        result.add_type_error(f"bitwise operations need integer or boolean inputs, got {'/'.join(sorted(set(known)))}")
    elif kind == "shift" and any(t not in elements.INTEGRAL for t in known):
        result.add_type_error(f"shift operations need integer inputs, got {'/'.join(sorted(set(known)))}")
    out_type = "boolean" if kind in ("comparison", "logical") else et
    _run(result, lambda: bc.eltwise(a, b, spec.mode, spec.axis), out_type)
    if spec.mode == "pdpd":
        _pdpd_divergence(result, spec, [b], lambda merge: merge(a, b))


def _select(result: Inference, inputs: Sequence[Value], read_const: ConstReader) -> None:
    if not _arity(result, inputs, (3,)):
        return
    spec = _auto_broadcast(result)
    result.operands = _operands(_SELECT_LABELS, inputs)
    if spec is None:
        return
    cond, then, else_ = (v.shape for v in inputs)
    cond_type = inputs[0].element_type
    if elements.is_known(cond_type) and cond_type != "boolean":
        result.add_type_error(f"the condition (input 0) must be boolean, not {cond_type}")
    et = _merge_types(result, _SELECT_LABELS[1:], [v.element_type for v in inputs[1:]])
    _run(result, lambda: bc.select(cond, then, else_, spec.mode, spec.axis), et)
    if spec.mode == "pdpd":
        def fold(merge: Callable[[Shape, Shape], bc.Outcome]) -> bc.Outcome:
            return merge(merge(then, else_).shape, cond)
        _pdpd_divergence(result, spec, [else_, cond], fold)


def _fake_quantize(result: Inference, inputs: Sequence[Value], read_const: ConstReader) -> None:
    if not _arity(result, inputs, (5,)):
        return
    spec = _auto_broadcast(result)
    result.operands = _operands(_FQ_LABELS, inputs)
    if spec is None:
        return
    shapes = [v.shape for v in inputs]
    _run(result, lambda: bc.fake_quantize(shapes, spec.mode, spec.axis), inputs[0].element_type)
    if spec.mode == "pdpd":
        def fold(merge: Callable[[Shape, Shape], bc.Outcome]) -> bc.Outcome:
            acc = bc.Outcome(shapes[0])
            for other in shapes[1:]:
                acc = merge(acc.shape, other)
            return acc
        _pdpd_divergence(result, spec, shapes[1:], fold)


def _broadcast(result: Inference, inputs: Sequence[Value], read_const: ConstReader) -> None:
    layer = result.layer
    v3 = ops.broadcast_is_v3(layer.version)
    if not _arity(result, inputs, (2, 3)):
        return
    try:
        spec = attrs.broadcast_mode(layer.data, v3, len(inputs))
    except attrs.AttrError as err:
        result.attr_error = str(err)
        return
    if v3 and spec.mode == "none" and not _arity(result, inputs, (3,), " in explicit mode"):
        return
    if v3 and spec.mode != "none" and not _arity(result, inputs, (2,), f" in {spec.mode} mode"):
        return
    if not v3 and spec.mode == "pdpd" and not _arity(result, inputs, (3,), " in pdpd mode (Broadcast-1)"):
        return
    data = inputs[0]
    for index, what in ((1, "target_shape"), (2, "axes_mapping")):
        if index < len(inputs) and (index == 1 or spec.mode == "none"):
            et = inputs[index].element_type
            if elements.is_known(et) and et not in elements.INTEGRAL:
                result.add_type_error(f"{what} (input {index}) must be an integer tensor, not {et}")
    ok, target_len = one_dim_length(result, inputs[1], "target_shape (input 1)")
    if not ok:
        return
    values = const_values(result, inputs[1], read_const)
    if values is not None and len(values) > MAX_RANK:
        result.failure = bc.BroadcastError(f"target_shape holds {len(values)} values: an output of "
                                           f"that rank is not a plausible tensor")
        return
    target = bc.target_from_values(values) if values is not None else computed_target(result, inputs[1])
    if result.failure is not None:
        return
    result.operands = (Operand("data", data.shape, None, data.producer),
                       Operand("target", target, None, inputs[1].producer))
    if spec.mode == "pdpd":
        start = (len(target) - len(data.shape) if spec.axis == -1 else spec.axis) \
            if target is not None and data.shape is not None else None
        result.operands = (result.operands[0]._replace(offset=start),
                           result.operands[1]._replace(offset=0))
    if spec.mode == "numpy":
        compute = lambda: bc.broadcast_numpy(data.shape, target, target_len)  # noqa: E731
    elif spec.mode == "bidirectional":
        compute = lambda: bc.broadcast_bidirectional(data.shape, target, target_len)  # noqa: E731
    elif spec.mode == "pdpd":
        compute = lambda: bc.broadcast_pdpd(data.shape, target, target_len, spec.axis)  # noqa: E731
    else:
        ok, axes_len = one_dim_length(result, inputs[2], "axes_mapping (input 2)")
        if not ok:
            return
        axes = const_values(result, inputs[2], read_const)
        if axes is None:
            axes = computed_axes(inputs[2])
        compute = lambda: bc.broadcast_explicit(data.shape, target, target_len, axes, axes_len)  # noqa: E731
    _run(result, compute, data.element_type)
    if spec.mode == "pdpd" and not spec.axis_given and target is not None:
        try:
            document = bc.broadcast_pdpd(data.shape, target, target_len, -1)
        except bc.BroadcastError:
            document = None
        runtime = result.outputs[0] if result.outputs else None
        if (document is None) != (result.failure is not None) or (
                document is not None and runtime is not None and document.shape != runtime):
            result.add_divergence(
                "pdpd: there is no mode.axis attribute, which the runtime reads as 0 and the "
                "specification as -1 (right-aligned); the two readings give different results")
