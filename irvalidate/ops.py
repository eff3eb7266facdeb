"""Which IR layer types broadcast, and how the rules group them (opsets 1-16)."""
from __future__ import annotations

from typing import Optional

ARITHMETIC = frozenset({"add", "subtract", "multiply", "divide", "power", "maximum", "minimum",
                        "floormod", "mod", "squareddifference"})
COMPARISON = frozenset({"equal", "notequal", "less", "lessequal", "greater", "greaterequal"})
LOGICAL = frozenset({"logicaland", "logicalor", "logicalxor", "xor"})
BITWISE = frozenset({"bitwiseand", "bitwiseor", "bitwisexor"})
SHIFT = frozenset({"bitwiseleftshift", "bitwiserightshift"})
BINARY = ARITHMETIC | COMPARISON | LOGICAL | BITWISE | SHIFT

#: layers whose output shape is exactly the shape of input 0 (unary elementwise and kin)
SHAPE_PRESERVING = frozenset({
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwisenot", "ceiling", "clamp",
    "convert", "convertlike", "cos", "cosh", "elu", "erf", "exp", "floor", "gelu", "hsigmoid",
    "hswish", "isfinite", "isinf", "isnan", "log", "logicalnot", "mish", "negative", "prelu",
    "relu", "round", "selu", "sigmoid", "sign", "sin", "sinh", "softplus", "softsign", "sqrt",
    "swish", "tan", "tanh",
})

CONST_TYPES = frozenset({"const", "constant"})
#: shape-preserving layers whose output is boolean whatever their input type
BOOLEAN_RESULT = frozenset({"isfinite", "isinf", "isnan"})


def family(layer_type: str) -> Optional[str]:
    """The rule family of a layer type (matched case-insensitively, as the reader does)."""
    t = layer_type.lower()
    if t in BINARY:
        return "binary"
    if t in ("select", "fakequantize", "broadcast"):
        return t
    if t in SHAPE_PRESERVING:
        return "unary"
    return None


def binary_kind(layer_type: str) -> str:
    t = layer_type.lower()
    for name, members in (("arithmetic", ARITHMETIC), ("comparison", COMPARISON),
                          ("logical", LOGICAL), ("bitwise", BITWISE), ("shift", SHIFT)):
        if t in members:
            return name
    raise KeyError(layer_type)


def broadcast_is_v3(version: str) -> bool:
    """Broadcast in opset1/opset2 is Broadcast-1; opset3 and later name Broadcast-3."""
    return version.lower() not in ("opset1", "opset2")
