"""If-8: the outputs of ``then_body`` or ``else_body``, by the condition (if shape inference).

Each body's Parameters take the shapes and element types of the outer inputs its port map
names (a Parameter it leaves out keeps its own).  A condition the runtime folds to one value
picks its body, whose Results give the outputs as they are: only that body is validated
with the outer inputs, and the other keeps the shapes of its first reading, from its own
Parameters (what the rules read of it, as the runtime writes it again).  Otherwise every
output must come from both bodies with one element type, and its shape is the two merged
leniently: a dynamic rank, or ranks that differ (``[?]`` when both are at most 1-D), give a
dynamic rank; per dim, two static values give the interval between them and anything else
``?`` (even two equal intervals).  A condition that depends on no Parameter and that
irvalidate does not evaluate may still be folded by the runtime, which would then leave one
body, unknown here, as first read: the rules read both bodies as declared, and the outputs
(the bodies merged) are loose.  The condition must be a scalar or 1-D; its element type is
not checked.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes.dims import DYNAMIC, Dim, Shape
from .support.bodies import analyse, check_outputs, folded, port_map, rank01, result_value
from .support.node import Node
from .support.spec import ARITY, INCOMPATIBLE, TYPE, OpError, OpSpec, Result, Value

#: a static dim of 1
ONE = Dim(1, 1)

_BODIES = (("then_body", "then_port_map"), ("else_body", "else_port_map"))


def _branch(node: Node, kind: str, section: str) -> list[Value] | None:
    """The values a body's Results give, in output order (None: not known)."""
    body = node.layer.body(kind)
    if body is None:
        return None  # body-port-map reports it
    parameters, loose = {}, {}
    for entry in port_map(node.layer, section, "input"):
        if entry.external < 0:
            continue
        if entry.external >= len(node.inputs):
            raise OpError(INCOMPATIBLE, f"{section} reads input {entry.external}, but the layer "
                                        f"has {len(node.inputs)} inputs")
        value = node.inputs[entry.external]
        parameters[entry.internal] = (value.shape, value.element_type)
        if value.loose is not None:
            loose[entry.internal] = value.loose
    outcome = analyse(node, body, parameters, kind.replace("_", " "), loose)
    if outcome is None:
        return None
    values = []
    for entry in port_map(node.layer, section, "output"):
        if entry.external < 0:
            continue
        value = result_value(outcome, entry.internal)
        if value is None:
            return None
        values.append(value)
    return values


def _taken(node: Node, index: int) -> Result | None:
    """A constant condition: the runtime validates only the taken body with the outer
    inputs; the other keeps what its first reading gave (its own Parameters' shapes)."""
    kind, section = _BODIES[index]
    _read_as_declared(node, _BODIES[1 - index][0])
    chosen = _branch(node, kind, section)
    node.how = f"the {kind.split('_')[0]} body (cond is constant)"
    if chosen is None:
        return None
    check_outputs(node, len(chosen), section)
    return Result(tuple(v.shape for v in chosen), tuple(v.element_type for v in chosen))


def _read_as_declared(node: Node, kind: str) -> None:
    """Make the rules read a body as declared (its own Parameters): what the runtime keeps
    of a body it does not validate again."""
    body = node.layer.body(kind)
    if body is not None:
        node.graph.analyse_body(body, {}, True)


def _merge(then: Shape, other: Shape) -> Shape:
    if then is None or other is None:
        return None
    if len(then) != len(other):
        if {then, other} == {(), (ONE,)}:
            return (ONE,)  # measured: a scalar against a static [1] reads back as [1]
        return (DYNAMIC,) if len(then) <= 1 and len(other) <= 1 else None
    dims = []
    for a, b in zip(then, other):
        if not (a.is_static and b.is_static):
            dims.append(DYNAMIC)
        else:
            dims.append(Dim(min(a.lo, b.lo), max(a.lo, b.lo)))
    return tuple(dims)


def _infer(node: Node) -> Result | None:
    if not node.inputs:
        raise OpError(ARITY, "If takes a condition and its data inputs, but none is connected")
    node.show([f"input {i}" if i else "cond" for i in range(len(node.inputs))])
    rank01(node.inputs[0].shape, "cond (input 0)")
    cond = folded(node, 0)
    if cond is not None and len(cond) > 1:
        raise OpError(INCOMPATIBLE, f"cond (input 0) holds {len(cond)} values; it must hold one")
    if cond is not None and len(cond) == 1:
        return _taken(node, 0 if cond[0] else 1)
    branches = [_branch(node, kind, section) for kind, section in _BODIES]
    # the runtime folds a condition computed from Consts alone (Sqrt, ReduceLogicalOr, ...),
    # which irvalidate may not evaluate: the merged shapes may then be wider than its own,
    # and either body may be the one left as first read
    foldable = not _from_parameters(node)
    if foldable:
        node.unknown_value(0)
        for kind, _ in _BODIES:
            _read_as_declared(node, kind)
    if branches[0] is None or branches[1] is None:
        return None
    then, other = branches[0], branches[1]  # (each narrowed by the test above)
    if len(then) != len(other):
        raise OpError(INCOMPATIBLE, f"then_port_map maps {len(then)} outputs and "
                                    f"else_port_map {len(other)}: each output needs both")
    check_outputs(node, len(then), "then_port_map")
    node.how = "then and else bodies merged (cond is not constant)"
    shapes: list[Shape] = []
    types: list[str | None] = []
    for index, (a, b) in enumerate(zip(then, other)):
        try:
            types.append(elements.merge(a.element_type, b.element_type))
        except ValueError:
            if not foldable:  # (a folded condition compares no types)
                node.note(TYPE, f"output {index} is {a.element_type} in then_body but "
                                f"{b.element_type} in else_body")
            types.append(None)
        shapes.append(_merge(a.shape, b.shape))
    return Result(tuple(shapes), tuple(types))


#: the most layers searched above a condition for a Parameter
_SEARCH = 256


def _from_parameters(node: Node) -> bool:
    """Whether the condition depends on a Parameter (then no one can fold it)."""
    seen: set[str] = set()
    stack = [node.producer_layer(0)]
    while stack and len(seen) < _SEARCH:
        layer = stack.pop()
        if layer is None or layer.id in seen:
            continue
        seen.add(layer.id)
        if layer.type.lower() == "parameter":
            return True
        stack.extend(map(node.producer_layer, node.graph.input_values(layer)))
    return False


SPECS = {"if": (OpSpec("If", (8, 16), frozenset(), value_inputs=(0,), infer=_infer),)}

