"""IRV104 invalid-attribute, IRV105 wrong-input-count, IRV106 element-type-mismatch (Broadcast's
in tests/ops/test_broadcast.py)."""
import pytest

from support.irbuilder import IR


def binary(data=None, op="Add", a_et="f32", b_et="f32", out_precision=None, out=(2, 3)):
    ir = IR()
    x, y = ir.parameter("2,3", a_et), ir.parameter("3", b_et)
    ir.result(ir.op(op, [x, y], [list(out)], data, out_precision=out_precision))
    return ir


@pytest.mark.parametrize("value", ["numpy", "NUMPY", "Numpy", "none", "EXPLICIT", "pdpd"])
def test_legal_auto_broadcast_values_case_insensitive(run, value):
    extra = {"auto_broadcast.auto_broadcast_axis": "-1"} if value == "pdpd" else {}
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("2,3")
    ir.result(ir.op("Add", [x, y], [[2, 3]], {"auto_broadcast": value, **extra}))
    assert run(ir) == []


@pytest.mark.parametrize("value", [" numpy", "", "bidirectional", "numpy2"])
def test_illegal_auto_broadcast_lists_legal_values(run, value):
    [f] = run(binary({"auto_broadcast": value}))
    assert f.code == "IRV104" and "none, explicit, numpy, pdpd" in f.message


def test_unparsable_axis(run):
    [f] = run(binary({"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": "abc"}))
    assert f.code == "IRV104" and "auto_broadcast.auto_broadcast_axis" in f.message


def test_prefix_parse_of_axis_like_openvino(run):
    # "-1abc" parses as -1 in OpenVINO: [2,3] pdpd [3] right-aligned is fine
    assert run(binary({"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": "-1abc"})) == []


def test_wrong_input_count_counts_edges(run):
    ir = IR()
    c, t, e = ir.parameter("2", "boolean"), ir.parameter("2"), ir.parameter("2")
    ir.result(ir.op("Select", [c, t, e], [[2]], connect=[True, True, False]))
    [f] = [f for f in run(ir) if f.code != "IRV209"]  # the loose port is unconnected-input
    assert f.code == "IRV105" and "takes 3 inputs" in f.message and "2 are connected" in f.message


@pytest.mark.parametrize("op,a,b,fragment", [
    ("Add", "f32", "i32", "same element type"),
    ("Add", "boolean", "boolean", "do not support boolean"),
    ("LogicalAnd", "f32", "f32", "need boolean"),
    ("BitwiseAnd", "f32", "f32", "integer or boolean"),
    ("BitwiseLeftShift", "boolean", "boolean", "need integer"),
])
def test_input_type_rules(run, op, a, b, fragment):
    out_prec = "BOOL" if op == "LogicalAnd" else None
    f = [f for f in run(binary(op=op, a_et=a, b_et=b, out_precision=out_prec)) if f.code == "IRV106"]
    assert f and fragment in f[0].message


def test_comparison_output_must_be_boolean(run):
    [f] = run(binary(op="Less", out_precision="FP32"))
    assert f.code == "IRV106" and f.expected == "boolean" and f.port == "2"
    assert run(binary(op="Less", out_precision="BOOL")) == []


def test_select_condition_must_be_boolean(run):
    ir = IR()
    c, t, e = ir.parameter("2", "f32"), ir.parameter("2"), ir.parameter("2")
    ir.result(ir.op("Select", [c, t, e], [[2]]))
    [f] = run(ir)
    assert f.code == "IRV106" and "condition" in f.message


def test_element_types_flow_through_shape_preserving_layers(run):
    ir = IR()
    x, y = ir.parameter("2,3", "f16"), ir.parameter("3", "f32")
    relu = ir.op("Relu", [x], [[2, 3]])
    ir.result(ir.op("Add", [relu, y], [[2, 3]]))
    found = [f for f in run(ir) if f.code == "IRV106"]
    assert any("same element type" in f.message and f.layer.type == "Add" for f in found)


def test_convert_produces_its_destination_type(run):
    ir = IR()
    x, y = ir.parameter("2,3", "f16"), ir.parameter("3", "f32")
    conv = ir.op("Convert", [x], [[2, 3]], {"destination_type": "f32"}, out_precision="FP32")
    ir.result(ir.op("Add", [conv, y], [[2, 3]]))
    assert run(ir) == []
    bad = IR()
    x = bad.parameter("2,3", "f16")
    bad.result(bad.op("Convert", [x], [[2, 3]], {"destination_type": "i32"}, out_precision="FP32"))
    [f] = [f for f in run(bad) if f.code == "IRV106"]
    assert f.expected == "i32" and f.layer.type == "Convert"
