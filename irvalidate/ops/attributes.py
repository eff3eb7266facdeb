"""The ``<data>`` attributes of the broadcasting layers, validated as OpenVINO reads them.

Enum values are matched case-insensitively but not whitespace-tolerantly; integers use
OpenVINO's prefix parse (``"1.5"`` is 1, ``"0x1"`` is 0); a missing pdpd axis is 0.

The pydantic models are built when the first attribute is validated (``_models``): importing
pydantic and building them costs more than validating a small IR, which an IR without
broadcasting layers should not pay.  ``AutoBroadcast`` and ``BroadcastMode`` stay module
attributes.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal, Mapping, Optional, Tuple

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError
    AutoBroadcast = BroadcastMode = BaseModel  # built by _build() on first use

AUTO_BROADCAST_VALUES = ("none", "explicit", "numpy", "pdpd")
BROADCAST1_MODES = ("none", "explicit", "numpy", "pdpd")
BROADCAST3_MODES = ("none", "explicit", "numpy", "pdpd", "bidirectional")

_INT_PREFIX = re.compile(r"\s*[+-]?[0-9]+", re.ASCII)


def parse_int(text: str) -> int:
    """OpenVINO's prefix parse of an int64 attribute: ``"1.5"`` is 1, ``"abc"`` an error."""
    match = _INT_PREFIX.match(text)
    if match is None or len(match.group().strip().lstrip("+-")) > 19:
        raise ValueError(f"cannot parse {text[:40]!r} as an integer")
    value = int(match.group())
    if not -(1 << 63) <= value < (1 << 63):
        raise ValueError(f"{text[:40]!r} is out of the int64 range")
    return value


def _enum(value: object, legal: Tuple[str, ...]) -> str:
    lowered = str(value).lower()
    if lowered not in legal:
        raise ValueError(f"{value!r} is not one of: {', '.join(legal)}")
    # explicit is an alias of none for every op that accepts both
    return "none" if lowered == "explicit" else lowered


_BUILT: dict = {}


def _models() -> tuple:
    """(AutoBroadcast, BroadcastMode, pydantic.ValidationError), built on first use."""
    # setdefault: threads racing through the first use all get the pair that is kept
    return _BUILT.get("models") or _BUILT.setdefault("models", _build())


def _build() -> tuple:
    from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

    class _Attrs(BaseModel):
        model_config = ConfigDict(frozen=True)

        @field_validator("axis", mode="before", check_fields=False)
        @classmethod
        def _axis(cls, value: object) -> object:
            return parse_int(value) if isinstance(value, str) else value

    class AutoBroadcast(_Attrs):
        """Elementwise ops, Select, FakeQuantize: ``auto_broadcast`` + ``auto_broadcast.auto_broadcast_axis``."""
        mode: Literal["none", "numpy", "pdpd"] = "numpy"
        axis: int = 0
        axis_given: bool = False

        @field_validator("mode", mode="before")
        @classmethod
        def _mode(cls, value: object) -> str:
            return _enum(value, AUTO_BROADCAST_VALUES)

    class BroadcastMode(_Attrs):
        """Broadcast-1 (``mode`` + ``mode.auto_broadcast_axis``) and -3 (``mode`` + ``mode.mode.axis``)."""
        mode: Literal["none", "numpy", "pdpd", "bidirectional"]
        axis: int = 0
        axis_given: bool = False

    for model in (AutoBroadcast, BroadcastMode):
        model.__qualname__ = model.__name__  # named like the top-level classes they were
    return AutoBroadcast, BroadcastMode, ValidationError


def __getattr__(name: str) -> type:
    if name in ("AutoBroadcast", "BroadcastMode"):
        return _models()[name == "BroadcastMode"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _describe(err: ValidationError, names: Mapping[str, str]) -> str:
    parts = []
    for item in err.errors():
        field = names.get(str(item["loc"][0]), str(item["loc"][0])) if item["loc"] else "?"
        message = item["msg"].removeprefix("Value error, ")
        parts.append(f"attribute {field}: {message}")
    return "; ".join(parts)


class AttrError(ValueError):
    """An illegal attribute value; the message lists the legal ones."""


def auto_broadcast(data: Mapping[str, str]) -> AutoBroadcast:
    model, _, validation_error = _models()
    names = {"mode": "auto_broadcast", "axis": "auto_broadcast.auto_broadcast_axis"}
    raw = {"mode": data.get("auto_broadcast", "numpy")}
    axis = data.get("auto_broadcast.auto_broadcast_axis")
    if axis is not None:
        raw.update(axis=axis, axis_given=True)
    try:
        return model(**raw)
    except validation_error as err:
        raise AttrError(_describe(err, names)) from None


def broadcast_mode(data: Mapping[str, str], v3: bool, input_count: int) -> BroadcastMode:
    _, model, validation_error = _models()
    axis_name = "mode.mode.axis" if v3 else "mode.auto_broadcast_axis"
    names = {"mode": "mode", "axis": axis_name}
    legal = BROADCAST3_MODES if v3 else BROADCAST1_MODES
    value: Optional[str] = data.get("mode")
    try:
        if value is None:
            # Broadcast-1 defaults to none (explicit) with 3 inputs, numpy with 2; -3 to numpy
            mode = "none" if (not v3 and input_count >= 3) else "numpy"
        else:
            mode = _enum(value, legal)
        if not v3 and mode == "none" and input_count < 3:
            mode = "numpy"  # Broadcast-1 silently turns explicit into numpy without axes
        raw = {"mode": mode}
        axis = data.get(axis_name)
        if axis is not None:
            raw.update(axis=axis, axis_given=True)
        return model(**raw)
    except ValueError as err:
        if isinstance(err, validation_error):
            raise AttrError(_describe(err, names)) from None
        raise AttrError(f"attribute mode: {err}") from None
