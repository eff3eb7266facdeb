"""One batch of the streaming check, as the rules read it: a GraphAnalysis of its layers.

The rules read a :class:`~irvalidate.analysis.GraphAnalysis`; :class:`Batch` has its shape,
restricted to the layers of the batch the rules check, their inferences and the edges that
enter them (all valid: the stream declines any other), their producers included.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..ir.records import Edge, Graph, Layer, ParseProblem, Port
from ..ir.weights import BinFile
from ..ops.support.spec import Inferred

PortKey = tuple[str, str]


class Batch:
    """One batch (see the module)."""

    leftover: list[str] = []

    def __init__(self, graph: Graph, problems: list[ParseProblem], weights: BinFile,
                 propagation: Any, inferences: dict[str, Inferred],
                 live: dict[str, Layer]) -> None:
        self.graph = graph
        self.weights = weights
        self.propagation = propagation
        self.problems = problems
        self.inferences = inferences
        self.layers: dict[str, Layer] = {layer.id: layer for layer in graph.layers}
        self.edges = BatchEdges(graph.edges, live)


class BatchEdges:
    """The EdgeIndex of a batch."""

    def __init__(self, edges: list[Edge], layers: dict[str, Layer]) -> None:
        self.layers = layers
        self.incoming: dict[PortKey, Edge] = {(e.to_layer, e.to_port): e for e in edges}
        self.extra_edges: dict[PortKey, list[Edge]] = {}
        self.dangling: list[tuple[Edge, str]] = []
        self.reversed: list[tuple[Edge, str]] = []
        self._edges = sorted(edges, key=_edge_line)  # (file order)
        self._ports: Any = None

    def edges_into(self, key: PortKey) -> list[Edge]:
        first = self.incoming.get(key)
        return [] if first is None else [first]

    def edge_ports(self) -> Iterator[tuple[Edge, Layer, Port, Layer, Port]]:
        """(edge, producer, its output port, consumer, its input port), in file order."""
        if self._ports is None:
            layers, found = self.layers, []
            for edge in self._edges:
                producer, consumer = layers[edge.from_layer], layers[edge.to_layer]
                found.append((edge, producer,
                              producer.outputs[producer.output_index(edge.from_port)],  # type: ignore[index]  # the batch's edges have ports
                              consumer, consumer.inputs[consumer.input_index(edge.to_port)]))  # type: ignore[index]  # (as above)
            self._ports = found
        return iter(self._ports)

    def consumers(self, key: PortKey) -> list[tuple[Layer, Port]]:
        """Only --fix asks (and --fix reads the whole graph): the batch's own."""
        return [(self.layers[e.to_layer], self.layers[e.to_layer].inputs[
            self.layers[e.to_layer].input_index(e.to_port)])  # type: ignore[index]  # (as above)
            for e in self._edges if (e.from_layer, e.from_port) == key]

    def arcs(self) -> list[tuple[str, str]]:
        return [(e.from_layer, e.to_layer) for e in self._edges]


def _edge_line(edge: Edge) -> int:
    return edge.line
