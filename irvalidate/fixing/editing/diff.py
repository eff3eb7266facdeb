"""A unified diff of a file and its edits, as ``git apply`` and ``patch -p1`` accept it.

Built from the edits themselves rather than by comparing two texts: a 100 MB IR with three
fixed dims diffs in the time it takes to find three lines, where a line-matching diff would
compare millions.  Lines keep their own endings (``\\r\\n`` stays), and a last line without
one is marked the standard way.
"""
from __future__ import annotations

from collections.abc import Sequence

CONTEXT = 3
_NO_NEWLINE = b"\\ No newline at end of file\n"


def _line_start(data: bytes, at: int) -> int:
    return data.rfind(b"\n", 0, at) + 1


def _line_end(data: bytes, at: int) -> int:
    end = data.find(b"\n", at)
    return len(data) if end < 0 else end + 1


def _lines(text: bytes) -> list[bytes]:
    """Lines ending at each ``\\n`` only (``splitlines`` would also split at a lone ``\\r``,
    which diff and patch do not)."""
    parts = text.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    return lines + [parts[-1]] if parts[-1] else lines


def _emit(prefix: bytes, lines: Sequence[bytes], out: list[bytes]) -> None:
    for line in lines:
        out.append(prefix + line)
        if not line.endswith(b"\n"):
            out.append(b"\n" + _NO_NEWLINE)


class _Block:
    """Whole lines of the original that edits touch, and what they become."""
    __slots__ = ("start", "end", "first_line", "old", "new")

    def __init__(self, start: int, end: int, first_line: int, old: bytes, new: bytes) -> None:
        self.start, self.end, self.first_line = start, end, first_line
        self.old, self.new = _lines(old), _lines(new)


def _edit_lines(data: bytes, edit: tuple[int, int, bytes]) -> tuple[int, int]:
    """The whole lines an edit touches, as a byte span.  An edit that takes a line's newline
    and puts none back joins the next line, which it then touches too."""
    start, end, text = edit
    first = _line_start(data, start)
    last = _line_end(data, max(end - 1, start))
    if end == last and end < len(data) and not text.endswith(b"\n") and \
            (end > start or first == last):
        last = _line_end(data, last)
    return first, last


def _blocks(data: bytes, edits: Sequence[tuple[int, int, bytes]]) -> list[_Block]:
    blocks: list[_Block] = []
    line, counted = 1, 0
    group: list[tuple[int, int, bytes]] = []
    span = (0, 0)
    for edit in sorted(edits):
        lines = _edit_lines(data, edit)
        if group and lines[0] >= span[1]:
            line += data.count(b"\n", counted, span[0])
            counted = span[0]
            blocks.append(_block(data, group, span, line))
            group = []
        span = (span[0], max(lines[1], span[1])) if group else lines
        group.append(edit)
    if group:
        line += data.count(b"\n", counted, span[0])
        blocks.append(_block(data, group, span, line))
    return blocks


def _block(data: bytes, group, span: tuple[int, int], line: int) -> _Block:
    start, end = span
    pieces, at = [], start
    for s, e, text in group:
        pieces += [data[at:s], text]
        at = e
    pieces.append(data[at:end])
    return _Block(start, end, line, data[start:end], b"".join(pieces))


_GIT_ESCAPES = {0x07: b"\\a", 0x08: b"\\b", 0x09: b"\\t", 0x0A: b"\\n", 0x0B: b"\\v",
                0x0C: b"\\f", 0x0D: b"\\r", 0x22: b'\\"', 0x5C: b"\\\\"}


def _quoted(name: bytes) -> bytes:
    """A path as git writes it in a diff header: as it is, or, when it holds a control
    character (C1's too), a quote or a backslash, C-quoted as git does (``"a/x\\033y"``,
    bytes past ASCII in octal), which ``git apply`` reads back; a line break or an escape
    sequence then never reaches the terminal raw."""
    shown = name.decode("utf-8", "replace")
    if not any(c < " " or "\x7f" <= c <= "\x9f" or c in '"\\\u2028\u2029' for c in shown):
        return name
    escaped = (_GIT_ESCAPES.get(b) or (b"\\%03o" % b if b < 0x20 or b >= 0x7F else bytes([b]))
               for b in name)
    return b'"' + b"".join(escaped) + b'"'


def unified_diff(data: bytes, edits: Sequence[tuple[int, int, bytes]], name: str) -> bytes:
    """The diff that turns ``data`` into ``data`` with ``edits`` (disjoint ``(start, end,
    new)`` byte replacements) applied; ``name`` is the path shown after ``a/`` and ``b/``."""
    blocks = [b for b in _blocks(data, edits) if b.old != b.new]
    if not blocks:
        return b""
    label = name.encode("utf-8", "surrogateescape")
    out: list[bytes] = [b"--- " + _quoted(b"a/" + label) + b"\n",
                        b"+++ " + _quoted(b"b/" + label) + b"\n"]
    i, shift = 0, 0
    while i < len(blocks):
        j = i  # blocks i..j share a hunk when at most 2 * CONTEXT lines lie between them
        while j + 1 < len(blocks) and \
                data.count(b"\n", blocks[j].end, blocks[j + 1].start) <= 2 * CONTEXT:
            j += 1
        hunk, shift = _hunk(data, blocks[i:j + 1], shift)
        out += hunk
        i = j + 1
    return b"".join(out)


def _context_before(data: bytes, at: int) -> list[bytes]:
    start = at
    for _ in range(CONTEXT):
        if start == 0:
            break
        start = _line_start(data, start - 1)
    return _lines(data[start:at])


def _context_after(data: bytes, at: int) -> list[bytes]:
    end = at
    for _ in range(CONTEXT):
        if end >= len(data):
            break
        end = _line_end(data, end)
    return _lines(data[at:end])


def _hunk(data: bytes, blocks: Sequence[_Block], shift: int) -> tuple[list[bytes], int]:
    """One hunk, and the line shift after it (``shift``: lines earlier hunks added)."""
    body: list[bytes] = []
    before = _context_before(data, blocks[0].start)
    old_count = new_count = len(before)
    _emit(b" ", before, body)
    for k, block in enumerate(blocks):
        if k:
            between = _lines(data[blocks[k - 1].end:block.start])
            _emit(b" ", between, body)
            old_count += len(between)
            new_count += len(between)
        _emit(b"-", block.old, body)
        _emit(b"+", block.new, body)
        old_count += len(block.old)
        new_count += len(block.new)
    after = _context_after(data, blocks[-1].end)
    _emit(b" ", after, body)
    old_count += len(after)
    new_count += len(after)
    old_start = blocks[0].first_line - len(before)
    header = b"@@ -%s +%s @@\n" % (_range(old_start, old_count),
                                   _range(old_start + shift, new_count))
    return [header] + body, shift + new_count - old_count


def _range(start: int, count: int) -> bytes:
    if count == 1:
        return b"%d" % start
    return b"%d,%d" % (start if count else start - 1, count)
