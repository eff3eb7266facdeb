"""TensorIterator-1: its body run once per slice of the sliced inputs (tensor_iterator.cpp).

Inputs, by the port map (external_port_id order): an entry with ``axis`` is sliced (the body
Parameter gets the input's shape with ``part_size`` at the axis); one whose Parameter a back
edge feeds is merged, any other invariant (the Parameter gets the input's shape); every input
needs one.  TensorIterator sets only the Parameters' shapes: their element types stay as
declared, and so the outputs take the body's types.

Iterations: each sliced input whose axis dim is static gives ``(|end - start| + 1) //
part_size`` (negative start/end count from the end; stride is ignored; the last such input
wins); without sliced inputs, the first concatenated output gives ``|end - start| //
part_size`` (raw values); otherwise unknown.  Outputs (external_port_id order): the last
value of a body Result as it is, or a concatenation whose ``axis`` dim is ``iterations *
part_size`` (``?`` when unknown), the body's own dim there being discarded (a scalar result
is concatenated as ``[?]`` along axis 0).  A TensorIterator inside a TensorIterator body is
refused, and so is a zero part_size (a division by zero in the runtime).
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC
from .support.bodies import (
    Entry,
    analyse,
    check_outputs,
    described_inputs,
    port_map,
    result_value,
    slicing,
)
from .support.infer_helpers import text
from .support.node import Node, ParameterValue
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result


def _trunc_div(a: int, b: int) -> int:
    """C++ integer division (towards zero); a zero divisor is refused."""
    if b == 0:
        raise OpError(INCOMPATIBLE, "part_size is 0: the runtime divides by it")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _slice(node: Node, entry: Entry, parameters: dict[str, ParameterValue]) -> int:
    """Set a sliced input's Parameter; the iteration count it gives (-1: unknown)."""
    shape = node.inputs[entry.external].shape
    axis = slicing(entry, "axis", 0, unsigned=True)
    start, end = slicing(entry, "start", 0), slicing(entry, "end", -1)
    part = slicing(entry, "part_size", 1)
    if shape is None:
        parameters[entry.internal] = (None, None)
        return -1
    if axis >= len(shape):
        raise OpError(INCOMPATIBLE, f"input {entry.external} {text(shape)} has no axis {axis} "
                                    f"to slice")
    parameters[entry.internal] = (shape[:axis] + (arith.from_int(part),) + shape[axis + 1:], None)
    if not shape[axis].is_static:
        return -1
    length = shape[axis].lo
    first = start + length if start < 0 else start
    last = end + length if end < 0 else end
    return _trunc_div(abs(last - first) + 1, part)


def _infer(node: Node) -> Result | None:
    body = node.layer.body("body")
    if body is None:
        return None  # body-port-map reports it
    node.show([f"input {i}" for i in range(len(node.inputs))])
    if any(layer.type.lower() == "tensoriterator" for layer in body.layers):
        raise OpError(INCOMPATIBLE, "a TensorIterator in a TensorIterator body is refused by "
                                    "the runtime (\"No nested TensorIterator\")")
    described = described_inputs(node)
    if len(described) != len(node.inputs):
        raise OpError(INCOMPATIBLE, f"the port map describes {len(described)} inputs, but "
                                    f"{len(node.inputs)} are connected")
    iterations = -1
    parameters: dict[str, ParameterValue] = {}
    for entry, kind in described:
        if not 0 <= entry.external < len(node.inputs):
            raise OpError(INCOMPATIBLE, f"the port map names input {entry.external}, but the "
                                        f"layer has {len(node.inputs)}")
        if kind == "sliced":
            found = _slice(node, entry, parameters)
            iterations = found if found != -1 else iterations
        else:
            parameters[entry.internal] = (node.inputs[entry.external].shape, None)
    outcome = analyse(node, body, parameters, "body")
    if outcome is None:
        return None
    outputs = [e for e in port_map(node.layer, "port_map", "output") if e.external >= 0]
    if iterations == -1 and not any(kind == "sliced" for _, kind in described):
        for entry in outputs:
            if "axis" in entry.slicing:
                span = abs(slicing(entry, "end", -1) - slicing(entry, "start", 0))
                iterations = _trunc_div(span, slicing(entry, "part_size", 1))
                break
    check_outputs(node, len(outputs), "the port map")
    node.how = (f"the body run {iterations if iterations != -1 else 'an unknown number of'} "
                f"times")
    shapes, types = [], []
    for index, entry in enumerate(outputs):
        value = result_value(outcome, entry.internal)
        if value is None:
            return None
        shape = value.shape
        if "axis" in entry.slicing and shape is not None:
            axis, part = slicing(entry, "axis", 0), slicing(entry, "part_size", 1)
            if not shape:
                if axis != 0:
                    raise OpError(INCOMPATIBLE, f"output {index} concatenates scalars along axis "
                                                f"{axis}; only axis 0 is allowed")
                shape = (DYNAMIC,)
            at = axis + len(shape) if axis < 0 else axis
            if not 0 <= at < len(shape):
                raise OpError(INCOMPATIBLE, f"output {index}: axis {axis} is out of the range of "
                                            f"the body's {text(shape)}")
            joined = DYNAMIC if iterations == -1 else arith.from_int(iterations * part)
            shape = shape[:at] + (joined,) + shape[at + 1:]
        shapes.append(shape)
        types.append(value.element_type)
    return Result(tuple(shapes), tuple(types))


SPECS = {"tensoriterator": (OpSpec("TensorIterator", (1, 16), frozenset(), infer=_infer),)}
