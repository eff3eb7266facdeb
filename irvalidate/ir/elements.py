"""Element types: the names IR files use for them, their bit widths and their families."""
from __future__ import annotations

from typing import TypeGuard

#: canonical element_type name -> bit width (ov_semantics.md §4.6)
BITS: dict[str, int] = {
    "boolean": 8, "bf16": 16, "f16": 16, "f32": 32, "f64": 64,
    "f8e4m3": 8, "f8e5m2": 8, "f8e8m0": 8, "f4e2m1": 4, "nf4": 4,
    "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64,
    "u1": 1, "u2": 2, "u3": 3, "u4": 4, "u6": 6, "u8": 8, "u16": 16, "u32": 32, "u64": 64,
    "string": 0, "dynamic": 0,
}

#: legacy port ``precision`` spellings -> canonical names (the serializer writes these)
_LEGACY = {
    "FP16": "f16", "FP32": "f32", "FP64": "f64", "BF16": "bf16", "BOOL": "boolean",
    "BIN": "u1", "UNSPECIFIED": "dynamic", "STRING": "string", "NF4": "nf4",
    "F8E4M3": "f8e4m3", "F8E5M2": "f8e5m2", "F8E8M0": "f8e8m0", "F4E2M1": "f4e2m1",
}
_LEGACY.update({name.upper(): name for name in BITS if name[0] in "iu" and name[1:].isdigit()})

#: canonical name -> the legacy spelling older files use (U1 rather than BIN)
_LEGACY_SPELLING = {canonical: legacy for legacy, canonical in _LEGACY.items() if legacy != "BIN"}


def legacy_precision(element_type: str) -> str | None:
    """The legacy port ``precision`` spelling of a canonical type (``f32`` -> ``FP32``)."""
    return _LEGACY_SPELLING.get(element_type)


INTEGRAL = frozenset(n for n in BITS if n[0] in "iu" and n[1:].isdigit())
SIGNED = frozenset(n for n in INTEGRAL if n.startswith("i"))
#: the floating-point types (``element::Type::is_real``; nf4 is not one, measured)
REAL = frozenset({"bf16", "f16", "f32", "f64", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1"})


def from_precision(precision: str | None) -> str | None:
    """Canonical type of a port ``precision`` (legacy or canonical spelling), or None."""
    if precision is None:
        return None
    if precision in _LEGACY:
        return _LEGACY[precision]
    lowered = precision.lower()
    return lowered if lowered in BITS else None


def from_element_type(name: str | None) -> str | None:
    """Canonical type of a ``<data element_type>``: canonical names, any case."""
    if name is None:
        return None
    lowered = name.lower()
    if lowered == "undefined":
        return "dynamic"
    return lowered if lowered in BITS else None


def merge(a: str | None, b: str | None) -> str | None:
    """``element::Type::merge``: dynamic (or unknown) merges with anything; else must match.

    Returns the merged type; raises ValueError when both are known and differ.
    """
    if a in (None, "dynamic"):
        return b
    if b in (None, "dynamic") or a == b:
        return a
    raise ValueError(f"{a} and {b}")


def is_known(et: str | None) -> TypeGuard[str]:
    return et is not None and et != "dynamic"
