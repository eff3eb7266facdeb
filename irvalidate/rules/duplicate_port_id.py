"""IRV206 duplicate-port-id: two ports of one layer share an id.

Edges name ports by id, so an edge into a duplicated id is ambiguous; the serializer numbers
inputs from 0 and continues with the outputs, so ids are unique across both sections.

Passing::

    <input><port id="0"/><port id="1"/></input><output><port id="2"/></output>

Failing::

    <input><port id="0"/><port id="0"/></input><output><port id="2"/></output>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._common import Context
from .findings import Problem

CODE = "IRV206"
SLUG = "duplicate-port-id"
LEVEL = "error"
SUMMARY = "Two ports of one layer share an id, so edges to it are ambiguous."


def check(ctx: Context) -> Iterator[Problem]:
    for layer in ctx.graph.layers:
        seen: dict[str, str] = {}
        for section, ports in (("input", layer.inputs), ("output", layer.outputs)):
            for port in ports:
                if port.id in seen:
                    yield Problem(f"{layer.describe()}: {section} port id {port.id!r} is already "
                                  f"used by an {seen[port.id]} port of this layer; port ids are unique "
                                  f"across a layer's inputs and outputs: renumber it (and its "
                                  f"edges)",
                                  at=port, layer=layer, port=port.id, scope=ctx.graph.scope)
                else:
                    seen[port.id] = section
