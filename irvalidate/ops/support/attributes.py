"""Reading ``<data>`` attributes as OpenVINO's reader does, through pydantic validators built lazily.

Enum values are matched case-insensitively but not whitespace-tolerantly; integers use
OpenVINO's prefix parse (``"1.5"`` is 1, ``"0x1"`` is 0); bools accept true/false/1/0,
anything else keeps the default.

An op module declares its attribute model with :func:`lazy_model`: a pydantic-core validator
built from a core schema when the first layer of that op is read.  pydantic-core alone, not
pydantic's model classes: importing pydantic and building a model class cost 65 ms (measured),
more than validating a small IR, while a validator takes 0.1 ms once pydantic-core is in.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from .memo import keep
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
    """true/1 and false/0 in any case, as the reader reads them; anything else (``yes``, or
    `` true`` with a space: the reader does not strip) keeps the default (measured:
    tests/ops/test_bool_attributes.py).  Inference and value evaluation both read so."""
    lowered = text.lower()
    if lowered in ("true", "1"):
        return True
    return False if lowered in ("false", "0") else default


def enum_value(value: object, legal: tuple[str, ...]) -> str:
    """A case-insensitive enum value; ``explicit`` is an alias of ``none`` wherever both are
    legal (the broadcast specs); elsewhere (``auto_pad``) it is a value of its own."""
    lowered = str(value).lower()
    if lowered not in legal:
        raise ValueError(f"{value!r} is not one of: {', '.join(legal)}")
    return "none" if lowered == "explicit" and "none" in legal else lowered


_BUILT: dict[Callable[[], Any], Any] = {}
#: pydantic-core's ValidationError, once a validator has been built (an import statement in
#: the hot path costs a microsecond per layer)
_ERRORS: list = []


def lazy_model(build: Callable[[], Any]) -> Callable[[], Any]:
    """``build`` returns a pydantic-core core schema (a typed dict of the attributes); the
    returned function builds its validator once."""
    def model() -> Any:
        found = _BUILT.get(build)
        if found is None:
            from pydantic_core import SchemaValidator, ValidationError
            _ERRORS[:] = [ValidationError]
            # setdefault: threads racing through the first use all get the one validator kept
            found = _BUILT.setdefault(build, SchemaValidator(build()))
        return found
    return model


class Attributes(dict):
    """The validated attributes, read as ``attrs.mode`` or ``attrs["mode"]``."""
    if TYPE_CHECKING:  # (what the assignment below makes, as the checker can read it)
        def __getattr__(self, name: str) -> Any: ...
    else:
        __getattr__ = dict.__getitem__


def validate(model: Callable[[], Any], raw: dict[str, Any], names: Mapping[str, str]) -> Attributes:
    """The attributes as the lazily built validator gives them, or an attribute OpError
    naming each IR attribute (``names``: field -> the attribute as the IR spells it)."""
    built = model()
    try:
        return Attributes(built.validate_python(raw))
    except _ERRORS[0] as err:
        parts = []
        for item in err.errors():
            field = names.get(str(item["loc"][0]), str(item["loc"][0])) if item["loc"] else "?"
            parts.append(f"attribute {field}: {item['msg'].removeprefix('Value error, ')}")
        raise OpError(ATTRIBUTE, "; ".join(parts)) from None


def field(schema: Any, default: Any = ..., before: Callable[[Any], Any] | None = None) -> Any:
    """A typed-dict field of a core schema: ``before`` parses the IR's text first, ``default``
    fills a missing attribute (none: it is required)."""
    from pydantic_core import core_schema as cs
    if before is not None:
        schema = cs.no_info_before_validator_function(before, schema)
    if default is not ...:
        return cs.typed_dict_field(cs.with_default_schema(schema, default=default), required=False)
    return cs.typed_dict_field(schema)


def typed_dict(fields: dict[str, Any]) -> Any:
    from pydantic_core import core_schema as cs
    return cs.typed_dict_schema(fields)

# ---------------------------------------------------------------------- declared attributes
#
# An op declares its <data> attributes as Fields; read() gives their values, parsed as the
# runtime parses them (a missing attribute keeps the C++ default member value, which the
# Field says), through a pydantic model built from the Fields on first use.  A file repeats a
# few attribute combinations on thousands of layers: each distinct one is validated once.

_FLOAT_PREFIX = re.compile(r"\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_UINT64 = 1 << 64


class Field(NamedTuple):
    """One ``<data>`` attribute: its IR name, how it parses, its value when missing."""
    ir: str
    kind: str  # int, uint, ints, uints, float, floats, bool, enum, str, type
    default: Any
    #: enum: the legal values (lower case)
    values: tuple[str, ...] = ()


def parse_float_prefix(text: str) -> float:
    """A real attribute as the reader parses it (its numeric prefix)."""
    match = _FLOAT_PREFIX.match(text)
    if match is None:
        raise ValueError(f"cannot parse {text[:40]!r} as a number")
    return float(match.group())


def _items(text: str) -> list[str]:
    return [t for t in (p.strip() for p in text.split(",")) if t] if text.strip() else []


def _uint(text: str) -> int:
    value = parse_int_prefix(text)
    return value + _UINT64 if value < 0 else value  # -1 reads as 2^64 - 1, as in C++


def _parse(field: Field, text: str) -> Any:
    kind = field.kind
    if kind == "int":
        return parse_int_prefix(text)
    if kind == "uint":
        return _uint(text)
    if kind == "ints":
        return tuple(parse_int_prefix(t) for t in _items(text))
    if kind == "uints":
        return tuple(_uint(t) for t in _items(text))
    if kind == "float":
        return parse_float_prefix(text)
    if kind == "floats":
        return tuple(parse_float_prefix(t) for t in _items(text))
    if kind == "bool":
        return parse_bool(text, field.default)
    if kind == "enum":
        return enum_value(text, field.values)
    if kind == "type":
        from ...ir import elements
        found = elements.from_element_type(text)
        if found is None:
            raise ValueError(f"{text[:40]!r} is not an element type")
        return found
    return text


def _build_model(fields: tuple[Field, ...]) -> Any:
    from pydantic_core import core_schema as cs

    def parser(field_: Field):
        return lambda value: _parse(field_, value) if isinstance(value, str) else value
    return typed_dict({f"f{i}": field(cs.any_schema(), f.default, parser(f))
                       for i, f in enumerate(fields)})


_MODELS: dict[tuple[str, tuple[Field, ...]], Callable[[], Any]] = {}
#: (fields, attribute texts) -> their values (bounded: memo.keep)
_READ: dict[tuple[tuple[Field, ...], tuple[str | None, ...]], tuple[Any, ...]] = {}


def read(node_or_data: Any, name: str, fields: tuple[Field, ...]) -> tuple[Any, ...]:
    """The values of ``fields`` for a layer (or a ``<data>`` mapping), in order; an attribute
    OpError names every attribute that does not parse."""
    data = getattr(getattr(node_or_data, "layer", None), "data", node_or_data)
    raw = tuple(data.get(f.ir) for f in fields)
    key = (fields, raw)
    found = _READ.get(key)
    if found is None:
        found = direct(fields, raw)
        if found is None:
            found = _validated(name, fields, raw)
        keep(_READ, key, found)
    return found


def direct(fields: tuple[Field, ...], raw: tuple[str | None, ...]) -> tuple[Any, ...] | None:
    """What the model gives when every attribute parses: its schema is "anything" behind
    each field's own parser, with the field's default for a missing attribute, so running
    the parsers is running the model (tests/ops/test_attribute_models.py checks the two
    agree).  None when one does not parse: the model then words every failure at once,
    and a file whose attributes all parse never imports pydantic-core (~30 ms)."""
    try:
        return tuple(f.default if text is None else _parse(f, text) for f, text in zip(fields, raw))
    except ValueError:
        return None


def _validated(name: str, fields: tuple[Field, ...], raw: tuple[str | None, ...]) -> tuple[Any, ...]:
    """The attributes through the model (an attribute OpError when one does not parse)."""
    model = _MODELS.get((name, fields))
    if model is None:
        model = _MODELS.setdefault((name, fields), lazy_model(lambda: _build_model(fields)))
    given = {f"f{i}": text for i, text in enumerate(raw) if text is not None}
    names = {f"f{i}": f.ir for i, f in enumerate(fields)}
    parsed = validate(model, given, names)
    return tuple(parsed[f"f{i}"] for i in range(len(fields)))
