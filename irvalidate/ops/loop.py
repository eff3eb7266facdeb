"""Loop-5: its body run while the condition holds, at most trip_count times (loop.cpp).

Inputs: trip_count (0) and execution_condition (1), scalars or 1-D, then the body inputs
the port map describes (sliced, merged by a back edge, or invariant, as for TensorIterator;
an entry may also name input 0 or 1).  Loop sets each body Parameter's shape *and* element
type from its input (a sliced one gets ``part_size`` at the axis).

The iteration count is known only in two cases: the body's condition folds to false (a
do-while: 1 iteration), or it folds to true (directly, or through a body Parameter fed by a
folded outer value) and trip_count folds (its value, cast to an integer).  The runtime keeps
that count in the layer and never resets it: a Loop in a body validated again, whose trip
count no longer folds (a back edge widened the dim it reads), still counts what it derived
before (``analysis.Bodies`` remembers it per layer).  An outer condition that folds to false
runs the body zero times.

A merged input's Parameter starts with the input's shape, a dim of 0 made ``?`` (measured:
a value that starts empty may grow); while a last-value output whose Result feeds a back
edge does not fit its Parameter, the Parameter keeps its own dims where they contain the
Result's and is ``?`` elsewhere (``[1..4]`` against a Result's ``[2..8]`` gives ``?``,
``[?,2]`` against ``[1,4]`` gives ``[?,?]``; another rank: a dynamic rank), and the body is
analysed again (at most as many times as the iterations, when known).  Outputs: a last
value as the body gives it (dim 0 is 0 when the body never runs and the shape is static);
a concatenation multiplies the body's static axis dim by the iterations (``?`` otherwise;
a scalar result counts as ``[1]``; ``[0]`` when the body never runs).  The body needs a
Result marked ``purpose="execution_condition"``.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC, Shape, static
from .support.bodies import (
    analyse,
    check_outputs,
    declared,
    described_inputs,
    folded,
    folded_in_body,
    port_map,
    rank01,
    result_value,
    slicing,
)
from .support.infer_helpers import text
from .support.node import Node, ParameterValue
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result

#: the runtime's cap on reanalysing the body when the iterations are unknown (INT_MAX);
#: irvalidate stops well before, leaving the Loop unmodelled if it has not settled
_SETTLE = 64


def _one(values, what: str):
    if values is not None and len(values) != 1:
        raise OpError(INCOMPATIBLE, f"{what} folds to {len(values)} values; it must be one")
    return None if values is None else values[0]


def _special(node: Node, direction: str, purpose: str) -> str | None:
    """The body layer a port map entry marks with ``purpose`` (among the entries the reader
    keeps: the first of each external_port_id)."""
    for entry in port_map(node.layer, "port_map", direction):
        if entry.purpose == purpose:
            return entry.internal
    return None


def _infer(node: Node) -> Result | None:
    node.require_inputs(tuple(range(2, max(len(node.inputs), 2) + 1)))
    body = node.layer.body("body")
    if body is None:
        return None  # body-port-map reports it
    node.show(["trip_count", "execution_condition"] +
              [f"input {i}" for i in range(2, len(node.inputs))])
    layers = body.layers_by_id()
    current = _special(node, "input", "current_iteration")
    found = declared(body, current) if current is not None else None
    if found is not None:  # (its declared shape is kept)
        rank01(found[0], "the current_iteration Parameter")
    rank01(node.inputs[1].shape, "execution_condition (input 1)")
    never = _one(folded(node, 1), "execution_condition (input 1)") == 0
    condition = _special(node, "output", "execution_condition")
    if condition is None or condition not in layers:
        raise OpError(INCOMPATIBLE, "the body has no Result marked purpose=\"execution_condition\", "
                                    "which the reader requires")
    described = described_inputs(node)
    offset = 2 - sum(1 for entry, _ in described if entry.external in (0, 1))
    if offset < 0 or len(node.inputs) != len(described) + offset:
        raise OpError(INCOMPATIBLE, f"the port map describes {len(described)} body inputs, but "
                                    f"{len(node.inputs) - 2} are connected")
    parameters, back = _body_parameters(node, described)
    outcome = analyse(node, body, parameters, "body")
    if outcome is None:
        return None
    iterations = _iterations(node, outcome, condition, described)
    outputs = [e for e in port_map(node.layer, "port_map", "output") if e.external >= 0]
    outcome = _settle(node, body, outcome, parameters, back, outputs, iterations)
    if outcome is None:
        return None
    check_outputs(node, len(outputs), "the port map")
    count = "0" if never else str(iterations) if iterations != -1 else "an unknown number of"
    node.how = f"the body run {count} times"
    shapes: list[Shape] = []
    types = []
    for index, entry in enumerate(outputs):
        value = result_value(outcome, entry.internal)
        if value is None:
            return None
        shapes.append(_output(entry, value.shape, iterations, never, index))
        types.append(value.element_type)
    return Result(tuple(shapes), tuple(types))


def _body_parameters(node: Node, described: list[tuple]
                     ) -> tuple[dict[str, ParameterValue], dict[str, str]]:
    """What each body Parameter starts with (a sliced input's part, a merged input grown),
    and the back edges (Result -> the Parameter it feeds) of the merged inputs."""
    parameters: dict[str, ParameterValue] = {}
    back: dict[str, str] = {}  # back edge Result -> Parameter
    fed: dict[str, str] = {}
    for edge in node.layer.back_edges:
        fed.setdefault(edge.to_layer, edge.from_layer)
    for entry, kind in described:
        if not 0 <= entry.external < len(node.inputs):
            raise OpError(INCOMPATIBLE, f"the port map names input {entry.external}, but the "
                                        f"layer has {len(node.inputs)}")
        value = node.inputs[entry.external]
        shape = value.shape
        if kind == "sliced" and shape is not None:
            axis = slicing(entry, "axis", 0, unsigned=True)
            at = arith.normalize_axis(axis, len(shape))
            if at is None:
                raise OpError(INCOMPATIBLE, f"input {entry.external} {text(shape)} has no axis "
                                            f"{axis} to slice")
            shape = shape[:at] + (arith.from_int(slicing(entry, "part_size", 1)),) + shape[at + 1:]
        if kind == "merged":
            back[fed[entry.internal]] = entry.internal
            shape = _grown(shape)
        parameters[entry.internal] = (shape, value.element_type)
    return parameters, back


def _grown(shape: Shape) -> Shape:
    """A merged input's shape as its Parameter starts: a dim of 0 is ``?`` (measured: a
    back-edge value that starts empty, [0,3], is [?,3] in the body and out; 0..5 stays)."""
    if shape is None:
        return None
    return tuple(DYNAMIC if d.is_static and d.lo == 0 else d for d in shape)


def _iterations(node: Node, outcome, condition: str, described) -> int:
    """The iteration count the runtime derives (-1: unknown); one it does not derive now
    is the one it derived in an earlier validation of a body this Loop is in."""
    value = outcome.results.get(condition)
    if value is not None:
        rank01(value.shape, "the body's execution condition")
    always = False
    iterations: int | None = None
    flag = _one(folded_in_body(node, value), "the body's execution condition") if value else None
    producer = node.producer_layer(value) if flag is None and value is not None else None
    if producer is not None and producer.type.lower() == "parameter":
        for entry, _ in described:
            if entry.internal == producer.id:
                outer = _one(folded(node, entry.external), "the body's execution condition")
                flag = outer if outer is not None else flag
    if flag is not None:
        if flag:
            always = True
        else:
            iterations = 1  # a do-while: the body runs once
    rank01(node.inputs[0].shape, "trip_count (input 0)")
    trip = _one(folded(node, 0), "trip_count (input 0)")
    if trip is not None and always:
        iterations = int(trip)
    return node.graph.loop_iterations(node.layer, iterations)


def _settle(node: Node, body, outcome, parameters, back, outputs, iterations):
    """Reanalyse the body while a merged Parameter disagrees with its back edge's Result."""
    if not back:
        return outcome
    limit = 1 << 31 if iterations == -1 else (iterations if iterations >= 0 else 1 << 64)
    rounds = 0
    while rounds < limit:
        changed = False
        for entry in outputs:
            if "axis" in entry.slicing or entry.internal not in back:
                continue
            param = back[entry.internal]
            result = result_value(outcome, entry.internal)
            current = parameters[param][0]
            if result is None or current is None:
                continue
            if result.shape is None:
                new: Shape = None
            elif len(result.shape) != len(current):
                new = None
            else:
                # (measured: a dim the Parameter's does not contain, not merely one it
                # cannot overlap, as the runtime's source once read; the Parameter keeps its
                # own dim elsewhere: [1..5,2..3] against [1,4..6] gives [1..5,?])
                bad = [not (p.lo <= r.lo and r.hi <= p.hi) for r, p in zip(result.shape, current)]
                if not any(bad):
                    continue
                new = tuple(DYNAMIC if b else p for p, b in zip(current, bad))
            parameters[param] = (new, parameters[param][1])
            changed = True
        if not changed:
            return outcome
        rounds += 1
        if rounds > _SETTLE:
            return None
        outcome = node.graph.analyse_body(body, parameters, True)
        if outcome is None:
            return None
    return outcome


def _output(entry, shape: Shape, iterations: int, never: bool, index: int) -> Shape:
    if "axis" in entry.slicing:
        if never:
            return (static(0),)
        if shape is None:
            return None
        axis = slicing(entry, "axis", 0)
        at = arith.normalize_axis(axis, len(shape)) if shape else (0 if axis in (0, -1) else None)
        if at is None:
            raise OpError(INCOMPATIBLE, f"output {index}: axis {axis} is out of the range of the "
                                        f"body's {text(shape)}")
        if not shape:
            shape = (static(1),)
        dim = shape[at]
        joined = arith.from_int(dim.lo * iterations) if dim.is_static and iterations != -1 else DYNAMIC
        return shape[:at] + (joined,) + shape[at + 1:]
    if never and shape is not None and all(d.is_static for d in shape):
        if not shape:
            raise OpError(INCOMPATIBLE, f"output {index} is a scalar of a body that never runs "
                                        f"(the runtime sets dim 0 of it: \"out-of-range\")")
        return (static(0),) + shape[1:]
    return shape


SPECS = {"loop": (OpSpec("Loop", (5, 16), frozenset(), value_inputs=(0, 1), infer=_infer),)}
