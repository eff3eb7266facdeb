"""Shape-preserving unary operations: the output has the shape of input 0.

Holds Abs, Acos, Acosh, Asin, Asinh, Atan, Atanh, BitwiseNot, Ceiling, Clamp, ConvertLike, Cos,
Cosh, Elu, Erf, ErfInv, Exp, Floor, Gelu, HSigmoid, HSwish, Identity, IsFinite, IsInf, IsNaN,
Log, LogicalNot, Mish, Negative, PRelu, Relu, Round, Selu, Sigmoid, Sign, Sin, Sinh, SoftPlus,
SoftSign, Sqrt, Swish, Tan and Tanh.

Activations and elementwise math (Relu, Sigmoid, Sqrt, Clamp, Elu, Gelu, ...), Convert's kin
ConvertLike (whose type is input 1's) and the IsFinite/IsInf/IsNaN tests (boolean).  Their
extra inputs (PRelu's slope, Swish's beta) do not change the shape.  Identity-16 (any type)
and ErfInv-17 (floating-point) take exactly one input.  Convert has its own module.  Value:
Abs and Clamp are bound-evaluated on shape values (see
:func:`irvalidate.shapes.pointwise.absolute` and :func:`~irvalidate.shapes.pointwise.clamp`),
LogicalNot on an exact condition, and Relu, Floor and Ceiling on exact values (integer or real:
:func:`~irvalidate.shapes.pointwise.exact_only`).
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import pointwise
from ..shapes.values import Tensor
from .support.evaluating import float_attr, origin, tensors
from .support.node import Node
from .support.spec import TYPE, OpSpec, Result

#: type -> the attributes the reader reads (none for most)
_TYPES = {
    "Abs": (), "Acos": (), "Acosh": (), "Asin": (), "Asinh": (), "Atan": (), "Atanh": (),
    "BitwiseNot": (), "Ceiling": (), "Clamp": ("min", "max"), "ConvertLike": (), "Cos": (),
    "Cosh": (), "Elu": ("alpha",), "Erf": (), "Exp": (), "Floor": (), "HSigmoid": (),
    "HSwish": (), "IsFinite": (), "IsInf": ("detect_negative", "detect_positive"), "IsNaN": (),
    "Log": (), "LogicalNot": (), "Mish": (), "Negative": (), "PRelu": (), "Relu": (),
    "Round": ("mode",), "Selu": (), "Sigmoid": (), "Sign": (), "Sin": (), "Sinh": (),
    "SoftPlus": (), "SoftSign": (), "Sqrt": (), "Swish": (), "Tan": (), "Tanh": (),
}
_BOOLEAN = frozenset({"isfinite", "isinf", "isnan"})


def same_shape(node: Node, element_type: str | None) -> Result | None:
    """Input 0's shape, with the given element type (no input: nothing inferred)."""
    node.how = "its input 0 (the output keeps the input shape)"
    if not node.inputs:
        return None
    return Result((node.inputs[0].shape,), (element_type,))


def _infer(node: Node) -> Result | None:
    kind = node.layer.type.lower()
    inputs = node.inputs
    if kind == "convertlike":
        et = inputs[1].element_type if len(inputs) > 1 else None
    elif kind in _BOOLEAN:
        et = "boolean"
    else:
        et = inputs[0].element_type if inputs else None
    return same_shape(node, et)


def _abs_value(node: Node) -> Tensor:
    t = tensors(node, (1,))
    return pointwise.absolute(t[0], origin(node.layer, t))


def _clamp_value(node: Node) -> Tensor:
    t = tensors(node, (1,))
    low, high = float_attr(node.layer, "min"), float_attr(node.layer, "max")
    return pointwise.clamp(t[0], low, high, origin(node.layer, t, f"{low:g}..{high:g}"))


def _not_value(node: Node) -> Tensor:
    t = tensors(node, (1,))
    return pointwise.logical_not(t[0], origin(node.layer, t))


def _exact_value(node: Node) -> Tensor:
    t = tensors(node, (1,))
    return pointwise.exact_only(node.layer.type.lower(), t[0], origin(node.layer, t))


#: the value evaluations (OpenVINO's bound evaluation of shape subgraphs); the runtime
#: evaluates the other unary ops on exact values only, and irvalidate not at all
_EVALUATE = {"Abs": _abs_value, "Clamp": _clamp_value, "LogicalNot": _not_value,
             "Relu": _exact_value, "Floor": _exact_value, "Ceiling": _exact_value}


def _single(node: Node) -> Result | None:
    """Identity and ErfInv: exactly one input (the runtime reads past a missing one and
    refuses a second); ErfInv's must be floating-point."""
    node.require_inputs((1,))
    et = node.inputs[0].element_type
    if node.layer.type.lower() == "erfinv" and elements.is_known(et) and et not in elements.REAL:
        node.note(TYPE, f"ErfInv's input must be floating-point, not {et}")
    return same_shape(node, et)


def _spec(name: str, attributes: tuple[str, ...], versions: tuple[int, int] = (1, 16)) -> OpSpec:
    evaluate = _EVALUATE.get(name)
    return OpSpec(name, versions, frozenset(attributes), symbolic=True, infer=_infer, evaluate=evaluate,
                  arity=(1,) if evaluate else None)


SPECS: dict[str, tuple[OpSpec, ...]] = {
    name.lower(): (_spec(name, attributes),) for name, attributes in _TYPES.items()}
# Gelu-2 has no attribute; Gelu-7 its approximation mode
SPECS["gelu"] = (_spec("Gelu", (), (1, 6)), _spec("Gelu", ("approximation_mode",), (7, 16)))
SPECS["identity"] = (OpSpec("Identity", (16, 16), frozenset(), symbolic=True, infer=_single),)
SPECS["erfinv"] = (OpSpec("ErfInv", (17, 17), frozenset(), symbolic=True, infer=_single),)
