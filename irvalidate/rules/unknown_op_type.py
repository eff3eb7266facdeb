"""IRV212 unknown-op-type: the layer's ``type`` does not exist in the opset its ``version`` names.

OpenVINO looks the type up in the named opset (case-insensitively) and fails with "Opset
opsetN doesn't contain the operation with type" — but only for layers that reach a Result.
The opset tables come from OpenVINO 2026.4 itself.  An ``opsetN`` that OpenVINO does not
have (``opset99``) is reported.  ``version="extension"`` (what the serializer writes for an
op a runtime extension registers, such as openvino_tokenizers' RegexSplit) and any version
that does not look like an opset name a custom extension's op, which only that extension can
check: they are left alone here (IRV217 extension-op says which package they need).

Passing::

    <layer id="3" type="BitwiseAnd" version="opset13">

Failing (BitwiseAnd arrived in opset13; Add is not in the sparse opset17)::

    <layer id="3" type="BitwiseAnd" version="opset12">
    <layer id="4" type="Add" version="opset17">
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ir import opsets
from ._common import Context
from .findings import Problem

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


def _unknown_version(layer) -> str:
    known = opsets.known_opsets()
    text = (f"{layer.describe()}: OpenVINO 2026.4 cannot create a {layer.type!r} from opset "
            f"{layer.version!r} (it has {known[0]} to {known[-1]})")
    spelled = [name for name in known if name.lower() == layer.version.lower()]
    if spelled:
        return text + f"; opset names are case-sensitive: write version=\"{spelled[0]}\""
    return text + "; set version to an opset that has the operation"


def _suggestion(layer_type: str) -> str:
    """`` did you mean 'Add'?`` for a near miss of a type some opset has."""
    import difflib  # for an unknown type only: a clean file never needs it
    close = difflib.get_close_matches(layer_type.lower(), opsets.all_types_lowered(), n=1, cutoff=0.8)
    return f"; did you mean {opsets.spelling(close[0])!r}?" if close else ""


def check(ctx: Context) -> Iterator[Problem]:
    for layer in ctx.analysis.layers.values():
        if not layer.type or not layer.version:
            continue  # the schema rule reports a missing attribute
        if opsets.is_extension(layer.version, layer.type):
            continue  # only the extension that registers it can check it (extension-op says so)
        present = opsets.contains(layer.version, layer.type)
        if present is None:
            yield Problem(_unknown_version(layer), at=layer, layer=layer,
                          scope=ctx.graph.scope)
        elif not present:
            where = _where(layer.type)
            hint = _suggestion(layer.type) if where.startswith("no opset") else \
                "; set version to one of those opsets"
            yield Problem(f"{layer.describe()}: {layer.version} has no "
                          f"{opsets.canonical_type(layer.type)!r} operation; {where}{hint}",
                          at=layer, layer=layer, scope=ctx.graph.scope)
