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


#: the ``<data>`` attributes OpenVINO 2026.4 reads for the layers irvalidate models (their
#: visit_attributes names, and the nested names of a pdpd axis); any other attribute is
#: ignored by the reader, so a misspelled one silently takes the default
_AUTO_BROADCAST = frozenset({"auto_broadcast", "auto_broadcast.auto_broadcast_axis"})
_ATTRIBUTES = {
    "divide": _AUTO_BROADCAST | {"m_pythondiv"},
    "select": _AUTO_BROADCAST,
    "fakequantize": _AUTO_BROADCAST | {"levels"},
    "clamp": frozenset({"min", "max"}),
    "convert": frozenset({"destination_type"}),
    "elu": frozenset({"alpha"}),
    "isinf": frozenset({"detect_negative", "detect_positive"}),
    "round": frozenset({"mode"}),
}
_BROADCAST_ATTRIBUTES = {False: frozenset({"mode", "mode.auto_broadcast_axis"}),
                         True: frozenset({"mode", "mode.mode.axis"})}


def known_attributes(layer_type: str, version: str) -> Optional[frozenset]:
    """The attribute names the reader reads for a modelled layer; None for other layers."""
    t = layer_type.lower()
    if t == "broadcast":
        return _BROADCAST_ATTRIBUTES[broadcast_is_v3(version)]
    if t == "gelu":  # Gelu-2 has no attribute, Gelu-7 its approximation mode
        return frozenset() if version == "opset2" else frozenset({"approximation_mode"})
    if t in _ATTRIBUTES:
        return _ATTRIBUTES[t]
    if t in BINARY:
        return _AUTO_BROADCAST
    return frozenset() if t in SHAPE_PRESERVING else None
