"""One layer as an op's inference sees it: what reaches its inputs, and readers for their values.

``input_as_shape`` is OpenVINO's ``get_input_const_data_as_shape``: a Const's values (a -1
is ``?``), else the bounds a shape subgraph evaluates to, else nothing; ``input_as_ints``
asks for exact values.  A Const that cannot be decoded is noted for the invalid-constant rule
and read as unknown.  The graph behind the node (``Graph``) is the analysis, reached only
through these readers.
"""
from __future__ import annotations

from typing import List, Optional, Protocol, Sequence, Tuple

from ..ir.records import CONST_TYPES, Layer
from ..ir.weights import ConstError
from ..shapes.dims import Dim, Shape, format_dim, format_shape
from ..shapes.values import NegativeTarget, Tensor, Unresolved, as_target, describe
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


class Graph(Protocol):
    """What a node may ask of the graph around it (the analysis provides it)."""

    def read_const(self, layer: Layer) -> List[int]: ...

    def first_number(self, layer: Layer) -> Optional[float]: ...

    def tensor_of(self, value: Value) -> Optional[Tensor]: ...

    def input_values(self, layer: Layer) -> List[Value]: ...


def is_const(value: Value) -> bool:
    return value.producer is not None and value.producer.type.lower() in CONST_TYPES


class Node:
    """A layer being inferred; what ``infer`` records here is frozen into an Inferred."""
    __slots__ = ("layer", "inputs", "graph", "operands", "how", "source", "source_input",
                 "problems")

    def __init__(self, layer: Layer, inputs: Sequence[Value], graph: Graph) -> None:
        self.layer = layer
        self.inputs = inputs
        self.graph = graph
        self.operands: Tuple[Operand, ...] = ()
        #: how the outputs follow from the inputs, for messages
        self.how = ""
        self.source = None
        self.source_input = ""
        self.problems: Tuple[OpProblem, ...] = ()

    # ---------------------------------------------------------------- what infer records

    def note(self, kind: str, message: str, const: Optional[Layer] = None) -> None:
        self.problems += (OpProblem(kind, message, const=const),)

    def require_inputs(self, allowed: Tuple[int, ...], why: str = "") -> None:
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

    def frozen(self, shapes: Optional[Tuple[Shape, ...]], types: Tuple[Optional[str], ...]) -> Inferred:
        return Inferred(self.layer, shapes, types, self.operands, self.how, self.problems,
                        self.source, self.source_input)

    # ---------------------------------------------------------------- readers of input values

    def const_ints(self, index: int) -> Optional[List[int]]:
        """A Const input's numbers (any integer type), or None."""
        value = self.inputs[index]
        if not is_const(value):
            return None
        try:
            return self.graph.read_const(value.producer)  # type: ignore[arg-type]
        except ConstError as err:
            if err.kind == "limit":  # too long to be a shape: said once, by invalid-constant
                self.note(CONSTANT, str(err), const=value.producer)
            return None

    def const_first_number(self, index: int) -> Optional[float]:
        """The first value of a Const input of any number type (a float min/max), or None
        (not a Const, empty, or unreadable: the invalid-constant rule speaks for that)."""
        value = self.inputs[index]
        if not is_const(value):
            return None
        try:
            return self.graph.first_number(value.producer)  # type: ignore[arg-type]
        except ConstError:
            return None

    def one_d_length(self, index: int, what: str) -> Optional[int]:
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
                          scalar: bool = False) -> Optional[Tuple[Dim, ...]]:
        """A 1-D shape input computed by a shape subgraph, read as OpenVINO's bound evaluation
        reads it (its Origin is kept as the node's source); ``scalar``: a 0-D one too, read
        as one dim."""
        tensor = self.inputs[index].tensor
        if tensor is None or tensor.rank not in ((0, 1) if scalar else (1,)):
            return None
        try:
            dims = as_target(tensor)
        except NegativeTarget as neg:
            raise OpError(INCOMPATIBLE, f"{what} element {neg.index} evaluates to "
                                        f"{format_dim(neg.dim)}, computed as {describe(tensor.origin)}; "
                                        f"OpenVINO refuses a value that can be negative (\"Value for "
                                        f"partial shape evaluation can't be lower than zero\")")
        except Unresolved:  # a wrapped interval: what the runtime makes of it is not followed
            return None
        self.source, self.source_input = tensor.origin, what
        return dims

    def input_as_ints(self, index: int) -> Optional[List[int]]:
        """The exact values of an input: a Const's, or a computed one's when every element is
        known exactly; else None."""
        found = self.const_ints(index)
        if found is not None:
            return found
        tensor = self.inputs[index].tensor
        if tensor is None or tensor.rank != 1:
            return None
        try:
            return tensor.static_values()
        except Unresolved:
            return None

    def input_bounds(self, index: int) -> Optional[List[Dim]]:
        """Each element's (lower, upper) bounds as a Dim, OpenVINO's ``get_input_bounds``: a
        Const's values (as ``Dim(v, v)``, negative ones kept), else what a shape subgraph
        evaluates to (an unbounded element has ``hi == INF``; its Origin is kept as the
        node's source), else None."""
        found = self.const_ints(index)
        if found is not None:
            return [Dim(v, v) for v in found]
        tensor = self.inputs[index].tensor
        if tensor is None:
            return None
        self.source, self.source_input = tensor.origin, f"input {index}"
        return list(tensor.bounds)

    def producer_inputs(self, index: int) -> List[Value]:
        """What reaches the inputs of the layer that produces input ``index``."""
        producer = self.inputs[index].producer
        return [] if producer is None else self.graph.input_values(producer)

    def first_const_value(self, value: Value) -> Optional[int]:
        """The first value of a Const (None for anything computed or unreadable)."""
        if value.tensor is not None:
            return None
        tensor = self.graph.tensor_of(value)
        return tensor.bounds[0].lo if tensor is not None and tensor.bounds else None

    def tensors(self) -> Optional[List[Tensor]]:
        """Every input's bounded value, or None as soon as one has none (a computed input
        without a value settles it before any Const is decoded)."""
        if not self.inputs or any(v.tensor is None and not is_const(v) for v in self.inputs):
            return None
        found = [self.graph.tensor_of(v) for v in self.inputs]
        return None if any(t is None for t in found) else found  # type: ignore[return-value]
