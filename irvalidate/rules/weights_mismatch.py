"""IRV218 weights-mismatch: the ``.bin`` does not hold this model's weights.

A ``.bin`` copied from another model (or another export of this one, or cut short) still
opens: OpenVINO reads each Const's bytes at its offset and refuses the model only where the
values make no sense, with a message about that one layer ("axis -6616156604777549493 is
out of the range").  irvalidate says it once, for the file, when the evidence is plain: more
than three Const layers read past the end of the ``.bin``, or two or more integer Consts read
in a role that bounds their values hold a value no model has there (an axis or a transpose order beyond
+-1024; a shape target, repeat count, pad, split length, k or index beyond +-2**40).  One such
Const alone could be a hand edit, and the rules of shapes say what it does.  Slice and
StridedSlice bounds are not read: they hold INT64_MAX on purpose.

The findings of the rules that read Const values (shapes inferred, inputs refused) would then
be about bytes of another model: the engine leaves them out (``MASKS``), and this finding
says so.

Passing (the ``.bin`` written with the XML)::

    <layer id="1" type="Const" ...><data element_type="i64" shape="1" offset="0" size="8"/>
    <!-- the .bin's 8 bytes hold 0: Gather's axis 0 -->

Failing (another model's .bin: the same 8 bytes read as an i64 give -6616156604777549493,
as Gather's axis)::

    <layer id="1" type="Const" ...><data element_type="i64" shape="1" offset="0" size="8"/>
"""
from __future__ import annotations

import os
from collections.abc import Iterator

from ..analysis.batch import Batch
from ..ir.records import CONST_TYPES, Layer
from ..ir.weights import ConstError, bytes_past_end, const_spec
from ._common import Context
from .findings import Problem

CODE = "IRV218"
SLUG = "weights-mismatch"
LEVEL = "error"
SUMMARY = "The .bin does not hold this model's weights (another model's, or cut short)."
#: the rules whose findings rest on Const values: left out of a file this rule speaks of
MASKS = ("IRV101", "IRV102", "IRV103", "IRV104", "IRV109", "IRV301")

#: more Consts past the end than this say the .bin is not the model's (IRV203 reports fewer)
PAST_END_MANY = 3
#: this many Consts with absurd values: one could be a hand edit (IRV101/IRV102 say what it
#: does), two independent ones are bytes that were never this model's
ABSURD_MANY = 2
AXIS, SIZE = 1024, 2 ** 40
#: (layer type, input index) -> (what the input is, the largest magnitude it can hold)
ROLES: dict[tuple[str, int | None], tuple[str, int]] = {
    ("reshape", 1): ("target shape", SIZE), ("broadcast", 1): ("target shape", SIZE),
    ("broadcast", 2): ("axes mapping", AXIS), ("tile", 1): ("repeats", SIZE),
    ("gather", 1): ("indices", SIZE), ("gather", 2): ("axis", AXIS),
    ("squeeze", 1): ("axes", AXIS), ("unsqueeze", 1): ("axes", AXIS),
    ("transpose", 1): ("order", AXIS), ("split", 1): ("axis", AXIS),
    ("variadicsplit", 1): ("axis", AXIS), ("variadicsplit", 2): ("split lengths", SIZE),
    ("cumsum", 1): ("axis", AXIS), ("mvn", 1): ("axes", AXIS),
    ("normalizel2", 1): ("axes", AXIS), ("pad", 1): ("pads begin", SIZE),
    ("pad", 2): ("pads end", SIZE), ("topk", 1): ("k", SIZE), ("onehot", 1): ("depth", SIZE),
    ("scatterupdate", 3): ("axis", AXIS),
    **{(reduce, 1): ("axes", AXIS) for reduce in (
        "reducesum", "reducemean", "reducemax", "reducemin", "reduceprod", "reducel1",
        "reducel2", "reducelogicaland", "reducelogicalor")},
}
_ROLE_TYPES = frozenset(kind for kind, _ in ROLES)
#: integer Consts longer than this are not read (a role's value is a short list)
MOST_READ = 64


def check(ctx: Context) -> Iterator[Problem]:
    weights = ctx.analysis.weights
    if not ctx.is_model or weights.error:
        return
    past = _past_end(ctx, weights.size())
    absurd = _absurd_values(ctx)
    # a batch of the stream sees part of the file: any sign at all sends it the whole way
    # (this finding is then dropped), where the evidence is counted over the file
    partial = isinstance(ctx.analysis, Batch)
    if partial and (past or absurd):
        yield Problem("the weights may not be this model's: the whole file decides")
        return
    if len(past) <= PAST_END_MANY and len(absurd) < ABSURD_MANY:
        return
    name = os.path.basename(weights.path or "") or "the .bin"
    evidence = []
    if len(past) > PAST_END_MANY:
        names = ", ".join(repr(layer.name) for layer, _ in past[:3])
        evidence.append(f"it holds {weights.size():,} bytes, and {len(past):,} Const layers read "
                        f"past its end (up to byte {max(end for _, end in past):,}: {names}, ...)")
    if absurd:
        more = f" (and {len(absurd) - 1:,} more Consts as absurd)" if len(absurd) > 1 else ""
        evidence.append(absurd[0][1] + more)
    first = past[0][0] if len(past) > PAST_END_MANY else absurd[0][0]
    yield Problem(f"{name} does not hold this model's weights: {'; '.join(evidence)}; it is "
                  f"another model's .bin, or a stale or truncated one: put the model's own .bin "
                  f"beside it or re-export the model (findings that rest on its values are left "
                  f"out)", at=first, layer=first, scope=ctx.graph.scope)


def _past_end(ctx: Context, size: int) -> list[tuple[Layer, int]]:
    past = []
    for layer in ctx.analysis.layers.values():
        if layer.type.lower() in CONST_TYPES:
            end = bytes_past_end(layer.data, size)
            if end is not None:
                past.append((layer, end))
    return past


def _absurd_values(ctx: Context) -> list[tuple[Layer, str]]:
    """Each Const read in a role (see ROLES) that holds a value no model has there, with the
    words that say so, once per Const."""
    found: dict[str, tuple[Layer, str]] = {}
    for _, producer, _, consumer, target in ctx.analysis.edges.edge_ports():
        # (the cheap tests first: this reads every edge of the file)
        kind = consumer.type.lower()
        if kind not in _ROLE_TYPES or producer.type.lower() not in CONST_TYPES or \
                producer.id in found:
            continue
        role = ROLES.get((kind, consumer.input_index(target.id)))
        if role is None:
            continue
        wild = next((v for v in _integers(ctx, producer) if abs(v) > role[1]), None)
        if wild is not None:
            found[producer.id] = (producer, f"{producer.describe()} gives {wild} as the "
                                            f"{role[0]} of {consumer.describe()}")
    return list(found.values())


def _integers(ctx: Context, const: Layer) -> list[int]:
    """A short integer Const's values; none when it is not one or cannot be read (the rules
    of constants say why)."""
    data = dict(const.data)
    try:
        spec = const_spec(data)
        if spec.element_type not in _INTEGER_TYPES or spec.count > MOST_READ:
            return []
        return ctx.analysis.weights.integers(data)
    except (ConstError, OSError, ValueError):
        return []


_INTEGER_TYPES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
