"""ConvertPromoteTypes-14: both inputs converted to one common element type.

The shapes pass through unchanged (output i is input i); only the type is computed, by the
runtime's promotion rules: equal types stay, boolean yields to the other, a float and an
integer give the float (safely only when it is twice as wide), mixed signs give a signed
integer wide enough (u64 only unsafely, to ``u64_integer_promotion_target``), else the wider
type; with ``pytorch_scalar_promotion`` a scalar of the same kind takes the other input's
type (a dynamic rank then makes the type dynamic).  The attributes default to false, false
and f32 when missing.
"""
from __future__ import annotations

from ..ir import elements
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import TYPE, OpSpec, Result

_FIELDS = (Field("promote_unsafe", "bool", False), Field("pytorch_scalar_promotion", "bool", False),
           Field("u64_integer_promotion_target", "type", "f32"))
_SUPPORTED = frozenset({"dynamic", "boolean", "f16", "f32", "f64", "i4", "i8", "i16", "i32", "i64",
                        "u1", "u4", "u8", "u16", "u32", "u64", "f8e4m3", "f8e5m2", "bf16"})


def _signed(et: str) -> bool:
    return et in elements.SIGNED or et in elements.REAL


class Unpromotable(ValueError):
    """The runtime refuses the two types under these attributes (the message says why)."""


def _refuse(message: str) -> None:
    raise Unpromotable(message)


def common_type(a: str, b: str, unsafe: bool, pytorch: bool, u64_target: str,
                ranks: tuple) -> str:
    """The promoted type of ``a`` and ``b`` (known types); Unpromotable where the runtime
    refuses them."""
    if "dynamic" in (a, b):
        return "dynamic"
    if a == b:
        return a
    if a == "boolean" or b == "boolean":
        return b if a == "boolean" else a
    bits_a, bits_b = elements.BITS[a], elements.BITS[b]
    real_a, real_b = a in elements.REAL, b in elements.REAL
    if real_a != real_b:
        real, integer = (a, b) if real_a else (b, a)
        if not unsafe and elements.BITS[real] < 2 * elements.BITS[integer]:
            _refuse(f"{integer} cannot be promoted safely to {real} (promote_unsafe is false)")
        return real
    if pytorch:
        if None in ranks:
            return "dynamic"
        if (ranks[0] == 0) != (ranks[1] == 0):
            target, scalar = (b, a) if ranks[0] == 0 else (a, b)
            if not unsafe and not (
                    (_signed(target) == _signed(scalar) and elements.BITS[target] >= elements.BITS[scalar])
                    or (_signed(target) and not _signed(scalar)
                        and 2 * elements.BITS[target] >= elements.BITS[scalar])):
                _refuse(f"the scalar's {scalar} cannot be promoted safely to {target} the "
                        f"PyTorch way (promote_unsafe is false)")
            return target
    if _signed(a) != _signed(b):
        unsigned, signed = (bits_a, bits_b) if not _signed(a) else (bits_b, bits_a)
        if unsigned <= 32 and (unsafe or 2 * unsigned <= signed):
            return f"i{max(2 * unsigned, signed)}"
        if not unsafe:
            _refuse(f"{a} and {b}: the unsigned type cannot be promoted safely to a signed "
                    f"integer (promote_unsafe is false)")
        return u64_target
    if bits_a != bits_b:
        return a if bits_a > bits_b else b
    if unsafe and {a, b} == {"f8e4m3", "f8e5m2"}:
        return "f16"
    if unsafe and {a, b} == {"f16", "bf16"}:
        return "f32"
    _refuse(f"{a} and {b} have no common type under these attributes")
    return ""  # (unreachable)


def _infer(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(("input 0", "input 1"))
    node.how = "its inputs' shapes (converted to one element type)"
    unsafe, pytorch, target = read(node, "ConvertPromoteTypes", _FIELDS)
    a, b = (v.element_type for v in node.inputs)
    shapes = tuple(v.shape for v in node.inputs)
    found: str | None = None
    if a is not None and b is not None:
        strange = [t for t in (a, b) if t not in _SUPPORTED]
        if strange:
            node.note(TYPE, f"ConvertPromoteTypes does not take {strange[0]} inputs")
        else:
            try:
                found = common_type(a, b, unsafe, pytorch, target,
                                    tuple(None if s is None else len(s) for s in shapes))
            except Unpromotable as err:
                node.note(TYPE, str(err))
    return Result(shapes, (found, found))


SPECS = {"convertpromotetypes": (OpSpec("ConvertPromoteTypes", (14, 16), fields=_FIELDS,
                                        infer=_infer),)}
