"""Parameter and Constant: their outputs come from their own ``shape`` and ``element_type``.

The ``shape`` attribute is exact (intervals included), so this is where exact shapes start;
the runtime reads a missing ``shape`` as a scalar, whatever the port says.  A ``shape`` that
does not parse is noted (malformed-ir reads it) and the port's dims stand in.  A Const's
value is read from the ``.bin`` when a shape subgraph needs it (``const_value``).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..ir import elements
from ..ir.records import Layer
from ..shapes import values as vals
from ..shapes.dims import Dim, Shape, from_declared, parse_shape
from ..shapes.values import Origin, Tensor, Unresolved
from .support.evaluating import short
from .support.node import Node
from .support.spec import MALFORMED, OpSpec, Result


def outputs_of(layer: Layer) -> tuple[tuple[Shape, ...], str | None, tuple[str, ...]]:
    """(a shape per output port, the element type, what is malformed): what the analysis
    reads of every Parameter and Const, without a Node (half the layers of many files)."""
    et = elements.from_element_type(layer.data.get("element_type"))
    shapes: tuple[Shape, ...] = ()
    malformed: tuple[str, ...] = ()
    for port in layer.outputs:
        try:
            shape = parse_shape(layer.data.get("shape", ""))
        except ValueError:
            shape = tuple(from_declared(d) for d in port.dims)
            malformed += (f"{layer.describe()}: shape attribute {layer.data['shape']!r} cannot "
                          f"be parsed",)
        shapes += (shape,)
    return shapes, et, malformed


def _infer(node: Node) -> Result:
    shapes, et, malformed = outputs_of(node.layer)
    for message in malformed:
        node.note(MALFORMED, message)
    return Result(shapes, (et,) * len(shapes))


PARAMETER = OpSpec("Parameter", infer=_infer, source=True)
CONSTANT = OpSpec("Constant", infer=_infer, source=True)
SPECS = {"parameter": (PARAMETER,), "const": (CONSTANT,), "constant": (CONSTANT,)}


def _origin(layer: Layer, values: str) -> Origin:
    """A Const's value is named by the Const and its numbers, shown inline by its consumer."""
    return Origin(f"{_prefix(layer)}{values}", hidden=True)


def _prefix(layer: Layer) -> str:
    return f"Const '{layer.name}' "


def renamed(value: Tensor, made_for: Layer, layer: Layer) -> Tensor:
    """A Const's value made for another Const of the same payload (``made_for``), named
    after ``layer``."""
    return Tensor(value.shape, value.bounds, value.et,
                  _origin(layer, value.origin.label[len(_prefix(made_for)):]))


def const_value(layer: Layer, numbers: Sequence[float], shape: tuple[Dim, ...],
                et: str | None) -> Tensor | None:
    """A Const layer's value (its shape must be static and its type one we follow)."""
    if (et not in vals.RANGES and et not in vals.FLOAT_TYPES) or any(not d.is_static for d in shape):
        return None
    try:
        return vals.constant(numbers, [d.lo for d in shape], et, _origin(layer, short(numbers)))
    except Unresolved:
        return None
