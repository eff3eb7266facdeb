"""Shape propagation over one graph: what reaches every input, in topological order.

The runtime re-infers every shape from the Parameters, so the shape that reaches a layer is
what its producer *produces*, not what the file declares.  We propagate the inferred output
of every layer we model (broadcasting and shape-preserving layers) and fall back to the
declared dims for the rest.  Interval dims survive only through Parameter ``shape``
attributes, so that is where exact shapes start.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Dict, Iterator, List, Optional, Tuple

from ..ir import elements
from ..ops import kinds as ops
from ..ir import opsets
from ..ops import valueprop
from ..ir.weights import BinFile, ConstError
from ..shapes.dims import Shape, from_declared, parse_shape
from .order import topological_order
from ..ops.infer import Inference, Value, infer
from ..ir.records import Edge, Graph, Layer, ParseProblem, Port
from ..shapes.values import MAX_ELEMENTS, RANGES, Tensor

PortKey = Tuple[str, str]


def _count(shape: Shape) -> float:
    """Elements of a shape; infinite unless every dim is static."""
    total = 1
    for dim in shape or ():
        if not dim.is_static:
            return float("inf")
        total *= dim.lo
    return total


def declared_shape(port: Port) -> Shape:
    return tuple(from_declared(d) for d in port.dims)


class GraphAnalysis:
    def __init__(self, graph: Graph, weights: BinFile) -> None:
        self.graph = graph
        self.weights = weights
        self.layers: Dict[str, Layer] = graph.layers_by_id()
        self.problems: List[ParseProblem] = []
        #: (to-layer, to-port) -> the first edge into that input port; any further edges
        #: (an error) in ``extra_edges``: a list per port would cost ~100 bytes on every port
        self.incoming: Dict[PortKey, Edge] = {}
        self.extra_edges: Dict[PortKey, List[Edge]] = defaultdict(list)
        #: edges whose endpoints do not exist, with the reason
        self.dangling: List[Tuple[Edge, str]] = []
        #: edges that leave an input port or enter an output port
        self.reversed: List[Tuple[Edge, str]] = []
        #: layers a topological order could not place: on or behind a cycle
        self.leftover: List[str] = []
        self.outputs: Dict[PortKey, Value] = {}
        self.inferences: Dict[str, Inference] = {}
        self._consts: Dict[str, object] = {}
        self._const_tensors: Dict[str, Optional[Tensor]] = {}
        self._index_edges()
        for layer in self._topological_order():
            self._visit(layer)

    def _index_edges(self) -> None:
        for edge in self.graph.edges:
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

    def edges_into(self, key: PortKey) -> List[Edge]:
        """Every edge into one input port, in file order."""
        first = self.incoming.get(key)
        return [] if first is None else [first, *self.extra_edges.get(key, ())]

    def edge_ports(self) -> Iterator[Tuple[Edge, Layer, Port, Layer, Port]]:
        """(edge, producer, its output port, consumer, its input port) of every valid edge."""
        for (to_layer, to_port), first in self.incoming.items():
            consumer = self.layers[to_layer]
            target = consumer.inputs[consumer.input_index(to_port)]  # type: ignore[index]
            edges = self.edges_into((to_layer, to_port)) if self.extra_edges else (first,)
            for edge in edges:
                producer = self.layers[edge.from_layer]
                source = producer.outputs[producer.output_index(edge.from_port)]  # type: ignore[index]
                yield edge, producer, source, consumer, target

    def arcs(self) -> List[Tuple[str, str]]:
        """(producer id, consumer id) of every edge whose ends exist."""
        arcs = [(e.from_layer, e.to_layer) for e in self.incoming.values()]
        arcs += [(e.from_layer, e.to_layer) for edges in self.extra_edges.values() for e in edges]
        return arcs

    def _topological_order(self) -> List[Layer]:
        order, self.leftover = topological_order(list(self.layers), self.arcs())
        # layers on or behind a cycle go last, seeing whatever reached them
        return [self.layers[lid] for lid in order + self.leftover]

    def input_values(self, layer: Layer) -> List[Value]:
        """The values reaching a layer, counted as the runtime counts them: by their edges.

        A port without an edge is no input at all, unless the layer has no incoming edge
        (an isolated layer the runtime would drop): then its declared ports stand in.
        """
        connected = [(port, self.incoming.get((layer.id, port.id))) for port in layer.inputs]
        isolated = not any(edge for _, edge in connected)
        values = []
        for port, edge in connected:
            if edge is None and not isolated:
                continue
            value = self.outputs.get((edge.from_layer, edge.from_port)) if edge else None
            if value is None:
                value = Value(declared_shape(port), elements.from_precision(port.precision))
            values.append(value)
        return values

    def read_const(self, layer: Layer) -> List[int]:
        cached = self._consts.get(layer.id)
        if cached is None:
            try:
                cached = self.weights.integers(layer.data)
            except ConstError as err:
                cached = err
            self._consts[layer.id] = cached
        if isinstance(cached, ConstError):
            raise cached
        return cached  # type: ignore[return-value]

    def _visit(self, layer: Layer) -> None:
        kind = layer.type.lower()
        if kind == "parameter" or kind in ops.CONST_TYPES:
            self._source(layer)
            return
        inputs = self.input_values(layer)
        # an extension's op is opaque, even when it shares a name with one of OpenVINO's
        extension = opsets.is_extension(layer.version, layer.type)
        family = None if extension else ops.family(layer.type)
        inference = infer(layer, family, inputs, self.read_const) if family else None
        if inference is not None:
            self.inferences[layer.id] = inference
        for index, port in enumerate(layer.outputs):
            shape: Optional[Shape] = None
            et: Optional[str] = None
            inferred = inference.outputs if inference is not None else None
            if inferred is not None and index < len(inferred) and (
                    inferred[index] is not None or not port.dims):
                shape = inferred[index]
                types = inference.output_types  # type: ignore[union-attr]
                et = types[index] if index < len(types) else None
            else:
                # not modelled, or inferred as dynamic rank where the file writes dims (the
                # runtime knew the rank to write them): the declared dims are the best estimate
                shape = declared_shape(port)
                if not port.dims and (extension or self._may_be_dynamic_rank(layer, inputs)):
                    shape = None
            if et is None:
                et = elements.from_precision(port.precision)
            self.outputs[(layer.id, port.id)] = Value(shape, et, layer)
        if kind in valueprop.VALUE_OPS and layer.outputs and not extension:
            self._evaluate(layer, kind, inputs)

    def _evaluate(self, layer: Layer, kind: str, inputs: List[Value]) -> None:
        """Bound the integer value a shape layer computes (kept on its output 0)."""
        key = (layer.id, layer.outputs[0].id)
        out = self.outputs[key]
        tensor = valueprop.evaluate(layer, inputs, self.tensor_of)
        fallback = None
        if tensor is None and kind == "concat" and out.shape is not None and len(out.shape) == 1 \
                and out.shape[0].is_static:
            fallback = valueprop.concat_fallback(inputs, out.shape[0].lo, self._first_value)
        if tensor is not None or fallback is not None:
            self.outputs[key] = out._replace(tensor=tensor, fallback=fallback)

    def tensor_of(self, value: Value) -> Optional[Tensor]:
        """The bounded value reaching an input: computed upstream, or a Const's own values."""
        if value.tensor is not None:
            return value.tensor
        producer = value.producer
        if producer is None or producer.type.lower() not in ops.CONST_TYPES or value.shape is None:
            return None
        if producer.id not in self._const_tensors:
            tensor = None
            # count first: a quantized weight (u8/u4 into a Convert) holds far more values than
            # a tensor of shape values may (MAX_ELEMENTS), and decoding it only to drop it
            # was most of the time spent on such models
            if value.element_type in RANGES and _count(value.shape) <= MAX_ELEMENTS:
                try:
                    numbers = self.read_const(producer)
                except ConstError:  # the invalid-constant rule reports it
                    numbers = None
                if numbers is not None:
                    tensor = valueprop.const_tensor(producer, numbers, value.shape, value.element_type)
            self._const_tensors[producer.id] = tensor
        return self._const_tensors[producer.id]

    def _first_value(self, value: Value) -> Optional[int]:
        """The first value of a Const input (the Concat fallback reads only Constants)."""
        if value.tensor is not None:  # computed, not a Constant
            return None
        tensor = self.tensor_of(value)
        return tensor.bounds[0].lo if tensor is not None and tensor.bounds else None

    @staticmethod
    def _may_be_dynamic_rank(layer: Layer, inputs: List[Value]) -> bool:
        """Whether a layer we do not model shows that its ``<dim>``-less output is dynamic rank.

        Ports write rank 0 and dynamic rank alike.  We read rank 0 unless the producer shows
        otherwise: a dynamic-rank input, a 1-D input of unknown length (a shape operand such
        as Reshape's target, whose length sets the output rank), or a body (If and Loop
        outputs come from their bodies, whose branches may differ in rank).
        """
        if layer.bodies or any(v.shape is None for v in inputs):
            return True
        return any(len(v.shape) == 1 and not v.shape[0].is_static for v in inputs)

    def _source(self, layer: Layer) -> None:
        """Parameter and Const: the ``shape`` attribute is exact (intervals included)."""
        et = elements.from_element_type(layer.data.get("element_type"))
        for port in layer.outputs:
            # the runtime reads a missing shape attribute as a scalar, whatever the port says
            shape: Shape = ()
            try:
                shape = parse_shape(layer.data.get("shape", ""))
            except ValueError:
                shape = declared_shape(port)
                self.problems.append(ParseProblem(layer.line, f"{layer.describe()}: shape attribute "
                                                  f"{layer.data['shape']!r} cannot be parsed", layer))
            self.outputs[(layer.id, port.id)] = Value(shape, et or elements.from_precision(port.precision), layer)
