"""A what-if analysis (``--reshape``): the model's Parameters take new shapes, and the graph
is re-inferred the way ``Model.reshape`` does it, with SmartReshape's rewrites
(:mod:`.smart_reshape`) applied to the layers they match.

The declared dims of the file describe the old shapes, so nothing here trusts them: a layer
irvalidate does not infer, or one that the new shapes make the runtime refuse, passes on a
dynamic rank.  A rewrite replaces what reaches a layer (an input's value, the layer's
attributes), never the records themselves, so findings keep their lines.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..ir.records import Graph, Layer
from ..ops.parameter_const import outputs_of
from ..ops.support.spec import Value
from ..shapes.dims import DYNAMIC, Dim, Shape, format_shape

#: (layer, what reaches its inputs, the propagation) -> the layer and inputs its op sees
#: (no layer: the rewrite removes it)
Apply = Callable[[Layer, list[Value], Any], tuple[Layer | None, list[Value]]]


class Rewrite(NamedTuple):
    """One of SmartReshape's rewrites, matched on the graph as read."""
    layer: Layer
    transformation: str
    #: what it changes, in words ("the target [1,64] becomes [-1,K], K = 64 from ...")
    detail: str
    apply: Apply
    #: False for a layer a rewrite removes (reported with the layer that takes its place)
    shown: bool = True


class UsageError(ValueError):
    """A request the model cannot take (an unknown name, another rank); the message lists
    the model's inputs."""


class WhatIf:
    """What the propagation changes on the way: rewrites by layer id, and Consts whose
    values (``relaxed``) or shapes (``unshaped``) are taken as unknown (pinning trials)."""

    def __init__(self, rewrites: Sequence[Rewrite] = (), relaxed: Sequence[str] = (),
                 unshaped: Sequence[str] = ()) -> None:
        self.rewrites: dict[str, Rewrite] = {r.layer.id: r for r in rewrites}
        self.relaxed = frozenset(relaxed)
        self.unshaped = frozenset(unshaped)

    def rewrite(self, layer: Layer, inputs: list[Value],
                propagation: Any) -> tuple[Layer | None, list[Value]]:
        found = self.rewrites.get(layer.id)
        rewritten: Layer | None = layer
        if found is not None:
            rewritten, inputs = found.apply(layer, inputs, propagation)
        if self.relaxed or self.unshaped:
            inputs = [self._relax(v) for v in inputs]
        return rewritten, inputs

    def _relax(self, value: Value) -> Value:
        producer = value.producer
        if producer is None:
            return value
        if producer.id in self.unshaped and value.shape is not None:
            return Value((DYNAMIC,) * len(value.shape), value.element_type)
        if producer.id in self.relaxed:
            return Value(value.shape, value.element_type)
        return value


def inputs_listing(graph: Graph, names: dict[str, list[str]]) -> str:
    rows = []
    for layer in graph.layers:
        if layer.type.lower() == "parameter":
            shapes, _, _ = outputs_of(layer)
            shape = format_shape(shapes[0]) if shapes else "[...]"
            extra = [n for n in names.get(layer.id, []) if n != layer.name]
            also = f" (tensor names: {', '.join(extra)})" if extra else ""
            rows.append(f"  {layer.name}{shape}{also}")
    return "the model's inputs:\n" + ("\n".join(rows) if rows else "  (none)")


def resolve(graph: Graph, names: dict[str, list[str]],
            requests: Sequence[tuple[str | None, tuple[Dim, ...]]]) -> dict[str, Shape]:
    """The new shape of each Parameter a request names, by layer id; UsageError for a name
    that is no input, a rank that differs, or two shapes for one input."""
    params = [layer for layer in graph.layers if layer.type.lower() == "parameter"]
    by_name: dict[str, Layer] = {}
    for layer in params:
        for alias in [layer.name] + names.get(layer.id, []):
            by_name.setdefault(alias, layer)
    found: dict[str, Shape] = {}
    for name, shape in requests:
        if name is None:
            if len(params) != 1:
                raise UsageError(f"a bare [dims] is for a model with one input; this one has "
                                 f"{len(params)}: name each\n" + inputs_listing(graph, names))
            layer = params[0]
        else:
            named = by_name.get(name)
            if named is None:
                raise UsageError(f"no input is named {name!r}\n" + inputs_listing(graph, names))
            layer = named
        shapes, _, _ = outputs_of(layer)
        current = shapes[0] if shapes else None
        if current is not None and len(current) != len(shape):
            raise UsageError(f"input {layer.name!r} has rank {len(current)} "
                             f"{format_shape(current)}, but {format_shape(shape)} has rank "
                             f"{len(shape)}\n" + inputs_listing(graph, names))
        if layer.id in found and found[layer.id] != shape:
            raise UsageError(f"input {layer.name!r} is given two shapes: "
                             f"{format_shape(found[layer.id])} and {format_shape(shape)}")
        found[layer.id] = shape
    return found


def changes_anything(graph: Graph, new: dict[str, Shape]) -> bool:
    """Model.reshape does nothing (no rewrite either) when every input asked for is static
    and already has that shape; a dynamic input always counts as changed."""
    for layer in graph.layers:
        if layer.id in new:
            shapes, _, _ = outputs_of(layer)
            current = shapes[0] if shapes else None
            if current is None or not all(d.is_static for d in current) or current != new[layer.id]:
                return True
    return False
