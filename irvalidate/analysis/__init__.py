"""One graph's analysis: its edge index and integrity facts, topological order, and the
propagation of shapes and values; the rules read nothing else.

    edges.py        the edges indexed by the input port they enter; dangling, reversed
    order.py        topological order, cycles, reachability (no recursion)
    propagation.py  each layer dispatched once to its op, in order
"""
from __future__ import annotations

from typing import Dict, List

from ..ir.records import Graph, Layer, ParseProblem
from ..ir.weights import BinFile
from ..ops.spec import Inferred
from .edges import EdgeIndex
from .order import topological_order
from .propagation import Propagation


class GraphAnalysis:
    """What the rules read of one graph (the model, or a nested body)."""

    def __init__(self, graph: Graph, weights: BinFile) -> None:
        self.graph = graph
        self.weights = weights
        self.layers: Dict[str, Layer] = graph.layers_by_id()
        self.edges = EdgeIndex(graph, self.layers)
        order, self.leftover = topological_order(list(self.layers), self.edges.arcs())
        # layers on or behind a cycle go last, seeing whatever reached them
        self.propagation = Propagation(
            self.edges, weights, [self.layers[lid] for lid in order + self.leftover],
            body=bool(graph.scope))

    @property
    def inferences(self) -> Dict[str, Inferred]:
        return self.propagation.inferences

    @property
    def problems(self) -> List[ParseProblem]:
        return self.propagation.problems
