"""IRV413 input-axis-pinned: an input axis that took other sizes (``Model.reshape`` to them
worked) takes fewer now: it is pinned to one size, or its sizes narrowed, whatever the
declared dims say.  Only when ``reshapeable`` states both files' sizes exactly; an axis it
did not compute, or states as not exact, is not compared.

Passing (old, then new: ``reshapeable`` says any size on both)::

    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,?" .../>
    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,?" .../>

Failing, that is reported (old, then new: a Reshape's constant target now pins axis 1)::

    <layer id="0" name="ids" type="Parameter" version="opset1"><data shape="1,?" .../>
    <layer id="9" name="fold" type="Const" ...><data shape="2" .../>  <!-- [1,128] into Reshape -->
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext, at_new, label
from .findings import Problem

CODE = "IRV413"
SLUG = "input-axis-pinned"
LEVEL = "error"
SUMMARY = "An input axis that took other sizes is pinned now, or takes fewer."

#: a finite set of sizes longer than this is compared by its progression, not listed
MAX_LISTED = 4096


def _first(axis) -> int | None:
    """The least size of a progression, None when it holds none."""
    step = max(axis.multiple_of, 1)
    first = axis.min + (axis.offset - axis.min) % step
    return None if axis.max is not None and first > axis.max else first


def _holds(axis, size: int) -> bool:
    if axis.values is not None:
        return size in axis.values
    step = max(axis.multiple_of, 1)
    return axis.min <= size and (axis.max is None or size <= axis.max) and \
        (size - axis.offset) % step == 0


def _listed(axis) -> list[int] | None:
    """Every size, when there are at most MAX_LISTED of them."""
    if axis.values is not None:
        return list(axis.values)
    first, step = _first(axis), max(axis.multiple_of, 1)
    if first is None:
        return []
    if axis.max is None or (axis.max - first) // step >= MAX_LISTED:
        return None
    return list(range(first, axis.max + 1, step))


def covers(new, old) -> bool:
    """Whether every size the old axis took, the new one takes."""
    sizes = _listed(old)
    if sizes is not None:
        return all(_holds(new, size) for size in sizes)
    if new.values is not None:
        return False  # infinitely many sizes, a finite list
    first, step = _first(old), max(old.multiple_of, 1)
    assert first is not None  # _listed gave None: the progression is long
    new_step = max(new.multiple_of, 1)
    return _holds(new, first) and step % new_step == 0 and \
        (new.max is None or (old.max is not None and old.max <= new.max))


def _one(axis) -> int | None:
    sizes = _listed(axis)
    return sizes[0] if sizes is not None and len(sizes) == 1 else None


def sizes(axis) -> str:
    """The sizes of an axis in a few words: "only 224", "64 to 512, multiple of 32"."""
    listed = _listed(axis)
    if listed is not None and len(listed) <= 4:
        return f"only {listed[0]}" if len(listed) == 1 else \
            ("no size" if not listed else "one of " + ", ".join(map(str, listed)))
    top = "" if axis.max is None else f" to {axis.max}"
    step = "" if axis.multiple_of <= 1 else \
        f", {axis.offset} more than a multiple of {axis.multiple_of}" if axis.offset else \
        f", multiple of {axis.multiple_of}"
    return f"{axis.min}{top or ' or more'}{step}"


def check(ctx: CompatContext) -> Iterator[Problem]:
    for old, new in ctx.inputs.pairs():
        if old.axes is None or new.axes is None:
            continue
        now = {axis.axis: axis for axis in new.axes}
        for was in old.axes:
            axis = now.get(was.axis)
            if axis is None or not (was.exact and axis.exact) or covers(axis, was):
                continue
            how = "pinned" if _one(axis) is not None and _one(was) is None else "narrowed"
            yield at_new(ctx, f"input {label(new)} axis {was.axis} {how}: took {sizes(was)}, "
                         f"now {sizes(axis)}", old, new, "Parameter")
