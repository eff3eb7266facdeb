"""Edits made over several rounds, kept in the coordinates of the original file.

--fix works in rounds (a Parameter's shape attribute fixed first changes what every layer
after it infers), each round editing the text the previous one left.  The ledger keeps the
net result as replacements of the *original* bytes, so the edits a user sees (the diff, the
JSON and SARIF reports, the API) all point into the file as it is on disk.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...rules.findings import Edit

#: (start, end, new bytes, what it fixes: (rule code, layer id or None))
Replacement = tuple[int, int, bytes, tuple[str, str | None]]


class Ledger:
    def __init__(self, original: bytes) -> None:
        self.original = original
        self.current = original
        #: net edits, sorted and disjoint: [original start, original end, new bytes, cause]
        self.edits: list[list] = []

    def apply(self, replacements: Sequence[Replacement]) -> None:
        """Apply disjoint replacements given in the current text's coordinates.

        One sweep: the net edits (placed in the current text) and the replacements, sorted
        by where they start, fall into clusters of items that overlap or touch; a cluster
        holding a replacement becomes one net edit, its text the current text of the
        cluster's span with the cluster's replacements applied.
        """
        ordered = sorted(replacements, key=lambda r: (r[0], r[1]))
        for earlier, later in zip(ordered, ordered[1:]):
            if later[0] < earlier[1]:
                raise ValueError("overlapping replacements")
        items = []  # (current start, current end, 0: net edit index | 1: replacement)
        shift = 0
        for i, (o_start, o_end, text, _) in enumerate(self.edits):
            items.append((o_start + shift, o_start + shift + len(text), 0, i))
            shift += len(text) - (o_end - o_start)
        items += [(r[0], r[1], 1, j) for j, r in enumerate(ordered)]
        items.sort(key=lambda item: (item[0], item[1]))
        merged: list[list] = []
        shift = 0  # of the net edits before the cluster being built
        i = 0
        while i < len(items):
            lo, hi = items[i][0], items[i][1]
            cluster = [items[i]]
            i += 1
            while i < len(items) and items[i][0] <= hi:
                hi = max(hi, items[i][1])
                cluster.append(items[i])
                i += 1
            edits = [self.edits[k] for _, _, kind, k in cluster if kind == 0]
            growth = sum(len(t) - (e - s) for s, e, t, _ in edits)
            mine = [ordered[k] for _, _, kind, k in cluster if kind == 1]
            if not mine:
                merged.extend(edits)
            else:
                text = _splice(self.current, lo, hi, mine)
                merged.append([lo - shift, hi - shift - growth, text, mine[-1][3]])
            shift += growth
        self.edits = merged
        self.current = _splice(self.current, 0, len(self.current), ordered)

    def net(self) -> list[tuple[int, int, bytes, tuple[str, str | None]]]:
        """The edits that turn the original into the current text (no-ops dropped)."""
        return [(s, e, t, c) for s, e, t, c in self.edits if self.original[s:e] != t]


def _splice(text: bytes, lo: int, hi: int, replacements: Sequence[Replacement]) -> bytes:
    """``text[lo:hi]`` with the replacements (sorted, inside it) applied."""
    pieces, at = [], lo
    for start, end, new, _ in replacements:
        pieces += [text[at:start], new]
        at = end
    pieces.append(text[at:hi])
    return b"".join(pieces)


def positions(data: bytes, offsets: Sequence[int]) -> list[tuple[int, int]]:
    """(line, column) of each byte offset, both 1-based, columns counted in characters."""
    order = sorted(range(len(offsets)), key=lambda i: offsets[i])
    found: list[tuple[int, int]] = [(0, 0)] * len(offsets)
    line, at = 1, 0  # offsets in increasing order: newlines are counted once
    for i in order:
        offset = offsets[i]
        line += data.count(b"\n", at, offset)
        at = offset
        start = data.rfind(b"\n", 0, offset) + 1
        found[i] = (line, len(data[start:offset].decode("utf-8", "replace")) + 1)
    return found


def edits_of(data: bytes, net: Sequence[tuple[int, int, bytes, object]]) -> list[Edit]:
    """The net edits as :class:`Edit` records, with lines and columns in ``data``."""
    where = positions(data, [o for s, e, _, _ in net for o in (s, e)])
    return [Edit(s, e, data[s:e].decode("utf-8", "replace"), t.decode("utf-8", "replace"),
                 *where[2 * i], *where[2 * i + 1], *(cause if isinstance(cause, tuple) else ("", None)))
            for i, (s, e, t, cause) in enumerate(net)]
