"""Graph integrity rules IRV205-IRV216 and the constant checks of IRV203: failing and passing IRs."""
import pytest

from support.irbuilder import IR


def findings_of(run, ir, code, **kwargs):
    return [f for f in run(ir, **kwargs) if f.code == code]


def add_model():
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    return ir


def test_clean_model_has_no_integrity_findings(run):
    assert run(add_model()) == []


def test_duplicate_layer_id(run):
    ir = add_model()
    ir.layers[1].id = "0"
    [f] = findings_of(run, ir, "IRV205")
    assert "reuses the id" in f.message and f.layer.name == "p1" and f.line > 2


def test_duplicate_port_id(run):
    ir = add_model()
    ir.layers[2].outputs[0].port = "1"   # the Add's output reuses input id 1
    ir.edges = [e if e[0] != "2" else ("2", "1", e[2], e[3]) for e in ir.edges]
    [f] = findings_of(run, ir, "IRV206")
    assert f.layer.type == "Add" and f.port == "1"


def test_reversed_edge(run):
    ir = add_model()
    ir.edges.append(("2", "0", "3", "0"))  # port 0 of the Add is an input
    [f] = findings_of(run, ir, "IRV207")
    assert "from input port" in f.message


def test_two_edges_into_one_port(run):
    ir = add_model()
    ir.edges.append(("1", "0", "2", "0"))
    [f] = findings_of(run, ir, "IRV208")
    assert f.port == "0" and "2 edges" in f.message


def test_unconnected_input_port(run):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 3]], connect=[True, False]))
    [f] = findings_of(run, ir, "IRV209")
    assert f.port == "1"


def test_cycle_names_its_layers(run):
    ir = IR()
    x = ir.parameter("2")
    a = ir.op("Relu", [x], [[2]], name="a")
    b = ir.op("Sigmoid", [a], [[2]], name="b")
    ir.result(b)
    ir.edges = [e for e in ir.edges if e[2] != a.layer] + [(b.layer, b.port, a.layer, "0")]
    [f] = findings_of(run, ir, "IRV210")
    assert "'a'" in f.message and "'b'" in f.message and "cycle of 2" in f.message


def test_self_loop(run):
    ir = IR()
    a = ir.op("Relu", [IR.parameter(ir, "2")], [[2]], name="a", connect=[False])
    ir.edges.append((a.layer, a.port, a.layer, "0"))
    ir.result(a)
    [f] = findings_of(run, ir, "IRV210")
    assert "cycle of 1" in f.message


def test_unreachable_layer_is_a_warning(run):
    ir = add_model()
    ir.op("Sigmoid", [ir.layers[0].outputs[0]], [[2, 3]], name="dangling")
    [f] = findings_of(run, ir, "IRV211")
    assert f.level == "warning" and f.layer.name == "dangling"


def test_precision_mismatch_across_edge(run):
    ir = IR()
    x = ir.parameter("2")
    relu = ir.op("Relu", [x], [[2]])
    ir.result(relu)
    ir.layers[1].inputs[0] = type(x)(x.layer, x.port, x.dims, "I64")
    [f] = findings_of(run, ir, "IRV213")
    assert f.expected == "f32" and f.declared == "i64"


def test_precision_spellings_are_equal(run):
    ir = IR()
    x = ir.parameter("2")
    ir.result(ir.op("Relu", [x], [[2]]))
    ir.layers[1].inputs[0] = type(x)(x.layer, x.port, x.dims, "f32")  # canonical vs legacy FP32
    assert findings_of(run, ir, "IRV213") == []


@pytest.mark.parametrize("shape,dims,ok", [
    ("1,1..8,3", [1, -1, 3], True), ("1,?,3", [1, -1, 3], True), ("...", [], True),
    ("", [], True), ("1,16,3", [1, 8, 3], False), ("2,3", [2, 3, 1], False),
    ("...", [2], False), ("1..8", [4], False),
])
def test_parameter_shape_against_port(run, shape, dims, ok):
    ir = IR()
    x = ir.parameter(shape, dims=dims)
    ir.result(x)
    assert (findings_of(run, ir, "IRV214") == []) == ok


def test_parameter_without_shape_is_a_scalar(run):
    ir = IR()
    x = ir.parameter("2,3")
    del ir.layers[0].data["shape"]
    ir.result(x)
    [f] = findings_of(run, ir, "IRV214")
    assert "read as a scalar" in f.message


def test_parameter_element_type_against_precision(run):
    ir = IR()
    x = ir.parameter("2")
    ir.layers[0].data["element_type"] = "i32"
    ir.result(x)
    [f] = findings_of(run, ir, "IRV214")
    assert f.expected == "i32" and f.declared == "f32"


def test_const_shape_against_port(run):
    ir = IR()
    x = ir.parameter("3")
    c = ir.const([1, 2, 3], et="i64")
    ir.layers[-1].outputs[0].dims = [1, 3]
    ir.result(ir.op("Add", [x, c], [[3]], in_dims={1: [1, 3]}))
    assert [f.layer.type for f in findings_of(run, ir, "IRV215")] == ["Const"]


@pytest.mark.parametrize("kwargs,fragment", [
    ({"size": 4}, "smaller than"), ({"offset": 16}, "outside"),
])
def test_every_const_is_checked_against_the_bin(run, kwargs, fragment):
    ir = IR()
    x = ir.parameter("2")
    c = ir.const([1.0, 2.0], et="f32", **kwargs)  # a float Const no rule reads
    ir.weights += bytes(8)
    ir.result(ir.op("Add", [x, c], [[2]]))
    [f] = findings_of(run, ir, "IRV203")
    assert fragment in f.message and f.layer.type == "Const"


def test_larger_size_is_read_identically_and_not_reported(run):
    ir = IR()
    x = ir.parameter("2")
    c = ir.const([1.0, 2.0], et="f32", size=12)
    ir.weights += bytes(8)
    ir.result(ir.op("Add", [x, c], [[2]]))
    assert findings_of(run, ir, "IRV203") == []


def test_empty_const_placeholder_byte_is_legal(run):
    ir = IR()
    ir.const([0], et="u8", shape=[0])  # shape [0] with the serializer's 1-byte placeholder
    ir.result(ir.op("Relu", [ir.layers[0].outputs[0]], [[0]]))
    assert findings_of(run, ir, "IRV203") == []


@pytest.mark.parametrize("type_,version,ok", [
    ("Add", "opset1", True), ("add", "opset5", True), ("Add", "opset17", False),
    ("Xor", "opset1", True), ("Xor", "opset2", False), ("BitwiseAnd", "opset12", False),
    ("BitwiseAnd", "opset13", True), ("BitwiseLeftShift", "opset14", False),
    ("Foo", "opset1", False), ("Add", "opset99", False), ("Add", "OPSET1", False),
    ("Add", "my_custom_opset", True),   # a custom extension's opset: not ours to judge
])
def test_unknown_op_type(run, type_, version, ok):
    ir = IR()
    x, y = ir.parameter("2", "boolean" if "Xor" in type_ else "i32"), ir.parameter("2", "i32")
    if "Xor" in type_:
        y = ir.parameter("2", "boolean")
    ir.result(ir.op(type_, [x, y], [[2]], version=version))
    found = findings_of(run, ir, "IRV212")
    assert (found == []) == ok, found


def test_alias_spellings_follow_the_reader(run):
    # the serializer writes Const/ReLU; 'const' is not an alias and not a type
    ir = add_model()
    ir.layers[0].type = "const"
    ir.layers[0].data.update({"element_type": "f32", "shape": "2, 3", "offset": "0", "size": "24"})
    ir.weights += bytes(24)
    [f] = findings_of(run, ir, "IRV212")
    assert "'const'" in f.message
