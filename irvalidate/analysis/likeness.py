"""Layers like one already checked and found clean: their values without inference, and no
rule run on them.

Why: a large model repeats a few hundred distinct layers thousands of times.  Once one has
been inferred and every rule has found nothing in it, a layer alike in all that the rules
and the inference read gives the same outputs and the same (no) findings; the streaming
check then only writes its output values.

"Alike" is exact.  Every value a layer produces gets a *kind* (kept here, by output port,
beside the stream's values): a number for all that a consumer's inference and rules read of
it whatever its numbers (shape, element type, whether it is typed, loose and rests on a
declaration, the producer's type, the dims and precision its port declares, and whether it
carries a computed value).  A layer is then alike another when it has the same type,
version, ``<data>`` dict and declared ports (the scanner's object for the text of its port
sections, shared by equal texts), and the same kind reaching each input port; and, when
inferring it read values (``Node.read``: a Const's numbers, a computed value's bounds), the
same payloads for those inputs (``ops.memo.value_payload``).  Values no inference read may
differ: a MatMul is alike another whatever the numbers of the weights behind its Convert,
as real exports give every block its own.  A Parameter is alike another with the
same ``<data>`` and ports; a Const one with the same attributes but its offset (the rules only
need its bytes to lie inside the .bin) and ports.  The objects named by id are kept while
their likeness is.

A layer whose outputs carry computed values (ShapeOf, and the Gather, Concat, ... after it)
has values of its own: their bounds may rest on Const numbers the inference did not read,
and each value names the layers it was computed from (its ``Origin``, for messages).  The
bounds are those of the first layer evaluated with the same likeness key and the same
payloads of its Const and computed inputs (all that an evaluation reads); the origin is made only if a message shows it
(``shapes.values.Deferred``), by evaluating the layer then.

In ``reshapeable``'s symbolic run (shapes.symdims), a value the input axes' symbols reach
has a kind that holds the expressions of its dims and of its computed value's bounds, and
the symbols its producer's values are tainted by.  A layer alike one inferred then repeats
what inferring it would record (``symdims.Replay``): its dims passed on from its own
inputs or made by it, as the whole run's memo names them; the conditions it puts, each at
it, where the whole run infers every such layer (one whose inputs carry values); its
taint.  An opaque dim (alike none), an unknown condition, or a reason naming a layer are
never repeated: those layers are inferred.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..ir.records import Layer, Port
from ..ir.weights import bytes_past_end, const_problems
from ..ops.support import memo, registry
from ..ops.support.memo import value_payload
from ..ops.support.node import Graph, Node, is_const
from ..ops.support.spec import OpSpec, Value
from ..shapes import dims
from ..shapes.dims import Shape
from ..shapes.values import FLOAT_TYPES, RANGES, Deferred, Origin, Pending, Tensor

if TYPE_CHECKING:  # (the solver's module is loaded by reshapeable only, never by a check)
    from ..shapes.symdims import Replay

#: an output port's id, value (but its producer and computed value) and kind (0: the value
#: is computed, and its kind follows from it)
Output = tuple[str, Shape, str | None, bool, bool, int]
#: what a layer alike one remembered repeats of it: whether the input axes' symbols reach
#: it (reshapeable, shapes.symdims), and then how it repeats them
Repeat = tuple[bool, "Replay | None"]
#: a layer no symbol reaches
ORDINARY: Repeat = (False, None)
#: the outputs, whether no input rests on a declaration or is loose, whether the outputs
#: carry computed values, and what a layer alike repeats
Template = tuple[tuple[Output, ...], bool, bool, Repeat]
#: the element types a Const's bytes are read as numbers in
NUMBER_TYPES = FLOAT_TYPES | frozenset(RANGES)
#: likenesses remembered at most (then all are forgotten)
SIZE = 8192
#: computed values remembered at most: the shape subgraphs a model repeats are a few dozen,
#: and a small weight behind a Convert (up to 64 numbers, its own in every block) would
#: otherwise keep 8,192 of them alive (measured: 27 MB of a 60 MB peak on a 100k-layer f16
#: export of benchmarks/make_models.py)
VALUES_SIZE = 1024


class Likeness:
    """The value kinds and clean likenesses of one stream."""

    def __init__(self, bin_size: int | None, graph: Graph) -> None:
        self._graph = graph
        self._bin_size = bin_size
        self._kinds: dict[tuple, int] = {}
        #: (layer id, port id) -> the kind of the value the stream holds there (0: none)
        self.kinds: dict[tuple[str, str], int] = {}
        self._next = 1
        #: likeness key -> [kept objects, [(inputs read, {their payloads: template})],
        #: the template when no Const value was read]
        self._clean: dict[tuple, list] = {}
        #: (likeness key, payloads of the Const and computed inputs) -> the bounds of each
        #: computed output
        self._values: dict[tuple, tuple] = {}

    def kind(self, layer: Layer, port: Port, value: Value, symbols: tuple = ()) -> int:
        """The kind of a value a layer produces on a port (``symbols``: what the input axes'
        symbols make of it, for reshapeable)."""
        key: tuple = (value.shape, value.element_type, value.typed, value.loose is None,
               value.rests_on is None, layer.type, port.dims, port.precision, symbols)
        tensor = value.tensor
        if type(tensor) is Pending:  # (not made for its kind: its readers make it)
            key = (key, Pending)
        elif tensor is not None:  # (its bounds are in the trace of a layer that reads them)
            key = (key, tensor.shape, tensor.et)  # type: ignore[union-attr]  # a Tensor here
        found = self._kinds.get(key)
        if found is None:
            if len(self._kinds) >= SIZE:
                self._kinds.clear()  # (numbers are never given twice: old ones stay unique)
            found = self._kinds[key] = self._next
            self._next += 1
        return found

    def apply(self, spec: OpSpec, layer: Layer, parts: object, kinds: tuple,
              inputs: Sequence[Value], outputs: dict[tuple[str, str], Value]):
        """Write the output values of a layer alike one found clean and return None; else
        return its likeness key (False when it has none).  (One call: this runs for most
        layers of a file.)"""
        if spec.source:
            key = self._source(layer, parts)
        elif 0 in kinds or (kinds and kinds.count(None) == len(kinds)):
            return False
        else:
            key = (1, layer.type, layer.version, id(layer.data), id(parts), kinds)
        if key is None:
            return False
        entry = self._clean.get(key)
        if entry is None:
            return key
        made = entry[2]
        if made is None:
            traced = memo.find_trace(entry[1], inputs)
            if traced is None:
                return key
            made = traced[1]
        outputs_made, plain, computed, (symbolic, replay) = made
        rests = loose = None
        if not (plain or spec.source):
            rests = next((v.rests_on for v in inputs if v.rests_on is not None), None)
            loose = next((v.loose for v in inputs if v.loose is not None), None)
        if symbolic:  # (a layer that cannot repeat it is inferred, as one not alike)
            return None if self._symbolic(spec, layer, inputs, outputs_made, replay, rests,
                                          loose, outputs) else key
        # (a named tuple's own __new__ is a Python function; every field is passed, in order:
        # tests/test_fast_records.py counts them)
        new, lid, kind_of = tuple.__new__, layer.id, self.kinds
        if computed:
            self._computed(spec, layer, inputs, key, outputs_made, rests, loose, outputs)
            return None
        for pid, shape, et, typed, own, kind in outputs_made:
            out = (lid, pid)
            outputs[out] = new(Value, (shape, et, layer, None, layer if own else rests, typed,
                                       loose))
            kind_of[out] = kind
        return None

    def _symbolic(self, spec: OpSpec, layer: Layer, inputs: Sequence[Value],
                  outputs_made: tuple[Output, ...], replay: Replay, rests: Layer | None,
                  loose: Layer | None, outputs: dict[tuple[str, str], Value]) -> bool:
        """reshapeable: write the outputs of a layer alike one the symbols reach, as
        inferring it would make them (``Recording.replayed``: its own sizes named as made
        by it, its conditions and taint recorded; a computed value's origin made if a
        message shows it), and say so; False where it cannot repeat that one."""
        recording = dims.SYMBOLIC
        assert recording is not None
        made = recording.replayed(layer, replay, inputs)
        if made is None:
            return False
        new, lid, kind_of, graph = tuple.__new__, layer.id, self.kinds, self._graph
        for index, ((pid, _, et, typed, own, kind), (shape, value)) in enumerate(
                zip(outputs_made, made)):
            out = (lid, pid)
            tensor = None if value is None else Tensor(*value, Deferred(  # type: ignore[call-arg]  # (shape, bounds, et)
                lambda index=index: _origin(spec, layer, inputs, graph, index)))  # type: ignore[misc]  # defaults bind the loop's index
            outputs[out] = new(Value, (shape, et, layer, tensor, layer if own else rests, typed,
                                       loose))
            kind_of[out] = kind
        return True

    def _computed(self, spec: OpSpec, layer: Layer, inputs: Sequence[Value], key: tuple,
                  outputs_made: tuple[Output, ...], rests: Layer | None,
                  loose: Layer | None, outputs: dict[tuple[str, str], Value]) -> None:
        """The outputs of a layer alike one whose outputs carry computed values, and their
        kinds.  The values' bounds follow from all the evaluation reads (the likeness key,
        and the payloads of the Const and computed inputs): the first layer of such a
        content is evaluated, the others get its bounds and an origin made if a message
        ever shows it."""
        content = (key, tuple([value_payload(v) for v in inputs
                               if v.tensor is not None or is_const(v)]))
        bounds = self._values.get(content)
        tensors: tuple[Tensor | Pending | None, ...]
        if bounds is None and self._deferred(inputs, outputs_made):
            tensors = self._pending(spec, layer, inputs, content)
        elif bounds is None:
            tensors = self._evaluated(spec, layer, inputs, content)
        else:
            graph = self._graph
            # b: the (shape, bounds, et) kept above; a Deferred stands in for the Origin
            tensors = tuple([None if b is None else Tensor(*b, Deferred(  # type: ignore[call-arg]  # b: (shape, bounds, et)
                lambda index=index: _origin(spec, layer, inputs, graph, index)))  # type: ignore[misc]  # defaults bind the loop's index
                             for index, b in enumerate(bounds)])
        for index, (port, (pid, shape, et, typed, own, kind)) in enumerate(
                zip(layer.outputs, outputs_made)):
            tensor = tensors[index] if index < len(tensors) else None
            value = Value(shape, et, layer, tensor, layer if own else rests, typed, loose)
            outputs[(layer.id, pid)] = value
            self.kinds[(layer.id, pid)] = self.kind(layer, port, value) \
                if tensor is not None or not kind else kind

    def _evaluated(self, spec: OpSpec, layer: Layer, inputs: Sequence[Value],
                   content: tuple) -> tuple[Tensor | None, ...]:
        """Evaluate a layer of a content not met before, and keep its bounds for the next."""
        made = registry.evaluate(spec, Node(layer, inputs, self._graph))
        tensors: tuple[Tensor | None, ...] = made if isinstance(made, tuple) else (made,)
        if len(self._values) >= VALUES_SIZE:
            self._values.clear()
        self._values[content] = tuple([None if t is None else (t.shape, t.bounds, t.et)
                                       for t in tensors])
        return tensors

    def _deferred(self, inputs: Sequence[Value], outputs_made: tuple[Output, ...]) -> bool:
        """Whether a layer's values can wait until something reads them: real values (a
        block's own small weights behind a Convert, which a shape rarely reads) made from
        Consts whose bytes can be read.  (A Const that cannot be read must be read now, as the
        whole-graph check reads it: static-dim-declared then says nothing.)"""
        if self._bin_size is None or not inputs or \
                any(made[2] not in FLOAT_TYPES for made in outputs_made):
            return False
        for value in inputs:
            data = value.producer.data if is_const(value) else None  # type: ignore[union-attr]  # a Const has a producer
            if data is None or data.get("element_type") not in NUMBER_TYPES or \
                    const_problems(data) or bytes_past_end(data, self._bin_size) is not None:
                return False
        return True

    def _pending(self, spec: OpSpec, layer: Layer, inputs: Sequence[Value],
                 content: tuple) -> tuple[Pending, ...]:
        """The outputs of a deferred layer: evaluated, once for all of them, when one is read."""
        made: list[tuple[Tensor | None, ...]] = []

        def output(index: int) -> Tensor | None:
            if not made:
                made.append(self._evaluated(spec, layer, inputs, content))
            return made[0][index] if index < len(made[0]) else None
        return tuple([Pending(lambda index=index: output(index))  # type: ignore[misc]  # defaults bind the loop's index
                      for index in range(len(layer.outputs))])

    def mark(self, layer: Layer, outputs: dict[tuple[str, str], Value],
             inputs: Sequence[Value], spec: OpSpec | None,
             before: tuple[int, int, int] | None) -> Repeat | None:
        """The kinds of the values an inferred layer wrote on its output ports, and what a
        layer alike it repeats (``ORDINARY`` when no symbol reaches it; None: it may not be
        remembered).  ``before``: where reshapeable's recording stood before it was
        inferred."""
        kinds, kind, lid = self.kinds, self.kind, layer.id
        recording = dims.SYMBOLIC
        if recording is not None and before is not None and _owes_to_symbols(layer, outputs):
            return self._symbolic_kinds(layer, outputs, inputs, spec, before)
        for port in layer.outputs:
            out = (lid, port.id)
            kinds[out] = kind(layer, port, outputs[out])
        if recording is None or before is None or recording.moment() == before:
            return ORDINARY
        return self._replay(layer, outputs, inputs, spec, before)  # (it put conditions)

    def _symbolic_kinds(self, layer: Layer, outputs: dict[tuple[str, str], Value],
                        inputs: Sequence[Value], spec: OpSpec | None,
                        before: tuple[int, int, int]) -> Repeat | None:
        """reshapeable (shapes.symdims): the kinds of a layer's outputs that the symbols
        reach, their expressions (a computed value's too) and the layer's taint in them, and
        how a layer alike repeats it (``Recording.replay_of``).  An output with an opaque
        dim has kind 0: alike none, each consumer is inferred as the whole run infers it."""
        recording = dims.SYMBOLIC
        assert recording is not None
        taint = recording.tainted.get(id(layer))
        symbols = None if taint is None else taint[0]
        kinds, lid, opaque = self.kinds, layer.id, False
        for port in layer.outputs:
            out = (lid, port.id)
            value = outputs[out]
            bounds = getattr(value.tensor, "bounds", None)  # (a Pending's: none, a weight's)
            if _opaque(value.shape) or _opaque(bounds):
                kinds[out], opaque = 0, True
            else:
                kinds[out] = self.kind(layer, port, value, (
                    recording.signature((value.shape, bounds)), symbols))
        return None if opaque else self._replay(layer, outputs, inputs, spec, before)

    def _replay(self, layer: Layer, outputs: dict[tuple[str, str], Value],
                inputs: Sequence[Value], spec: OpSpec | None,
                before: tuple[int, int, int]) -> Repeat | None:
        """How a layer alike repeats what inferring this one recorded (None: it cannot)."""
        recording = dims.SYMBOLIC
        assert recording is not None
        made = [outputs[(layer.id, port.id)] for port in layer.outputs]
        replay = recording.replay_of(
            layer, inputs, made, before,
            any(v.tensor is not None for v in inputs),  # (memo.key: no memo for them)
            spec is not None and spec.value_of_shapes)
        return None if replay is None else (True, replay)

    def _source(self, layer: Layer, parts: object) -> tuple | None:
        data = layer.data
        offset = data.get("offset")
        if offset is None:
            return (0, layer.type, id(data), id(parts))
        size = data.get("size", "")
        try:
            fits = int(offset) + int(size) <= self._bin_size  # type: ignore[operator]  # a size when the bin is read
        except (TypeError, ValueError):
            return None
        if not fits or not (offset.isdigit() and offset.isascii() and size.isdigit()
                            and size.isascii()):
            return None
        return (2, layer.type, tuple(data), data.get("element_type"), data.get("shape"), size,
                id(parts))

    def remember(self, key: tuple, layer: Layer, parts: object, spec: OpSpec,
                 inputs: Sequence[Value], made: Template,
                 trace: tuple[int, ...] | None) -> None:
        """A layer the rules found clean, with the template of its outputs and the trace of
        its inference (``registry.infer``: the inputs whose values it read; None when it read more)."""
        read: tuple[int, ...] = ()
        if not spec.source:
            if trace is None:
                return
            read = trace
            if made[3][0] and made[2]:
                # reshapeable repeats computed values too, and the evaluation may have read
                # more than the inference: alike on every Const and computed input, as
                # _computed is (a weight's pending value is made only for such a layer)
                read = tuple(sorted(set(read) | {i for i, v in enumerate(inputs)
                                                 if v.tensor is not None or is_const(v)}))
        entry = self._clean.get(key)
        if entry is None:
            if len(self._clean) >= SIZE:
                self._clean.clear()
                self._values.clear()  # (its keys name by id the objects _clean kept alive)
            entry = self._clean[key] = [(layer.data, parts), [], None]
        if not read:
            entry[2] = made
            return
        memo.add_trace(entry[1], read, inputs, made, SIZE)

    def template(self, layer: Layer, outputs: dict[tuple[str, str], Value],
                 inputs: Sequence[Value], repeat: Repeat | None) -> Template | None:
        """What a checked layer wrote on its output ports, in the form ``apply`` repeats,
        whether its inputs rest on nothing and are not loose (their kinds say so for every
        layer alike), whether an output carries a computed value, and what ``mark`` said
        a layer alike repeats; None when an output has no value, or ``mark`` said None."""
        if repeat is None:
            return None
        found: list[Output] = []
        computed = False
        for port in layer.outputs:
            key = (layer.id, port.id)
            value = outputs.get(key)
            if value is None:
                return None
            if value.tensor is not None:
                computed = True
            # (a computed value's kind follows from its bounds, but a symbolic one's from
            # their expressions: the same for a layer alike)
            found.append((port.id, value.shape, value.element_type, value.typed,
                          value.rests_on is layer, 0 if value.tensor is not None and not
                          repeat[0] else self.kinds.get(key, 0)))
        plain = all(v.rests_on is None and v.loose is None for v in inputs)
        return tuple(found), plain, computed, repeat


def _owes_to_symbols(layer: Layer, outputs: dict[tuple[str, str], Value]) -> bool:
    """reshapeable (shapes.symdims): whether a layer's outputs carry the input axes'
    symbols, in their dims or values, or its values are tainted by them: their kinds then
    hold what the symbols make of them (``_symbolic_kinds``), and a layer alike repeats it
    as ``symdims.Replay`` says."""
    recording = dims.SYMBOLIC
    if recording is None:
        return False
    # (imported here: the solver is loaded by reshapeable only, never by a check)
    from ..shapes.symdims import carried, symbolic
    if id(layer) in recording.tainted:
        return True
    for port in layer.outputs:
        value = outputs.get((layer.id, port.id))
        if value is None:
            continue
        if value.shape is not None and symbolic(*value.shape):
            return True
        if value.tensor is not None and carried(value.tensor):  # (a Pending: a weight's)
            return True
    return False


def _opaque(found: Sequence[object] | None) -> bool:
    """Whether a dim of ``found`` is opaque (a SymDim without an expression; a plain Dim
    has no ``expr``)."""
    return found is not None and any(getattr(d, "expr", 0) is None for d in found)


def _origin(spec: OpSpec, layer: Layer, inputs: Sequence[Value], graph: Graph,
            index: int) -> Origin:
    """The origin of a layer's computed output ``index``, evaluated now, when it is shown."""
    made = registry.evaluate(spec, Node(layer, inputs, graph))
    tensor = made[index] if isinstance(made, tuple) else made
    return tensor.origin if tensor is not None else Origin(layer.type)  # (as when it was alike)
