"""What an operation is to irvalidate: an :class:`OpSpec`, and what inferring one layer gives.

An op module (``eltwise.py``, ``broadcast.py``, ...) holds, for each type it models, one
``OpSpec`` per range of opset versions: the attributes the reader reads (its attribute model's
fields), the inputs whose *values* its shape inference reads, its shape inference (``infer``)
and its value evaluation (``evaluate``), the way OpenVINO keeps one ``*_shape_inference.hpp``
per op.  Nothing else declares an op: the registry routes its type to the module, and the
pin search of ``--reshape`` (reshaping.pinning) reads ``dim_inputs``.
``infer`` works on a :class:`~irvalidate.ops.support.node.Node` and either returns the output shapes
and types or raises :class:`OpError`; what it notes on the way (a type it refuses, a point
where the specification and the runtime disagree) and what it read are frozen into an
:class:`Inferred`, which the rules read.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import (
    TYPE_CHECKING,
    Any,
    NamedTuple,
)

from ...ir.records import Layer
from ...shapes.dims import Shape
from ...shapes.values import Origin, Pending, Tensor, describe

if TYPE_CHECKING:
    from .attributes import Field
    from .node import Node


class Value(NamedTuple):
    """What reaches one input: its shape, element type and producing layer (if any)."""
    shape: Shape
    element_type: str | None
    producer: Layer | None = None
    #: the bounded integer value, when a shape subgraph computes it (see evaluate); pending
    #: (made when first read, ``shapes.values.resolved``) where analysis.likeness defers it
    tensor: Tensor | Pending | None = None
    #: the layer whose *declarations* this shape rests on: a layer irvalidate does not infer
    #: (its declared dims pass on) or a refused one, upstream; None when the shape follows
    #: from Parameters and Consts by inference alone (--fix writes only such shapes)
    rests_on: Layer | None = None
    #: whether the element type is inferred too (else it is a port's declared precision)
    typed: bool = False
    #: a layer whose *values* irvalidate could not evaluate where the runtime may have: a
    #: ``?`` or interval here may be wider than the runtime's (see Node.loose)
    loose: Layer | None = None


class Operand(NamedTuple):
    """One row of the shape table a finding draws."""
    label: str
    shape: Shape
    #: first table column of this operand; None means right-aligned
    offset: int | None = None
    #: the layer that produces it, named in the shape table
    source: Layer | None = None


#: kinds of problem an op reports, each read by one rule
ATTRIBUTE, ARITY, TYPE, INCOMPATIBLE, DIVERGENCE, CONSTANT, MALFORMED = (
    "attribute", "arity", "type", "incompatible", "divergence", "constant", "malformed")


class OpProblem(NamedTuple):
    kind: str
    message: str
    #: incompatible: the column of the shape table to mark
    column: int | None = None
    #: incompatible: where the failing merge placed the operands (pdpd)
    offsets: tuple[int | None, ...] | None = None
    #: constant: the Const layer the problem is about
    const: Layer | None = None


class OpError(Exception):
    """Inference stops: the layer is refused (or cannot be read) for the reason given."""

    def __init__(self, kind: str, message: str, column: int | None = None,
                 offsets: tuple[int | None, ...] | None = None) -> None:
        super().__init__(message)
        self.problem = OpProblem(kind, message, column, offsets)


class Result(NamedTuple):
    """What ``infer`` returns: one shape (None: dynamic rank) and element type per output."""
    shapes: tuple[Shape, ...]
    types: tuple[str | None, ...]


class Inferred(NamedTuple):
    """What inferring one layer gave; the rules read it and nothing else of the op.
    (A named tuple: one is made for most layers of a file, and it is the cheapest immutable
    record to build.)"""
    layer: Layer
    #: inferred output shapes; None when inference stopped (see problems)
    outputs: tuple[Shape, ...] | None
    output_types: tuple[str | None, ...]
    #: the shapes read, labelled for the shape table
    operands: tuple[Operand, ...]
    #: how the outputs follow from the inputs, for messages: "numpy broadcast", ...
    how: str
    problems: tuple[OpProblem, ...] = ()
    #: where a value input came from, when computed: its Origin, or words for a fallback
    source: Origin | str | None = None
    #: the input that value is: ``target_shape``
    source_input: str = ""
    #: a value input irvalidate could not evaluate came from this layer (see Node.loose)
    loose: Layer | None = None

    def of(self, kind: str) -> tuple[OpProblem, ...]:
        # six rules ask every layer; almost every layer has no problem at all
        if not self.problems:
            return ()
        return tuple(p for p in self.problems if p.kind == kind)

    @property
    def chain(self) -> str | None:
        """``ShapeOf(...) → Gather(...) → Concat``, or words for a fallback: written only when
        a finding asks (a chain can be long, and a file may hold thousands)."""
        return self.source if isinstance(self.source, str) or self.source is None else \
            describe(self.source)  # (an Origin, or one Deferred)

    @property
    def computed(self) -> str:
        """``target_shape computed as <chain>``, or "" when no input was computed."""
        return "" if self.source is None else f"{self.source_input} computed as {self.chain}"


Infer = Callable[["Node"], Result | None]
#: one value, of output 0, or (Split) a tuple of one value per output
Evaluate = Callable[["Node"], Tensor | tuple[Tensor, ...]]


class _Declared(NamedTuple):
    #: the reader's spelling, for messages
    name: str
    #: the opset numbers whose ``version`` names this class: (first, last)
    versions: tuple[int, int] = (1, 16)
    #: the attribute names the reader reads (anything else it ignores: IRV108), those of
    #: ``fields`` included; None: not listed yet (the attributes are not checked)
    attributes: frozenset[str] | None = None
    #: shape inference; None when only the values are evaluated
    infer: Infer | None = None
    #: value (bound) evaluation of output 0 (or of every output, as a tuple), raising
    #: Unresolved where the runtime gives up
    evaluate: Evaluate | None = None
    #: input counts evaluation accepts (an op with ``infer`` checks its own and reports)
    arity: tuple[int, ...] | None = None
    #: a Parameter or Const: outputs from its own attributes, never compared with them
    source: bool = False
    #: the outputs whose element type is the op's own (an attribute, or always boolean),
    #: whatever its inputs' types: --fix trusts them even after a layer it does not infer
    own_types: tuple[int, ...] = ()
    #: the attribute model (``attributes.Field``s) the op reads its attributes with: their
    #: names join ``attributes``
    fields: tuple[Field, ...] = ()
    #: the inputs whose values shape inference reads (axes, an order, a target shape...),
    #: those of ``dim_inputs`` included: tests/ops/test_value_inputs.py checks them against
    #: what inference reads
    value_inputs: tuple[int, ...] = ()
    #: the inputs whose values become output dims (a target, bounds, sizes, scales, repeats,
    #: pads, counts), not axes or an order: the IRV301 pin search tries the Consts upstream
    #: of them by value (relaxing axes would unknot every dim)
    dim_inputs: tuple[int, ...] = ()
    #: shape inference follows the input axes' symbols (``shapes.symdims``, reshapeable):
    #: every output dim that depends on an input dim is that dim, or is made by the shape
    #: maths that keep expressions (``arith``, ``windows``, the merges of ``dims``); the
    #: outputs of an op without it are taken as unknown functions of its inputs' symbols
    symbolic: bool = False
    #: its value evaluation keeps the symbolic sizes its input values carry: it moves
    #: elements (ShapeOf, Gather, Concat, Squeeze...); a value any other op computes from
    #: such sizes is taken as not followed
    symbolic_values: bool = False
    #: the values it reads (``value_inputs``) reach its dims whole, symbolic sizes kept
    #: (Reshape's target); any other op that reads a value carrying them is not followed
    symbolic_reads: bool = False
    #: its value is made from its inputs' shapes, never their values (ShapeOf): what those
    #: values owe to the symbols does not reach it
    value_of_shapes: bool = False


class OpSpec(_Declared):
    """One operation (one C++ class of OpenVINO) as irvalidate models it.  (A named tuple:
    importing dataclasses costs ~10 ms of each start.)  Each thing is written once: the
    names of ``fields`` join ``attributes`` and ``dim_inputs`` join ``value_inputs`` here,
    when the spec is made, so that IRV108 and the pin search read one set each."""
    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> OpSpec:
        spec = super().__new__(cls, *args, **kwargs)
        if not spec.fields and not spec.dim_inputs:
            return spec
        named = frozenset(f.ir for f in spec.fields) | (spec.attributes or frozenset()) \
            if spec.fields else spec.attributes
        read = tuple(sorted(set(spec.value_inputs) | set(spec.dim_inputs)))
        # (_replace makes the tuple directly: this runs once per spec)
        return spec._replace(attributes=named, value_inputs=read)

