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

from collections.abc import Callable
from typing import Any, Protocol

from ..ir import opsets
from ..ir.edge_table import EdgeTable
from ..ir.records import Edge, Graph, Layer, ParseProblem
from ..ir.weights import BinFile
from ..ops.support import registry
from ..ops.support.spec import Inferred, Value
from ..shapes import dims
from ..shapes.dims import Shape
from . import likeness
from .batch import Batch
from .propagation import Propagation
from .what_if import WhatIf

PortKey = tuple[str, str]

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
        self.incoming: dict[PortKey, Edge] = {}
        self.layers: dict[str, Layer] = {}


class _Propagation(Propagation):
    """A Propagation fed one layer at a time; what needs the whole graph declines."""

    #: the layer being inferred: the one whose edges into it the batch holds for sure
    _current: Layer | None = None
    #: what reaches the layer ``visit`` was given, by its edges, in port order
    _reaching: tuple[Layer | None, list[Value]] = (None, [])

    def visit(self, layer: Layer, reaching: list[Value]) -> tuple[int, ...] | None:
        """``_visit``, the values reaching the layer given (StreamAnalysis.add found them)."""
        self._reaching = (layer, reaching)
        try:
            return self._visit(layer)
        finally:
            self._reaching = (None, [])

    def _visit(self, layer: Layer) -> tuple[int, ...] | None:
        self._current = layer
        return super()._visit(layer)

    def input_values(self, layer: Layer) -> list[Value]:
        if layer is not self._current:  # (its producer's inputs: their edges may be gone)
            raise Decline(f"an op reads what reaches {layer.describe()}")
        given, reaching = self._reaching
        if given is layer and reaching:  # (what Propagation finds by the edges; with no
            return list(reaching)       # edge, its declared ports stand in: found there)
        return super().input_values(layer)

    def memo(self, key: str, build: Callable[[], Any]) -> Any:
        raise Decline(f"an op asks for a graph-wide table ({key})")

    def creation_order(self) -> list[Layer]:
        raise Decline("an op asks for the reader's order")


class Watch(Protocol):
    """A what-if streamed (``--reshape``): the new shapes of the Parameters, as each is read,
    and a look at every layer before and after inference; each may raise Decline."""

    def reading(self, table: EdgeTable) -> None:
        """The file's edges, read first."""

    def parameter(self, layer: Layer) -> Shape | None:
        """A Parameter's new shape (None: it keeps its own)."""

    def watches(self, kind: str) -> bool:
        """Whether ``entering`` looks at the layers of a type (in lower case)."""

    def entering(self, layer: Layer, entering: dict[str, tuple]) -> None:
        """A layer of a type ``watches`` names, with what reaches it
        (StreamAnalysis._entering), before inference."""

    def inferred(self, layer: Layer, outputs: dict[PortKey, Value],
                 inference: Inferred | None) -> None:
        """A layer unlike any found clean, just inferred."""

    def finish(self) -> None:
        """The file read to its end, and nothing declined."""


class StreamAnalysis:
    """Feed it every layer in file order (``add``); take each batch (``batch``) for the
    rules, ``settle`` and ``release`` it; ``finish`` at the end.  With a ``watch``, the
    graph is inferred as a what-if (``analysis.what_if``: new Parameter shapes, declared
    dims not trusted, no rewrite)."""

    def __init__(self, table: EdgeTable, weights: BinFile, watch: Watch | None = None) -> None:
        self.table = table
        self.weights = weights
        self.watch = watch
        if watch is not None:
            watch.reading(table)
        #: edges still to be read out of each layer id
        self._waiting = table.leaving()
        self._seen = bytearray(len(self._waiting))
        #: the frontier and the batch: layer id -> its record
        self._live: dict[int, Layer] = {}
        self._edges = _Edges()
        self.propagation = _Propagation(self._edges, weights, [],  # type: ignore[arg-type]  # what it reads of an EdgeIndex
                                        what_if=None if watch is None else WhatIf())
        self.likeness = likeness.Likeness(None if weights.error else weights.size(),
                                          self.propagation)
        self._types: dict[tuple[str, str], tuple] = {}
        # the batch: how many layers, those no later layer reads, those the rules read
        self._size = 0
        self._done: list[int] = []
        self._layers: list[Layer] = []
        self._novel: list[tuple] = []
        self._batch_edges: list[Edge] = []
        #: the place in the file of each layer of the batch the rules read, by its id()
        self.places: dict[int, int] = {}
        #: how many layers were read: the place in the file of the next one
        self.count = 0
        self._read = 0
        self._problems_seen = 0

    def add(self, layer: Layer, parts: object = None) -> None:
        """The next layer of the file; ``parts`` names its declared ports (the scanner's
        object for their text), or is None.  (Tight: this runs once per layer; _entering
        reads the edges into it.)"""
        lid = layer.id
        if not (lid.isdigit() and lid.isascii() and (lid == "0" or lid[0] != "0")):
            raise Decline(f"layer id {lid[:20]!r} is not a plain number")
        number, seen = int(lid), self._seen
        if number >= len(seen) or seen[number]:
            raise Decline(f"layer id {lid} is duplicated, or no edge names it")
        seen[number] = 1
        kinds_of = self._types.get((layer.type, layer.version))
        if kinds_of is None:
            kinds_of = self._type(layer)
        spec, whole, end, watched, parameter = kinds_of
        waiting = self._waiting
        if whole or layer.bodies or layer.port_maps or not (end or waiting[number]):
            raise Decline(f"{layer.describe()} needs the whole graph, is an extension's, or "
                          f"reaches no Result")
        entering = self._entering(number)
        if (watched or parameter) and self._watched(layer, entering, watched, parameter):
            parts = None  # (a Parameter given a new shape is like no other)
        values: list[Value] = []
        kinds: list[int | None] = []
        for port in layer.inputs:
            found = entering.get(port.id)
            if found is None:
                kinds.append(None)
            else:
                values.append(found[3])
                kinds.append(found[4])
        if len(values) != len(entering):
            raise Decline("an edge into no input port")
        self._read += len(entering)
        self.count += 1
        self._live[number] = layer
        self._size += 1
        if not waiting[number]:
            self._done.append(number)
        key = None
        if spec is not None and parts is not None:
            key = self.likeness.apply(spec, layer, parts, tuple(kinds), values,
                                      self.propagation.outputs)
            if key is None:  # alike a layer found clean: its values are written
                if self.propagation.unread_const is not None:  # (read to evaluate one)
                    raise Decline("a Const that cannot be read")
                return
        self._novel_layer(layer, spec, parts, key or None, entering, values)

    def _entering(self, number: int) -> dict[str, tuple]:
        """The edges into layer ``number`` by input port: (producer, its output port, the
        edge's index, the value on it, its kind); each producer's edges still to be read counted down,
        and a producer with none left done."""
        table, live, outputs, done = self.table, self._live, self.propagation.outputs, self._done
        from_layer, from_port, to_port, order = table.from_layer, table.from_port, table.to_port, table.order
        waiting, kind_at = self._waiting, self.likeness.kinds.get
        entering: dict[str, tuple] = {}
        for position in range(table.starts[number], table.starts[number + 1]):
            index = order[position]
            source_layer = from_layer[index]
            producer = live.get(source_layer)
            if producer is None:
                raise Decline("an edge from a layer not read yet, or from none")
            source_id, target_id = from_port[index], to_port[index]
            source = _PORT_IDS[source_id] if source_id < 256 else str(source_id)
            target = _PORT_IDS[target_id] if target_id < 256 else str(target_id)
            value = outputs.get(out := (producer.id, source))
            if value is None or target in entering:
                raise Decline("an edge from no output port, or a second edge into a port")
            entering[target] = (producer, source, index, value, kind_at(out, 0))
            waiting[source_layer] -= 1
            if not waiting[source_layer]:
                done.append(source_layer)  # (forgotten once the batch is checked)
        return entering

    def _watched(self, layer: Layer, entering: dict[str, tuple], watched: bool,
                 parameter: bool) -> bool:
        """The watch's look before inference; whether the layer is a Parameter it gives a
        new shape."""
        assert self.watch is not None
        if watched:
            self.watch.entering(layer, entering)
        if not parameter:
            return False
        shape = self.watch.parameter(layer)
        if shape is not None:
            self.propagation._parameters[layer.id] = (shape, None)
        return True

    def _type(self, layer: Layer) -> tuple:
        """(its spec, whether the whole graph is needed, whether it may end a path, whether
        the watch looks at it, whether it is a Parameter), per type and version."""
        kind = layer.type.lower()
        spec, watch = registry.lookup(layer.type, layer.version), self.watch
        found = (spec, kind in _WHOLE_GRAPH or opsets.is_extension(layer.version, layer.type),
                 kind in _ENDS, watch is not None and watch.watches(kind),
                 watch is not None and spec is not None and spec.source and kind == "parameter")
        self._types[(layer.type, layer.version)] = found
        return found

    def _novel_layer(self, layer: Layer, spec, parts: object, key: tuple | None,
                     entering: dict[str, tuple], values: list[Value]) -> None:
        """A layer unlike any found clean: inferred, and checked with its batch."""
        incoming = self._edges.incoming
        for to_port, (producer, from_port, index, _, _) in entering.items():
            # the line counted from <edges>, which the scanner reaches only at the end: the
            # engine adds it to the lines of the findings (streaming.exact_lines)
            edge = Edge(producer.id, from_port, layer.id, to_port, index + 1)
            incoming[(layer.id, to_port)] = edge
            self._batch_edges.append(edge)
        self._layers.append(layer)
        self.places[id(layer)] = self.count - 1
        propagation, recording = self.propagation, dims.SYMBOLIC
        before = recording.moment() if recording is not None else None
        trace = propagation.visit(layer, values)
        if propagation.unread_const is not None:
            raise Decline("a Const that cannot be read (static-dim-declared then says nothing)")
        if self.watch is not None:
            self.watch.inferred(layer, propagation.outputs, propagation.inferences.get(layer.id))
        repeat = self.likeness.mark(layer, propagation.outputs, values, spec, before)
        self._novel.append((layer, spec, parts, key, values, entering, trace, repeat))

    def __len__(self) -> int:
        """The layers read since the last batch (those the rules read, and the others)."""
        return self._size

    def batch(self, doc_problems: list[ParseProblem]) -> Batch:
        """The layers the rules read among those added since the last batch."""
        problems = self.propagation.problems
        graph = Graph(self._layers, self._batch_edges, doc_problems[self._problems_seen:])
        self._problems_seen = len(doc_problems)
        layers = {layer.id: layer for layer in self._layers}
        for _, _, _, _, _, entering, _, _ in self._novel:  # (their producers)
            for producer, _, _, _, _ in entering.values():
                layers[producer.id] = producer
        found = Batch(graph, problems[:], self.weights, self.propagation,
                      dict(self.propagation.inferences), layers)
        problems.clear()
        return found

    def settle(self, problems) -> None:
        """After the rules ran on the batch: each of its layers they found nothing in is a
        likeness found clean (none when a problem names no layer)."""
        if any(p.layer is None for p in problems):
            return
        named = {id(p.layer) for p in problems}
        outputs = self.propagation.outputs
        for layer, spec, parts, key, values, _, trace, repeat in self._novel:
            if key is None or id(layer) in named:
                continue
            made = self.likeness.template(layer, outputs, values, repeat)
            if made is not None:
                self.likeness.remember(key, layer, parts, spec, values, made, trace)

    def release(self) -> None:
        """Forget the batch: its inferences, and each layer no later layer reads."""
        live, forget = self._live, self._forget
        for number in self._done:
            forget(live.pop(number))
        self._done, self._layers, self._novel, self._batch_edges = [], [], [], []
        self._size = 0
        self.places = {}
        self._edges.incoming.clear()
        self.propagation.inferences.clear()

    def _forget(self, layer: Layer) -> None:
        propagation, lid = self.propagation, layer.id
        if dims.SYMBOLIC is not None:  # reshapeable: the recording knows layers by id()
            dims.SYMBOLIC.forget(layer)
        pop, forget_kind = propagation.outputs.pop, self.likeness.kinds.pop
        for port in layer.outputs:
            pop((lid, port.id), None)
            forget_kind((lid, port.id), None)
        if propagation._consts:
            propagation._consts.pop(lid, None)
        if propagation._const_tensors:
            propagation._const_tensors.pop(lid, None)

    def finish(self) -> None:
        """After the last layer: every edge must have entered a layer that was read."""
        if self._read != len(self.table):
            raise Decline("an edge into a layer that does not exist")
