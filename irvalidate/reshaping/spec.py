"""``--reshape SPEC``: new input shapes written as ``ovc --input`` writes them.

``name[1,3,512,928]``, several comma-separated (``ids[1,2048],mask[1,2048]``), ``?`` or
``-1`` for a dynamic dim, ``a..b``, ``..b`` and ``a..`` for intervals, ``[]`` for a scalar,
and a bare ``[...]`` for a model with one input.  Names are matched later, against the
model (a Parameter's layer name or one of its output tensor names); a name may itself hold
commas, dots, slashes or colons, but not ``[``.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..shapes.dims import DYNAMIC, INF, Dim, format_shape

#: one requested input: its name (None: the model's only input) and its shape
Request = tuple[str | None, tuple[Dim, ...]]


class SpecError(ValueError):
    """A SPEC that does not parse; the message says where."""


def _dim(text: str, spec: str) -> Dim:
    item = text.strip()
    if item in ("?", "-1"):
        return DYNAMIC
    if ".." in item:
        low, _, high = item.partition("..")
        lo = _count(low, spec) if low.strip() else 0
        hi = _count(high, spec) if high.strip() else INF
        if hi != INF and lo > hi:
            raise SpecError(f"{spec!r}: the interval {item} is empty (its lower bound is above "
                            f"its upper bound)")
        return Dim(lo, hi)
    return Dim(_count(item, spec), _count(item, spec))


def _count(text: str, spec: str) -> int:
    item = text.strip()
    if not item.isdigit():
        raise SpecError(f"{spec!r}: {item!r} is not a dim (write a number, ?, -1 or an "
                        f"interval such as 1..8)")
    if len(item) > 18:
        raise SpecError(f"{spec!r}: {item} is too large for a dim")
    return int(item)


def parse_shape(body: str, spec: str) -> tuple[Dim, ...]:
    """The dims between one pair of brackets (``""`` is a scalar)."""
    if not body.strip():
        return ()
    return tuple(_dim(item, spec) for item in body.split(","))


def parse(spec: str) -> list[Request]:
    """Every input a SPEC names, in order; SpecError when it does not parse."""
    requests: list[Request] = []
    rest = spec
    while True:
        opening = rest.find("[")
        if opening < 0:
            raise SpecError(f"{spec!r}: expected NAME[dims] (a shape in square brackets, "
                            f"e.g. x[1,3,224,224])" if not requests else
                            f"{spec!r}: {rest!r} after the last shape has no [dims]")
        closing = rest.find("]", opening)
        if closing < 0:
            raise SpecError(f"{spec!r}: a '[' is not closed")
        name = rest[:opening].strip()
        if "]" in name:
            raise SpecError(f"{spec!r}: a ']' without its '['")
        if requests and not name:
            raise SpecError(f"{spec!r}: only a model with one input takes a bare [dims]; "
                            f"name each input")
        shape = parse_shape(rest[opening + 1:closing], spec)
        if "[" in rest[opening + 1:closing]:
            raise SpecError(f"{spec!r}: brackets inside a shape")
        requests.append((name or None, shape))
        rest = rest[closing + 1:]
        if not rest.strip():
            break
        if not rest.lstrip().startswith(","):
            raise SpecError(f"{spec!r}: expected ',' between inputs, found {rest.strip()[:20]!r}")
        rest = rest.lstrip()[1:]
    if requests[0][0] is None and len(requests) > 1:
        raise SpecError(f"{spec!r}: only a model with one input takes a bare [dims]; name "
                        f"each input")
    return requests


def parse_each(specs: Sequence[str]) -> list[list[Request]]:
    """Each ``--reshape`` option given, a request of its own (tried on its own), in order;
    SpecError for one that does not parse, or the same request given twice."""
    found = [parse_all([spec]) for spec in specs]
    for index, request in enumerate(found):
        if request in found[:index]:
            raise SpecError(f"{specs[index]!r} is given twice")
    return found


def parse_all(specs: Sequence[str]) -> list[Request]:
    """The inputs of every SPEC given, as one request (``shapes --reshape``), in order."""
    found: list[Request] = []
    for spec in specs:
        found.extend(parse(spec))
    names = [name for name, _ in found if name is not None]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SpecError(f"{twice[0]!r} is given twice")
    if len(found) > 1 and any(name is None for name, _ in found):
        raise SpecError("a bare [dims] is for a model with one input, and only alone; name "
                        "each input")
    return found


def describe(request: Request) -> str:
    name, shape = request
    return f"{name or ''}{format_shape(shape)}"


def _api_dim(item) -> Dim:
    if isinstance(item, bool):
        raise SpecError(f"{item!r} is not a dim")
    if isinstance(item, int):
        if item < -1:
            raise SpecError(f"{item} is not a dim (write -1 for a dynamic one)")
        return DYNAMIC if item == -1 else Dim(item, item)
    if isinstance(item, str):
        return _dim(item, item)
    if isinstance(item, (tuple, list)) and len(item) == 2:
        lo, hi = item
        lo = 0 if lo in (None, -1) else lo
        hi = INF if hi in (None, -1) else hi
        if not all(isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in (lo, hi)) \
                or lo > hi:
            raise SpecError(f"{item!r} is not an interval (lo, hi) with 0 <= lo <= hi")
        return Dim(lo, hi)
    raise SpecError(f"{item!r} is not a dim (an int, -1, '?', 'a..b' or a (lo, hi) pair)")


def api_shape(shape) -> tuple[Dim, ...]:
    """A shape as the Python API takes it: a list of dims (ints, -1, '?', 'a..b' or (lo, hi)
    pairs) or a string such as ``"1,3..5,?"`` (brackets allowed)."""
    if isinstance(shape, str):
        text = shape.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        return parse_shape(text, shape)
    try:
        return tuple(_api_dim(item) for item in shape)
    except TypeError:
        raise SpecError(f"{shape!r} is not a shape") from None


def from_api(shapes) -> list[Request]:
    """``{name: shape}``, or one shape for a model with one input."""
    if isinstance(shapes, dict):
        return [(str(name), api_shape(shape)) for name, shape in shapes.items()]
    return [(None, api_shape(shapes))]
