"""One what-if run (``--reshape``): the graph as read, the graph re-inferred with the new
input shapes, the SmartReshape rewrites applied, and the pins found on demand."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List

from ..ir.records import Graph, Layer
from ..ir.weights import BinFile
from ..shapes.dims import Shape
from .pinning import Pin, PinFinder, refused
from .smart_reshape import plan
from .what_if import Rewrite, WhatIf, changes_anything


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

    @property
    def works(self) -> bool:
        return not any(refused(i) for i in self.after.inferences.values())

    def refused_layers(self) -> List[Layer]:
        return [i.layer for i in self.after.inferences.values() if refused(i)]


def what_if(before, model: Graph, weights: BinFile, new: Dict[str, Shape],
            smart: bool = True) -> ReshapeRun:
    """The model re-inferred with the new Parameter shapes ``new`` (by layer id), after the
    rewrites Model.reshape makes (``before``: the model's analysis as read)."""
    from . import Bodies, GraphAnalysis  # the package imports this module's neighbours
    changed = changes_anything(model, new)
    rewrites = plan(before) if smart and changed else []
    rewriting = WhatIf(rewrites)
    after = GraphAnalysis(model, weights, {lid: (shape, None) for lid, shape in new.items()},
                          Bodies(weights), rewriting)
    return ReshapeRun(before, after, rewriting, new, rewrites, changed, smart)
