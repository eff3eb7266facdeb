"""IRV108 unknown-attribute: the reader ignores attributes an op does not have."""
import numpy as np
import pytest
from conftest import codes

from irvalidate.ops import eltwise
from support.irbuilder import IR


@pytest.mark.parametrize("type_,data,suggestion", [
    ("Add", {"auto_brodcast": "none"}, "did you mean 'auto_broadcast'?"),
    ("Add", {"auto_broadcast": "numpy", "auto_broadcast.axis": "1"},
     "did you mean 'auto_broadcast.auto_broadcast_axis'?"),
    ("Relu", {"negative_slope": "0.1"}, "it has none: remove it"),
])
def test_an_unknown_attribute_is_a_warning_with_a_suggestion(run, type_, data, suggestion):
    ir = IR()
    x = ir.parameter("2,3")
    inputs = [x, ir.parameter("3")] if type_ == "Add" else [x]
    ir.result(ir.op(type_, inputs, [[2, 3]], data))
    [f] = [f for f in run(ir) if f.code == "IRV108"]
    assert f.level == "warning" and suggestion in f.message and "OpenVINO ignores it" in f.message


def test_broadcast_mode_names_differ_by_version(run):
    ir = IR()
    x = ir.parameter("3")
    target = ir.const([2, 3])
    ir.result(ir.op("Broadcast", [x, target], [[2, 3]], {"mode": "numpy", "mode.mode.axis": "0"},
                    version="opset1"))
    [f] = [f for f in run(ir) if f.code == "IRV108"]
    assert "'mode.mode.axis'" in f.message and "mode.auto_broadcast_axis" in f.message


def test_extension_and_unmodelled_ops_are_left_alone(run):
    from irvalidate.ops.support import registry
    # an op irvalidate does not model yet (the list shrinks as ops are modelled)
    unmodelled = [t for t in ("CTCLoss", "Proposal", "DetectionOutput", "ExperimentalDetectronTopKROIs")
                  if registry.lookup(t, "opset1") is None]
    if not unmodelled:
        pytest.skip("every candidate op is modelled")
    ir = IR()
    x = ir.parameter("2,3")
    y = ir.op(unmodelled[0], [x, ir.parameter("3,2")], [[2, 2]], {"whatever": "1"})
    ir.result(ir.op("Add", [y], [[2, 2]], {"anything": "1"}, version="extension"))
    assert "IRV108" not in codes(run(ir))


def test_every_attribute_openvino_writes_is_known(tmp_path):
    """Models with every modelled op, written by openvino with non-default attributes."""
    ov = pytest.importorskip("openvino")
    from openvino import opset1, opset3, opset5, opset7, opset10
    from openvino.utils.node_factory import NodeFactory

    from irvalidate.engine.validation import validate_file
    f32 = lambda shape: opset1.parameter(shape, np.float32)  # noqa: E731
    i32 = lambda shape: opset1.parameter(shape, np.int32)  # noqa: E731
    boolean = lambda shape: opset1.parameter(shape, np.bool_)  # noqa: E731
    outs = []
    binary = eltwise.ARITHMETIC + eltwise.COMPARISON + eltwise.LOGICAL + eltwise.BITWISE + eltwise.SHIFT
    for name in binary:
        type_ = name.lower()
        opset = {"xor": "opset1", "logicalxor": "opset2"}.get(type_, "opset15")
        make = boolean if "logical" in type_ or type_ == "xor" else i32 if "bitwise" in type_ else f32
        a = make([2, 3, 4])
        node = NodeFactory(opset).create(name, [a.output(0), a.output(0)],
                                         {"auto_broadcast": "pdpd"})
        node.set_attribute("auto_broadcast.auto_broadcast_axis", 1)  # as make_samples.pdpd
        node.set_argument(1, make([3]).output(0))
        node.validate_and_infer_types()
        outs.append(node)
    x = f32([2, 3])
    outs += [opset1.select(boolean([2, 3]), x, f32([2, 1]), auto_broadcast="pdpd"),
             opset1.fake_quantize(x, f32([1]), f32([1]), f32([1]), f32([1]), 16),
             opset1.broadcast(f32([3]), opset1.constant(np.array([3, 2])),
                              opset1.constant(np.array([0])), mode="explicit"),
             opset3.broadcast(f32([1, 2]), opset1.constant(np.array([3, 2])), broadcast_spec="PDPD"),
             opset1.clamp(x, 0.0, 1.0), opset1.convert(x, "i32"), opset1.elu(x, 0.5),
             opset7.gelu(x, "tanh"), NodeFactory("opset2").create("Gelu", [x.output(0)], {}),
             opset10.is_inf(x, {"detect_negative": False}), opset5.round(x, "half_to_even"),
             opset1.relu(x), opset1.sigmoid(x)]
    params = [p for o in outs for p in _parameters(o)]
    path = tmp_path / "attrs.xml"
    ov.save_model(ov.Model([o.output(0) for o in outs], params), str(path))
    written = path.read_text()
    assert "auto_broadcast.auto_broadcast_axis" in written and "mode.mode.axis" in written
    assert "IRV108" not in codes(validate_file(str(path)).findings)


def _parameters(node):
    found = []
    for value in node.input_values():
        producer = value.get_node()
        if producer.get_type_name() == "Parameter":
            found.append(producer)
    return found


def test_attributes_converters_wrote_for_years_are_left_alone(run):
    ir = IR()
    x = ir.parameter("1,3,8,8")
    w = ir.const([0.0] * 54, et="f32", shape=[2, 3, 3, 3])
    attrs = {"strides": "1,1", "dilations": "1,1", "pads_begin": "0,0", "pads_end": "0,0",
             "auto_pad": "explicit"}
    ir.result(ir.op("Convolution", [x, w], [[1, 2, 6, 6]], data={**attrs, "output_padding": "0,0"}))
    assert run(ir) == []
    ir = IR()
    x = ir.parameter("1,3,8,8")
    w = ir.const([0.0] * 54, et="f32", shape=[2, 3, 3, 3])
    ir.result(ir.op("Convolution", [x, w], [[1, 2, 6, 6]], data={**attrs, "output_padings": "0,0"}))
    [f] = run(ir)
    assert f.code == "IRV108" and "'output_padings'" in f.message


def maxpool_data(**extra):
    data = {"strides": "2,2", "kernel": "2,2", "pads_begin": "0,0", "pads_end": "0,0",
            "rounding_type": "floor", "auto_pad": "explicit"}
    data.update(extra)
    return data


def test_one_warning_per_layer_names_all_its_unknown_attributes(run):
    # MaxPool-8's attributes on layers marked opset1 (the reader builds MaxPool-1 and drops
    # them), as in a wild-corpus landmarks model: one warning per MaxPool, not one per name
    ir = IR()
    x = ir.parameter("1,3,16,16")
    for _ in range(3):
        x = ir.op("MaxPool", [x], [x.dims[:2] + [d // 2 for d in x.dims[2:]]],
                  maxpool_data(dilations="1,1", axis="0", index_element_type="i64"))
    ir.result(x)
    found = [f for f in run(ir) if f.code == "IRV108"]
    assert len(found) == 3 and len({f.layer.id for f in found}) == 3
    for f in found:
        assert "unknown attributes 'dilations', 'axis' and 'index_element_type': OpenVINO " \
               "ignores them; it has auto_pad, kernel, pads_begin, pads_end, rounding_type, " \
               "strides" in f.message


def test_several_unknown_attributes_each_get_their_suggestion(run):
    ir = IR()
    x = ir.parameter("1,3,4,4")
    data = {k: v for k, v in maxpool_data().items() if k not in ("kernel", "strides")}
    ir.result(ir.op("MaxPool", [x], [[1, 3, 2, 2]], {**data, "kernal": "2,2", "strides_": "2,2"}))
    [f] = [f for f in run(ir) if f.code == "IRV108"]
    assert f.message.endswith("unknown attributes 'kernal' (did you mean 'kernel'?) and "
                              "'strides_' (did you mean 'strides'?): OpenVINO ignores them")


def test_the_landmarks_model_of_the_corpus_gets_one_warning_per_maxpool():
    from irvalidate.engine.validation import validate_file
    from support.places import CORPUS_FILES
    wanted = [p for p in CORPUS_FILES
              if p.name == "landmarks-regression-retail-0009__FP16-INT8__landmarks-regression-retail-0009.xml"]
    if not wanted:
        pytest.skip("the wild corpus is not here")
    found = [f for f in validate_file(str(wanted[0])).findings if f.code == "IRV108"]
    assert [f.layer.type for f in found] == ["MaxPool"] * 3  # 9 warnings before, one per name
