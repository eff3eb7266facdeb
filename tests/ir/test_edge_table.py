"""ir/edge_table.py: the edges of a plain IR as integer arrays."""
from __future__ import annotations

from collections import Counter

from irvalidate.ir import edge_table
from support.irbuilder import IR


def _table(tmp_path):
    ir = IR()
    x = ir.parameter("2,3")
    a = ir.op("Relu", [x], [[2, 3]])
    b = ir.op("Add", [a, x], [[2, 3]])
    ir.result(ir.op("Multiply", [b, a], [[2, 3]]))
    return ir, edge_table.read(str(ir.write(tmp_path)))


def test_leaving_counts_each_layers_edges_once_and_hands_out_copies(tmp_path, monkeypatch):
    """The stream counts its copy down while a what-if's watch reads another: each caller
    gets its own, and the edges are counted and indexed once."""
    ir, table = _table(tmp_path)
    indexed = []
    index = edge_table.EdgeTable._index
    monkeypatch.setattr(edge_table.EdgeTable, "_index",
                        lambda self, top: indexed.append(top) or index(self, top))
    first, second = table.leaving(), table.leaving()
    expected = Counter(int(e[0]) for e in ir.edges)
    assert list(first) == [expected.get(n, 0) for n in range(len(first))]
    first[0] -= 1
    assert list(second) == [expected.get(n, 0) for n in range(len(second))]
    assert len(indexed) == 1
    assert list(table.into(3)) == [i for i, e in enumerate(ir.edges) if e[2] == "3"]
