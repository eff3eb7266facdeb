"""What the embedding, detection and NMS ops check of their inputs, the runtime's way.

OpenVINO's checks there are loose: a rank is checked only when it is static
(``rank().compatible(n)``), a dim only against what it could be (``Dimension::compatible``:
intervals that meet), and several inputs must share one element type, often a floating one
(``element::Type::merge`` then ``is_real``).  These helpers refuse exactly that, with
messages that name the input and its shape; an element type we do not know (None) or a
``dynamic`` one passes, as it can only be less strict than the runtime.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...ir import elements
from ...shapes.dims import Dim, Shape, compatible, format_dim, format_shape, static
from .node import Node
from .spec import INCOMPATIBLE, TYPE, OpError

#: the element types ``element::Type::is_real`` accepts (nf4 is not one of them)
REAL = elements.REAL


def ranked(node: Node, index: int, what: str, rank: int) -> Shape:
    """The shape of input ``index``, refused when its rank is static and not ``rank``."""
    shape = node.inputs[index].shape
    if shape is not None and len(shape) != rank:
        words = "a scalar" if rank == 0 else f"a {rank}-D tensor"
        raise OpError(INCOMPATIBLE, f"{what} (input {index}) must be {words}, not "
                                    f"{format_shape(shape)}")
    return shape


def fits(dim: Dim, want: Dim | int, message: str) -> None:
    """Refuse (``message``, then the two dims) unless ``dim`` can equal ``want``."""
    target = static(want) if isinstance(want, int) else want
    if not compatible(dim, target):
        raise OpError(INCOMPATIBLE, f"{message} ({format_dim(dim)} against {format_dim(target)})")


def same_shape(node: Node, index: int, what: str, other: int, other_what: str) -> None:
    """Two inputs whose shapes must be compatible (``PartialShape::compatible``)."""
    a, b = node.inputs[index].shape, node.inputs[other].shape
    if a is None or b is None:
        return
    if len(a) != len(b) or not all(compatible(x, y) for x, y in zip(a, b)):
        raise OpError(INCOMPATIBLE, f"{what} (input {index}) {format_shape(a)} and {other_what} "
                                    f"(input {other}) {format_shape(b)} must have the same shape")


def same_type(node: Node, index: int, what: str, other: int, other_what: str) -> None:
    a, b = node.inputs[index].element_type, node.inputs[other].element_type
    if elements.is_known(a) and elements.is_known(b) and a != b:
        node.note(TYPE, f"{what} (input {index}) is {a}, but {other_what} (input {other}) is {b}: "
                        f"they must have the same element type")


def one_floating_type(node: Node, labels: Sequence[str]) -> str | None:
    """The one floating element type all inputs must share (the detectron ops' check); a
    mismatch or a type that is not floating is noted and gives None."""
    merged: str | None = None
    for value in node.inputs:
        et = value.element_type
        if not elements.is_known(et):
            continue
        if (merged is not None and et != merged) or et not in REAL:
            listed = ", ".join(f"{n}: {v.element_type}" for n, v in zip(labels, node.inputs))
            node.note(TYPE, f"the inputs must share one floating element type ({listed})")
            return None
        merged = et
    return merged
