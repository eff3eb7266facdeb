"""StringTensorPack-15 and StringTensorUnpack-15: strings as (begins, ends, symbols) and back.

* Pack: ``begins`` and ``ends`` (one shape, merged; i32 or i64, one type) and 1-D u8
  ``symbols`` give a string tensor of the merged shape.  A dynamic type is refused anywhere.
* Unpack: a string tensor gives ``begins`` and ``ends`` of its shape (i32) and 1-D u8
  ``symbols`` of unknown length, even for a Const input; an empty tensor (a dim of 0)
  gives ``[0]`` symbols (measured).
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC, format_shape, static
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

ZERO = static(0)


def _pack(node: Node) -> Result:
    node.require_inputs((3,))
    node.show(("begins", "ends", "symbols"))
    node.how = "begins merged with ends"
    begins_et, ends_et, symbols_et = (v.element_type for v in node.inputs)
    if begins_et is not None and ends_et is not None and (
            begins_et != ends_et or begins_et not in ("i32", "i64")):
        node.note(TYPE, f"begins is {begins_et} and ends {ends_et}: they must be one type, i32 or i64")
    if symbols_et is not None and symbols_et != "u8":  # (a dynamic type is refused too)
        node.note(TYPE, f"symbols (input 2) must be u8, not {symbols_et}")
    begins, ends, symbols = (v.shape for v in node.inputs)
    if symbols is not None and len(symbols) != 1:
        raise OpError(INCOMPATIBLE, f"symbols {format_shape(symbols)} must be 1-D")
    out, ok = arith.merge_into(begins, ends)
    if not ok:
        raise OpError(INCOMPATIBLE, f"begins {format_shape(begins)} and ends {format_shape(ends)} "
                                    f"must be one shape")
    return Result((out,), ("string",))


def _unpack(node: Node) -> Result:
    node.require_inputs((1,))
    node.show(("data",))
    node.how = "the strings' shape (their bytes in one 1-D tensor)"
    et = node.inputs[0].element_type
    if et is not None and et != "string":
        node.note(TYPE, f"data (input 0) must be a string tensor, not {et}")
    data = node.inputs[0].shape
    # no string at all (a dim of 0) holds no symbol; otherwise the count is unknown (measured)
    symbols = ZERO if data is not None and any(d.hi == 0 for d in data) else DYNAMIC
    return Result((data, data, (symbols,)), ("i32", "i32", "u8"))


SPECS = {
    "stringtensorpack": (OpSpec("StringTensorPack", (15, 16), frozenset(), infer=_pack,
                                own_types=(0,)),),
    "stringtensorunpack": (OpSpec("StringTensorUnpack", (15, 16), frozenset(), infer=_unpack,
                                  own_types=(0, 1, 2)),),
}
