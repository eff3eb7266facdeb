"""One graph's analysis: its edge index and integrity facts, topological order, and the
propagation of shapes and values; the rules read nothing else.

    edges.py        the edges indexed by the input port they enter; dangling, reversed
    order.py        topological order, cycles, reachability (no recursion)
    propagation.py  each layer dispatched once to its op, in order

Bodies (of TensorIterator, Loop and If) are analysed as the runtime validates them: when the
outer layer's op is inferred, with the body Parameters set from the outer inputs
(:class:`Bodies`); the rules then read each body as its outer layer last analysed it.  A
body whose outer layer no op models is analysed as declared.
"""
from __future__ import annotations

from ..ir.records import Graph, Layer, ParseProblem
from ..ir.weights import BinFile
from ..ops.support.node import BodyOutcome, ParameterValue
from ..ops.support.spec import ARITY, ATTRIBUTE, INCOMPATIBLE, TYPE, Inferred, Value
from .edges import EdgeIndex
from .order import topological_order
from .propagation import Propagation
from .what_if import WhatIf

#: the kinds of problem for which the runtime refuses a layer
REFUSALS = (INCOMPATIBLE, ARITY, ATTRIBUTE, TYPE)


class GraphAnalysis:
    """What the rules read of one graph (the model, or a nested body)."""

    def __init__(self, graph: Graph, weights: BinFile,
                 parameters: dict[str, ParameterValue] | None = None,
                 bodies: Bodies | None = None, what_if: WhatIf | None = None,
                 loose: dict[str, Layer] | None = None,
                 outer: Value | None = None, index: EdgeIndex | None = None) -> None:
        """``index``: the graph's edges as another analysis of it indexed them (a what-if
        reads the same edges: 10^6 dangling ones cost ~170 MB an index)."""
        self.graph = graph
        self.weights = weights
        self.layers: dict[str, Layer] = graph.layers_by_id() if index is None else index.layers
        self.edges = EdgeIndex(graph, self.layers) if index is None else index
        order, self.leftover = topological_order(list(self.layers), self.edges.arcs())
        # layers on or behind a cycle go last, seeing whatever reached them
        self.propagation = Propagation(
            self.edges, weights, [self.layers[lid] for lid in order + self.leftover],
            parameters, bodies, body=bool(graph.scope), what_if=what_if, loose=loose,
            outer=outer)

    @property
    def inferences(self) -> dict[str, Inferred]:
        return self.propagation.inferences

    @property
    def problems(self) -> list[ParseProblem]:
        return self.propagation.problems

    def outcome(self) -> BodyOutcome:
        """What an outer layer reads of this graph as a body."""
        results = {}
        for lid, layer in self.layers.items():
            if layer.type.lower() == "result":
                values = self.propagation.input_values(layer)
                if values:
                    results[lid] = values[0]
        refusal = next((f"{i.layer.describe()}: {p.message}" for i in self.inferences.values()
                        for p in i.problems if p.kind in REFUSALS), None)
        return BodyOutcome(results, self.layers, refusal)


#: the most body layers one file's analysis may go through (a Loop's fixed point reanalyses
#: its body, and nested bodies multiply that): past it, outer layers are left unmodelled
BODY_LAYER_BUDGET = 200_000


class Bodies:
    """Analyses the bodies of one file for their outer layers' ops, and remembers, for each
    body, the analysis the rules read (the last one its outer layer asked for as final)."""

    def __init__(self, weights: BinFile) -> None:
        self.weights = weights
        self.latest: dict[int, GraphAnalysis] = {}
        #: a body analysis, and the iteration counts remembered after it
        self._cache: dict[tuple, tuple[GraphAnalysis, dict[int, int]]] = {}
        self._spent = 0
        #: each Loop's last iteration count, by id of its layer (Loop::m_num_iterations)
        self._counts: dict[int, int] = {}

    def iterations(self, loop: Layer, found: int | None) -> int:
        """A Loop's iteration count as the runtime keeps it: ``found`` when this validation
        derives one, else the last one derived (-1: never), as a nested Loop validated
        again with its Parameters widened still counts the trip count it folded before."""
        if found is None:
            return self._counts.get(id(loop), -1)
        self._counts[id(loop)] = found
        return found

    def run(self, body: Graph, parameters: dict[str, ParameterValue], final: bool,
            loose: dict[str, Layer] | None = None,
            outer: Value | None = None) -> BodyOutcome | None:
        """``loose``: the Parameters set from a value irvalidate may infer wider than the
        runtime; ``outer``: what the Parameters set rest on (Propagation.analyse_body)."""
        key = (id(body), tuple(sorted(parameters.items())), final,
               tuple(sorted((lid, id(layer)) for lid, layer in (loose or {}).items())),
               id(outer.rests_on) if outer is not None else None,
               tuple(sorted(self._counts.items())))  # nested Loops read what they kept
        cached = self._cache.get(key)
        if cached is None:
            self._spent += len(body.layers)
            if self._spent > BODY_LAYER_BUDGET:
                return None
            # a body's as-declared reading analyses its nested bodies too (a nested Loop
            # keeps the count it derives there); the rules read the final readings
            found = GraphAnalysis(body, self.weights, parameters, self, loose=loose,
                                  outer=outer)
            self._cache[key] = found, dict(self._counts)
        else:
            found, counts = cached
            self._counts = dict(counts)  # as if its nested Loops were validated again
        if final:
            self.latest[id(body)] = found
        return found.outcome()


def analyse(graphs: list[Graph], weights: BinFile) -> list[GraphAnalysis]:
    """The analysis of every graph of a file (the model first, then the bodies, outermost
    first, as ``Document.graphs`` lists them)."""
    bodies = Bodies(weights)
    found = []
    for graph in graphs:
        analysis = bodies.latest.get(id(graph))
        if analysis is None:
            analysis = bodies.latest[id(graph)] = GraphAnalysis(graph, weights, bodies=bodies)
        found.append(analysis)
    return found
