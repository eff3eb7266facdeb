"""Render a :class:`~irvalidate.rules.findings.ShapeTable` as the seeds draw it: right-aligned.

    A: (2, 1, 5)
    B: (   4, 1)
  Result: (2, 4, 5)
"""
from __future__ import annotations

from ..rules.findings import ShapeTable, TableRow
from .names import line_start


def _start(row: TableRow, columns: int) -> int:
    if row.offset is not None:
        return row.offset
    return max(columns - len(row.dims or ()), 0)


def _cells(row: TableRow, columns: int) -> list[str | None]:
    cells: list[str | None] = [None] * columns
    start = _start(row, columns)
    for i, dim in enumerate(row.dims or ()):
        if 0 <= start + i < columns:
            cells[start + i] = dim
    return cells


def _join(cells: list[str | None], width: list[int]) -> str:
    out = []
    for c, cell in enumerate(cells):
        out.append(cell.rjust(width[c]) if cell is not None else " " * width[c])
        if c + 1 < len(cells):
            # a comma only between two written dims; blanks keep the columns aligned
            out.append(", " if cell is not None and cells[c + 1] is not None else "  ")
    return "(" + "".join(out) + ")"


def render(table: ShapeTable, indent: str = "    ") -> list[str]:
    columns = max([_start(row, 0) + len(row.dims or ()) for row in table.rows] + [0])
    width = [1] * columns
    for row in table.rows:
        for c, cell in enumerate(_cells(row, columns)):
            if cell is not None:
                width[c] = max(width[c], len(cell))
    # a label may be a name from the file, and it starts its line
    labels = [line_start(row.label if row.source is None else f"{row.label} = {row.source}")
              for row in table.rows]
    label_width = max(len(label) for label in labels)
    lines = []
    for row, label in zip(table.rows, labels):
        if row.dims is None:
            body = "dynamic rank"
        elif not row.dims:
            body = "() scalar"
        else:
            body = _join(_cells(row, columns), width)
        lines.append(f"{indent}{label.rjust(label_width)}: {body}")
    marks = [c for c in table.marks if 0 <= c < columns]
    if marks:
        marker = ["^".rjust(width[c]) if c in marks else None for c in range(columns)]
        lines.append(f"{indent}{' ' * label_width}  " + _join(marker, width)
                     .replace("(", " ").replace(")", "").replace(",", " ").rstrip())
    return lines
