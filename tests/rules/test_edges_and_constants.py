"""IRV201 edge-shape-mismatch, IRV202 dangling-edge, IRV203 invalid-constant, IRV204 missing-weights."""
import pytest
from conftest import codes

from irvalidate.engine.validation import validate_file
from support.irbuilder import IR


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
    assert f and "lie outside model.bin" in f[0].message and f[0].layer.type == "Const"


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


def test_missing_bin_is_one_error_that_says_what_to_do(run):
    # the runtime refuses a model whose Consts have no .bin: an error, not a warning
    findings = run(broadcast_with({}), with_bin=False)
    assert codes(findings) == ["IRV204"] and findings[0].level == "error"
    assert "model.bin does not exist" in findings[0].message
    assert "put model.bin beside model.xml or pass --bin" in findings[0].message


LFS_POINTER = (b"version https://git-lfs.github.com/spec/v1\n"
               b"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
               b"size 267866468\n")


def many_consts(count=6):
    ir = IR()
    x = ir.parameter("3")
    out = x
    for _ in range(count):
        out = ir.op("Add", [out, ir.const([1.0, 2.0, 3.0], et="f32")], [[3]])
    ir.result(out)
    return ir


def test_lfs_pointer_bin_is_one_finding_and_no_constant_is_read(tmp_path, run):
    ir = many_consts()
    path = ir.write(tmp_path)
    path.with_suffix(".bin").write_bytes(LFS_POINTER)
    from irvalidate.engine.validation import validate_file
    findings = validate_file(str(path)).findings
    assert [(f.code, f.level) for f in findings] == [("IRV204", "error")]
    assert "model.bin is a Git LFS pointer (object of 267,866,468 bytes)" in findings[0].message
    assert "git lfs pull" in findings[0].message


def test_lfs_pointer_bin_reads_no_value(tmp_path):
    # a Broadcast target at bytes 0..8 would have decoded the pointer's ASCII as a number
    ir = broadcast_with({})
    path = ir.write(tmp_path)
    path.with_suffix(".bin").write_bytes(LFS_POINTER)
    from irvalidate.engine.validation import validate_file
    assert [f.code for f in validate_file(str(path)).findings] == ["IRV204"]


def test_a_truncated_bin_is_one_finding_not_one_per_const(tmp_path):
    ir = many_consts(6)
    path = ir.write(tmp_path)
    path.with_suffix(".bin").write_bytes(bytes(ir.weights[:15]))  # 1 of 6 Consts still fits
    from irvalidate.engine.validation import validate_file
    found = validate_file(str(path)).findings
    assert [f.code for f in found] == ["IRV218"], found  # said once, by weights-mismatch
    assert ("model.bin does not hold this model's weights: it holds 15 bytes, and 5 Const "
            "layers read past its end") in found[0].message
    assert "truncated" in found[0].message


def test_ignoring_irv204_checks_the_xml_alone(tmp_path):
    from irvalidate.cli.main import main
    path = broadcast_with({}).write(tmp_path, with_bin=False)
    assert main(["-qq", str(path)]) == 1
    assert main(["-qq", "--ignore", "IRV204", str(path)]) == 0


def _line(path, number):
    return path.read_text().splitlines()[number - 1]


def test_edge_mismatch_recommends_what_inference_proves_at_the_input_port(tmp_path):
    # the Relu's input port edited: inference gives the producer's [1,3]; the finding points
    # at the input port's wrong <dim>, not at the <edge>
    ir = IR()
    x = ir.parameter("1,3")
    ir.result(ir.op("Relu", [x], [[1, 3]], in_dims={0: [1, 4]}))
    path = ir.write(tmp_path)
    [f] = validate_file(str(path)).findings
    assert f.message.endswith("inference proves the producer's, so make the input port say [1,3]")
    assert _line(path, f.line) == '<port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port>'
    assert f.line == ir.line_of("1") + 2  # the Relu's line, <input>, then its port


def test_edge_mismatch_with_a_stale_producer_says_so_and_points_at_its_port(tmp_path):
    # the Relu's output dim edited: the Sigmoid's input port is the one inference proves;
    # IRV201 does not spread the stale [1,4]
    ir = IR()
    x = ir.parameter("1,3")
    relu = ir.op("Relu", [x], [[1, 4]])
    ir.result(ir.op("Sigmoid", [relu], [[1, 3]], in_dims={0: [1, 3]}))
    path = ir.write(tmp_path)
    [edge] = [f for f in validate_file(str(path)).findings if f.code == "IRV201"]
    assert "[1,4]" not in edge.message.split("; ", 1)[1]
    assert edge.message.endswith("inference proves the input port's, so the producer's output "
                                 "port is stale: declare [1,3] there")
    assert _line(path, edge.line) == '<port id="1" precision="FP32"><dim>1</dim><dim>4</dim></port>'


def test_the_side_inference_proves_is_the_runtimes(tmp_path):
    # the stale producer above, read by openvino: the Relu gives [1,3], as IRV201 says
    ov = pytest.importorskip("openvino")
    ir = IR()
    x = ir.parameter("1,3")
    relu = ir.op("Relu", [x], [[1, 4]], name="relu")
    ir.result(ir.op("Sigmoid", [relu], [[1, 3]], in_dims={0: [1, 3]}))
    path = ir.write(tmp_path)
    model = ov.Core().read_model(str(path))
    [relu_node] = [n for n in model.get_ops() if n.get_friendly_name() == "relu"]
    assert str(relu_node.get_output_partial_shape(0)) == "[1,3]"
    [edge] = [f for f in validate_file(str(path)).findings if f.code == "IRV201"]
    assert edge.message.endswith("declare [1,3] there")


def test_edge_mismatch_where_inference_proves_neither_side(tmp_path):
    ir = IR()
    x = ir.parameter("1,3")
    relu = ir.op("Relu", [x], [[1, 4]])
    ir.result(ir.op("Sigmoid", [relu], [[1, 3]], in_dims={0: [1, 5]}))
    [edge] = [f for f in validate_file(str(ir.write(tmp_path))).findings if f.code == "IRV201"]
    assert edge.message.endswith("inference proves neither, so declare on both ports [1,3]")


def test_edge_mismatch_without_inference_keeps_the_runtime_rule(tmp_path):
    # an op irvalidate does not model: nothing is proven, so the producer's declaration stands
    ir = IR()
    x = ir.parameter("1,3")
    odd = ir.op("NoSuchOp", [x], [[1, 4]], version="opset1")
    ir.result(ir.op("Relu", [odd], [[1, 3]], in_dims={0: [1, 3]}))
    edges = [f for f in validate_file(str(ir.write(tmp_path))).findings if f.code == "IRV201"]
    assert [f.message.split("; ", 1)[1] for f in edges] == [
        "the runtime uses the producer's, so make the input port say [1,4], or fix the producer"]
