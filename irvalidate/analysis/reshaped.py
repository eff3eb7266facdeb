"""One what-if run (``--reshape``): the graph as read, the graph re-inferred with the new
input shapes, the SmartReshape rewrites applied, and the pins found on demand."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List

from ..ir.records import Layer
from ..shapes.dims import Shape
from .pinning import Pin, PinFinder, refused
from .what_if import Rewrite, WhatIf


@dataclass
class ReshapeRun:
    #: the model graph's analysis as the file declares it, and with the new input shapes
    before: object
    after: object
    what_if: WhatIf
    #: the new shape of each Parameter asked for, by layer id
    inputs: Dict[str, Shape]
    rewrites: List[Rewrite]
    #: False when Model.reshape does nothing (every input asked for already has that shape)
    changed: bool = True
    smart: bool = True
    _pins: Dict[str, List[Pin]] = field(default_factory=dict)

    def newly_refused(self, layer: Layer) -> bool:
        return not refused(self.before.inferences.get(layer.id))

    def pins(self, layer: Layer) -> List[Pin]:
        """The Consts that pin the dim a refused layer clashes on, all inputs of one layer
        ([]: none found)."""
        if layer.id not in self._pins:
            self._pins[layer.id] = PinFinder(self.before, self.after, self.what_if).find(layer)
        return self._pins[layer.id]
