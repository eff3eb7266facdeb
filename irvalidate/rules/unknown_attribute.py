"""IRV108 unknown-attribute: a ``<data>`` attribute the op does not have.

OpenVINO's reader reads the attributes an op knows and ignores every other one, so a
misspelled ``auto_brodcast="none"`` loads silently with the default (``numpy``): the model
does something else than its author wrote.  Checked for every op irvalidate models; the
names are those OpenVINO 2026.4 reads.  Attributes that converters wrote for years and the
reader ignores (``LEGACY``: Model Optimizer's ``output_padding`` on convolutions, ...) are
no one's typo and are left alone: in stock Intel models they would be hundreds of warnings.

Passing::

    <layer id="2" type="Add" version="opset1"><data auto_broadcast="none"/>

Failing (ignored by the reader, which uses numpy broadcasting)::

    <layer id="2" type="Add" version="opset1"><data auto_brodcast="none"/>
"""
from __future__ import annotations

from typing import Iterator

from ..findings import Problem
from ..ir import opsets
from ..ops.registry import lookup
from ._common import Context

CODE = "IRV108"
SLUG = "unknown-attribute"
LEVEL = "warning"
SUMMARY = "A <data> attribute the op does not have: OpenVINO ignores it silently."
#: streaming.py may run it on each batch of layers: it reads a layer's own attributes
STREAMING = "batch"

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
    for layer in ctx.analysis.layers.values():
        if not layer.data or opsets.is_extension(layer.version, layer.type):
            continue
        spec = lookup(layer.type, layer.version)
        known = None if spec is None or spec.source else spec.attributes
        if known is None:
            continue  # not modelled, or its attributes not listed yet
        kind = layer.type.lower()
        for name in layer.data:
            if name in known or (kind, name) in LEGACY:
                continue
            import difflib  # for an unknown attribute only: a clean file never needs it

            unused = sorted(known - set(layer.data))
            close = difflib.get_close_matches(name, unused, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else (
                f"; it has {', '.join(sorted(known))}" if known else "; it has none: remove it")
            yield Problem(f"{layer.describe()}: unknown attribute {name!r}: OpenVINO ignores it"
                          f"{hint}", at=layer, layer=layer, scope=ctx.graph.scope)
