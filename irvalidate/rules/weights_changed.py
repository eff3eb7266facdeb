"""IRV415 weights-changed: the weights' element types, their compression (u8/i8/u4/i4/nf4
behind a Convert -> Subtract -> Multiply decompression) or the parameter count changed: the
interface is kept, but accuracy, size and speed may not be; said for the record.

The parameter count is the Consts' elements of every type but the index types (i32, i64)
and boolean, which hold shapes, axes and indices rather than weights.

Passing (old, then new: the same export)::

    <layer id="5" name="fc.weight" type="Const" version="opset1"><data element_type="f32" shape="1000, 512" .../>
    <layer id="5" name="fc.weight" type="Const" version="opset1"><data element_type="f32" shape="1000, 512" .../>

Failing, that is reported (old, then new: compressed to fp16)::

    <layer id="5" name="fc.weight" type="Const" version="opset1"><data element_type="f32" shape="1000, 512" .../>
    <layer id="5" name="fc.weight" type="Const" version="opset1"><data element_type="f16" shape="1000, 512" .../>
    <layer id="6" name="fc.weight/convert" type="Convert" version="opset1"><data destination_type="f32"/>
"""
from __future__ import annotations

from collections.abc import Iterator

from ._compat import CompatContext
from .findings import Problem

CODE = "IRV415"
SLUG = "weights-changed"
LEVEL = "info"
SUMMARY = "The weights' element types, compression or parameter count changed."

#: Const element types that hold shapes, axes and indices, not weights
NOT_WEIGHTS = frozenset({"i32", "i64", "boolean"})


def _types(interface) -> dict[str, int]:
    return {w.element_type: w.elements for w in interface.weights
            if w.element_type not in NOT_WEIGHTS and w.elements}


def _compression(interface) -> str:
    parts = [f"{c.element_type} {c.share:.0%}" for c in interface.compression if c.elements]
    return ", ".join(sorted(parts)) or "none"


def check(ctx: CompatContext) -> Iterator[Problem]:
    if ctx.old is None or ctx.new is None:
        return
    was, now = _types(ctx.old), _types(ctx.new)
    if was.keys() != now.keys():
        yield Problem(f"the weights' element types were {', '.join(sorted(was)) or 'none'}, "
                      f"now {', '.join(sorted(now)) or 'none'}")
    if _compression(ctx.old) != _compression(ctx.new):
        yield Problem(f"the weights' compression was {_compression(ctx.old)}, now "
                      f"{_compression(ctx.new)}")
    if sum(was.values()) != sum(now.values()):
        yield Problem(f"the parameter count was {sum(was.values()):,}, now "
                      f"{sum(now.values()):,}")
