"""Which constant pins a dim: the cause of a layer the new input shapes make the runtime
refuse, found by trying.

The runtime names the layer where the shapes clash, often not the cause: a Slice whose
constant stop keeps the width at 256 lets the clash show two layers later, at an Add.  For
a refused layer, the Consts upstream of it that meet the new shapes (they feed a layer one
of whose other inputs changed) are tried one at a time, nearest first: the layer's part of
the graph is inferred again with that Const's *value* unknown (a Reshape target, Slice
bounds, Interpolate sizes, a Broadcast target: the inputs the op's spec names in
``dim_inputs``), then, for an operand, with its *shape*
unknown (an Add of a constant of baked shape).  A Const whose relaxing lets the layer
through is what pins it.  Only the layers between the Const and the refused one are
inferred again, each from what the what-if analysis gave the rest.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from ..analysis.propagation import Propagation
from ..analysis.what_if import WhatIf
from ..ir.elements import INTEGRAL
from ..ir.records import CONST_TYPES, Layer
from ..ops.support.registry import lookup
from ..ops.support.spec import ARITY, ATTRIBUTE, INCOMPATIBLE, TYPE
from ..shapes.values import resolved

#: the Consts tried per refused layer, and the ancestors searched for them
MAX_TRIALS = 16
MAX_ANCESTORS = 20_000
#: the most elements a Const tried by value may hold
MAX_VALUES = 16
_REFUSALS = (INCOMPATIBLE, ARITY, ATTRIBUTE, TYPE)


class Pin(NamedTuple):
    """A Const that pins a dim: the Const, the layer it feeds, which input, and whether
    its value (a target, bounds, sizes) or its shape (an operand) pins."""
    const: Layer
    consumer: Layer
    port: int
    by_value: bool


def refused(inferred) -> bool:
    return inferred is not None and any(p.kind in _REFUSALS for p in inferred.problems)


class PinFinder:
    def __init__(self, before, after, what_if: WhatIf) -> None:
        self.before, self.after, self.what_if = before, after, what_if
        self.edges = after.edges
        self.layers: dict[str, Layer] = after.layers
        self.position = {layer.id: i for i, layer in enumerate(after.propagation._order)}

    def _producers(self, layer: Layer) -> list[Layer]:
        found = []
        for port in layer.inputs:
            edge = self.edges.incoming.get((layer.id, port.id))
            if edge is not None and edge.from_layer in self.layers:
                found.append(self.layers[edge.from_layer])
        return found

    def _integral(self, const: Layer) -> bool:
        return (const.data.get("element_type") or "").lower() in INTEGRAL

    def _numbers(self, const: Layer) -> list[float] | None:
        try:
            return self.before.propagation.read_floats(const)
        except Exception:  # noqa: BLE001 - an unreadable Const is no candidate
            return None

    def _small(self, const: Layer) -> bool:
        """A Const short enough to hold shape values (a target, bounds, sizes, scales)."""
        shape = (const.data.get("shape") or "").replace(" ", "")
        try:
            return math.prod(int(d) for d in shape.split(",") if d) <= MAX_VALUES
        except ValueError:
            return False

    def _shape_value(self, layer: Layer, index: int) -> bool:
        """Whether input ``index`` of ``layer`` carries shape values: one of its op's
        ``dim_inputs`` (a target, bounds, sizes, repeats, pads; not an order or axes, whose
        relaxing unknots everything), or any input of a layer computing a shape (its output
        has a value)."""
        spec = lookup(layer.type, layer.version)
        if spec is not None and index in spec.dim_inputs:
            return True
        value = self.before.propagation.outputs.get((layer.id, layer.outputs[0].id)) \
            if layer.outputs else None
        return value is not None and resolved(value.tensor) is not None

    def clash_values(self, target: Layer) -> set[float]:
        """The static dims reaching ``target`` that the new shapes left as they were (a pinned
        dim keeps its old value): an upstream Const pins only if it holds one of them."""
        found: set[float] = set()
        old, new = self.before.propagation, self.after.propagation
        for port in target.inputs:
            edge = self.edges.incoming.get((target.id, port.id))
            if edge is None:
                continue
            a = old.outputs.get((edge.from_layer, edge.from_port))
            b = new.outputs.get((edge.from_layer, edge.from_port))
            if a is None or b is None or a.shape is None or b.shape is None or \
                    len(a.shape) != len(b.shape):
                continue
            found.update(d.lo for d, e in zip(b.shape, a.shape) if d.is_static and d == e and d.lo > 1)
        return found

    def candidates(self, target: Layer) -> list[Pin]:
        """The trials, nearest to ``target`` first: its own Consts (value, then shape: an
        operand of baked shape), then the small Consts upstream that hold one of the dims the
        new shapes left as they were at ``target`` (values: targets, bounds, sizes)."""
        pins: list[Pin] = []
        for index, producer in enumerate(self._producers(target)):
            if producer.type.lower() in CONST_TYPES:
                if self._integral(producer):
                    pins.append(Pin(producer, target, index, True))
                pins.append(Pin(producer, target, index, False))
        clash = self.clash_values(target)
        seen: set[str] = {target.id}
        frontier = [p for p in self._producers(target) if p.type.lower() not in CONST_TYPES]
        seen.update(p.id for p in frontier)
        while frontier and len(seen) < MAX_ANCESTORS and len(pins) < MAX_TRIALS:
            following = []
            for layer in frontier:
                for index, producer in enumerate(self._producers(layer)):
                    if producer.type.lower() in CONST_TYPES:
                        numbers = self._numbers(producer) if self._small(producer) and \
                            self._shape_value(layer, index) else None
                        if numbers is not None and clash.intersection(numbers):
                            pins.append(Pin(producer, layer, index, True))
                    elif producer.id not in seen:
                        seen.add(producer.id)
                        following.append(producer)
            frontier = following
        return pins[:MAX_TRIALS]

    def _descendants(self, start: Layer, limit: set[str]) -> list[Layer]:
        found, stack = {start.id}, [start]
        while stack:
            layer = stack.pop()
            for port in layer.outputs:
                for consumer, _ in self.edges.consumers((layer.id, port.id)):
                    if consumer.id in limit and consumer.id not in found:
                        found.add(consumer.id)
                        stack.append(consumer)
        found.discard(start.id)
        return sorted((self.layers[i] for i in found), key=lambda lay: self.position.get(lay.id, 0))

    def _passes(self, target: Layer, pin: Pin, ancestors: set[str], by_value: bool) -> bool:
        order = self._descendants(pin.const, ancestors | {target.id})
        trial = WhatIf(list(self.what_if.rewrites.values()), relaxed=[pin.const.id] if by_value else (),
                       unshaped=() if by_value else [pin.const.id])
        prop = Propagation(self.edges, self.after.weights, order, what_if=trial,
                           seed=self.after.propagation.outputs)
        return not refused(prop.inferences.get(target.id))

    def find(self, target: Layer) -> list[Pin]:
        """The Consts of the nearest layer whose relaxing lets ``target`` through ([] when
        none does)."""
        pins = self.candidates(target)
        if not pins:
            return []
        ancestors = self._ancestors(target)
        for pin in pins:
            if self._passes(target, pin, ancestors, pin.by_value):
                same = [p for p in pins if p.consumer.id == pin.consumer.id and p != pin
                        and p.by_value == pin.by_value]
                return [pin] + [p for p in same if self._passes(target, p, ancestors, p.by_value)]
        return []

    def _ancestors(self, target: Layer) -> set[str]:
        seen, stack = {target.id}, [target]
        while stack and len(seen) < MAX_ANCESTORS:
            for producer in self._producers(stack.pop()):
                if producer.id not in seen:
                    seen.add(producer.id)
                    stack.append(producer)
        return seen
