"""Every attribute openvino writes for the ops of ops-c (MatMul, the Reduce family, Softmax...)
is one irvalidate declares: a model of all of them, serialized by openvino with non-default
attributes, gives no IRV108."""
import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from irvalidate.engine.validation import validate_file  # noqa: E402
from support.partial_shapes import const, create, param  # noqa: E402


def _nodes():
    x4 = param([1, 6, 4, 4])
    x2 = param([2, 3])
    b2 = param([2, 3], bool)
    axes = const([1])
    out = [
        create("opset1", "MatMul", [x2, param([3, 4])], {"transpose_a": False, "transpose_b": False}),
        create("opset7", "Einsum", [x2, param([3, 4])], {"equation": "ij,jk->ik"}),
        create("opset1", "Softmax", [x2], {"axis": 1}), create("opset8", "Softmax", [x2], {"axis": -1}),
        create("opset5", "LogSoftmax", [x2], {"axis": 1}),
        create("opset2", "MVN", [x4], {"eps": 1e-9, "across_channels": True,
                                       "normalize_variance": False, "reduction_axes": [2, 3]}),
        create("opset6", "MVN", [x4, const([2, 3])], {"eps": 1e-9, "normalize_variance": True,
                                                      "eps_mode": "outside_sqrt"}),
        create("opset1", "NormalizeL2", [x4, axes], {"eps": 1e-6, "eps_mode": "max"}),
        create("opset1", "LRN", [x4, axes], {"alpha": 1e-4, "beta": 0.75, "bias": 2.0, "size": 3}),
        create("opset1", "GRN", [x4], {"bias": 1e-6}),
        create("opset1", "BatchNormInference", [param([6]), param([6]), x4, param([6]), param([6])],
               {"epsilon": 1e-5}),
        create("opset5", "BatchNormInference", [x4, param([6]), param([6]), param([6]), param([6])],
               {"epsilon": 1e-5}),
        create("opset1", "HardSigmoid", [x2, const(0.2, np.float32), const(0.5, np.float32)]),
        create("opset3", "CumSum", [x2, const(1)], {"exclusive": True, "reverse": True}),
        create("opset7", "Roll", [x2, const([1]), axes]),
        create("opset1", "Reverse", [x2, axes], {"mode": "index"}),
        create("opset1", "ReverseSequence", [x2, param([2], np.int32)], {"batch_axis": 0, "seq_axis": 1}),
        create("opset1", "ShuffleChannels", [x4], {"axis": 1, "group": 3}),
        create("opset2", "ReorgYolo", [x4], {"stride": [2]}),
        create("opset1", "RegionYolo", [x4], {"coords": 1, "classes": 2, "num": 3, "do_softmax": True,
                                              "mask": [0, 1], "axis": 1, "end_axis": 3,
                                              "anchors": [1.0, 2.0]}),
        create("opset9", "GridSample", [x4, param([1, 2, 2, 2])],
               {"align_corners": True, "mode": "nearest", "padding_mode": "border"}),
        create("opset15", "Col2Im", [param([2, 12, 9]), const([4, 4]), const([2, 2])],
               {"strides": [1, 1], "dilations": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]}),
        create("opset3", "Bucketize", [x2, param([4])], {"output_type": "i32", "with_right_bound": False}),
        create("opset15", "SearchSorted", [param([4]), x2], {"right_mode": True, "output_type": "i32"}),
        create("opset9", "Eye", [const(3), const(4), const(0), const([2])], {"output_type": "f16"}),
        create("opset13", "ScaledDotProductAttention",
               [param([1, 10, 64]), param([1, 12, 64]), param([1, 12, 32]), param([10, 12])],
               {"causal": False}),
    ]
    for kind, opset in (("ReduceMean", "opset1"), ("ReduceMax", "opset1"), ("ReduceMin", "opset1"),
                        ("ReduceSum", "opset1"), ("ReduceProd", "opset1"), ("ReduceL1", "opset4"),
                        ("ReduceL2", "opset4")):
        out.append(create(opset, kind, [x2, axes], {"keep_dims": True}))
    for kind in ("ReduceLogicalAnd", "ReduceLogicalOr"):
        out.append(create("opset1", kind, [b2, axes], {"keep_dims": True}))
    return out


def test_every_attribute_openvino_writes_is_declared(tmp_path):
    nodes = _nodes()
    params = [v.get_node() for n in nodes for v in n.input_values()
              if v.get_node().get_type_name() == "Parameter"]
    path = tmp_path / "attrs.xml"
    unique = list({id(p): p for p in params}.values())
    ov.save_model(ov.Model([n.output(0) for n in nodes], unique), str(path))
    findings = validate_file(str(path)).findings
    assert not [f.message for f in findings if f.code == "IRV108" or f.level == "error"]
