"""The attributes ov.save_model writes for the FFT, colour, STFT, random, normalisation,
scatter, segment, string and matrix ops are the ones irvalidate declares: no unknown-attribute
warning (IRV108) and no error on what the serializer writes."""
import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.shapeops import const, model, param  # noqa: E402

P = param
BUILDS = {
    "DFT": lambda: ("opset9", [P([2, 4, 2]), const([1])], {}),
    "NV12toRGB": lambda: ("opset8", [P([1, 6, 4, 1], np.uint8)], {}),
    "RGBtoNV12": lambda: ("opset17", [P([1, 4, 4, 3], np.uint8)], {"single_plane": False}),
    "STFT": lambda: ("opset16", [P([2, 48]), P([16]), const(16), const(4)], {"transpose_frames": True}),
    "ISTFT": lambda: ("opset16", [P([9, 13, 2]), P([16]), const(16), const(4)], {"center": True}),
    "Inverse": lambda: ("opset14", [P([3, 3])], {"adjoint": True}),
    "RandomUniform": lambda: ("opset8", [const([2, 3]), const(0.0, np.float32), const(1.0, np.float32)],
                              {"output_type": "f32", "op_seed": 3, "global_seed": 2}),
    "Multinomial": lambda: ("opset13", [P([2, 5]), const(3)], {"convert_type": "i32", "log_probs": True}),
    "FakeConvert": lambda: ("opset13", [P([2, 3]), P([1])], {"destination_type": "f8e5m2"}),
    "ConvertPromoteTypes": lambda: ("opset14", [P([2]), P([2])], {"promote_unsafe": True}),
    "GroupNormalization": lambda: ("opset12", [P([2, 6]), P([6]), P([6])], {"num_groups": 3, "epsilon": 1e-5}),
    "SliceScatter": lambda: ("opset15", [P([4, 5]), P([2, 5]), const([0]), const([2]), const([1])], {}),
    "SegmentMax": lambda: ("opset16", [P([6, 3]), const([0, 0, 1, 1, 3, 3])], {"fill_mode": "LOWEST"}),
    "SparseFillEmptyRows": lambda: ("opset16", [P([3]), const([4, 5]), const([[0, 1], [0, 3], [2, 0]]), P([])], {}),
    "StringTensorPack": lambda: ("opset15", [P([2], np.int32), P([2], np.int32), P([5], np.uint8)], {}),
    "StringTensorUnpack": lambda: ("opset15", [opset1.parameter([2], ov.Type.string, name="s")], {}),
    "GatherTree": lambda: ("opset1", [P([5, 2, 3]), P([5, 2, 3]), P([2]), P([])], {}),
    "GroupedMatMul": lambda: ("opset17", [P([4, 8, 16]), P([4, 32, 16])], {}),
    "Identity": lambda: ("opset16", [P([2])], {}),
    "ErfInv": lambda: ("opset17", [P([2])], {}),
}


@pytest.mark.parametrize("kind", sorted(BUILDS))
def test_what_the_serializer_writes_is_read_without_warnings(tmp_path, kind):
    opset, inputs, attrs = BUILDS[kind]()
    node = NodeFactory(opset).create(kind, inputs, attrs)
    params = [i.get_node() for i in node.input_values() if i.get_node().get_type_name() == "Parameter"]
    path = opcheck.compare(model(node, params), tmp_path, [kind])
    found = [f"{f.code} {f.message}" for f in validate_file(str(path)).findings
             if f.code == "IRV108" or f.level == "error"]
    assert found == []
