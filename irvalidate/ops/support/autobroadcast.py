"""What the ops with an ``auto_broadcast`` attribute share (elementwise ops, Select, FakeQuantize):
reading the attribute, running a broadcast rule, and comparing pdpd with the specification.

The attribute is ``auto_broadcast`` (none/explicit/numpy/pdpd, numpy when missing) with the
pdpd axis in ``auto_broadcast.auto_broadcast_axis``, which the runtime reads as 0 when it is
missing (the specification says -1).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ...ir import elements
from ...shapes import broadcasting as bc
from ...shapes.dims import ONE, Shape, format_dim, format_shape
from .attributes import enum_value, field, lazy_model, parse_int_prefix, typed_dict, validate
from .memo import keep
from .node import Node
from .spec import DIVERGENCE, INCOMPATIBLE, TYPE, OpError

AUTO_BROADCAST_VALUES = ("none", "explicit", "numpy", "pdpd")
#: the attribute names the reader reads for these ops
ATTRIBUTES = frozenset({"auto_broadcast", "auto_broadcast.auto_broadcast_axis"})


def _build():
    """``auto_broadcast`` + ``auto_broadcast.auto_broadcast_axis``."""
    from pydantic_core import core_schema as cs
    return typed_dict({
        "mode": field(cs.literal_schema(["none", "numpy", "pdpd"]), "numpy",
                      lambda value: enum_value(value, AUTO_BROADCAST_VALUES)),
        "axis": field(cs.int_schema(), 0,
                      lambda value: parse_int_prefix(value) if isinstance(value, str) else value),
        "axis_given": field(cs.bool_schema(), False)})


AutoBroadcast = lazy_model(_build)


class Spec(NamedTuple):
    mode: str
    axis: int
    axis_given: bool


#: (auto_broadcast, axis) as written -> what they mean: a file repeats a few combinations on
#: thousands of layers, and each is validated once (bounded: memo.keep)
_READ: dict[tuple[str | None, str | None], Spec] = {}


def read(node: Node) -> Spec:
    """The layer's auto_broadcast attribute, or an attribute OpError listing legal values."""
    data = node.layer.data
    key = (data.get("auto_broadcast"), data.get("auto_broadcast.auto_broadcast_axis"))
    found = _READ.get(key)
    if found is None:
        found = direct(key)
        if found is None:
            found = _validated(key)
        keep(_READ, key, found)
    return found


def direct(key: tuple[str | None, str | None]) -> Spec | None:
    """What the model gives when both attributes parse: each field is its own parser behind a
    literal or int check that the parser's result always passes, with a default when the
    attribute is missing (tests/ops/test_attribute_models.py checks the two agree); None
    when one does not parse (the model words it)."""
    mode, axis = key
    try:
        return Spec(enum_value("numpy" if mode is None else mode, AUTO_BROADCAST_VALUES),
                    0 if axis is None else parse_int_prefix(axis), axis is not None)
    except ValueError:
        return None


def _validated(key: tuple[str | None, str | None]) -> Spec:
    """The attribute through the model (an attribute OpError listing legal values)."""
    raw: dict[str, object] = {"mode": "numpy" if key[0] is None else key[0]}
    if key[1] is not None:
        raw.update(axis=key[1], axis_given=True)
    model = validate(AutoBroadcast, raw, {"mode": "auto_broadcast",
                                          "axis": "auto_broadcast.auto_broadcast_axis"})
    return Spec(model.mode, model.axis, model.axis_given)


def mode_label(node: Node) -> str:
    """The attribute as written (lower case), for messages: ``numpy``, ``explicit``..."""
    return str(node.layer.data.get("auto_broadcast", "numpy")).lower()


def run(node: Node, compute: Callable[[], bc.Outcome], label: str) -> bc.Outcome:
    """A broadcast rule's outcome; a failure stops inference, and a merge that works only
    because an interval contains 1 is noted as a divergence."""
    try:
        outcome = compute()
    except bc.BroadcastError as err:
        raise OpError(INCOMPATIBLE, f"inputs cannot broadcast ({label}): {err.message}",
                      err.column, err.offsets) from None
    for column, x, y in outcome.lenient:
        node.note(DIVERGENCE,
                  f"axis {column}: the runtime accepts {format_dim(x)} against {format_dim(y)} "
                  f"because an interval containing 1 never conflicts; by the broadcast rules "
                  f"only the value 1 works there, every other value in the interval fails at "
                  f"inference")
    return outcome


def pdpd_divergence(node: Node, spec: Spec, later: Sequence[Shape],
                    fold: Callable[[Callable[[Shape, Shape], bc.Outcome]], bc.Outcome]) -> None:
    """Compare the runtime's pdpd with the specification's where the two can disagree."""
    spec_axis = spec.axis if spec.axis_given else -1
    outcomes: list[bc.Outcome | bc.BroadcastError] = []
    for axis, merge in ((spec.axis, bc.pdpd_merge), (spec_axis, bc.pdpd_spec_merge)):
        try:
            outcomes.append(fold(lambda a, b, axis=axis, merge=merge: merge(a, b, axis)))  # type: ignore[misc]  # defaults bind the loop's values
        except bc.BroadcastError as err:
            outcomes.append(err)
    runtime, document = outcomes
    if isinstance(runtime, bc.BroadcastError) == isinstance(document, bc.BroadcastError):
        return
    reasons = []
    if not spec.axis_given:
        reasons.append("there is no auto_broadcast axis attribute, which the runtime reads as 0 "
                       "and the specification as -1")
    if any(s and s[-1] == ONE for s in later):
        reasons.append("the specification ignores trailing 1s of B, the runtime does not")

    def verdict(o: bc.Outcome | bc.BroadcastError) -> str:
        return f"rejects it ({o.message})" if isinstance(o, bc.BroadcastError) else \
            f"accepts it, giving {format_shape(o.shape)}"
    node.note(DIVERGENCE, f"pdpd: {'; '.join(reasons) or 'the readings differ'}. OpenVINO 2026.4 "
                          f"{verdict(runtime)}; the specification {verdict(document)}")


def merge_types(node: Node, names: Sequence[str], types: Sequence[str | None]) -> str | None:
    """The one element type of several inputs; a mismatch is noted (type) and gives None."""
    merged: str | None = None
    for et in types:
        try:
            merged = elements.merge(merged, et)
        except ValueError:
            listed = ", ".join(f"{n}: {t}" for n, t in zip(names, types))
            node.note(TYPE, f"inputs must have the same element type ({listed})")
            return None
    return merged
