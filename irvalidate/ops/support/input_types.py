"""The element type check of an op's input, as the runtime refuses a type: one helper for the
index inputs, the integer value inputs and the floating inputs of every op.

The refusal is a note (TYPE, inference goes on) worded "<what> (input <i>) must be <words>,
not <type>"; a dynamic or unknown type passes, as it can only be less strict than the runtime.
"""
from __future__ import annotations

from collections.abc import Collection

from ...ir import elements
from .node import Node
from .spec import TYPE

#: the index types most ops take (``i32`` or ``i64``, named so in their refusals)
INDEX_TYPES = ("i32", "i64")
#: the types the runtime's ``is_integral_number`` accepts (measured: ``string`` passes too);
#: ``is_integral`` (Tile's repeats) also takes ``boolean``
INTEGER_LIKE = elements.INTEGRAL | {"string"}


def require_type(node: Node, index: int, what: str,
                 allowed: Collection[str] = elements.INTEGRAL, words: str | None = None) -> None:
    """Note input ``index`` when its element type is known and not one of ``allowed``.

    ``words`` name the wanted types in the message; by default a tuple of types is listed
    ("i32 or i64") and a family (a set) is "an integer tensor".  An input the node does not
    have passes (an optional one left out)."""
    et = node.inputs[index].element_type if index < len(node.inputs) else None
    if elements.is_known(et) and et not in allowed:
        if words is None:
            words = " or ".join(allowed) if isinstance(allowed, tuple) else "an integer tensor"
        node.note(TYPE, f"{what} (input {index}) must be {words}, not {et}")
