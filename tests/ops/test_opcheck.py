"""The differential helpers themselves: a check that finds nothing to compare must fail."""
import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402

from support import opcheck  # noqa: E402


def _relu_model() -> "ov.Model":
    x = opset1.parameter([2, 3], np.float32, name="x")
    relu = opset1.relu(x)
    relu.set_friendly_name("relu")
    return ov.Model([relu], [x], "m")


def test_compare_types_checks_the_layers_it_is_given(tmp_path):
    opcheck.compare_types(opcheck.save(_relu_model(), tmp_path), ["Relu"])


def test_compare_types_fails_when_no_layer_has_the_type(tmp_path):
    path = opcheck.save(_relu_model(), tmp_path)
    with pytest.raises(AssertionError, match="no layer of"):
        opcheck.compare_types(path, ["Convolution"])


def test_compare_fails_when_no_layer_has_the_type(tmp_path):
    with pytest.raises(AssertionError, match="no layer of"):
        opcheck.compare(_relu_model(), tmp_path, ["Convolution"])
