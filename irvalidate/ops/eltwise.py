"""Binary elementwise operations (opsets 1-16): arithmetic, comparison, logical, bitwise, shifts.

Arithmetic: Add, Subtract, Multiply, Divide, Power, Maximum, Minimum, FloorMod, Mod,
SquaredDifference; comparison: Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual;
logical: LogicalAnd, LogicalOr, LogicalXor, Xor; bitwise: BitwiseAnd, BitwiseOr, BitwiseXor;
shifts: BitwiseLeftShift, BitwiseRightShift.

Shape: the two inputs broadcast by the layer's ``auto_broadcast`` (eltwise_shape_inference).
Element types: the two must agree; arithmetic refuses boolean and string, logical ops want
boolean, bitwise ops integers or boolean, shifts integers; comparisons and logical ops give
boolean.  Value: Add, Subtract, Multiply, Divide, Maximum, Minimum, FloorMod, Power and Mod
are bound-evaluated on shape values (Divide by its own rule, ``m_pythondiv`` choosing floor
or truncation; Mod by its own estimate of a remainder's interval); Equal by its own bounds,
the other comparisons and the logical operations on exact values only.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import bounds, broadcasting as bc, pointwise
from ..shapes.values import Tensor
from .support import autobroadcast as ab
from .support.evaluating import bool_attr, origin, tensors
from .support.node import Node
from .support.spec import TYPE, OpSpec, Result

ARITHMETIC = ("Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Minimum",
              "FloorMod", "Mod", "SquaredDifference")
COMPARISON = ("Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual")
LOGICAL = ("LogicalAnd", "LogicalOr", "LogicalXor", "Xor")
BITWISE = ("BitwiseAnd", "BitwiseOr", "BitwiseXor")
SHIFT = ("BitwiseLeftShift", "BitwiseRightShift")
#: the ones whose values are bound-evaluated
EVALUATED = frozenset({"add", "subtract", "multiply", "divide", "maximum", "minimum",
                       "floormod", "power", "mod"})
#: the comparisons and logical operations, evaluated to booleans (conditions of Select)
COMPARED = frozenset(name.lower() for name in COMPARISON + LOGICAL)

_LABELS = ("A", "B")


def _type_problem(kind: str, known: list) -> str:
    listed = "/".join(sorted(set(known)))
    if kind == "arithmetic" and any(t in ("boolean", "string") for t in known):
        return f"arithmetic operations do not support {listed} inputs"
    if kind == "logical" and any(t != "boolean" for t in known):
        return f"logical operations need boolean inputs, got {listed}"
    if kind == "bitwise" and any(t not in elements.INTEGRAL and t != "boolean" for t in known):
        return f"bitwise operations need integer or boolean inputs, got {listed}"
    if kind == "shift" and any(t not in elements.INTEGRAL for t in known):
        return f"shift operations need integer inputs, got {listed}"
    return ""


def _infer(kind: str):
    def infer(node: Node) -> Result:
        node.require_inputs((2,))
        node.show(_LABELS)
        label = ab.mode_label(node)
        node.how = f"{label} broadcast"
        spec = ab.read(node)
        a, b = node.inputs[0].shape, node.inputs[1].shape
        if spec.mode == "pdpd" and a is not None and b is not None:
            offsets = (0, len(a) - len(b) if spec.axis == -1 else spec.axis)
            node.operands = tuple(o._replace(offset=off) for o, off in zip(node.operands, offsets))
        types = [v.element_type for v in node.inputs]
        merged = ab.merge_types(node, _LABELS, types)
        problem = _type_problem(kind, [t for t in types if elements.is_known(t)])
        if problem:
            node.note(TYPE, problem)
        out_type = "boolean" if kind in ("comparison", "logical") else merged
        try:
            outcome = ab.run(node, lambda: bc.eltwise(a, b, spec.mode, spec.axis), label)
        finally:  # whether or not the runtime accepts it, the specification may disagree
            if spec.mode == "pdpd":
                ab.pdpd_divergence(node, spec, [b], lambda merge: merge(a, b))
        return Result((outcome.shape,), (out_type,))
    return infer


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (2,), reals=None)
    kind = node.layer.type.lower()
    if kind == "mod":
        return bounds.mod(t[0], t[1], origin(node.layer, t))
    if kind in COMPARED:
        return pointwise.compare(kind, t[0], t[1], origin(node.layer, t))
    return bounds.arithmetic(node.layer.type.lower(), t[0], t[1], origin(node.layer, t),
                             python_div=bool_attr(node.layer, "m_pythondiv", True))


def _spec(name: str, kind: str) -> OpSpec:
    attributes = ab.ATTRIBUTES | ({"m_pythondiv"} if name == "Divide" else set())
    evaluate = _evaluate if name.lower() in EVALUATED | COMPARED else None
    # (Add, Subtract and Multiply of sizes keep their expressions: shapes.bounds.arithmetic)
    return OpSpec(name, attributes=frozenset(attributes), symbolic=True, infer=_infer(kind), evaluate=evaluate,
                  arity=(2,), own_types=(0,) if kind in ("comparison", "logical") else (),
                  symbolic_values=name in ("Add", "Subtract", "Multiply"))


SPECS: dict[str, tuple[OpSpec, ...]] = {
    name.lower(): (_spec(name, kind),)
    for kind, names in (("arithmetic", ARITHMETIC), ("comparison", COMPARISON),
                        ("logical", LOGICAL), ("bitwise", BITWISE), ("shift", SHIFT))
    for name in names
}
