"""Shape and value propagation over one graph: what reaches every input, in topological order.

The runtime re-infers every shape from the Parameters, so the shape that reaches a layer is
what its producer *produces*, not what the file declares.  Each layer is dispatched once to
its op (irvalidate.ops): the shapes it infers go on to its consumers, and so does the value
a shape subgraph computes (memoized on the output port, so a value shared by many consumers
is computed once).  Layers no op models pass their declared dims on.  Interval dims survive
only through Parameter ``shape`` attributes, so that is where exact shapes start.
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

from ..ir import elements, opsets
from ..ir.records import CONST_TYPES, Graph, Layer, ParseProblem, declared_shape
from ..ir.weights import BinFile, ConstError, const_spec, decode_integers
from ..ops.parameter_const import const_value, outputs_of, renamed
from ..ops.support import registry
from ..ops.support.memo import payload
from ..ops.support.node import BodyOutcome, ParameterValue
from ..ops.support.spec import ARITY, Inferred, Value
from ..shapes import dims
from ..shapes.values import FLOAT_TYPES, Tensor, holds_value, resolved
from .edges import EdgeIndex
from .order import reader_order

PortKey = tuple[str, str]


class Propagation:
    """Runs every layer's op in the order given; keeps what each output port carries."""

    def __init__(self, edges: EdgeIndex, weights: BinFile, order: Sequence[Layer],
                 parameters: dict[str, ParameterValue] | None = None,
                 bodies: Any | None = None, body: bool = False,
                 what_if: Any | None = None,
                 seed: dict[PortKey, Value] | None = None,
                 loose: dict[str, Layer] | None = None,
                 outer: Value | None = None) -> None:
        self.edges = edges
        #: a nested body: its Parameters get their shapes from the enclosing layer's inputs
        #: at load time, so their own shape attributes prove nothing
        self.body = body
        self.weights = weights
        #: body Parameters whose shape (and type) the outer layer sets, by layer id
        self._parameters = parameters or {}
        #: body Parameters set from an outer value irvalidate may infer wider than the
        #: runtime (see Node.loose): the layer that value rests on, by Parameter id
        self._loose = loose or {}
        #: what the Parameters the outer layer sets rest on: its inputs' declarations, or a
        #: value not evaluated there (None: they are proven as the outer inputs are)
        self._outer = outer
        #: the inputs of the layer being inferred (a body it analyses rests on them)
        self._visiting: list[Value] = []
        #: what analyses the bodies of TensorIterator, Loop and If (None: they are not)
        self._bodies = bodies
        #: --reshape: the rewrites Model.reshape makes (analysis.what_if.WhatIf), and the
        #: declared dims of what is not inferred are the old shapes, so they are not used
        self._what_if = what_if
        self.outputs: dict[PortKey, Value] = dict(seed or {})
        #: what inference gave for every modelled layer (Parameters and Consts apart)
        self.inferences: dict[str, Inferred] = {}
        #: a Parameter's or Const's shape attribute that does not parse (malformed-ir)
        self.problems: list[ParseProblem] = []
        self._consts: dict[str, object] = {}
        self._payloads: dict[tuple, object] = {}
        self._payload_tensors: dict[tuple, tuple[Tensor | None, Layer]] = {}
        #: the first Const whose values could not be read (a missing .bin, a bad offset):
        #: dims inferred after it may be unknown only because of it
        self.unread_const: Layer | None = None
        self._const_tensors: dict[str, Tensor | None] = {}
        self._order = order
        self._memo: dict[str, Any] = {}
        for layer in order:
            self._visit(layer)

    def input_values(self, layer: Layer) -> list[Value]:
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

    def memo(self, key: str, build: Callable[[], Any]) -> Any:
        """What ``build()`` gives, computed once per graph (an op's graph-wide table)."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    def creation_order(self) -> list[Layer]:
        """The layers in the order OpenVINO's reader creates them (see ``reader_order``)."""
        def build() -> list[Layer]:
            producers: dict[str, list[str]] = {}
            for (to_layer, _), edge in self.edges.incoming.items():
                producers.setdefault(to_layer, []).append(edge.from_layer)
            kinds = {lid: layer.type for lid, layer in self.edges.layers.items()}
            return [self.edges.layers[lid] for lid in reader_order(kinds, producers)
                    if lid in self.edges.layers]
        return self.memo("creation order", build)

    def analyse_body(self, body: Graph, parameters: dict[str, ParameterValue],
                     final: bool, loose: dict[str, Layer] | None = None
                     ) -> BodyOutcome | None:
        """A body of a layer of this graph, analysed with its Parameters replaced; ``final``
        when this is what the runtime ends with (the rules then read that analysis).  None
        when bodies are not analysed here (no analysis.Bodies was given)."""
        if self._bodies is None:
            return None
        # a body Parameter the outer layer sets is as proven as the outer inputs
        outer = Value(None, None, rests_on=next(
            (v.rests_on for v in self._visiting if v.rests_on is not None), None))
        if loose is None:  # no per-Parameter account: any loose outer input marks them all
            wide = next((v.loose for v in self._visiting if v.loose is not None), None)
            loose = {pid: wide for pid in parameters} if wide is not None else None
        return self._bodies.run(body, parameters, final, loose, outer)

    def loop_iterations(self, loop: Layer, found: int | None) -> int:
        """A Loop's iteration count: ``found``, or the one it kept from an earlier
        validation of the body it is in (Bodies.iterations); -1 when unknown."""
        if self._bodies is None:
            return -1 if found is None else found
        return self._bodies.iterations(loop, found)

    def read_numbers(self, layer: Layer) -> list[float] | None:
        """A small Const's values whatever its element type (booleans as 0/1, floats as
        floats), as a Loop's trip count and conditions are read; None when unreadable."""
        try:
            spec = const_spec(layer.data)
        except ConstError:
            return None
        if spec.count > 16:
            return None
        formats = {"boolean": "?", "f32": "f", "f64": "d", "f16": "e"}
        code = formats.get(spec.element_type)
        integral = spec.element_type in elements.INTEGRAL
        if (code is None and not integral) or spec.size < spec.required_bytes:
            return None
        try:  # (read here, not through read_const: a body's layer ids are not this graph's)
            raw = self.weights.read(spec.offset, spec.required_bytes)
        except (OSError, ValueError):  # (ConstError is a ValueError)
            return None
        if len(raw) < spec.required_bytes:
            return None
        if integral:
            return list(decode_integers(spec, raw))
        return [float(v) for v in struct.unpack(f"<{spec.count}{code}", raw)]

    def read_const(self, layer: Layer) -> list[int]:
        cached = self._consts.get(layer.id)
        if cached is None:
            # Consts of one payload (the serializer writes equal payloads once) decode once
            key = payload(layer.data)
            cached = self._payloads.get(key)
            if cached is None:
                try:
                    cached = self.weights.integers(layer.data)
                except ConstError as err:
                    cached = err
                if len(self._payloads) >= 1024:
                    self._payloads.clear()
                self._payloads[key] = cached
            if isinstance(cached, ConstError) and cached.kind != "type":
                # (a real Const asked for integers is read as reals)
                self.unread_const = self.unread_const or layer
            self._consts[layer.id] = cached
        if isinstance(cached, ConstError):
            raise cached
        return cached  # type: ignore[return-value]  # not a ConstError (above)

    def read_floats(self, layer: Layer) -> list[float]:
        """A Const's values as floats (real or integer types); ConstError when it cannot."""
        try:
            return self.weights.floats(layer.data)
        except ConstError:
            self.unread_const = self.unread_const or layer
            raise

    def first_number(self, layer: Layer) -> float | None:
        """A Const's first value, integer or floating-point (ConstError when unreadable)."""
        return self.weights.first_number(layer.data)

    def tensor_of(self, value: Value) -> Tensor | None:
        """The bounded value reaching an input: computed upstream, or a Const's own values."""
        if value.tensor is not None:
            return resolved(value.tensor)
        producer = value.producer
        if producer is None or producer.type.lower() not in CONST_TYPES or value.shape is None:
            return None
        if producer.id not in self._const_tensors:
            tensor = None
            # count first: a quantized weight (u8/u4 into a Convert) holds far more values than
            # a tensor of shape values may, and decoding it only to drop it was most of the
            # time spent on such models
            if holds_value(value.shape, value.element_type):
                # Consts of one payload (a model's every block reads the same indices)
                # make one value; each Const names itself in its own origin
                key = (payload(producer.data), value.shape, value.element_type)
                made, made_for = self._payload_tensors.get(key, (self, None))
                if made is self:
                    try:
                        numbers = (self.weights.booleans(producer.data)
                                   if value.element_type == "boolean" else
                                   self.read_floats(producer) if value.element_type in FLOAT_TYPES
                                   else self.read_const(producer))
                    except ConstError:  # the invalid-constant rule reports it
                        numbers = None
                    made = None if numbers is None else \
                        const_value(producer, numbers, value.shape, value.element_type)
                    if len(self._payload_tensors) >= 1024:
                        self._payload_tensors.clear()
                    self._payload_tensors[key] = (made, producer)
                elif made is not None:
                    made = renamed(made, made_for, producer)  # type: ignore[arg-type]  # a hit: (tensor, its Const)
                tensor = made
            self._const_tensors[producer.id] = tensor
        return self._const_tensors[producer.id]

    def _visit(self, layer: Layer) -> tuple[int, ...] | None:
        """Infer one layer and write its outputs; its trace (``registry.infer``: the Const
        inputs whose numbers it read, when it read nothing else it was not given), or None."""
        spec = registry.lookup(layer.type, layer.version)
        if spec is not None and spec.source:
            self._source(layer)
            return None
        inputs = self.input_values(layer) if layer.inputs else []
        if self._what_if is not None:
            rewritten, inputs = self._what_if.rewrite(layer, inputs, self)
            if rewritten is None:  # a layer a rewrite removes: nothing of it is inferred
                self._outputs(layer, inputs, None, False)
                if dims.SYMBOLIC is not None:  # (what it passes on still owes to symbols)
                    self._settle(layer, inputs, (False, False, False), ())
                return None
            if rewritten.type != layer.type:
                spec = registry.lookup(rewritten.type, rewritten.version)
            layer = rewritten
        # an extension's op is opaque, even when it shares a name with one of OpenVINO's
        extension = opsets.is_extension(layer.version, layer.type)
        if extension:
            spec = None
        self._visiting = inputs
        if dims.SYMBOLIC is not None:  # reshapeable: the conditions this layer puts are its
            dims.SYMBOLIC.cause = layer
        inferred, tensor, trace = registry.infer(spec, layer, inputs, self) if spec else \
            (None, None, None)
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
        if dims.SYMBOLIC is not None:  # (a Result checks nothing and makes no dim)
            follows = (spec.symbolic, spec.symbolic_values, spec.symbolic_reads) \
                if spec is not None else (layer.type.lower() == "result",) * 3
            self._settle(layer, inputs, follows, spec.value_inputs if spec is not None else (),
                         tensor is not None, spec is not None and spec.evaluate is not None,
                         spec is not None and spec.value_of_shapes)
        return trace

    def _settle(self, layer: Layer, inputs: list[Value], follows: tuple[bool, bool, bool],
                reads: tuple[int, ...], made_values: bool = False, evaluates: bool = True,
                of_shapes: bool = False) -> None:
        """reshapeable (shapes.symdims): the output dims of a layer whose op does not follow
        the input axes' symbols, or that read a value depending on them, are opaque."""
        recording = dims.SYMBOLIC
        depends, origin, unfollowed = recording.settle(
            layer, follows, reads,
            [(v.shape, None if of_shapes else resolved(v.tensor),
              None if of_shapes or v.producer is None else id(v.producer))
             for v in inputs], made_values, evaluates)
        if not depends:
            return
        for port in layer.outputs:
            key = (layer.id, port.id)
            value = self.outputs[key]
            shape = recording.opaque_shape(value.shape, depends, origin) if unfollowed else \
                recording.loosened(recording.owned(layer, value.shape, [v.shape for v in inputs]),
                                   depends, layer)
            if shape is not value.shape:
                self.outputs[key] = value._replace(shape=shape)

    def _outputs(self, layer: Layer, inputs: list[Value], inferred: Inferred | None,
                 extension: bool, own_types: tuple[int, ...] = ()) -> None:
        shapes = inferred.outputs if inferred is not None else None
        # a shape inferred from inputs that rest on declarations rests on them too
        rests_on = next((v.rests_on for v in inputs if v.rests_on is not None), None)
        typed = all(v.typed for v in inputs)
        loose = inferred.loose if inferred is not None else None
        loose = loose or next((v.loose for v in inputs if v.loose is not None), None)
        for index, port in enumerate(layer.outputs):
            et: str | None = None
            basis = rests_on
            if shapes is not None and index < len(shapes):
                # what the runtime infers goes on, a dynamic rank included: dims a file
                # writes where the runtime has none would make consumers look wrong
                shape = shapes[index]
                types = inferred.output_types  # type: ignore[union-attr]  # shapes come with their inference
                et = types[index] if index < len(types) else None
            else:
                # not modelled: the declared dims are the best estimate (but they describe
                # the old inputs in a what-if)
                basis = layer
                shape = declared_shape(port) if self._what_if is None else None
                if not port.dims and (extension or self._may_be_dynamic_rank(layer, inputs)):
                    shape = None
            inferred_type = et is not None
            if et is None:
                et = elements.from_precision(port.precision)
            # a type is proven when the op gives it from proven input types, or from its own
            # attributes; a shape that rests on declarations does not make it less so
            self.outputs[(layer.id, port.id)] = Value(
                shape, et, layer, rests_on=basis,
                typed=inferred_type and (typed or index in own_types), loose=loose)

    def _source(self, layer: Layer) -> None:
        """Parameter and Const: the ``shape`` attribute is exact, whatever the port says; a
        body Parameter the outer layer sets takes what it sets."""
        shapes, et, malformed = outputs_of(layer)
        for message in malformed:
            self.problems.append(ParseProblem(layer.line, message, layer))
        replaced = self._parameters.get(layer.id)
        rests_on = layer if malformed else None
        if replaced is not None:
            shapes = (replaced[0],) * len(shapes)
            et = replaced[1] or et
            if self._outer is not None:
                rests_on = rests_on or self._outer.rests_on
            if self.body and layer.type.lower() == "parameter" and not malformed and \
                    layer.data.get("shape", "").strip() != "...":  # a dynamic rank: any holds
                self.inferences[layer.id] = _set_from_outside(layer, replaced,
                                                              self._loose.get(layer.id))
        elif self.body and layer.type.lower() == "parameter":
            rests_on = layer  # its own declaration, which the runtime replaces
        for port, shape in zip(layer.outputs, shapes):
            self.outputs[(layer.id, port.id)] = Value(
                shape, et or elements.from_precision(port.precision), layer,
                rests_on=rests_on, typed=et is not None and not malformed,
                loose=self._loose.get(layer.id))

    @staticmethod
    def _may_be_dynamic_rank(layer: Layer, inputs: list[Value]) -> bool:
        """Whether a layer we do not model shows that its ``<dim>``-less output is dynamic rank.

        Ports write rank 0 and dynamic rank alike.  We read rank 0 unless the producer shows
        otherwise: a dynamic-rank input, a 1-D input of unknown length (a shape operand such
        as Reshape's target, whose length sets the output rank), or a body (If and Loop
        outputs come from their bodies, whose branches may differ in rank).
        """
        if layer.bodies or any(v.shape is None for v in inputs):
            return True
        return any(v.shape is not None and len(v.shape) == 1 and not v.shape[0].is_static
                   for v in inputs)


def _set_from_outside(layer: Layer, replaced: ParameterValue,
                      loose: Layer | None) -> Inferred:
    """A body Parameter the outer layer sets: the runtime writes what it is set to on its
    port (and attribute), so the dims rules read it as any layer's inference."""
    shape, et = replaced
    return Inferred(layer, tuple(shape for _ in layer.outputs),
                    tuple(et for _ in layer.outputs), (),
                    "what the outer layer's input sets this body Parameter to (the runtime "
                    "writes it on the port and in the shape attribute)", loose=loose)
