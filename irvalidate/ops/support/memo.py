"""Inference remembered: a layer like one inferred before gets what that one got.

Why: models repeat themselves.  A 100k-layer decoder stack holds a few hundred distinct
layers, each inferred a thousand times over; remembering costs a dictionary lookup where
inferring costs ten times as much.

What "like" means is exact.  A layer's inference is remembered only when it is *pure*
(``Node.pure``): it read nothing but its type, version, attributes (the very ``<data>``
dict, which the readers share between layers that write the same attributes), output
count, and its inputs' shapes, element types and producer types, and the values of some
Const inputs.  Those values are named by the Const's payload (element type, shape, offset
and size in the .bin: the serializer writes equal payloads once), and only for the inputs
read: the key of one trace; the memo is cleared for each file.  A
later layer agreeing with a remembered one on everything that one read follows the same
path, reads the same inputs and gets the same result.  The shape table of the result names
the layer's own inputs.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ...ir.records import Layer
from ...shapes import dims
from ...shapes.values import resolved
from .spec import Inferred, Operand, Value

#: base key -> the layer data it was made for, and its traces: (the Const inputs read,
#: {their payloads: the result})
_MEMO: dict[tuple, tuple[Mapping[str, str], Traces]] = {}
#: remembered base keys at most (then all are forgotten: a hostile file must not grow it)
SIZE = 4096
#: a remembered result is rebuilt for each layer alike, and a named tuple's own __new__ is a
#: Python function: every field is passed, in order (tests/test_fast_records.py counts them)
_new = tuple.__new__


def key(spec_id: int, layer: Layer, inputs: Sequence[Value], weights: object) -> tuple | None:
    """The base key of a layer, or None when an input carries a computed value (a shape
    subgraph, whose values differ from layer to layer).  ``weights``: the .bin its Consts'
    payloads are read from (the key holds it: payloads are offsets into one file)."""
    for value in inputs:
        if value.tensor is not None:
            return None
    return (spec_id, weights, layer.type, layer.version, id(layer.data), len(layer.outputs),
            tuple([(v.shape, v.element_type, None if v.producer is None else v.producer.type)
                   for v in inputs]))


def _find(base: tuple, layer: Layer, inputs: Sequence[Value]) -> tuple | None:
    """(the Const inputs read, what was remembered) for a layer like this one, or None."""
    found = _MEMO.get(base)
    if found is None or found[0] is not layer.data:
        return None
    return find_trace(found[1], inputs)


def payload(data) -> tuple:
    """What names a Const's values: its type, shape and bytes in the .bin (the serializer
    writes equal payloads once; the memo is cleared for each file)."""
    return (data.get("element_type"), data.get("shape"), data.get("offset"), data.get("size"))


def value_payload(value: Value) -> tuple:
    """What names the values an input holds, for a trace: a computed value's own bounds
    (a pending one made now; ``()`` if it finds it has none), else its Const's payload
    (``read`` names only inputs with values)."""
    if value.tensor is None:
        return payload(value.producer.data)  # type: ignore[union-attr]  # a Const has a producer
    tensor = resolved(value.tensor)
    return () if tensor is None else (tensor.shape, tensor.bounds, tensor.et)


#: traces: [(the inputs whose values were read, {their payloads: what was made})], one per
#: set of inputs read (also analysis.likeness's)
Traces = list[tuple[tuple[int, ...], dict[tuple, object]]]


def find_trace(traces: Traces, inputs: Sequence[Value]) -> tuple | None:
    """(the inputs whose values were read, what was made) for the trace whose payloads are
    those of ``inputs``, or None."""
    for read, results in traces:
        made = results.get(tuple([value_payload(inputs[i]) for i in read]))
        if made is not None:
            return read, made
    return None


def add_trace(traces: Traces, read: tuple[int, ...], inputs: Sequence[Value], made: object,
              limit: int) -> None:
    """Keep ``made`` for the payloads ``inputs`` hold at ``read`` (at most ``limit`` a trace:
    a hostile file must not grow it)."""
    for known, results in traces:  # noqa: B007 - results: the found trace's, after the loop
        if known == read:
            break
    else:
        results = {}
        traces.append((read, results))
    if len(results) < limit:
        results[tuple([value_payload(inputs[i]) for i in read])] = made


def recall(base: tuple, layer: Layer, inputs: Sequence[Value]) -> tuple | None:
    """``(inferred, the Const inputs read)`` remembered for a layer like this one, or None."""
    found = _find(base, layer, inputs)
    return None if found is None else (_rebuild(found[1], layer, inputs), found[0])


def remember(base: tuple, layer: Layer, inputs: Sequence[Value], read: tuple[int, ...],
             inferred: Inferred | None) -> None:
    """Keep a pure inference (``read``: its trace, the Const inputs whose values it read,
    sorted, each once)."""
    made = None if inferred is None else _made(inferred, inputs)
    if inferred is not None and made is None:
        return
    # reshapeable (a recording active) bounds nothing: its streamed run repeats a layer
    # alike one inferred as the whole run's memo recalls it (a hit records no conditions),
    # and a bound would forget at one layer in one run and at another in the other; a file
    # adds at most one result a layer, and the memo is cleared for each file
    bounded = dims.SYMBOLIC is None
    entry = _MEMO.get(base)
    if entry is None or entry[0] is not layer.data:
        if len(_MEMO) >= SIZE and bounded:
            _MEMO.clear()
        entry = _MEMO[base] = (layer.data, [])
    add_trace(entry[1], read, inputs, made, SIZE if bounded else sys.maxsize)


def _made(inferred: Inferred, inputs: Sequence[Value]) -> tuple | None:
    """What a pure inference gives, each table row's layer as the index of the input it
    comes from; None when a row names another layer, or the result names a computed value."""
    if inferred.source is not None or inferred.loose is not None:
        return None
    rows = []
    for operand in inferred.operands:
        index = None
        if operand.source is not None:
            index = next((i for i, v in enumerate(inputs) if v.producer is operand.source), None)
            if index is None:
                return None
        rows.append((operand.label, operand.shape, operand.offset, index))
    return (inferred.outputs, inferred.output_types, tuple(rows), inferred.how, inferred.problems)


def _rebuild(made: tuple | None, layer: Layer, inputs: Sequence[Value]) -> Inferred | None:
    if made is None:
        return None
    outputs, types, rows, how, problems = made
    operands = tuple([_new(Operand, (label, shape, offset, None if i is None else inputs[i].producer))
                      for label, shape, offset, i in rows])
    return _new(Inferred, (layer, outputs, types, operands, how, problems, None, "", None))


def clear() -> None:
    _MEMO.clear()


def keep(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    """``cache[key] = value`` for a process-wide cache keyed on text from the file (what an
    attribute's text means), forgetting it all first when it holds SIZE entries, as the memo
    does: a hostile file must not grow it.  (Such a cache is not cleared per file: what a
    text means is the same in every file, where the memo's keys name one file's objects.)"""
    if len(cache) >= SIZE:
        cache.clear()
    cache[key] = value
    return value
