"""IRV212 unknown-op-type: the layer's ``type`` does not exist in the opset its ``version`` names.

OpenVINO looks the type up in the named opset (case-insensitively) and fails with "Opset
opsetN doesn't contain the operation with type" — but only for layers that reach a Result.
The opset tables come from OpenVINO 2026.4 itself.  An ``opsetN`` that OpenVINO does not
have (``opset99``) is reported; any other ``version`` names a custom extension's opset, which
only that extension can check, so it is left alone.

Passing::

    <layer id="3" type="BitwiseAnd" version="opset13">

Failing (BitwiseAnd arrived in opset13; Add is not in the sparse opset17)::

    <layer id="3" type="BitwiseAnd" version="opset12">
    <layer id="4" type="Add" version="opset17">
"""
from __future__ import annotations

from typing import Iterator

from .. import opsets
from ..findings import Problem
from ._common import Context

CODE = "IRV212"
SLUG = "unknown-op-type"
LEVEL = "error"
SUMMARY = "The layer type does not exist in the opset its version attribute names."


def _where(layer_type: str) -> str:
    found = opsets.opsets_with(layer_type)
    if not found:
        return f"no opset of OpenVINO 2026.4 has a {opsets.canonical_type(layer_type)!r} operation"
    span = found[0] if len(found) == 1 else f"{found[0]} to {found[-1]}"
    gaps = len(found) != int(found[-1][5:]) - int(found[0][5:]) + 1
    return f"it exists in {', '.join(found) if gaps else span}"


def check(ctx: Context) -> Iterator[Problem]:
    for layer in ctx.analysis.layers.values():
        if not layer.type or not layer.version:
            continue  # the schema rule reports a missing attribute
        present = opsets.contains(layer.version, layer.type)
        if present is None:
            if opsets.looks_standard(layer.version):
                known = opsets.known_opsets()
                yield Problem(f"{layer.describe()}: OpenVINO 2026.4 cannot create a {layer.type!r} "
                              f"from opset {layer.version!r} (it has {known[0]} to {known[-1]}, "
                              f"names are case-sensitive)", line=layer.line, layer=layer,
                              scope=ctx.graph.scope)
            continue  # a custom extension's opset: only that extension can check it
        if not present:
            yield Problem(f"{layer.describe()}: {layer.version} has no "
                          f"{opsets.canonical_type(layer.type)!r} operation; "
                          f"{_where(layer.type)}", line=layer.line, layer=layer,
                          scope=ctx.graph.scope)
