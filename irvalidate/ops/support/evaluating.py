"""What the value evaluations of the ops share: reading their attributes and naming the chain.

A value evaluation (OpenVINO's bound evaluation of a shape subgraph) raises
:class:`~irvalidate.shapes.values.Unresolved` wherever the runtime would give up or we do not
follow it; the layer then has no value, and its consumers fall back as the runtime does.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...ir.records import Layer
from ...shapes.values import FLOAT_TYPES, Origin, Tensor, Unresolved
from .attributes import parse_bool, parse_float_prefix, parse_int_prefix
from .node import Node


def int_attr(layer: Layer, name: str, default: int) -> int:
    text = layer.data.get(name)
    if text is None:
        return default
    try:
        return parse_int_prefix(text)
    except ValueError as err:
        raise Unresolved(str(err)) from None


def float_attr(layer: Layer, name: str) -> float:
    """A real attribute the layer must have (Unresolved when it is missing or unreadable)."""
    text = layer.data.get(name)
    if text is None:
        raise Unresolved(f"no {name} attribute")
    try:
        return parse_float_prefix(text)
    except ValueError as err:
        raise Unresolved(str(err)) from None


def bool_attr(layer: Layer, name: str, default: bool) -> bool:
    """A bool attribute as inference reads it (``parse_bool``: ``yes`` keeps the default)."""
    text = layer.data.get(name)
    return default if text is None else parse_bool(text, default)


def mask(layer: Layer, name: str) -> list[int]:
    text = layer.data.get(name, "").strip()
    try:
        return [parse_int_prefix(t) for t in text.split(",")] if text else []
    except ValueError as err:
        raise Unresolved(str(err)) from None


def short(numbers: Sequence[float]) -> str:
    shown = ",".join(str(n) for n in numbers[:8])
    return f"[{shown}{',...' if len(numbers) > 8 else ''}]"


def label(layer: Layer, detail: str = "") -> str:
    return f"{layer.type}({detail})" if detail else layer.type


def scalar(t: Tensor, what: str) -> int:
    found = t.static_values()
    if len(found) != 1:
        raise Unresolved(f"{what} is not a single value")
    return found[0]


def origin(layer: Layer, tensors: Sequence[Tensor], detail: str = "") -> Origin:
    """The layer's label, naming its constant inputs inline and linking to the others."""
    shown = ([detail] if detail else []) + [t.origin.label for t in tensors if t.origin.hidden]
    return Origin(label(layer, ", ".join(shown)), tuple(t.origin for t in tensors if not t.origin.hidden))


def tensors(node: Node, counts: Sequence[int], reals: Sequence[int] | None = (0,)
            ) -> list[Tensor]:
    """Every input's value, the inputs counted first; Unresolved when one has none, or when
    a real value reaches an input not in ``reals`` (None: any), where numbers are indices,
    axes or counts (the runtime refuses such a type)."""
    if len(node.inputs) not in counts:
        raise Unresolved(f"{node.layer.type} takes {counts} inputs")  # the arity rule says so
    found = node.tensors()
    if found is None:
        raise Unresolved("an input has no value")
    if reals is not None and any(t.et in FLOAT_TYPES and i not in reals
                                 for i, t in enumerate(found)):
        raise Unresolved("a real value where the op wants integers")
    return found
