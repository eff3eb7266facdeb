"""One layer as an op's inference sees it: what reaches its inputs, and readers for their values.

``as_shape`` is OpenVINO's ``get_input_const_data_as_shape``: a Const's values (a -1 is
``?``), else the bounds a shape subgraph evaluates to, else nothing; ``exact_values`` is its
``get_input_const_data_as``, exact values either way.  A Const that cannot be decoded is
noted for the invalid-constant rule and read as unknown.  The graph behind the node
(``Graph``) is the analysis, reached only through these readers.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from ...ir.records import CONST_TYPES, Graph as Body, Layer
from ...ir.weights import REAL_TYPES, ConstError
from ...shapes.arith import from_int
from ...shapes.dims import Dim, Shape, format_dim, format_shape
from ...shapes.values import (
    FLOAT_TYPES,
    NegativeTarget,
    Origin,
    Tensor,
    Unresolved,
    as_target,
    describe,
    holds_value,
    resolved,
)
from .spec import (
    ARITY,
    CONSTANT,
    INCOMPATIBLE,
    Inferred,
    Operand,
    OpError,
    OpProblem,
    Value,
)

#: the largest tensor rank irvalidate will build a shape for
MAX_RANK = 4096
#: values the readers of integers leave to the ops that move values: u64 (whose maximum,
#: and numbers past the int64 range, the runtime reads as negative), booleans and reals
_NOT_NUMERIC = frozenset({"u64", "boolean"}) | FLOAT_TYPES


class BodyOutcome(NamedTuple):
    """A body (of TensorIterator, Loop or If) analysed with given Parameter shapes."""
    #: body Result layer id -> what reaches it
    results: dict[str, Value]
    #: the body's layers by id
    layers: dict[str, Layer]
    #: the first problem for which the runtime refuses a body layer, as "layer: problem"
    refusal: str | None


#: a body Parameter's replacement: its shape, and its element type (None: the declared one)
ParameterValue = tuple[Any, str | None]


class Graph(Protocol):
    """What a node may ask of the graph around it (the analysis provides it)."""

    #: the .bin of the file (ops.memo names Const payloads in it)
    weights: Any

    def read_const(self, layer: Layer) -> list[int]: ...

    def first_number(self, layer: Layer) -> float | None: ...

    def tensor_of(self, value: Value) -> Tensor | None: ...

    def read_floats(self, layer: Layer) -> list[float]: ...

    def input_values(self, layer: Layer) -> list[Value]: ...

    def memo(self, key: str, build: Callable[[], Any]) -> Any: ...

    def creation_order(self) -> list[Layer]: ...

    def analyse_body(self, body: Body, parameters: dict[str, ParameterValue],
                     final: bool, loose: dict[str, Layer] | None = None
                     ) -> BodyOutcome | None: ...

    def loop_iterations(self, loop: Layer, found: int | None) -> int: ...

    def read_numbers(self, layer: Layer) -> list[float] | None: ...


def is_const(value: Value) -> bool:
    return value.producer is not None and value.producer.type.lower() in CONST_TYPES


class Node:
    """A layer being inferred; what ``infer`` records here is frozen into an Inferred."""
    __slots__ = ("layer", "inputs", "_graph", "operands", "how", "source", "source_input",
                 "problems", "loose", "pure", "read")

    def __init__(self, layer: Layer, inputs: Sequence[Value], graph: Graph) -> None:
        self.layer = layer
        self.inputs = inputs
        self._graph = graph
        #: False once inference has read anything but the input shapes, element types and
        #: producer types, the layer's type, version, attributes and output count, and the
        #: numbers of Const inputs and computed values (listed in ``read``): a producer's
        #: identity or name, the graph.  A pure inference is remembered (ops.memo)
        self.pure = True
        #: the inputs whose values (a Const's numbers, a computed value) were read: the
        #: trace a layer alike must agree with (ops.memo.value_payload)
        self.read: list[int] = []
        self.operands: tuple[Operand, ...] = ()
        #: how the outputs follow from the inputs, for messages
        self.how = ""
        self.source: Origin | str | None = None
        self.source_input = ""
        self.problems: tuple[OpProblem, ...] = ()
        #: the producer of a value input that irvalidate could not evaluate, where the
        #: runtime's bound evaluation may have: the outputs may then be wider than the
        #: runtime's, so nothing is claimed of their ``?`` and intervals (IRV109, --fix)
        self.loose: Layer | None = None

    @property
    def graph(self) -> Graph:
        """The analysis around the layer (an op that asks is not pure)."""
        self.pure = False
        return self._graph

    # ---------------------------------------------------------------- what infer records

    def note(self, kind: str, message: str, const: Layer | None = None) -> None:
        if const is not None:
            self.pure = False
        self.problems += (OpProblem(kind, message, const=const),)

    def require_inputs(self, allowed: tuple[int, ...], why: str = "") -> None:
        """Stop with an arity problem unless the input count is one of ``allowed``."""
        if len(self.inputs) in allowed:
            return
        want = " or ".join(str(n) for n in allowed)
        connected = f"{len(self.inputs)} {'is' if len(self.inputs) == 1 else 'are'} connected"
        raise OpError(ARITY, f"{self.layer.type} takes {want} inputs{why}, but {connected}")

    def show(self, labels: Sequence[str]) -> None:
        """The inputs, labelled, as the operands of the shape table."""
        self.operands = tuple(Operand(label, value.shape, None, value.producer)
                              for label, value in zip(labels, self.inputs))

    def frozen(self, shapes: tuple[Shape, ...] | None, types: tuple[str | None, ...]) -> Inferred:
        return Inferred(self.layer, shapes, types, self.operands, self.how, self.problems,
                        self.source, self.source_input, self.loose)

    def unknown_value(self, index: int) -> None:
        """Input ``index``'s value is needed and unknown: unless a Parameter gives it (whose
        values nobody knows), the runtime may know more than irvalidate does."""
        producer = self.inputs[index].producer
        if producer is not None and producer.type.lower() != "parameter" and self.loose is None:
            self.loose = producer
            self.pure = False

    # ---------------------------------------------------------------- readers of input values

    def const_ints(self, index: int) -> list[int] | None:
        """A Const input's numbers (any integer type), or None."""
        return self._const(index, "read_const")

    def const_floats(self, index: int) -> list[float] | None:
        """A Const input's numbers as floats (real or integer types), or None."""
        return self._const(index, "read_floats")

    def _const(self, index: int, decoder: str):
        value = self.inputs[index]
        if not is_const(value):
            return None
        self.read.append(index)
        try:
            return getattr(self._graph, decoder)(value.producer)
        except ConstError as err:
            if err.kind == "limit":  # too long to be a shape: said once, by invalid-constant
                self.note(CONSTANT, str(err), const=value.producer)
            return None

    def const_first_number(self, index: int) -> float | None:
        """The first value of a Const input of any number type (a float min/max), or None
        (not a Const, empty, or unreadable: the invalid-constant rule speaks for that)."""
        value = self.inputs[index]
        if not is_const(value):
            return None
        self.read.append(index)
        try:
            return self._graph.first_number(value.producer)  # type: ignore[arg-type]  # a Const has a producer
        except ConstError:
            return None

    def one_d_length(self, index: int, what: str) -> int | None:
        """The static length of a 1-D shape input (None: dynamic); stops when its rank is not 1."""
        shape = self.inputs[index].shape
        if shape is None:
            return None
        if len(shape) != 1:
            raise OpError(INCOMPATIBLE, f"{what} must be a 1-D tensor, but has rank {len(shape)} "
                                        f"({format_shape(shape)})")
        if shape[0].lo > MAX_RANK:
            # the output would have that rank; no shape of it is ever built here
            raise OpError(INCOMPATIBLE, f"{what} has {shape[0].lo} elements: an output of that "
                                        f"rank is not a plausible tensor (irvalidate checks up "
                                        f"to rank {MAX_RANK})")
        return shape[0].lo if shape[0].is_static else None

    def computed_as_shape(self, index: int, what: str,
                          rank: int | tuple[int, ...] = 1) -> tuple[Dim, ...] | None:
        """A 1-D shape input computed by a shape subgraph, read as OpenVINO's bound evaluation
        reads it (its Origin is kept as the node's source); ``rank=0`` reads a scalar one (a
        count such as EmbeddingSegmentsSum's num_segments) the same way, as one dim, and
        ``rank=(0, 1)`` takes either."""
        tensor = self.computed(index)
        if tensor is None or tensor.rank not in ((rank,) if isinstance(rank, int) else rank):
            if not is_const(self.inputs[index]):
                self.unknown_value(index)
            return None
        try:
            dims = as_target(tensor)
        except NegativeTarget as neg:
            raise OpError(INCOMPATIBLE, f"{what} element {neg.index} evaluates to "  # noqa: B904 - the message says it all
                                        f"{format_dim(neg.dim)}{neg.why}, computed as "
                                        f"{describe(tensor.origin)}; "
                                        f"OpenVINO refuses a value that can be negative (\"Value for "
                                        f"partial shape evaluation can't be lower than zero\")")
        except Unresolved:  # a wrapped interval: what the runtime makes of it is not followed
            self.unknown_value(index)
            return None
        self.source, self.source_input = tensor.origin, what
        return dims

    def _numeric(self, index: int) -> Tensor | None:
        """A computed input's value as the readers of numbers take it: a u64 value (whose
        maximum, and numbers past the int64 range, the runtime reads as negative int64s) or
        a boolean one is left to the ops that move values and to Broadcast's target."""
        tensor = self.computed(index)
        return None if tensor is None or tensor.et in _NOT_NUMERIC else tensor

    def computed(self, index: int) -> Tensor | None:
        """The value a shape subgraph computed for input ``index`` (None: none), noted in the
        trace: a layer alike another only when its inputs agree on the values it read, a
        value no inference read may differ (distinct weights behind a Convert)."""
        tensor = self.inputs[index].tensor
        if tensor is not None:  # (a pending value that finds it has none is a read too)
            self.read.append(index)
        return resolved(tensor)

    def const_numbers(self, index: int) -> list[int] | None:
        """A Const input's numbers as the runtime casts them to integers: integer types as
        they are, a real Const's truncated towards zero (``2.7`` is 2).  None for anything
        else, an unreadable Const, or a value no int64 holds."""
        found = self.const_ints(index)
        if found is not None or not is_const(self.inputs[index]):
            return found
        if self.inputs[index].element_type not in REAL_TYPES:
            return None
        reals = self.const_floats(index)
        if reals is None or not all(math.isfinite(r) and abs(r) < 2.0 ** 63 for r in reals):
            return None
        return [int(r) for r in reals]

    def exact_values(self, index: int, max_rank: int | None = 1) -> list[int] | None:
        """OpenVINO's ``get_input_const_data_as``: a Const's numbers, or a computed value
        (of rank ``max_rank`` at most; None: any) whose every element is known exactly;
        else None."""
        if index >= len(self.inputs):
            return None
        found = self.const_numbers(index)
        if found is not None or is_const(self.inputs[index]):
            return found
        tensor = self._numeric(index)
        if tensor is None:
            self.unknown_value(index)
            return None
        if max_rank is not None and tensor.rank > max_rank:
            return None
        try:
            return tensor.static_values()
        except Unresolved:
            self.unknown_value(index)
            return None

    def exact_reals(self, index: int) -> list[float] | None:
        """OpenVINO's ``get_input_const_data_as<double>``: a Const's numbers of any number
        type, or a computed value, integer or real, whose every element is known exactly;
        else None (Range reads its inputs so)."""
        value = self.inputs[index]
        if is_const(value):
            return self.const_floats(index)
        tensor = self.computed(index)
        if tensor is None or tensor.et in ("u64", "boolean"):
            self.unknown_value(index)
            return None
        try:
            return [float(v) for v in tensor.static_values()]
        except Unresolved:
            self.unknown_value(index)
            return None

    def as_shape(self, index: int, what: str,
                 rank: int | tuple[int, ...] = 1) -> tuple[Dim, ...] | None:
        """OpenVINO's ``get_input_const_data_as_shape``: a Const's numbers as dims (-1 is
        ``?``, lower values 0), else the bounds a shape subgraph of that ``rank`` evaluates
        to (see :meth:`computed_as_shape`), else None."""
        found = self.const_numbers(index)
        if found is not None:
            return tuple(from_int(v) for v in found)
        return self.computed_as_shape(index, what, rank)

    def input_bounds(self, index: int) -> list[Dim] | None:
        """Each element's (lower, upper) bounds as a Dim, OpenVINO's ``get_input_bounds``: a
        Const's values (as ``Dim(v, v)``, negative ones kept), else what a shape subgraph
        evaluates to (an unbounded element has ``hi == INF``; its Origin is kept as the
        node's source), else None."""
        found = self.const_ints(index)
        if found is not None:
            return [Dim(v, v) for v in found]
        tensor = self._numeric(index)
        if tensor is None:
            if not is_const(self.inputs[index]):
                self.unknown_value(index)
            return None
        self.source, self.source_input = tensor.origin, f"input {index}"
        return list(tensor.bounds)

    # ---------------------------------------------------------------- producers, fenced
    # An op sees a producer through its type alone (ops.memo keys on it) and what the trace
    # names; all else of it goes through ``producer_layer``, which makes the inference not pure.

    def producer_type(self, index: int) -> str | None:
        """The type of the layer producing input ``index`` (None: no layer does)."""
        producer = self.inputs[index].producer
        return None if producer is None else producer.type

    def producer_layer(self, of: int | Value) -> Layer | None:
        """The whole layer producing input ``of`` (an index), or a value the graph gave: its
        id, name, version, attributes.  No likeness accounts for those, so the inference
        that asks is not pure: nothing alike is given its result (ops.memo, analysis.likeness)."""
        self.pure = False
        return (self.inputs[of] if isinstance(of, int) else of).producer

    def operand(self, index: int, label: str, shape: Shape,
                offset: int | None = None) -> Operand:
        """A row of the shape table for input ``index`` (naming its producer, which ops.memo
        maps to the input it reaches)."""
        return Operand(label, shape, offset, self.inputs[index].producer)

    def const_size(self, index: int) -> str | None:
        """A Const input's ``size`` attribute (its bytes in the .bin), or None for anything
        else; in the trace, as its payload names it (ops.memo.payload)."""
        value = self.inputs[index]
        if not is_const(value):
            return None
        self.read.append(index)
        return value.producer.data.get("size", "")  # type: ignore[union-attr]

    def producer_inputs(self, index: int) -> list[Value]:
        """What reaches the inputs of the layer that produces input ``index``."""
        producer = self.producer_layer(index)
        return [] if producer is None else self.graph.input_values(producer)

    def first_const_value(self, value: Value) -> int | None:
        """The first value of a Const (None for anything computed or unreadable)."""
        if value.tensor is not None:
            return None
        tensor = self.graph.tensor_of(value)
        return tensor.bounds[0].lo if tensor is not None and tensor.bounds else None

    def tensors(self) -> list[Tensor] | None:
        """Every input's bounded value, or None as soon as one has none (a computed input
        without a value settles it before any Const is decoded)."""
        if not self.inputs or any(v.tensor is None and not (
                is_const(v) and holds_value(v.shape, v.element_type)) for v in self.inputs):
            # (told before the graph is asked: a Convert of a large weight stays pure, and a
            # layer alike it is given its result whatever the weight's numbers)
            return None
        found = [self.graph.tensor_of(v) for v in self.inputs]
        return None if any(t is None for t in found) else found  # type: ignore[return-value]  # no None left
