"""IRV102 incompatible-inputs, across elementwise, Select and FakeQuantize (Broadcast's in
tests/ops/test_broadcast.py)."""
import pytest

from support.irbuilder import IR


def binary(a, b, data=None, op="Add", et="f32"):
    ir = IR()
    x, y = ir.parameter(a, et), ir.parameter(b, et)
    ir.result(ir.op(op, [x, y], [[]], data))
    return ir


def only(findings, code):
    found = [f for f in findings if f.code == code]
    assert len(found) == 1, findings
    return found[0]


@pytest.mark.parametrize("a,b,mode,column", [
    ("3", "2", "numpy", 0),                 # seed: mismatch
    ("3,1,5", "4,4,5", "numpy", 0),         # seed: mismatch on the leftmost axis
    ("2,3", "3", "none", None),             # none needs equal ranks
    ("2,3", "2,4", "none", 1),
    ("2..8", "10", "numpy", 0),             # interval without 1 cannot meet 10
])
def test_elementwise_failures_mark_the_axis(run, a, b, mode, column):
    f = only(run(binary(a, b, {"auto_broadcast": mode})), "IRV102")
    assert f.layer.id == "2" and f.table.marks == (() if column is None else (column,))


def test_leniency_accepts_interval_containing_one(run):
    findings = run(binary("1..8", "10", {"auto_broadcast": "numpy"}))
    assert not [f for f in findings if f.code == "IRV102"]


@pytest.mark.parametrize("a,b,axis", [("2,3,4,5", "3,4", "1"), ("2,3,4,5", "5", "-1"),
                                      ("2,3,4,5", "1,3", "0")])
def test_pdpd_valid(run, a, b, axis):
    data = {"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": axis}
    assert not [f for f in run(binary(a, b, data)) if f.code == "IRV102"]


def test_pdpd_table_places_b_at_its_axis(run):
    data = {"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": "1"}
    f = only(run(binary("2,3,4,5", "3,5", data)), "IRV102")
    assert f.table.rows[1].offset == 1 and f.table.marks == (2,)


def test_select_numpy_three_way(run):
    ir = IR()
    c, t, e = ir.parameter("5,3", "boolean"), ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Select", [c, t, e], [[2, 3]]))
    assert only(run(ir), "IRV102").layer.type == "Select"


def test_select_pdpd_else_must_fit_into_then(run):
    ir = IR()
    c, t, e = ir.parameter("2,3,4", "boolean"), ir.parameter("4"), ir.parameter("2,3,4")
    data = {"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": "-1"}
    ir.result(ir.op("Select", [c, t, e], [[4]], data))
    assert "'Else'" in only(run(ir), "IRV102").message


def test_fake_quantize_ranges_must_broadcast_with_data(run):
    ir = IR()
    x = ir.parameter("1,3,4,5")
    lo, hi = ir.parameter("4"), ir.parameter("")
    ir.result(ir.op("FakeQuantize", [x, lo, hi, hi, hi], [[1, 3, 4, 5]], {"levels": "256"}))
    assert only(run(ir), "IRV102").layer.type == "FakeQuantize"


def test_fake_quantize_output_is_input_zero(run):
    ir = IR()
    x, lo = ir.parameter("1,3,1,1"), ir.parameter("1,3,4,5")
    ir.result(ir.op("FakeQuantize", [x, lo, lo, lo, lo], [[1, 3, 1, 1]], {"levels": "256"}))
    assert run(ir) == []
