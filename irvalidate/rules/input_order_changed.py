"""IRV408 input-order-changed: the inputs kept (by tensor name) come in another order: a
caller that feeds them by position (``infer([ids, mask])``) now feeds them crossed.

Passing (old, then new: the same order)::

    <layer id="0" name="input_ids" type="Parameter" .../> <layer id="1" name="attention_mask" .../>
    <layer id="0" name="input_ids" type="Parameter" .../> <layer id="1" name="attention_mask" .../>

Failing, that is reported (old, then new: swapped)::

    <layer id="0" name="input_ids" type="Parameter" .../> <layer id="1" name="attention_mask" .../>
    <layer id="0" name="attention_mask" type="Parameter" .../> <layer id="1" name="input_ids" .../>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext, at_new, label
from .findings import Problem

CODE = "IRV408"
SLUG = "input-order-changed"
LEVEL = "warning"
SUMMARY = "The inputs kept come in another order: positional callers break."


def check(ctx: CompatContext) -> Iterator[Problem]:
    kept = ctx.inputs.kept  # in the old file's order
    by_new = sorted(kept, key=lambda pair: pair[1].index)
    if [old.index for old, _ in kept] == [old.index for old, _ in by_new]:
        return
    was, first = next(pair for (_, new), pair in zip(kept, by_new) if new is not pair[1])
    yield at_new(ctx, f"the inputs come in another order: were "
                 f"{', '.join(label(o) for o, _ in kept)}; now "
                 f"{', '.join(label(n) for _, n in by_new)}", was, first, "Parameter")
