"""How rules say what --fix may write: only what inference proves on its own.

A shape is proven when it follows from Parameters and Consts through layers irvalidate
infers; one that passes through a layer irvalidate does not infer (whose declared dims stand
in), a refused layer, or a body Parameter no outer layer sets (its outer layer is not
inferred) rests on declarations, and copying it into other ports could spread a stale dim.
Such fixes are blocked, and say why.  A body Parameter the outer layer sets is as proven as
that layer's inputs.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import elements
from ..ir.records import Layer, Port
from ..ops.support.spec import Value
from ..shapes.dims import Dim, Shape, format_dim
from .findings import Change, Fix, SetAttribute, SetDims, SetPrecision

if TYPE_CHECKING:  # _common imports this module
    from ._common import Context


def port_dims(shape: tuple[Dim, ...]) -> tuple[int, ...]:
    """How OpenVINO's serializer writes a shape on a port: static dims as themselves, every
    other dim (``?``, intervals) as -1."""
    return tuple(d.lo if d.is_static else -1 for d in shape)


def why_unproven(ctx: Context, value: Value | None) -> str | None:
    """Why a value is not proven by inference alone, or None when it is."""
    if value is None:
        return "nothing reaches this port"
    basis = value.rests_on
    if basis is None:
        if value.shape is None:
            return "the runtime infers a dynamic rank here, which a port cannot declare"
        if value.loose is not None and not all(d.is_static for d in value.shape):
            return (f"the values computed by {value.loose.describe()} are not evaluated here, "
                    f"so the runtime may know a dim that irvalidate infers as ? or an interval")
        return None
    where = basis.describe()
    kind = basis.type.lower()
    if kind in ("parameter", "const", "constant"):
        if ctx.graph.scope and kind == "parameter":
            return (f"it rests on {where}, a body Parameter whose shape the enclosing layer "
                    f"sets; fix it by hand, or re-export the model")
        return f"it rests on {where}, whose shape attribute cannot be read"
    inferred = ctx.analysis.inferences.get(basis.id)
    if inferred is not None and inferred.outputs is None:
        return f"it rests on {where}, which the runtime refuses; fix that layer first"
    return (f"it rests on the declared dims of {where}, which irvalidate does not infer; "
            f"check that layer by hand, or re-export the model")


def output_value(ctx: Context, layer: Layer, port: Port) -> Value | None:
    return ctx.analysis.propagation.outputs.get((layer.id, port.id))


def dims_fix(ctx: Context, layer: Layer, port: Port) -> Fix:
    """Write the inferred shape on an output port and on every input port it feeds."""
    value = output_value(ctx, layer, port)
    reason = why_unproven(ctx, value)
    if reason:
        return Fix(blocked=reason)
    dims = port_dims(value.shape)  # type: ignore[union-attr, arg-type]  # proven: value and shape
    changes: list[Change] = [SetDims(port, dims, layer)]
    changes += consumer_dims(ctx, layer, port, dims)
    return Fix(tuple(changes))


def consumer_dims(ctx: Context, layer: Layer, port: Port, dims: tuple[int, ...]) -> list[Change]:
    """The input ports an output port feeds that do not declare ``dims`` yet."""
    return [SetDims(target, dims, consumer)
            for consumer, target in ctx.analysis.edges.consumers((layer.id, port.id))
            if target.dims != dims and target.readable]


def input_dims_fix(ctx: Context, producer: Layer, source: Port, consumer: Layer,
                   target: Port) -> Fix:
    """Write on an input port the shape that reaches it, when inference proves it."""
    value = output_value(ctx, producer, source)
    reason = why_unproven(ctx, value)
    if reason:
        return Fix(blocked=reason)
    return Fix((SetDims(target, port_dims(value.shape), consumer),))  # type: ignore[union-attr, arg-type]  # proven: value and shape


def precision_fix(ctx: Context, layer: Layer, port: Port, element_type: str,
                  output: bool) -> Fix:
    """Write an inferred element type as a port's precision (an output's, and then on the
    input ports it feeds too)."""
    changes: list[Change] = [SetPrecision(port, element_type, layer)]
    if output:
        changes += [SetPrecision(target, element_type, consumer)
                    for consumer, target in ctx.analysis.edges.consumers((layer.id, port.id))
                    if elements.from_precision(target.precision) not in (element_type, None)]
    return Fix(tuple(changes))


def type_unproven(ctx: Context, value: Value | None) -> str | None:
    """Why a value's element type is not inferred, or None when it is."""
    if value is not None and value.typed:
        return None
    reason = why_unproven(ctx, value) if value is not None and value.rests_on is not None else None
    return reason or "its element type is not inferred (it comes from a declared precision)"


def source_shape_fix(ctx: Context, layer: Layer, port: Port, shape: Shape, text: str,
                     static_only: bool) -> Fix:
    """A Parameter's or Const's ``shape`` attribute against its port: either the port takes
    the attribute's shape (and so do the ports it feeds), or the attribute takes the port's.
    Which one agrees with the rest of the graph only trying both tells (irvalidate.fixing.run).
    A Const's shape must be static, so a port with -1 cannot win there."""
    dims = () if shape is None else port_dims(shape)
    attribute_wins = (SetDims(port, dims, layer),) + tuple(consumer_dims(ctx, layer, port, dims))
    if static_only and -1 in port.dims:
        return Fix(attribute_wins)
    # the serializer separates a Const's dims with ", " and a Parameter's with ","
    separator = ", " if static_only else ","
    return Fix(choices=(attribute_wins,
                        (SetAttribute(layer, "shape", shape_text(port.dims, shape, text, separator)),)))


def shape_text(dims: tuple[int | None, ...], shape: Shape, like: str, separator: str) -> str:
    """A shape attribute that says what a port declares; a -1 keeps the attribute's own
    interval there, when it had one, and is ``?`` otherwise (as the serializer writes).
    Dims are separated as in ``like`` when it has two or more, else by ``separator``."""
    of_same_rank = shape if shape is not None and len(shape) == len(dims) else None
    parts = []
    for axis, dim in enumerate(dims):
        if dim != -1:
            parts.append(str(dim))
        elif of_same_rank is not None and not of_same_rank[axis].is_static:
            parts.append(format_dim(of_same_rank[axis]))
        else:
            parts.append("?")
    if "," in like:
        separator = ", " if ", " in like else ","
    return separator.join(parts)


def source_type_fix(ctx: Context, layer: Layer, port: Port, element_type: str,
                    precision: str) -> Fix:
    """A Parameter's or Const's ``element_type`` against its port's precision: the same two
    ways as the shape (see source_shape_fix)."""
    attribute_wins = precision_fix(ctx, layer, port, element_type, output=True).changes
    return Fix(choices=(attribute_wins, (SetAttribute(layer, "element_type", precision),)))
