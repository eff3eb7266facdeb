"""The model graph analysed as its layers stream past, in file order, in bounded memory.

Why: a whole-graph analysis keeps every layer, port, edge and value of a 200k-layer IR
(half a gigabyte); a model written by the serializer lists each layer after its inputs, so
each can be inferred as it is read, and forgotten once the layers that read it have been
checked.  What is kept: the edge table (``ir.edge_table``), the *frontier* (the layers, and
the values they produce, that a layer not yet read still consumes) and the current batch.
A layer alike one already checked and found clean (``likeness``) only gets its values.

It is exact or it declines.  ``StreamAnalysis`` raises :class:`Decline` whenever the file
needs more than one layer and its producers to be judged as the whole-graph analysis judges
it: a layer before its input, a duplicated id, a dangling, reversed or doubled edge, a
layer that reaches no Result, a body, a variable (ReadValue/Assign read the whole graph),
an extension op, an unreadable Const.  The engine then checks the file the whole way.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from ..ir import opsets
from ..ir.edge_table import EdgeTable
from ..ir.records import Edge, Graph, Layer, ParseProblem
from ..ir.weights import BinFile
from ..ops import registry
from ..ops.spec import Value
from . import likeness
from .batch import Batch
from .propagation import Propagation

PortKey = Tuple[str, str]

#: types whose ops read more than their inputs (bodies, the whole graph's variables)
_WHOLE_GRAPH = frozenset({"if", "loop", "tensoriterator", "readvalue", "assign"})
#: a layer nothing consumes must be one of these, or it reaches no Result (unreachable-layer)
_ENDS = frozenset({"result", "assign", "parameter"})
_PORT_IDS = [str(n) for n in range(256)]


class Decline(Exception):
    """The file needs the whole-graph analysis (the reason is for tests and the curious)."""


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


class StreamAnalysis:
    """Feed it every layer in file order (``add``); take each batch (``batch``) for the
    rules, ``settle`` and ``release`` it; ``finish`` at the end."""

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
        self.likeness = likeness.Likeness(None if weights.error else weights.size())
        self._types: Dict[Tuple[str, str], tuple] = {}
        # the batch: every layer's id and edges, and those the rules read
        self._numbers: List[int] = []
        self._into: List[Any] = []
        self._layers: List[Layer] = []
        self._novel: List[tuple] = []
        self._batch_edges: List[Edge] = []
        #: the place in the file of each layer of the batch the rules read, by its id()
        self.places: Dict[int, int] = {}
        #: how many layers were read: the place in the file of the next one
        self.count = 0
        self._read = 0
        self._problems_seen = 0

    def add(self, layer: Layer, parts: object = None) -> None:
        """The next layer of the file; ``parts`` names its declared ports (the scanner's
        object for their text), or is None.  (Tight: this runs once per layer.)"""
        number = self._number(layer)
        kinds_of = self._types.get((layer.type, layer.version))
        if kinds_of is None:
            kinds_of = self._type(layer)
        spec, whole, end = kinds_of
        if whole or layer.bodies or layer.port_maps:
            raise Decline(f"{layer.describe()} needs the whole graph, or an extension")
        if not end and not self._waiting[number]:
            raise Decline(f"{layer.describe()} reaches no Result")
        table, live, outputs = self.table, self._live, self.propagation.outputs
        from_layer, from_port, to_port = table.from_layer, table.from_port, table.to_port
        edges = table.into(number)
        entering: Dict[str, tuple] = {}
        for index in edges:
            producer = live.get(from_layer[index])
            if producer is None:
                raise Decline("an edge from a layer not read yet, or from none")
            source, target = from_port[index], to_port[index]
            source = _PORT_IDS[source] if source < 256 else str(source)
            target = _PORT_IDS[target] if target < 256 else str(target)
            key = (producer.id, source)
            value = outputs.get(key)
            if value is None or target in entering:
                raise Decline("an edge from no output port, or a second edge into a port")
            entering[target] = (producer, source, index, value, value.kind)
        values: List[Value] = []
        port_kinds: List[Optional[int]] = []
        for port in layer.inputs:
            found = entering.get(port.id)
            if found is None:
                port_kinds.append(None)
            else:
                values.append(found[3])
                port_kinds.append(found[4])
        if len(values) != len(entering):
            raise Decline("an edge into no input port")
        self._read += len(edges)
        self.count += 1
        live[number] = layer
        self._numbers.append(number)
        self._into.append(edges)
        key = None
        if spec is not None and parts is not None:
            key = self.likeness.key(spec, layer, parts, tuple(port_kinds))
            if key is not None:
                made = self.likeness.recall(key, values)
                if made is not None:
                    likeness.write(layer, made, values, outputs, spec.source)
                    return
        self._novel_layer(layer, spec, parts, key, entering, values)

    def _type(self, layer: Layer) -> tuple:
        """(its spec, whether the whole graph is needed, whether it may end a path), per
        type and version."""
        kind = layer.type.lower()
        found = (registry.lookup(layer.type, layer.version),
                 kind in _WHOLE_GRAPH or opsets.is_extension(layer.version, layer.type),
                 kind in _ENDS)
        self._types[(layer.type, layer.version)] = found
        return found

    def _novel_layer(self, layer: Layer, spec, parts: object, key: Optional[tuple],
                     entering: Dict[str, tuple], values: List[Value]) -> None:
        """A layer unlike any found clean: inferred, and checked with its batch."""
        incoming, first = self._edges.incoming, self.table.first_line
        for to_port, (producer, from_port, index, _, _) in entering.items():
            edge = Edge(producer.id, from_port, layer.id, to_port, first + index)
            incoming[(layer.id, to_port)] = edge
            self._batch_edges.append(edge)
        self._layers.append(layer)
        self.places[id(layer)] = self.count - 1
        self._novel.append((layer, spec, parts, key, values))
        propagation = self.propagation
        propagation._visit(layer)
        if propagation.unread_const is not None:
            raise Decline("a Const that cannot be read (static-dim-declared then says nothing)")
        outputs, kind = propagation.outputs, self.likeness.kind
        for port in layer.outputs:
            out = (layer.id, port.id)
            value = outputs[out]
            outputs[out] = value._replace(kind=kind(layer, port, value))

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
        """The layers read since the last batch (those the rules read, and the others)."""
        return len(self._numbers)

    def batch(self, doc_problems: List[ParseProblem]) -> Batch:
        """The layers the rules read among those added since the last batch."""
        problems = self.propagation.problems
        graph = Graph(self._layers, self._batch_edges, doc_problems[self._problems_seen:])
        self._problems_seen = len(doc_problems)
        found = Batch(graph, problems[:], self.weights, self.propagation,
                      dict(self.propagation.inferences),
                      {layer.id: layer for layer in self._live.values()})
        problems.clear()
        return found

    def settle(self, problems) -> None:
        """After the rules ran on the batch: each of its layers they found nothing in is a
        likeness found clean (none when a problem names no layer)."""
        if any(p.layer is None for p in problems):
            return
        named = {id(p.layer) for p in problems}
        outputs = self.propagation.outputs
        for layer, spec, parts, key, values in self._novel:
            if key is None or id(layer) in named:
                continue
            made = self.likeness.template(layer, outputs, values)
            if made is not None:
                self.likeness.remember(key, layer, parts, spec, values, made)

    def release(self) -> None:
        """Forget the batch: its inferences, and each layer no later layer reads."""
        table, waiting, live = self.table, self._waiting, self._live
        for number, edges in zip(self._numbers, self._into):
            for index in edges:
                source = table.from_layer[index]
                waiting[source] -= 1
                if not waiting[source]:
                    self._forget(live.pop(source))
            if not waiting[number]:
                self._forget(live.pop(number))
        self._numbers, self._into, self._layers, self._novel, self._batch_edges = [], [], [], [], []
        self.places = {}
        self._edges.incoming.clear()
        self.propagation.inferences.clear()

    def _forget(self, layer: Layer) -> None:
        propagation, lid = self.propagation, layer.id
        for port in layer.outputs:
            propagation.outputs.pop((lid, port.id), None)
        propagation._consts.pop(lid, None)
        propagation._const_tensors.pop(lid, None)

    def finish(self) -> None:
        """After the last layer: every edge must have entered a layer that was read."""
        if self._read != len(self.table):
            raise Decline("an edge into a layer that does not exist")
