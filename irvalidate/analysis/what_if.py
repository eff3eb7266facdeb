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


def parameters(graph: Graph) -> list[tuple[Layer, Shape]]:
    """The graph's Parameters in order, each with the shape its attribute gives (None: a
    dynamic rank or none)."""
    found = []
    for layer in graph.layers:
        if layer.type.lower() == "parameter":
            shapes, _, _ = outputs_of(layer)
            found.append((layer, shapes[0] if shapes else None))
    return found


def inputs_listing(graph: Graph, names: dict[str, list[str]]) -> str:
    rows = []
    for layer, shape in parameters(graph):
        extra = [n for n in names.get(layer.id, []) if n != layer.name]
        also = f" (tensor names: {', '.join(extra)})" if extra else ""
        rows.append(f"  {layer.name}{format_shape(shape)}{also}")
    return "the model's inputs:\n" + ("\n".join(rows) if rows else "  (none)")


class NotApplicable(NamedTuple):
    """A request that does not fit a file (``--reshape`` over folders of different models):
    the file is not reshaped, and IRV303 says why."""
    #: the request as written back (``x[1,3,8,8]``)
    request: str
    #: why, in one line: the names asked for and the inputs the file has
    reason: str
    #: why, as a usage error says it (the model's inputs listed, a line each)
    usage: str = ""


#: one input of a request: its name (None: the model's only input) and its new shape
Wanted = tuple[str | None, tuple[Dim, ...]]


def _inputs_line(graph: Graph) -> str:
    """The model's inputs in one line: ``x[1,3,8,8], ids[1,?]``."""
    listed = [f"{layer.name}{format_shape(shape)}" for layer, shape in parameters(graph)]
    return ", ".join(listed) if listed else "none"


def _misfit(graph: Graph, requests: Sequence[Wanted], by_name: dict[str, Layer]) -> str:
    """Why the requests do not fit, in one line, when some name is no input of the file."""
    asked = [name for name, _ in requests if name is not None]
    missing = [name for name in asked if name not in by_name]
    has = [name for name in asked if name in by_name]
    quoted = ", ".join(repr(n) for n in missing)
    word = "input" if len(missing) == 1 else "inputs"
    partly = (f"; of the inputs asked for it has {', '.join(repr(n) for n in has)}, and a "
              f"request is tried only whole" if has else "")
    return f"the file has no {word} named {quoted}{partly} (its inputs: {_inputs_line(graph)})"


def fit(graph: Graph, names: dict[str, list[str]],
        requests: Sequence[Wanted], label: str) -> dict[str, Shape] | NotApplicable:
    """``resolve``'s new shapes, or why the requests do not fit this file (NotApplicable,
    ``label`` naming the request): a name that is no input, a rank that differs, a bare
    ``[dims]`` on a model with several inputs."""
    try:
        return resolve(graph, names, requests)
    except UsageError as err:
        by_name = _aliases([layer for layer in graph.layers
                            if layer.type.lower() == "parameter"], names)
        if any(name is not None and name not in by_name for name, _ in requests):
            return NotApplicable(label, _misfit(graph, requests, by_name), str(err))
        first = str(err).split("\n", 1)[0]
        return NotApplicable(label, f"{first} (its inputs: {_inputs_line(graph)})", str(err))


def _aliases(params: list[Layer], names: dict[str, list[str]]) -> dict[str, Layer]:
    """Every name a Parameter answers to (its layer name, its tensor names), first wins."""
    by_name: dict[str, Layer] = {}
    for layer in params:
        for alias in [layer.name] + names.get(layer.id, []):
            by_name.setdefault(alias, layer)
    return by_name


def resolve(graph: Graph, names: dict[str, list[str]],
            requests: Sequence[tuple[str | None, tuple[Dim, ...]]]) -> dict[str, Shape]:
    """The new shape of each Parameter a request names, by layer id; UsageError for a name
    that is no input, a rank that differs, or two shapes for one input."""
    params = [layer for layer in graph.layers if layer.type.lower() == "parameter"]
    by_name = _aliases(params, names)
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
