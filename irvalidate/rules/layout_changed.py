"""IRV414 layout-changed: an input's or output's layout, or the layout and preprocessing the
model's ``rt_info`` records (``mean_values``, ``scale_values``, ``reverse_input_channels``,
``layout``...), changed: a caller that lays its data out, or prepares it, as before may
now feed it wrongly.

Passing (old, then new)::

    <rt_info><attribute name="layout" version="0" layout="[N,C,H,W]"/></rt_info>
    <rt_info><attribute name="layout" version="0" layout="[N,C,H,W]"/></rt_info>

Failing, that is reported (old, then new)::

    <rt_info><attribute name="layout" version="0" layout="[N,C,H,W]"/></rt_info>
    <rt_info><attribute name="layout" version="0" layout="[N,H,W,C]"/></rt_info>
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from ._compat import CompatContext, at_new, label
from .findings import Problem

CODE = "IRV414"
SLUG = "layout-changed"
LEVEL = "warning"
SUMMARY = "An input's or output's layout, or the preprocessing rt_info records, changed."

#: the model rt_info entries that say how inputs are laid out or prepared
PREPROCESSING = re.compile(r"layout|mean_values|scale_values|reverse_input_channels|"
                           r"preprocess|color_format|resize", re.IGNORECASE)


#: where converters record their parameters: Model Optimizer's legacy ``<meta_data>``, and
#: ``rt_info`` since (a v10 file read and saved again moves them from one to the other)
CONVERTER_SECTIONS = ("meta_data/cli_parameters/", "conversion_parameters/")


def _prepared(rt_info: dict[str, str]) -> dict[str, str]:
    """The layout and preprocessing entries, a converter's parameter under its own name
    wherever the file records it."""
    found = {}
    for key, value in rt_info.items():
        if PREPROCESSING.search(key):
            for section in CONVERTER_SECTIONS:
                if key.startswith(section):
                    key = f"conversion_parameters/{key[len(section):]}"
            found[key] = value
    return found


def _shown(value: str | None) -> str:
    return "absent" if value is None else repr(value)


def check(ctx: CompatContext) -> Iterator[Problem]:
    if ctx.old is None or ctx.new is None:
        return
    for what, matching, kind in ctx.sides():
        for old, new in matching.pairs():
            if old.layout != new.layout:
                yield at_new(ctx, f"{what} {label(new)}: layout was {old.layout or 'none'}, "
                             f"now {new.layout or 'none'}", old, new, kind)
    was, now = _prepared(ctx.old.rt_info), _prepared(ctx.new.rt_info)
    for key in sorted(was.keys() | now.keys()):
        if was.get(key) != now.get(key):
            yield Problem(f"rt_info {key} was {_shown(was.get(key))}, now "
                          f"{_shown(now.get(key))}")
