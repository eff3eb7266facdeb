"""The attributes irvalidate declares for the detection, sequence and state ops are exactly
those the runtime's serializer writes (what its reader reads): an attribute missing from a
spec would be warned about (IRV108) on every file the runtime writes."""
import re

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from irvalidate.ops.support.registry import lookup  # noqa: E402
from support import opcheck  # noqa: E402
from support.ovmodels import make, model_of, param  # noqa: E402

I64, F32, I32 = np.int64, np.float32, np.int32
CASES = [
    ("PriorBox", "opset1", [I64, I64], {}), ("PriorBox", "opset8", [I64, I64], {}),
    ("PriorBoxClustered", "opset1", [I64, I64], dict(width=[1.], height=[1.])),
    ("DetectionOutput", "opset1", [F32] * 3, dict(num_classes=2, keep_top_k=[1])),
    ("DetectionOutput", "opset8", [F32] * 3, dict(keep_top_k=[1])),
    ("Proposal", "opset1", [F32] * 3, {}), ("Proposal", "opset4", [F32] * 3, {}),
    ("ROIPooling", "opset2", [F32] * 2, dict(output_roi=[1, 1], spatial_scale=1.0)),
    ("ROIAlign", "opset3", [F32, F32, I32], {}), ("ROIAlign", "opset9", [F32, F32, I32], {}),
    ("PSROIPooling", "opset1", [F32] * 2, dict(mode="average", group_size=1, spatial_scale=1.0,
                                                output_dim=1)),
    ("NonMaxSuppression", "opset1", [F32] * 2, {}), ("NonMaxSuppression", "opset3", [F32] * 2, {}),
    ("NonMaxSuppression", "opset4", [F32] * 2, {}), ("NonMaxSuppression", "opset5", [F32] * 2, {}),
    ("NonMaxSuppression", "opset9", [F32] * 2, {}),
    ("CTCGreedyDecoder", "opset1", [F32] * 2, {}),
    ("CTCGreedyDecoderSeqLen", "opset6", [F32, I32], {}),
    ("CTCLoss", "opset4", [F32, I32, I32, I32], {}),
    ("LSTMCell", "opset1", [F32] * 6, {}), ("LSTMCell", "opset4", [F32] * 6, {}),
    ("GRUCell", "opset3", [F32] * 5, {}), ("RNNCell", "opset1", [F32] * 5, {}),
    ("LSTMSequence", "opset5", [F32, F32, F32, I32, F32, F32, F32], {}),
    ("GRUSequence", "opset5", [F32, F32, I32, F32, F32, F32], {}),
    ("RNNSequence", "opset5", [F32, F32, I32, F32, F32, F32], {}),
    ("ReadValue", "opset3", [F32], dict(variable_id="v")),
]


@pytest.mark.parametrize("type_,opset,ets,attrs", CASES)
def test_declared_attributes_are_the_written_ones(tmp_path, type_, opset, ets, attrs):
    node = make(opset, type_, [param(None, et) for et in ets], attrs, "victim")
    path = opcheck.save(model_of(node), tmp_path)
    data = re.search(r'name="victim"[^>]*>\s*<data ([^>]*)/>', path.read_text())
    written = set(re.findall(r'([\w.]+)="', data.group(1)))
    layer_version = re.search(r'name="victim" type="\w+" version="(\w+)"', path.read_text())
    assert lookup(type_, layer_version.group(1)).attributes == written
