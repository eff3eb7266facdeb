"""Broadcast-1 and Broadcast-3: ``data`` broadcast to ``target_shape`` (and ``axes_mapping``).

Modes: numpy (the default of Broadcast-3, and of Broadcast-1 with two inputs), explicit
(``none``: axes_mapping places data's dims; Broadcast-1's default with three inputs),
bidirectional (Broadcast-3), pdpd (its axis in ``mode.auto_broadcast_axis`` for -1 and
``mode.mode.axis`` for -3, 0 when missing).  The target is read as OpenVINO reads it
(broadcast_shape_inference): a Const's values (-1 is ``?``), else the bounds its shape
subgraph evaluates to, else, for a Concat, each Constant input's first value and ``?`` for
the others, else only its length.  Value: once the target (and the axes) are exact, the
data's bounds repeated to the target in the numpy, bidirectional and explicit modes (the
runtime's default evaluators on each bound).
"""
from __future__ import annotations

from typing import Any

from ..shapes import broadcasting as bc, layout
from ..shapes.dims import DYNAMIC, Dim
from ..shapes.values import Tensor, Unresolved
from .support.attributes import (
    Attributes,
    enum_value,
    field,
    lazy_model,
    parse_int_prefix,
    typed_dict,
    validate,
)
from .support.autobroadcast import run
from .support.evaluating import origin, tensors
from .support.input_types import require_type
from .support.memo import keep
from .support.node import MAX_RANK, Node
from .support.spec import (
    ATTRIBUTE,
    DIVERGENCE,
    INCOMPATIBLE,
    OpError,
    OpSpec,
    Result,
)

BROADCAST1_MODES = ("none", "explicit", "numpy", "pdpd")
BROADCAST3_MODES = ("none", "explicit", "numpy", "pdpd", "bidirectional")
_AXIS = {False: "mode.auto_broadcast_axis", True: "mode.mode.axis"}


def _build():
    """Broadcast-1 (``mode`` + ``mode.auto_broadcast_axis``) and -3 (``mode`` + ``mode.mode.axis``)."""
    from pydantic_core import core_schema as cs
    return typed_dict({
        "mode": field(cs.literal_schema(["none", "numpy", "pdpd", "bidirectional"])),
        "axis": field(cs.int_schema(), 0,
                      lambda value: parse_int_prefix(value) if isinstance(value, str) else value),
        "axis_given": field(cs.bool_schema(), False)})


BroadcastMode = lazy_model(_build)


#: (v3, three inputs, mode, axis) as written -> what they mean, validated once per file's
#: few combinations (an OpError is not cached: it is raised again for each layer; bounded:
#: memo.keep)
_MODES: dict[tuple, object] = {}


def _mode(node: Node, v3: bool):
    data = node.layer.data
    key = (v3, len(node.inputs) >= 3, data.get("mode"), data.get(_AXIS[v3]))
    found = _MODES.get(key)
    if found is None:
        found = keep(_MODES, key, _read_mode(node, v3))
    return found


def _read_mode(node: Node, v3: bool):
    data, count = node.layer.data, len(node.inputs)
    value: str | None = data.get("mode")
    if value is None:
        # Broadcast-1 defaults to none (explicit) with 3 inputs, numpy with 2; -3 to numpy
        mode = "none" if (not v3 and count >= 3) else "numpy"
    else:
        try:
            mode = enum_value(value, BROADCAST3_MODES if v3 else BROADCAST1_MODES)
        except ValueError as err:
            raise OpError(ATTRIBUTE, f"attribute mode: {err}") from None
    if not v3 and mode == "none" and count < 3:
        mode = "numpy"  # Broadcast-1 silently turns explicit into numpy without axes
    raw: dict[str, Any] = {"mode": mode}  # (the texts, and whether the axis is given)
    axis = data.get(_AXIS[v3])
    if axis is not None:
        raw.update(axis=axis, axis_given=True)
    found = direct(raw)
    return found if found is not None else validate(BroadcastMode, raw, {"mode": "mode", "axis": _AXIS[v3]})


def direct(raw: dict[str, str]) -> Attributes | None:
    """What the model gives when the axis parses (the mode is a legal one by now): its int
    check always passes the parser's result (tests/ops/test_attribute_models.py); None
    when it does not parse (the model words it)."""
    try:
        axis = parse_int_prefix(raw["axis"]) if "axis" in raw else 0
    except ValueError:
        return None
    return Attributes(mode=raw["mode"], axis=axis, axis_given="axis" in raw)


def _concat_fallback(node: Node, length: int | None) -> tuple[Dim, ...] | None:
    """OpenVINO's fallback for a Concat target it cannot bound-evaluate.

    When the Concat output is 1-D of static length equal to its number of inputs, every
    Constant input gives its first value (a negative one reads as 0) and every other input
    gives ``?``.  The runtime may bound-evaluate layers we do not (anything with a kernel
    on constant inputs), so constant values are used only where every input is known to
    hold one element, which keeps them at their positions; otherwise every dim is ``?``.
    """
    producer_type = node.producer_type(1)
    if producer_type is None or producer_type.lower() != "concat" or node.computed(1) is not None:
        return None
    parts = node.producer_inputs(1)
    node.unknown_value(1)  # the runtime may bound more of the Concat than irvalidate does
    if length is None or length != len(parts):
        return None
    single = all(v.shape is not None and len(v.shape) == 1 and v.shape[0] == Dim(1, 1)
                 for v in parts)
    dims = []
    for value in parts:
        first = node.first_const_value(value) if single else None
        dims.append(DYNAMIC if first is None else Dim(max(first, 0), max(first, 0)))
    node.source = ("Concat whose values OpenVINO cannot bound: each Constant input gives "
                   "its first value, every other input '?'")
    node.source_input = "target_shape"
    return tuple(dims)


def _target(node: Node, label: str) -> tuple[tuple[Dim, ...] | None, int | None]:
    length = node.one_d_length(1, "target_shape (input 1)")
    values = node.const_ints(1)
    if values is not None and len(values) > MAX_RANK:
        raise OpError(INCOMPATIBLE, f"target_shape holds {len(values)} values: an output of "
                                    f"that rank is not a plausible tensor")
    if values is not None:
        return bc.target_from_values(values), length
    computed = node.computed_as_shape(1, "target_shape")
    return (computed if computed is not None else _concat_fallback(node, length)), length


def _infer_mode(v3: bool):
    def infer(node: Node) -> Result:
        node.require_inputs((2, 3))
        label = str(node.layer.data.get("mode", "default")).lower()
        node.how = f"{label} broadcast"
        spec = _mode(node, v3)
        if v3 and spec.mode == "none":
            node.require_inputs((3,), " in explicit mode")
        if v3 and spec.mode != "none":
            node.require_inputs((2,), f" in {spec.mode} mode")
        if not v3 and spec.mode == "pdpd":
            node.require_inputs((3,), " in pdpd mode (Broadcast-1)")
        for index, what in ((1, "target_shape"), (2, "axes_mapping")):
            if index < len(node.inputs) and (index == 1 or spec.mode == "none"):
                require_type(node, index, what)
        try:
            target, length = _target(node, label)
        except OpError as err:
            raise _labelled(err, label) from None
        return _broadcast(node, spec, target, length, label)
    return infer


def _labelled(err: OpError, label: str) -> OpError:
    p = err.problem
    return OpError(p.kind, f"inputs cannot broadcast ({label}): {p.message}", p.column, p.offsets)


def _broadcast(node: Node, spec, target, length: int | None, label: str) -> Result:
    data = node.inputs[0]
    start = None
    if spec.mode == "pdpd" and target is not None and data.shape is not None:
        start = len(target) - len(data.shape) if spec.axis == -1 else spec.axis
    node.operands = (node.operand(0, "data", data.shape, start),
                     node.operand(1, "target", target, 0 if spec.mode == "pdpd" else None))
    if spec.mode == "numpy":
        compute = lambda: bc.broadcast_numpy(data.shape, target, length)  # noqa: E731 - run once below
    elif spec.mode == "bidirectional":
        compute = lambda: bc.broadcast_bidirectional(data.shape, target, length)  # noqa: E731 - run once below
    elif spec.mode == "pdpd":
        compute = lambda: bc.broadcast_pdpd(data.shape, target, length, spec.axis)  # noqa: E731 - run once below
    else:
        try:
            axes_len = node.one_d_length(2, "axes_mapping (input 2)")
        except OpError as err:
            raise _labelled(err, label) from None
        axes = node.exact_values(2)
        compute = lambda: bc.broadcast_explicit(data.shape, target, length, axes, axes_len)  # noqa: E731 - run once below
    outcome = None
    try:
        outcome = run(node, compute, label)
    finally:
        if spec.mode == "pdpd" and not spec.axis_given and target is not None:
            _pdpd_divergence(node, data.shape, target, length, outcome)
    return Result((outcome.shape,), (data.element_type,))


def _pdpd_divergence(node: Node, data, target, length, outcome) -> None:
    try:
        document = bc.broadcast_pdpd(data, target, length, -1)
    except bc.BroadcastError:
        document = None
    if (document is None) != (outcome is None) or (
            document is not None and outcome is not None and document.shape != outcome.shape):
        node.note(DIVERGENCE, "pdpd: there is no mode.axis attribute, which the runtime reads "
                              "as 0 and the specification as -1 (right-aligned); the two "
                              "readings give different results")


def _evaluate_mode(v3: bool):
    def evaluate(node: Node) -> Tensor:
        t = tensors(node, (2, 3))
        try:
            mode = _mode(node, v3).mode
        except OpError:
            raise Unresolved("a mode the reader refuses") from None
        data, target = t[0], t[1].static_values()
        where = origin(node.layer, t, mode)
        if mode == "numpy":  # (Broadcast-1 has an axes_mapping input there, unread)
            return layout.aligned(data, target, where)
        if mode == "bidirectional":
            return layout.aligned(data, layout.numpy_shape([data.shape, tuple(target)]), where)
        if mode == "none" and len(t) == 3:
            return layout.broadcast_to(data, target, t[2].static_values(), where)
        raise Unresolved(f"Broadcast's {mode} mode is not evaluated")
    return evaluate


SPECS = {"broadcast": (
    OpSpec("Broadcast", (1, 2), frozenset({"mode", _AXIS[False]}),
           dim_inputs=(1,), value_inputs=(2,), symbolic=True, symbolic_values=True,
           symbolic_reads=True, infer=_infer_mode(False),
           evaluate=_evaluate_mode(False), arity=(2, 3)),
    OpSpec("Broadcast", (3, 16), frozenset({"mode", _AXIS[True]}),
           dim_inputs=(1,), value_inputs=(2,), symbolic=True, symbolic_values=True,
           symbolic_reads=True, infer=_infer_mode(True),
           evaluate=_evaluate_mode(True), arity=(2, 3)),
)}
