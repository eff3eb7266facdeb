"""IRV108 unknown-attribute: a ``<data>`` attribute the op does not have.

OpenVINO's reader reads the attributes an op knows and ignores every other one, so a
misspelled ``auto_brodcast="none"`` loads silently with the default (``numpy``): the model
does something else than its author wrote.  Checked for every op irvalidate models; the
names are those OpenVINO 2026.4 reads.  Attributes that converters wrote for years and the
reader ignores (``LEGACY``: Model Optimizer's ``output_padding`` on convolutions, ...) are
no one's typo and are left alone: in stock Intel models they would be hundreds of warnings.
A layer gets one warning, naming every attribute of it the reader ignores.

Passing::

    <layer id="2" type="Add" version="opset1"><data auto_broadcast="none"/>

Failing (ignored by the reader, which uses numpy broadcasting)::

    <layer id="2" type="Add" version="opset1"><data auto_brodcast="none"/>
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Set as AbstractSet

from ..ir import opsets
from ..ops.support.registry import lookup
from ._common import Context
from .findings import Problem

CODE = "IRV108"
SLUG = "unknown-attribute"
LEVEL = "warning"
SUMMARY = "A <data> attribute the op does not have: OpenVINO ignores it silently."

#: (type, attribute) pairs converters wrote that the reader ignores, seen in real files:
#: Model Optimizer 2020-2022 (IR v10) and its Caffe/TensorFlow object-detection front ends
#: (wild-corpus, gh-* repositories).  Not MaxPool-8's ``dilations`` or ``axis`` on a layer
#: marked opset1: the reader then builds MaxPool-1 and drops them, which is worth a warning.
LEGACY = frozenset({
    ("convolution", "output_padding"), ("groupconvolution", "output_padding"),
    ("priorboxclustered", "flip"), ("priorboxclustered", "img_h"),
    ("priorboxclustered", "img_w"), ("priorboxclustered", "img_size"),
    *(("detectionoutput", name) for name in (
        "eta", "height", "height_scale", "interp_mode", "pad_mode", "pad_value", "prob",
        "resize_mode", "visualize", "visualize_threshold", "width", "width_scale")),
})


def check(ctx: Context) -> Iterator[Problem]:
    """One warning per layer, naming every attribute of it the reader ignores."""
    for layer in ctx.analysis.layers.values():
        if not layer.data or opsets.is_extension(layer.version, layer.type):
            continue
        spec = lookup(layer.type, layer.version)
        known = None if spec is None or spec.source else spec.attributes
        if known is None:
            continue  # not modelled, or its attributes not listed yet
        kind = layer.type.lower()
        unknown = [name for name in layer.data if name not in known and (kind, name) not in LEGACY]
        if unknown:
            yield Problem(f"{layer.describe()}: {_words(unknown, known, layer.data)}", at=layer,
                          layer=layer, scope=ctx.graph.scope)


def _words(unknown: list[str], known: AbstractSet[str], data: Mapping[str, str]) -> str:
    """``unknown attribute 'x': OpenVINO ignores it; did you mean 'y'?``, or for several
    ``unknown attributes 'a' (did you mean 'b'?) and 'c': OpenVINO ignores them; it has ...``."""
    import difflib  # for an unknown attribute only: a clean file never needs it

    unused = sorted(known - set(data))
    close = {name: difflib.get_close_matches(name, unused, n=1, cutoff=0.6) for name in unknown}
    listing = sorted(known)
    rest = (f"; it has {', '.join(listing)}" if listing else
            f"; it has none: remove {'it' if len(unknown) == 1 else 'them'}")
    if len(unknown) == 1:
        [name] = unknown
        hint = f"; did you mean {close[name][0]!r}?" if close[name] else rest
        return f"unknown attribute {name!r}: OpenVINO ignores it{hint}"
    named = [f"{name!r}" + (f" (did you mean {close[name][0]!r}?)" if close[name] else "")
             for name in unknown]
    tail = rest if not all(close.values()) else ""
    return (f"unknown attributes {', '.join(named[:-1])} and {named[-1]}: OpenVINO ignores "
            f"them{tail}")
