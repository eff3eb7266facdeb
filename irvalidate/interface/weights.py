"""The Consts of a file, counted by element type, and how many of their elements are
compressed weights: a u8/i8/u4/i4/nf4 Const decompressed by Convert (-> Subtract, as its
first input) -> Multiply, the pattern NNCF and ``ovc --compress`` write.  Read from the
records alone (the Const's ``shape`` and ``size``), every graph of the file included.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..ir import elements
from ..ir.records import Graph

#: the element types of weights kept compressed and decompressed when the model runs
LOW_PRECISION = ("u8", "i8", "u4", "i4", "nf4")


@lru_cache(maxsize=4096)  # a file has few distinct Const shapes
def _elements(shape: str) -> int:
    """The elements a Const's ``shape`` attribute holds ("" is a scalar; 0 unreadable)."""
    text = shape.strip().strip("[]").strip()
    count = 1
    try:
        for part in text.split(",") if text else ():
            count *= int(part)
    except ValueError:
        return 0
    return max(count, 0)


def _int(text: str | None) -> int:
    try:
        return max(int(text or 0), 0)
    except ValueError:
        return 0


def weights(graphs: list[Graph], const_types: set[str]) -> list[dict]:
    """Per element type (most elements first): how many Consts, elements and bytes (their
    ``size`` attributes summed: a payload the serializer shares is counted per Const).
    ``const_types``: the spellings of Const's type in the file."""
    alike = Counter((data.get("element_type"), data.get("shape", ""), data.get("size"))
                    for graph in graphs for layer in graph.layers if layer.type in const_types
                    for data in (layer.data,))
    rows: dict[str, dict] = {}
    for (written, shape, size), count in alike.items():
        element_type = elements.from_element_type(written) or "dynamic"
        row = rows.setdefault(element_type, {"element_type": element_type, "constants": 0,
                                             "elements": 0, "bytes": 0})
        row["constants"] += count
        row["elements"] += count * _elements(shape)
        row["bytes"] += count * _int(size)
    return sorted(rows.values(), key=lambda row: (-row["elements"], row["element_type"]))


def compression(graphs: list[Graph], const_types: set[str], rows: list[dict]) -> list[dict]:
    """Per low-precision type: the elements of its Consts behind the decompression pattern,
    and their share of every Const element of the file."""
    if not any(row["element_type"] in LOW_PRECISION for row in rows):
        return []  # (no graph is walked: most files have no such Const)
    total = sum(row["elements"] for row in rows)
    found: dict[str, int] = {}
    for graph in graphs:
        for element_type, count in _compressed(graph, const_types).items():
            found[element_type] = found.get(element_type, 0) + count
    return [{"element_type": t, "elements": n, "share": round(n / total, 6) if total else 0.0}
            for t, n in sorted(found.items(), key=lambda kv: -kv[1]) if n]


def _compressed(graph: Graph, const_types: set[str]) -> dict[str, int]:
    """One graph's compressed weight elements by type."""
    low: dict[str, tuple[str, int]] = {}
    kinds: dict[str, str] = {}
    subtracts = {}
    for layer in graph.layers:
        if layer.type in const_types:
            element_type = elements.from_element_type(layer.data.get("element_type"))
            if element_type in LOW_PRECISION:
                low[layer.id] = (element_type, _elements(layer.data.get("shape", "")))
            continue
        kind = layer.type.lower()
        if kind in ("convert", "subtract", "multiply"):
            kinds[layer.id] = kind
            if kind == "subtract":
                subtracts[layer.id] = layer
    if not low:
        return {}
    consumers: dict[str, list[tuple[str, str]]] = {}
    for edge in graph.edges:
        if edge.from_layer in low or kinds.get(edge.from_layer) in ("convert", "subtract"):
            consumers.setdefault(edge.from_layer, []).append((edge.to_layer, edge.to_port))

    def decompressed(convert: str) -> bool:
        for to, port in consumers.get(convert, ()):
            if kinds.get(to) == "multiply":
                return True
            if kinds.get(to) == "subtract" and subtracts[to].input_index(port) == 0 and any(
                    kinds.get(m) == "multiply" for m, _ in consumers.get(to, ())):
                return True
        return False

    found: dict[str, int] = {}
    for const, (element_type, count) in low.items():
        if any(kinds.get(c) == "convert" and decompressed(c) for c, _ in consumers.get(const, ())):
            found[element_type] = found.get(element_type, 0) + count
    return found
