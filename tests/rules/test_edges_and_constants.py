"""IRV201 edge-shape-mismatch, IRV202 dangling-edge, IRV203 invalid-constant, IRV204 missing-weights."""
from irbuilder import IR
from conftest import codes


def test_edge_mismatch_names_consumer_and_producer(run):
    ir = IR()
    x = ir.parameter("1,3")
    relu = ir.op("Relu", [x], [[1, 3]], in_dims={0: [1, 4]})
    ir.result(relu)
    [f] = run(ir)
    assert f.code == "IRV201" and f.layer.type == "Relu" and f.port == "0"
    assert f.expected == "[1,3]" and f.declared == "[1,4]" and f.table.marks == (1,)


def test_dangling_edge_to_missing_layer(run):
    ir = IR()
    x = ir.parameter("2")
    ir.result(x)
    ir.edges.append(("0", "0", "99", "0"))
    [f] = run(ir)
    assert f.code == "IRV202" and "'99' does not exist" in f.message


def test_dangling_edge_to_missing_port(run):
    ir = IR()
    x = ir.parameter("2")
    ir.result(x)
    ir.edges.append(("0", "7", "1", "0"))
    [f] = run(ir)
    assert f.code == "IRV202" and "no output port '7'" in f.message


def broadcast_with(target_kwargs):
    ir = IR()
    x = ir.parameter("3")
    t = ir.const([2, 3], **target_kwargs)
    ir.result(ir.op("Broadcast", [x, t], [[2, 3]], {"mode": "numpy"}, version="opset3"))
    return ir


def test_const_outside_bin(run):
    f = [f for f in run(broadcast_with({"offset": 8})) if f.code == "IRV203"]
    assert f and "outside the .bin" in f[0].message and f[0].layer.type == "Const"


def test_const_size_too_small(run):
    f = [f for f in run(broadcast_with({"size": 8})) if f.code == "IRV203"]
    assert f and "smaller than the 16 bytes" in f[0].message


def test_const_shared_ranges_are_legal(run):
    ir = IR()
    x = ir.parameter("3")
    t = ir.const([2, 3])
    t2 = ir.const([], shape=[2], offset=0, size=16)  # same bytes as t, as the serializer dedups
    b1 = ir.op("Broadcast", [x, t], [[2, 3]], {"mode": "numpy"}, version="opset3")
    b2 = ir.op("Broadcast", [x, t2], [[2, 3]], {"mode": "numpy"}, version="opset3")
    ir.result(b1)
    ir.result(b2)
    assert run(ir) == []


def test_sub_byte_target_types(run):
    ir = IR()
    x = ir.parameter("3")
    # u4 [2, 3] packs low nibble first: 0x32
    t = ir.const([0x32], et="u4", shape=[2])
    ir.layers[-1].data["element_type"] = "u4"
    ir.result(ir.op("Broadcast", [x, t], [[2, 4]], {"mode": "numpy"}, version="opset3"))
    [f] = run(ir)
    assert f.code == "IRV101" and f.expected == "[2,3]"


def test_missing_bin_is_one_warning(run):
    findings = run(broadcast_with({}), with_bin=False)
    assert codes(findings) == ["IRV204"] and findings[0].level == "warning"
