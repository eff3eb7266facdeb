"""What TensorIterator, Loop and If share: their port maps as the reader reads them, their
bodies analysed with the outer inputs, and the values the runtime folds to constants.

A port map lists, per body, which outer input sets which body Parameter and which body
Result gives which outer output.  The reader keys each list by ``external_port_id`` (an
int64; the first entry of a repeated id wins) and numbers the outputs by their place in
that order; an input's ``external_port_id`` is the place of the outer input it reads.

A body is analysed twice, in the runtime's order: as declared (its own Parameter shapes),
which must be valid and where a nested Loop may derive the count it keeps, then with the
outer inputs set, which is what it ends with (and what the rules read of it).  When the two
readings agree, one analysis serves.
"""
from __future__ import annotations

from typing import NamedTuple

from ...ir.records import Graph, Layer
from ...shapes.values import resolved
from ..parameter_const import outputs_of
from .attributes import parse_int_prefix
from .node import BodyOutcome, Node, ParameterValue
from .spec import ATTRIBUTE, INCOMPATIBLE, OpError, Value


class Entry(NamedTuple):
    """One port map entry, read: the outer port place, the body layer, its slicing."""
    external: int
    internal: str
    slicing: dict[str, str]
    purpose: str | None


def _int(text: str, what: str, unsigned: bool = False) -> int:
    try:
        value = parse_int_prefix(text)
    except ValueError:
        raise OpError(ATTRIBUTE, f"port map {what} {text!r} is not an integer") from None
    if unsigned and value < 0:
        raise OpError(ATTRIBUTE, f"port map {what} {text!r} is not an unsigned integer")
    return value


def port_map(layer: Layer, section: str, direction: str) -> list[Entry]:
    """A port map's inputs or outputs in the reader's order (by external_port_id, the first
    entry of a repeated id kept)."""
    found: dict[int, Entry] = {}
    for e in layer.port_maps:
        if e.section != section or e.direction != direction:
            continue
        external = _int(e.external_port_id, "external_port_id")
        _int(e.internal_layer_id, "internal_layer_id", unsigned=True)
        found.setdefault(external, Entry(external, e.internal_layer_id, dict(e.slicing), e.purpose))
    return [found[k] for k in sorted(found)]


def described_inputs(node: Node) -> list[tuple]:
    """(entry, kind) of every input description of a TensorIterator or Loop, in the
    reader's order: sliced (it has an axis), merged (a back edge feeds its Parameter; the
    first such edge counts) or invariant (any other with external_port_id >= 0)."""
    fed: dict[str, str] = {}
    for edge in node.layer.back_edges:
        fed.setdefault(edge.to_layer, edge.from_layer)
    found = []
    for entry in port_map(node.layer, "port_map", "input"):
        if "axis" in entry.slicing:
            found.append((entry, "sliced"))
        elif entry.internal in fed:
            found.append((entry, "merged"))
        elif entry.external >= 0:
            found.append((entry, "invariant"))
    return found


def slicing(entry: Entry, key: str, default: int, unsigned: bool = False) -> int:
    """A slicing attribute (int64; the reader reads an input's axis as uint64)."""
    text = entry.slicing.get(key)
    return default if text is None else _int(text, key, unsigned)


def declared(body: Graph, layer_id: str) -> ParameterValue | None:
    """A body Parameter's own shape and type, or None when the id names no Parameter."""
    layer = body.layers_by_id().get(layer_id)
    if layer is None or layer.type.lower() != "parameter":
        return None
    shapes, et, _ = outputs_of(layer)
    return (shapes[0] if shapes else None), et


def analyse(node: Node, body: Graph, parameters: dict[str, ParameterValue],
            what: str, loose: dict[str, Layer] | None = None) -> BodyOutcome | None:
    """The body with its Parameters set (None when bodies are not analysed here; ``loose``:
    the Parameters set from values irvalidate may infer wider than the runtime, with the
    layer each rests on).  A layer of it the runtime refuses is reported there, by the
    rules; a refusal only the body as declared has stops the outer layer."""
    def differs(lid: str) -> bool:
        own, (shape, et) = declared(body, lid), parameters[lid]
        return own is None or own[0] != shape or (et is not None and et != own[1])
    # first, as the runtime reads it: a nested Loop keeps the count it derives there
    first = node.graph.analyse_body(body, {}, False) \
        if any(differs(lid) for lid in parameters) else None
    outcome = node.graph.analyse_body(body, parameters, True, loose)
    if outcome is None or outcome.refusal is not None:
        return outcome
    if first is not None:
        if first.refusal is not None:
            raise OpError(INCOMPATIBLE, f"the {what} as declared (its own Parameter shapes, "
                                        f"which the runtime reads first) is refused: "
                                        f"{first.refusal}")
    return outcome


def result_value(outcome: BodyOutcome, layer_id: str):
    """What reaches a body Result, or None when the id names no Result (IRV216 says so)."""
    layer = outcome.layers.get(layer_id)
    if layer is None or layer.type.lower() != "result":
        return None
    return outcome.results.get(layer_id)


_COMPARISONS = {
    "equal": lambda a, b: a == b, "notequal": lambda a, b: a != b,
    "less": lambda a, b: a < b, "lessequal": lambda a, b: a <= b,
    "greater": lambda a, b: a > b, "greaterequal": lambda a, b: a >= b,
}


def folded(node: Node, index: int) -> list[float] | None:
    """The values of an input the runtime folds to a constant: a Const's (any element type),
    a computed value whose bounds meet, or a comparison of two such values (the usual
    ``Equal(Gather(ShapeOf(x)), n)`` of a condition); else None."""
    return _fold(node, node.inputs[index], 2)


def folded_in_body(node: Node, value: Value) -> list[float] | None:
    """The same for a value inside a body (a Const, or exact bounds; no comparison)."""
    return _fold(node, value, 0)


def _fold(node: Node, value: Value, depth: int) -> list[float] | None:
    producer = node.producer_layer(value)
    if producer is not None and producer.type.lower() in ("const", "constant"):
        return node.graph.read_numbers(producer)
    tensor = resolved(value.tensor)
    if tensor is not None:
        bounds = tensor.bounds
        if all(b.lo == b.hi for b in bounds):
            return [float(b.lo) for b in bounds]
        return None
    compare = _COMPARISONS.get(producer.type.lower()) if producer is not None else None
    if producer is None or compare is None or depth == 0:
        return None
    sides = node.graph.input_values(producer)
    if len(sides) != 2:
        return None
    a, b = (_fold(node, side, depth - 1) for side in sides)
    if a is None or b is None or (len(a) != len(b) and 1 not in (len(a), len(b))):
        return None
    count = max(len(a), len(b))
    return [float(compare(a[i % len(a)], b[i % len(b)])) for i in range(count)]


def check_outputs(node: Node, count: int, what: str) -> None:
    if count != len(node.layer.outputs):
        raise OpError(INCOMPATIBLE, f"{what} maps {count} outputs, but the layer has "
                                    f"{len(node.layer.outputs)}")


def rank01(shape, what: str) -> None:
    if shape is not None and len(shape) > 1:
        raise OpError(INCOMPATIBLE, f"{what} must be a scalar or 1-D, not rank {len(shape)}")

