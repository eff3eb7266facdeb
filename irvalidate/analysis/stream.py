"""The model graph analysed as its layers stream past, in file order, in bounded memory.

Why: a whole-graph analysis keeps every layer, port, edge and value of a 200k-layer IR
(half a gigabyte); a model written by the serializer lists each layer after its inputs, so
each can be inferred as it is read, and forgotten once the layers that read it have been
checked.  What is kept: the edge table (``ir.edge_table``), the *frontier* (the layers, and
the values they produce, that a layer not yet read still consumes) and the current batch.

It is exact or it declines.  ``StreamAnalysis`` raises :class:`Decline` whenever the file
needs more than one layer and its producers to be judged as the whole-graph analysis judges
it: a layer before its input, a duplicated id, a dangling, reversed or doubled edge, a
layer that reaches no Result, a body, a variable (ReadValue/Assign read the whole graph),
an unreadable Const.  The engine then checks the file the whole-graph way.

The rules read each batch through :class:`Batch`, which has the shape of a
:class:`~irvalidate.analysis.GraphAnalysis` restricted to the batch's layers, their
inferences and the edges that enter them.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Tuple

from ..ir import opsets
from ..ir.edge_table import EdgeTable
from ..ir.records import Edge, Graph, Layer, ParseProblem, Port
from ..ir.weights import BinFile
from ..ops.spec import Inferred
from .propagation import Propagation

PortKey = Tuple[str, str]

#: types whose ops read more than their inputs (bodies, the whole graph's variables)
_WHOLE_GRAPH = frozenset({"if", "loop", "tensoriterator", "readvalue", "assign"})
#: a layer nothing consumes must be one of these, or it reaches no Result (unreachable-layer)
_ENDS = frozenset({"result", "assign", "parameter"})
_PORT_IDS = [str(n) for n in range(256)]


class Decline(Exception):
    """The file needs the whole-graph analysis (the reason is for tests and the curious)."""


def _port_id(number: int) -> str:
    return _PORT_IDS[number] if number < 256 else str(number)


class _Edges:
    """The edge index a Propagation reads: the edges into the layers of the batch."""

    def __init__(self) -> None:
        self.incoming: Dict[PortKey, Edge] = {}
        self.layers: Dict[str, Layer] = {}


class _Propagation(Propagation):
    """A Propagation fed one layer at a time; what needs the whole graph declines."""

    def layers_of_type(self, kind: str) -> List[Layer]:
        raise Decline(f"an op asks for every {kind} layer")

    def memo(self, key: str, build: Callable[[], Any]) -> Any:
        raise Decline(f"an op asks for a graph-wide table ({key})")

    def creation_order(self) -> List[Layer]:
        raise Decline("an op asks for the reader's order")

    def forget(self, layer: Layer) -> None:
        for port in layer.outputs:
            self.outputs.pop((layer.id, port.id), None)
        self._consts.pop(layer.id, None)
        self._const_tensors.pop(layer.id, None)


class StreamAnalysis:
    """Feed it every layer in file order (``add``); take each batch (``batch``) for the
    rules, then ``release`` it; ``finish`` at the end."""

    def __init__(self, table: EdgeTable, weights: BinFile) -> None:
        self.table = table
        self.weights = weights
        #: edges still to be read out of each layer id
        self._waiting = table.leaving()
        self._seen = bytearray(len(self._waiting))
        #: the frontier and the batch: layer id -> its record
        self._live: Dict[int, Layer] = {}
        self._edges = _Edges()
        self.propagation = _Propagation(self._edges, weights, [])
        self._layers: List[Layer] = []
        self._numbers: List[int] = []
        #: the edge indices entering each layer of the batch
        self._into: List[Any] = []
        self._batch_edges: List[Edge] = []
        self._read = 0
        self._problems_seen = 0
        #: each layer's place in the file, for the layers the rules found something in
        self.places: Dict[int, int] = {}
        self._count = 0

    def add(self, layer: Layer) -> None:
        number = self._number(layer)
        if layer.bodies or layer.port_maps or layer.type.lower() in _WHOLE_GRAPH:
            raise Decline(f"{layer.describe()} needs the whole graph")
        if opsets.is_extension(layer.version, layer.type):
            raise Decline("an extension op (extension-op reports every one of them at once)")
        if not self._waiting[number] and layer.type.lower() not in _ENDS:
            raise Decline(f"{layer.describe()} reaches no Result")
        table, live, incoming = self.table, self._live, self._edges.incoming
        ports = set()
        edges = table.into(number)
        for index in edges:
            producer = live.get(table.from_layer[index])
            if producer is None:
                raise Decline("an edge from a layer not read yet, or from none")
            from_port, to_port = _port_id(table.from_port[index]), _port_id(table.to_port[index])
            if producer.output_index(from_port) is None or layer.input_index(to_port) is None \
                    or to_port in ports:
                raise Decline("a dangling, reversed or doubled edge")
            ports.add(to_port)
            edge = Edge(producer.id, from_port, layer.id, to_port, table.first_line + index)
            incoming[(layer.id, to_port)] = edge
            self._batch_edges.append(edge)
        self._read += len(ports)
        live[number] = layer
        self._layers.append(layer)
        self._numbers.append(number)
        self._into.append(edges)
        self._count += 1
        self.propagation._visit(layer)
        if self.propagation.unread_const is not None:
            raise Decline("a Const that cannot be read (static-dim-declared then says nothing)")

    def _number(self, layer: Layer) -> int:
        lid = layer.id
        if not (lid.isdigit() and lid.isascii() and (lid == "0" or lid[0] != "0")):
            raise Decline(f"layer id {lid[:20]!r} is not a plain number")
        number = int(lid)
        if number >= len(self._seen):
            raise Decline("a layer id no edge names, past every one that does")
        if self._seen[number]:
            raise Decline(f"layer id {lid} is duplicated")
        self._seen[number] = 1
        return number

    def __len__(self) -> int:
        return len(self._layers)

    def batch(self, doc_problems: List[ParseProblem]) -> "Batch":
        """The layers added since the last batch, as the rules read them."""
        problems = self.propagation.problems
        graph = Graph(self._layers, self._batch_edges, doc_problems[self._problems_seen:])
        self._problems_seen = len(doc_problems)
        found = Batch(self, graph, problems[:])
        problems.clear()
        return found

    def release(self) -> None:
        """Forget the batch: its inferences, and each layer no later layer reads."""
        table, waiting, live = self.table, self._waiting, self._live
        forget = self.propagation.forget
        for number, edges in zip(self._numbers, self._into):
            for index in edges:
                source = table.from_layer[index]
                waiting[source] -= 1
                if not waiting[source]:
                    forget(live.pop(source))
            if not waiting[number]:
                forget(live.pop(number))
        self._layers, self._numbers, self._into, self._batch_edges = [], [], [], []
        self._edges.incoming.clear()
        self.propagation.inferences.clear()

    def finish(self) -> None:
        """After the last layer: every edge must have entered a layer that was read."""
        if self._read != len(self.table):
            raise Decline("an edge into a layer that does not exist")


class Batch:
    """One batch, shaped as a GraphAnalysis of the graph it makes (see the module)."""

    leftover: List[str] = []

    def __init__(self, stream: StreamAnalysis, graph: Graph, problems: List[ParseProblem]) -> None:
        self.graph = graph
        self.weights = stream.weights
        self.propagation = stream.propagation
        self.problems = problems
        self.inferences: Dict[str, Inferred] = dict(stream.propagation.inferences)
        self.layers: Dict[str, Layer] = {layer.id: layer for layer in graph.layers}
        self.edges = BatchEdges(graph.edges, {layer.id: layer for layer in stream._live.values()})


class BatchEdges:
    """The EdgeIndex of a batch: the edges entering its layers (all valid: the stream
    declined any other)."""

    def __init__(self, edges: List[Edge], layers: Dict[str, Layer]) -> None:
        self.layers = layers
        self.incoming: Dict[PortKey, Edge] = {(e.to_layer, e.to_port): e for e in edges}
        self.extra_edges: Dict[PortKey, List[Edge]] = {}
        self.dangling: List[Tuple[Edge, str]] = []
        self.reversed: List[Tuple[Edge, str]] = []
        self._edges = sorted(edges, key=_edge_line)  # (file order)
        self._ports: Any = None

    def edges_into(self, key: PortKey) -> List[Edge]:
        first = self.incoming.get(key)
        return [] if first is None else [first]

    def edge_ports(self) -> Iterator[Tuple[Edge, Layer, Port, Layer, Port]]:
        """(edge, producer, its output port, consumer, its input port), in file order."""
        if self._ports is None:
            layers, found = self.layers, []
            for edge in self._edges:
                producer, consumer = layers[edge.from_layer], layers[edge.to_layer]
                found.append((edge, producer,
                              producer.outputs[producer.output_index(edge.from_port)],  # type: ignore[index]
                              consumer, consumer.inputs[consumer.input_index(edge.to_port)]))  # type: ignore[index]
            self._ports = found
        return iter(self._ports)

    def consumers(self, key: PortKey) -> List[Tuple[Layer, Port]]:
        """Only --fix asks (and --fix reads the whole graph): the batch's own."""
        return [(self.layers[e.to_layer], self.layers[e.to_layer].inputs[
            self.layers[e.to_layer].input_index(e.to_port)])  # type: ignore[index]
            for e in self._edges if (e.from_layer, e.from_port) == key]

    def arcs(self) -> List[Tuple[str, str]]:
        return [(e.from_layer, e.to_layer) for e in self._edges]


def _edge_line(edge: Edge) -> int:
    return edge.line
