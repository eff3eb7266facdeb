"""IRV102 incompatible-inputs, across elementwise, Select, FakeQuantize and Broadcast."""
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


def broadcast(data_shape, target, out, mode=None, axes=None, version="opset3", extra=None):
    ir = IR()
    x = ir.parameter(data_shape)
    inputs = [x, ir.const(target)]
    if axes is not None:
        inputs.append(ir.const(axes))
    data = dict(extra or {})
    if mode:
        data["mode"] = mode
    ir.result(ir.op("Broadcast", inputs, [out], data, version=version))
    return ir


@pytest.mark.parametrize("version", ["opset1", "opset3"])
def test_spec_broadcast1_examples_are_valid(run, version):
    assert run(broadcast("16,1,1", [1, 16, 50, 50], [1, 16, 50, 50], "numpy", version=version)) == []
    assert run(broadcast("16", [1, 16, 50, 50], [1, 16, 50, 50], "explicit", [1], version)) == []
    assert run(broadcast("50,50", [1, 50, 50, 16], [1, 50, 50, 16], "explicit", [1, 2], version)) == []


@pytest.mark.parametrize("data,target,mode,axes,fragment", [
    ("3,4", [2, 5, 4], "numpy", None, "cannot be broadcast"),
    ("2,3,4", [3, 4], "numpy", None, "smaller rank"),
    ("3,2", [2, 3, 3], "explicit", [1, 2], "expected 2"),
    ("3", [2, 3, 4], "explicit", [1, 2], "axes_mapping has 2 elements"),
    ("3,4", [2, 3, 4], "explicit", [2, 1], "not sorted"),
    ("3,4", [2, 3, 4], "explicit", [1, 3], "exceeds the target rank"),
    ("4,3,2", [8, 6, 4], "bidirectional", None, "expecting 1 or 4"),
    ("3", [2, 3, 4], "pdpd", None, "does not reach"),
])
def test_broadcast_failures(run, data, target, mode, axes, fragment):
    extra = {"mode.mode.axis": "1"} if mode == "pdpd" else None
    out = [1] * len(target)
    f = only(run(broadcast(data, target, out, mode, axes, extra=extra)), "IRV102")
    assert fragment in f.message and f.layer.type == "Broadcast"


def test_broadcast_numpy_output_is_the_target(run):
    # data [3,1] to target [2,3,6]: the output is the target, never refined by the data
    ir = broadcast("3,1", [2, 3, 6], [2, 3, 7], "numpy")
    f = only(run(ir), "IRV101")
    assert f.expected == "[2,3,6]"


def test_broadcast_target_minus_one_is_dynamic(run):
    assert run(broadcast("3", [2, -1, 3], [2, -1, 3], "numpy")) == []
