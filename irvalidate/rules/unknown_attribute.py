"""IRV108 unknown-attribute: a ``<data>`` attribute the op does not have.

OpenVINO's reader reads the attributes an op knows and ignores every other one, so a
misspelled ``auto_brodcast="none"`` loads silently with the default (``numpy``): the model
does something else than its author wrote.  Checked for the ops irvalidate models
(elementwise, Select, FakeQuantize, Broadcast, the shape-preserving unary ops); the names
are those OpenVINO 2026.4 reads.

Passing::

    <layer id="2" type="Add" version="opset1"><data auto_broadcast="none"/>

Failing (ignored by the reader, which uses numpy broadcasting)::

    <layer id="2" type="Add" version="opset1"><data auto_brodcast="none"/>
"""
from __future__ import annotations

import difflib
from typing import Iterator

from ..findings import Problem
from ..ir import opsets
from ..ops.registry import lookup
from ._common import Context

CODE = "IRV108"
SLUG = "unknown-attribute"
LEVEL = "warning"
SUMMARY = "A <data> attribute the op does not have: OpenVINO ignores it silently."


def check(ctx: Context) -> Iterator[Problem]:
    for layer in ctx.analysis.layers.values():
        if not layer.data or opsets.is_extension(layer.version, layer.type):
            continue
        spec = lookup(layer.type, layer.version)
        known = None if spec is None or spec.source else spec.attributes
        if known is None:
            continue  # not modelled, or its attributes not listed yet
        for name in layer.data:
            if name in known:
                continue
            unused = sorted(known - set(layer.data))
            close = difflib.get_close_matches(name, unused, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else (
                f"; it has {', '.join(sorted(known))}" if known else "; it has none: remove it")
            yield Problem(f"{layer.describe()}: unknown attribute {name!r}: OpenVINO ignores it"
                          f"{hint}", at=layer, layer=layer, scope=ctx.graph.scope)
