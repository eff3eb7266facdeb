"""One graph's edges, indexed by the input port they enter, and what is wrong with them.

The runtime counts a layer's inputs by its edges: this index is what every rule about edges
and every input of the propagation read.  Edges whose ends do not exist (dangling) or that
run from an input port or into an output port (reversed) are kept aside with the reason.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ..ir.records import Edge, Graph, Layer, Port

PortKey = tuple[str, str]


class EdgeIndex:
    def __init__(self, graph: Graph, layers: dict[str, Layer]) -> None:
        self.layers = layers
        #: (to-layer, to-port) -> the first edge into that input port; any further edges
        #: (an error) in ``extra_edges``: a list per port would cost ~100 bytes on every port
        self.incoming: dict[PortKey, Edge] = {}
        self.extra_edges: dict[PortKey, list[Edge]] = defaultdict(list)
        #: edges whose endpoints do not exist, with the reason
        self.dangling: list[tuple[Edge, str]] = []
        #: edges that leave an input port or enter an output port
        self.reversed: list[tuple[Edge, str]] = []
        for edge in graph.edges:
            self._add(edge)

    def _add(self, edge: Edge) -> None:
        source, target = self.layers.get(edge.from_layer), self.layers.get(edge.to_layer)
        if source is None or target is None:
            missing = edge.from_layer if source is None else edge.to_layer
            self.dangling.append((edge, f"layer id {missing!r} does not exist"))
        elif source.output_index(edge.from_port) is None:
            if source.input_index(edge.from_port) is not None:
                self.reversed.append((edge, f"it leaves {source.describe()} from input port "
                                            f"{edge.from_port!r}"))
            else:
                self.dangling.append((edge, f"{source.describe()} has no output port "
                                            f"{edge.from_port!r}"))
        elif target.input_index(edge.to_port) is None:
            if target.output_index(edge.to_port) is not None:
                self.reversed.append((edge, f"it enters {target.describe()} at output port "
                                            f"{edge.to_port!r}"))
            else:
                self.dangling.append((edge, f"{target.describe()} has no input port "
                                            f"{edge.to_port!r}"))
        else:
            key = (edge.to_layer, edge.to_port)
            if self.incoming.setdefault(key, edge) is not edge:
                self.extra_edges[key].append(edge)

    def edges_into(self, key: PortKey) -> list[Edge]:
        """Every edge into one input port, in file order."""
        first = self.incoming.get(key)
        return [] if first is None else [first, *self.extra_edges.get(key, ())]

    def edge_ports(self) -> Iterator[tuple[Edge, Layer, Port, Layer, Port]]:
        """(edge, producer, its output port, consumer, its input port) of every valid edge."""
        for (to_layer, to_port), first in self.incoming.items():
            consumer = self.layers[to_layer]
            target = consumer.inputs[consumer.input_index(to_port)]  # type: ignore[index]  # valid edges: the port exists
            edges = self.edges_into((to_layer, to_port)) if self.extra_edges else (first,)
            for edge in edges:
                producer = self.layers[edge.from_layer]
                source = producer.outputs[producer.output_index(edge.from_port)]  # type: ignore[index]  # (as above)
                yield edge, producer, source, consumer, target

    def consumers(self, key: PortKey) -> list[tuple[Layer, Port]]:
        """The (layer, input port) pairs an output port ``(layer id, port id)`` feeds, in file
        order (indexed on first use: only fixes ask)."""
        index = self.__dict__.get("_consumers")
        if index is None:
            index = defaultdict(list)
            for _, producer, source, consumer, target in self.edge_ports():
                index[(producer.id, source.id)].append((consumer, target))
            self.__dict__["_consumers"] = index
        return index.get(key, [])

    def arcs(self) -> list[tuple[str, str]]:
        """(producer id, consumer id) of every edge whose ends exist."""
        arcs = [(e.from_layer, e.to_layer) for e in self.incoming.values()]
        arcs += [(e.from_layer, e.to_layer) for edges in self.extra_edges.values() for e in edges]
        return arcs
