"""Reading ``<data>`` attributes as OpenVINO's reader does, and building their pydantic models lazily.

Enum values are matched case-insensitively but not whitespace-tolerantly; integers use
OpenVINO's prefix parse (``"1.5"`` is 1, ``"0x1"`` is 0); bools accept true/false/1/0.

An op module declares its attribute model with :func:`lazy_model`: the class is built when the
first layer of that op is read, because importing pydantic and building models costs more
than validating a small IR, which an IR without such layers should not pay.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, Mapping, Tuple

from .spec import ATTRIBUTE, OpError

_INT_PREFIX = re.compile(r"\s*[+-]?[0-9]+", re.ASCII)


def parse_int_prefix(text: str) -> int:
    """OpenVINO's prefix parse of an int64 attribute: ``"1.5"`` is 1, ``"abc"`` an error."""
    match = _INT_PREFIX.match(text)
    if match is None or len(match.group().strip().lstrip("+-")) > 19:
        raise ValueError(f"cannot parse {text[:40]!r} as an integer")
    value = int(match.group())
    if not -(1 << 63) <= value < (1 << 63):
        raise ValueError(f"{text[:40]!r} is out of the int64 range")
    return value


def parse_bool(text: str, default: bool) -> bool:
    """true/1 and false/0, as the reader reads them; anything else keeps the default."""
    lowered = text.strip().lower()
    if lowered in ("true", "1"):
        return True
    return False if lowered in ("false", "0") else default


def enum_value(value: object, legal: Tuple[str, ...]) -> str:
    """A case-insensitive enum value; ``explicit`` is an alias of ``none`` wherever both exist."""
    lowered = str(value).lower()
    if lowered not in legal:
        raise ValueError(f"{value!r} is not one of: {', '.join(legal)}")
    return "none" if lowered == "explicit" else lowered


_BUILT: Dict[Callable[[], type], type] = {}
#: pydantic's ValidationError, once a model has been built (an import statement in the hot
#: path costs a microsecond per layer)
_ERRORS: list = []


def lazy_model(build: Callable[[], type]) -> Callable[[], type]:
    """``build`` returns a pydantic model class; the returned function builds it once."""
    def model() -> type:
        found = _BUILT.get(build)
        if found is None:
            from pydantic import ValidationError
            _ERRORS[:] = [ValidationError]
            # setdefault: threads racing through the first use all get the one class kept
            found = _BUILT.setdefault(build, build())
        return found
    return model


def validate(model: Callable[[], type], raw: Dict[str, Any], names: Mapping[str, str]) -> Any:
    """An instance of the lazily built model, or an attribute OpError naming each IR attribute
    (``names``: field -> the attribute as the IR spells it)."""
    built = model()
    try:
        return built(**raw)
    except _ERRORS[0] as err:
        parts = []
        for item in err.errors():
            field = names.get(str(item["loc"][0]), str(item["loc"][0])) if item["loc"] else "?"
            parts.append(f"attribute {field}: {item['msg'].removeprefix('Value error, ')}")
        raise OpError(ATTRIBUTE, "; ".join(parts)) from None
