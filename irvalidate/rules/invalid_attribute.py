"""IRV104 invalid-attribute: an illegal attribute value (today: ``auto_broadcast``, ``mode``,
a pdpd axis).

OpenVINO matches these values case-insensitively but refuses anything else, and refuses an
axis that is not an integer.  The message lists the legal values.

Passing::

    <data auto_broadcast="NumPy"/>
    <data auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="1"/>

Failing::

    <data auto_broadcast="bidirectional"/>   <!-- only Broadcast-3's mode accepts it -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ..ops.support.spec import ATTRIBUTE
from ._common import Context
from .findings import Problem

CODE = "IRV104"
SLUG = "invalid-attribute"
LEVEL = "error"
SUMMARY = "An illegal attribute value (the message lists the legal ones)."


def check(ctx: Context) -> Iterator[Problem]:
    for inference in ctx.inferences():
        for problem in inference.of(ATTRIBUTE):
            layer = inference.layer
            yield Problem(f"{layer.describe()}: {problem.message}", at=layer,
                          layer=layer, scope=ctx.graph.scope)
