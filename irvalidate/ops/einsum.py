"""Einsum-7: the output dims are the ``equation``'s output labels, looked up in the inputs.

The equation (as OpenVINO 2026.4.1 reads it, measured): ``sub,sub,...[->out]``, one subscript
per input; a subscript is ASCII letters (case matters) with at most one ``...``, no spaces.
Without ``->`` the output is ``...`` (when an input has one) and then the labels found in
exactly one input subscript, as often as they occur there, sorted by code (``Ba`` gives
``Ba``, ``aba`` gives ``aab``).

Dims, input by input: a subscript without ``...`` needs exactly its labels' count of dims; with
one, at least the letters' count, the ``...`` taking the rest (possibly none).  A letter
repeated inside one input merges (intersects) its dims there; across inputs a letter
broadcasts (a dim that may be 1 gives way), as do the ``...`` parts (numpy).  An input of
dynamic rank gives ``?`` to letters not seen yet; when its subscript and the output both have
``...``, the output is a dynamic rank at once and the inputs after it are not checked.  An
output ``...`` that no input has is empty.  The inputs share one numeric (not boolean) type.
"""
from __future__ import annotations

import re

from ..shapes.broadcasting import BroadcastError, numpy_merge
from ..shapes.dims import DYNAMIC, Dim, Shape, broadcast_merge, format_dim, format_shape, intersect
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.node import Node
from .support.spec import ARITY, ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_FIELDS = (Field("equation", "str", ""),)
_SUBSCRIPT = re.compile(r"[A-Za-z]*(?:\.\.\.)?[A-Za-z]*")
ELLIPSIS = "..."


def labels_of(subscript: str) -> list[str]:
    """The labels of a subscript in order, ``...`` as one."""
    head, dots, tail = subscript.partition(ELLIPSIS)
    return list(head) + ([ELLIPSIS] if dots else []) + list(tail)


def parse(equation: str) -> tuple[list[str], str]:
    """The input subscripts and the output one (made up when implicit); ATTRIBUTE on a
    malformed equation."""
    inputs_part, arrow, output = equation.partition("->")
    subscripts = inputs_part.split(",")
    for sub in subscripts:
        if not _SUBSCRIPT.fullmatch(sub):
            raise OpError(ATTRIBUTE, f"attribute equation {equation!r}: input subscript {sub!r} "
                                     f"must be letters with at most one '...'")
    if arrow:
        if not _SUBSCRIPT.fullmatch(output):
            raise OpError(ATTRIBUTE, f"attribute equation {equation!r}: output subscript "
                                     f"{output!r} must be letters with at most one '...'")
        return subscripts, output
    counts: dict[str, int] = {}
    for sub in subscripts:
        for label in set(labels_of(sub)) - {ELLIPSIS}:
            counts[label] = counts.get(label, 0) + 1
    once = sorted(label for sub in subscripts for label in sub
                  if label != "." and counts[label] == 1)
    dots = ELLIPSIS if any(ELLIPSIS in sub for sub in subscripts) else ""
    return subscripts, dots + "".join(once)


def _input_dims(shape: tuple[Dim, ...], labels: list[str], what: str
                ) -> tuple[dict[str, Dim], tuple[Dim, ...] | None]:
    """One static-rank input: each letter's dim (its repeats merged) and the ``...`` dims."""
    letters = len(labels) - (ELLIPSIS in labels)
    if len(shape) < letters or (ELLIPSIS not in labels and len(shape) != letters):
        need = f"{letters} or more" if ELLIPSIS in labels else str(letters)
        raise OpError(INCOMPATIBLE, f"{what} {format_shape(shape)} has rank {len(shape)}, but "
                                    f"its subscript names {need} dims")
    found: dict[str, Dim] = {}
    dots = None
    position = 0
    for label in labels:
        if label == ELLIPSIS:
            width = len(shape) - letters
            dots, position = shape[position:position + width], position + width
            continue
        dim = shape[position]
        position += 1
        merged = intersect(found[label], dim) if label in found else dim
        if merged is None:
            raise OpError(INCOMPATIBLE, f"{what} {format_shape(shape)} repeats label {label!r} "
                                        f"on dims {format_dim(found[label])} and "
                                        f"{format_dim(dim)}, which cannot be equal")
        found[label] = merged
    return found, dots


def _infer(node: Node) -> Result:
    if not node.inputs:
        raise OpError(ARITY, "Einsum takes 1 or more inputs, but none is connected")
    (equation,) = read(node, "Einsum", _FIELDS)
    subscripts, output = parse(equation)
    if len(subscripts) != len(node.inputs):
        raise OpError(ARITY, f"the equation {equation!r} has {len(subscripts)} input "
                             f"subscript{'s' if len(subscripts) != 1 else ''}, but "
                             f"{len(node.inputs)} inputs are connected")
    labels = [f"input {i} ({sub})" for i, sub in enumerate(subscripts)]
    node.show(labels)
    node.how = f"Einsum {','.join(subscripts)}->{output}"
    et = merge_types(node, labels, [v.element_type for v in node.inputs])
    if et == "boolean":
        node.note(TYPE, "Einsum needs numeric inputs, not boolean")
    dims: dict[str, Dim] = {}
    dots: Shape = ()
    dotted = False
    for what, sub, value in zip(labels, subscripts, node.inputs):
        mine = labels_of(sub)
        if value.shape is None and ELLIPSIS in mine and ELLIPSIS in output:
            # the output's '...' is a dynamic rank: the runtime stops there, checking nothing
            # of the inputs after this one
            return Result((None,), (et,))
        if value.shape is None:
            for label in mine:
                if label == ELLIPSIS:
                    dots, dotted = None, True
                else:
                    dims.setdefault(label, DYNAMIC)
            continue
        found, own_dots = _input_dims(value.shape, mine, what)
        for label, dim in found.items():
            merged = broadcast_merge(dims[label], dim) if label in dims else dim
            if merged is None:
                raise OpError(INCOMPATIBLE, f"label {label!r} is {format_dim(dim)} in {what} but "
                                            f"{format_dim(dims[label])} before: they cannot "
                                            f"broadcast")
            dims[label] = merged
        if own_dots is not None:
            try:
                dots = own_dots if not dotted else numpy_merge(dots, own_dots).shape
            except BroadcastError as err:
                raise OpError(INCOMPATIBLE, f"the '...' dims {format_shape(own_dots)} of {what} "
                                            f"do not broadcast with {format_shape(dots)}: "
                                            f"{err.message}") from None
            dotted = True
    return Result((_output(output, dims, dots),), (et,))


def _output(output: str, dims: dict[str, Dim], dots: Shape) -> Shape:
    out: list[Dim] = []
    for label in labels_of(output):
        if label == ELLIPSIS:
            continue
        if label not in dims:
            raise OpError(INCOMPATIBLE, f"output label {label!r} is in no input subscript")
    for label in labels_of(output):
        if label != ELLIPSIS:
            out.append(dims[label])
        elif dots is None:
            return None
        else:
            out.extend(dots)
    return tuple(out)


SPECS = {"einsum": (OpSpec("Einsum", (7, 16), fields=_FIELDS, infer=_infer),)}
