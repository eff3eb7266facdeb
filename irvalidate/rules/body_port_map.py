"""IRV216 body-port-map: a TensorIterator/Loop/If port map or back edge names a missing
layer or port.

``external_port_id`` names a port of the outer layer (-1: not connected); an input's
``internal_layer_id`` names a Parameter of the body, an output's a Result.  Back edges run
from a body Result to a body Parameter.  If's ``then_port_map`` maps into ``then_body`` and
``else_port_map`` into ``else_body``.

Passing::

    <port_map><input external_port_id="0" internal_layer_id="0"/></port_map>  <!-- body layer 0
                                                                               is a Parameter -->

Failing::

    <port_map><input external_port_id="7" internal_layer_id="0"/></port_map>  <!-- no port 7 -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir.records import Layer
from ._common import Context
from .findings import Problem

CODE = "IRV216"
SLUG = "body-port-map"
LEVEL = "error"
SUMMARY = "A TensorIterator/Loop/If port map or back edge names a missing layer or port."

_BODY_OF = {"port_map": "body", "then_port_map": "then_body", "else_port_map": "else_body"}
_INNER = {"input": "parameter", "output": "result"}


def _entries(ctx: Context, layer: Layer) -> Iterator[Problem]:
    for entry in layer.port_maps:
        body = layer.body(_BODY_OF[entry.section])
        where = f"{layer.describe()}: <{entry.section}> {entry.direction}"
        if body is None:
            yield Problem(f"{where}: the layer has no <{_BODY_OF[entry.section]}>",
                          at=entry, layer=layer, scope=ctx.graph.scope)
            continue
        ports = layer.inputs if entry.direction == "input" else layer.outputs
        if entry.external_port_id != "-1" and all(p.id != entry.external_port_id for p in ports):
            yield Problem(f"{where} names external port {entry.external_port_id!r}, which is not "
                          f"an {entry.direction} port of the layer (OpenVINO 2026.4 tolerates "
                          f"this, using the id only to order ports)", at=entry, layer=layer,
                          port=entry.external_port_id, scope=ctx.graph.scope)
        inner = body.layers_by_id().get(entry.internal_layer_id)
        want = _INNER[entry.direction]
        if inner is None:
            yield Problem(f"{where} names internal layer {entry.internal_layer_id!r}, which is "
                          f"not in the {body.kind.replace('_', ' ')}", at=entry,
                          layer=layer, scope=ctx.graph.scope)
        elif inner.type.lower() != want:
            yield Problem(f"{where} names internal layer {inner.describe()}, but an "
                          f"{entry.direction} maps to a body {want.capitalize()}",
                          at=entry, layer=layer, scope=ctx.graph.scope)


def _back_edges(ctx: Context, layer: Layer) -> Iterator[Problem]:
    body = layer.body("body")
    inner = body.layers_by_id() if body is not None else {}
    for edge in layer.back_edges:
        for end, lid, want in (("from", edge.from_layer, "result"), ("to", edge.to_layer, "parameter")):
            target = inner.get(lid)
            if target is None:
                yield Problem(f"{layer.describe()}: back edge {edge.from_layer} -> {edge.to_layer}: "
                              f"its {end}-layer {lid!r} is not in the body", at=edge,
                              layer=layer, scope=ctx.graph.scope)
            elif target.type.lower() != want:
                yield Problem(f"{layer.describe()}: back edge {edge.from_layer} -> {edge.to_layer}: "
                              f"its {end}-layer is {target.describe()}, not a body "
                              f"{want.capitalize()}", at=edge, layer=layer,
                              scope=ctx.graph.scope)


def check(ctx: Context) -> Iterator[Problem]:
    for layer in ctx.analysis.layers.values():
        if layer.port_maps or layer.back_edges:
            yield from _entries(ctx, layer)
            yield from _back_edges(ctx, layer)
