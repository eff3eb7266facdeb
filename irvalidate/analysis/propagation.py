"""Shape and value propagation over one graph: what reaches every input, in topological order.

The runtime re-infers every shape from the Parameters, so the shape that reaches a layer is
what its producer *produces*, not what the file declares.  Each layer is dispatched once to
its op (irvalidate.ops): the shapes it infers go on to its consumers, and so does the value
a shape subgraph computes (memoized on the output port, so a value shared by many consumers
is computed once).  Layers no op models pass their declared dims on.  Interval dims survive
only through Parameter ``shape`` attributes, so that is where exact shapes start.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ..ir import elements, opsets
from ..ir.records import CONST_TYPES, Layer, ParseProblem, declared_shape
from ..ir.weights import BinFile, ConstError
from ..ops import registry
from ..ops.node import Node
from ..ops.sources import const_value, outputs_of
from ..ops.spec import ARITY, Inferred, Value
from ..shapes.dims import Shape
from ..shapes.values import MAX_VALUE_ELEMENTS, RANGES, Tensor
from .edges import EdgeIndex

PortKey = Tuple[str, str]


def _count(shape: Shape) -> float:
    """Elements of a shape; infinite unless every dim is static."""
    total = 1
    for dim in shape or ():
        if not dim.is_static:
            return float("inf")
        total *= dim.lo
    return total


class Propagation:
    """Runs every layer's op in the order given; keeps what each output port carries."""

    def __init__(self, edges: EdgeIndex, weights: BinFile, order: Sequence[Layer],
                 body: bool = False) -> None:
        self.edges = edges
        #: a nested body: its Parameters get their shapes from the enclosing layer's inputs
        #: at load time, so their own shape attributes prove nothing
        self.body = body
        self.weights = weights
        self.outputs: Dict[PortKey, Value] = {}
        #: what inference gave for every modelled layer (Parameters and Consts apart)
        self.inferences: Dict[str, Inferred] = {}
        #: a Parameter's or Const's shape attribute that does not parse (malformed-ir)
        self.problems: List[ParseProblem] = []
        self._consts: Dict[str, object] = {}
        #: the first Const whose values could not be read (a missing .bin, a bad offset):
        #: dims inferred after it may be unknown only because of it
        self.unread_const: Optional[Layer] = None
        self._const_tensors: Dict[str, Optional[Tensor]] = {}
        for layer in order:
            self._visit(layer)

    def input_values(self, layer: Layer) -> List[Value]:
        """The values reaching a layer, counted as the runtime counts them: by their edges.

        A port without an edge is no input at all, unless the layer has no incoming edge
        (an isolated layer the runtime would drop): then its declared ports stand in.
        """
        incoming = self.edges.incoming
        connected = [(port, incoming.get((layer.id, port.id))) for port in layer.inputs]
        isolated = not any(edge for _, edge in connected)
        values = []
        for port, edge in connected:
            if edge is None and not isolated:
                continue
            value = self.outputs.get((edge.from_layer, edge.from_port)) if edge else None
            if value is None:  # nothing reaches it: what it declares stands in
                value = Value(declared_shape(port), elements.from_precision(port.precision),
                              rests_on=layer)
            values.append(value)
        return values

    def read_const(self, layer: Layer) -> List[int]:
        cached = self._consts.get(layer.id)
        if cached is None:
            try:
                cached = self.weights.integers(layer.data)
            except ConstError as err:
                cached = err
                self.unread_const = self.unread_const or layer
            self._consts[layer.id] = cached
        if isinstance(cached, ConstError):
            raise cached
        return cached  # type: ignore[return-value]

    def first_number(self, layer: Layer) -> Optional[float]:
        """A Const's first value, integer or floating-point (ConstError when unreadable)."""
        return self.weights.first_number(layer.data)

    def tensor_of(self, value: Value) -> Optional[Tensor]:
        """The bounded value reaching an input: computed upstream, or a Const's own values."""
        if value.tensor is not None:
            return value.tensor
        producer = value.producer
        if producer is None or producer.type.lower() not in CONST_TYPES or value.shape is None:
            return None
        if producer.id not in self._const_tensors:
            tensor = None
            # count first: a quantized weight (u8/u4 into a Convert) holds far more values than
            # a tensor of shape values may, and decoding it only to drop it was most of the
            # time spent on such models
            if value.element_type in RANGES and _count(value.shape) <= MAX_VALUE_ELEMENTS:
                try:
                    numbers = self.read_const(producer)
                except ConstError:  # the invalid-constant rule reports it
                    numbers = None
                if numbers is not None:
                    tensor = const_value(producer, numbers, value.shape, value.element_type)
            self._const_tensors[producer.id] = tensor
        return self._const_tensors[producer.id]

    def _visit(self, layer: Layer) -> None:
        spec = registry.lookup(layer.type, layer.version)
        if spec is not None and spec.source:
            self._source(layer)
            return
        inputs = self.input_values(layer) if layer.inputs else []
        # an extension's op is opaque, even when it shares a name with one of OpenVINO's
        extension = opsets.is_extension(layer.version, layer.type)
        if extension:
            spec = None
        inferred, tensor = registry.run(spec, Node(layer, inputs, self)) if spec else (None, None)
        if inferred is not None and len(inputs) < len(layer.inputs):
            # a declared input without an edge (unconnected-input says so): the runtime
            # counts inputs by edges, so a wrong count stands, but shapes inferred from the
            # rest would only add noise
            inferred = inferred._replace(outputs=None, problems=inferred.of(ARITY))
        if inferred is not None:
            self.inferences[layer.id] = inferred
        self._outputs(layer, inputs, inferred, extension, spec.own_types if spec else ())
        if tensor is not None:
            # an op with several outputs (Split) evaluates one value per output port
            for port, value in zip(layer.outputs, tensor if isinstance(tensor, tuple) else (tensor,)):
                key = (layer.id, port.id)
                self.outputs[key] = self.outputs[key]._replace(tensor=value)

    def _outputs(self, layer: Layer, inputs: List[Value], inferred: Optional[Inferred],
                 extension: bool, own_types: Tuple[int, ...] = ()) -> None:
        shapes = inferred.outputs if inferred is not None else None
        # a shape inferred from inputs that rest on declarations rests on them too
        rests_on = next((v.rests_on for v in inputs if v.rests_on is not None), None)
        typed = all(v.typed for v in inputs)
        for index, port in enumerate(layer.outputs):
            et: Optional[str] = None
            basis = rests_on
            if shapes is not None and index < len(shapes):
                # what the runtime infers goes on, a dynamic rank included: dims a file
                # writes where the runtime has none would make consumers look wrong
                shape = shapes[index]
                types = inferred.output_types  # type: ignore[union-attr]
                et = types[index] if index < len(types) else None
            else:
                # not modelled: the declared dims are the best estimate
                basis = layer
                shape = declared_shape(port)
                if not port.dims and (extension or self._may_be_dynamic_rank(layer, inputs)):
                    shape = None
            inferred_type = et is not None
            if et is None:
                et = elements.from_precision(port.precision)
            # a type is proven when the op gives it from proven input types, or from its own
            # attributes; a shape that rests on declarations does not make it less so
            self.outputs[(layer.id, port.id)] = Value(
                shape, et, layer, rests_on=basis,
                typed=inferred_type and (typed or index in own_types))

    def _source(self, layer: Layer) -> None:
        """Parameter and Const: the ``shape`` attribute is exact, whatever the port says."""
        shapes, et, malformed = outputs_of(layer)
        for message in malformed:
            self.problems.append(ParseProblem(layer.line, message, layer))
        for port, shape in zip(layer.outputs, shapes):
            self.outputs[(layer.id, port.id)] = Value(
                shape, et or elements.from_precision(port.precision), layer,
                rests_on=layer if malformed or (self.body and layer.type.lower() == "parameter")
                else None,
                typed=et is not None and not malformed)

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
