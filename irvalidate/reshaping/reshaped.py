"""One what-if run (``--reshape``): the graph as read, the graph re-inferred with the new
input shapes, the SmartReshape rewrites applied, and the pins found on demand."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..analysis.what_if import Rewrite, WhatIf, changes_anything
from ..ir.records import Graph, Layer
from ..ir.weights import BinFile
from ..shapes.dims import Shape
from .pinning import Pin, PinFinder, refused
from .smart_reshape import plan

if TYPE_CHECKING:
    from ..analysis import GraphAnalysis


@dataclass
class ReshapeRun:
    #: the model graph's analysis as the file declares it, and with the new input shapes
    before: GraphAnalysis
    after: GraphAnalysis
    what_if: WhatIf
    #: the new shape of each Parameter asked for, by layer id
    inputs: dict[str, Shape]
    rewrites: list[Rewrite]
    #: False when Model.reshape does nothing (every input asked for already has that shape)
    changed: bool = True
    smart: bool = True
    #: the bodies' analyses: as read, and with the new shapes (the last one each outer
    #: layer asked for), by id() of the body's Graph
    bodies_before: dict[int, GraphAnalysis] = field(default_factory=dict)
    bodies_after: dict[int, GraphAnalysis] = field(default_factory=dict)
    #: the file's graphs, the model first, then its bodies outermost first
    graphs: list[Graph] = field(default_factory=list)
    _pins: dict[str, list[Pin]] = field(default_factory=dict)

    def newly_refused(self, layer: Layer, graph: Graph | None = None) -> bool:
        before = self.before if graph is None or not graph.scope else \
            self.bodies_before.get(id(graph))
        return before is None or not refused(before.inferences.get(layer.id))

    def pins(self, layer: Layer) -> list[Pin]:
        """The Consts that pin the dim a refused layer clashes on, all inputs of one layer
        ([]: none found)."""
        if layer.id not in self._pins:
            self._pins[layer.id] = PinFinder(self.before, self.after, self.what_if).find(layer)
        return self._pins[layer.id]

    def _analyses(self) -> list[GraphAnalysis]:
        return [self.after] + [a for k, a in self.bodies_after.items() if a is not self.after]

    @property
    def works(self) -> bool:
        return not any(refused(i) for a in self._analyses() for i in a.inferences.values())

    def refused_layers(self) -> list[Layer]:
        """Refused layers of the model graph (those a pin can be searched for), then of
        the bodies."""
        return [i.layer for a in self._analyses() for i in a.inferences.values() if refused(i)]


def what_if(graphs: list[Graph], befores: list, weights: BinFile, new: dict[str, Shape],
            smart: bool = True, planned: list[Rewrite] | None = None,
            changed: bool | None = None) -> ReshapeRun:
    """The model re-inferred with the new Parameter shapes ``new`` (by layer id), after the
    rewrites Model.reshape makes; ``graphs`` and ``befores``: the file's graphs (the model
    first) and their analyses as read; ``planned``: the rewrites, when the caller tries many
    shapes on one file (they are matched on the graph as read, whatever the shapes);
    ``changed``: whether Model.reshape changes anything (None: as ``new`` says; reshapeable's
    symbolic run asks about other sizes, so it says True)."""
    from ..analysis import Bodies, GraphAnalysis  # the package imports this module's neighbours
    model, before = graphs[0], befores[0]
    changed = changes_anything(model, new) if changed is None else changed
    rewrites = (plan(before) if planned is None else planned) if smart and changed else []
    rewriting = WhatIf(rewrites)
    bodies = Bodies(weights)
    after = GraphAnalysis(model, weights, {lid: (shape, None) for lid, shape in new.items()},
                          bodies, rewriting, index=before.edges if before.graph is model else None)
    return ReshapeRun(before, after, rewriting, new, rewrites, changed, smart,
                      {id(g): a for g, a in zip(graphs[1:], befores[1:])},
                      dict(bodies.latest), graphs=list(graphs))
