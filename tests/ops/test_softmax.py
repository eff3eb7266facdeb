"""Softmax-1/-8 and LogSoftmax-5 against the runtime: the notes' cases, random ones, refusals,
the SoftMax spelling, and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    create,
    errors_naming as _errors,
    expect_refusal,
    model,
    param,
    random_shape,
)

VERSIONS = [("opset1", "Softmax"), ("opset8", "Softmax"), ("opset5", "LogSoftmax")]


def softmax(opset, kind, data, axis, et=np.float32):
    x = param(data, et, "x")
    return model([create(opset, kind, [x], {"axis": axis}, name="op")], [x])


@pytest.mark.parametrize("opset,kind", VERSIONS)
@pytest.mark.parametrize("data,axis", [
    ([2, 3, 4], 1), ([2, 3, 4], 0), ([2, 3, 4], 2), ([(1, 2), -1], 0), (None, 9), ([], 0),
    ([5], 0), ([2, 3], 1),
])
def test_the_runtime_cases(tmp_path, opset, kind, data, axis):
    opcheck.compare(softmax(opset, kind, data, axis), tmp_path, [kind])


@pytest.mark.parametrize("opset,kind", VERSIONS[1:])
@pytest.mark.parametrize("data,axis", [([2, 3, 4], -1), ([2, 3, 4], -3), ([], -1)])
def test_negative_axes(tmp_path, opset, kind, data, axis):
    opcheck.compare(softmax(opset, kind, data, axis), tmp_path, [kind])


@pytest.mark.parametrize("et", [np.int32, bool])
def test_any_element_type(tmp_path, et):
    for opset, kind in VERSIONS:
        opcheck.compare(softmax(opset, kind, [2, 3], 1, et), tmp_path, [kind], stem=opset)


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(5)
    for n in range(60):
        opset, kind = rng.choice(VERSIONS)
        data = random_shape(rng, 0, 5)
        rank = max(len(data), 1) if data is not None else 6
        axis = rng.randrange(0 if opset == "opset1" else -rank, rank)
        opcheck.compare(softmax(opset, kind, data, axis), tmp_path, [kind], stem=f"m{n}")


def _ir(kind, version, data, axis):
    ir = IR()
    attrs = {} if axis is None else {"axis": str(axis)}
    declared = [int(d) for d in data.split(",")] if data else []
    ir.result(ir.op(kind, [ir.parameter(data)], [declared], attrs, version=version, name="op"))
    return ir



@pytest.mark.parametrize("kind,version,data,axis,words", [
    ("Softmax", "opset1", "2,3,4", 3, "takes 0 to 2"),
    ("Softmax", "opset1", "2,3,4", -1, "read as unsigned"),
    ("Softmax", "opset1", "", 1, "takes 0 to 0"),
    ("SoftMax", "opset1", "2,3,4", 3, "takes 0 to 2"),
    ("Softmax", "opset8", "2,3,4", -4, "out of the range [-3, 2]"),
    ("softmax", "opset8", "", 1, "out of the range [-1, 0]"),
    ("LogSoftmax", "opset5", "2,3,4", 3, "out of the range [-3, 2]"),
    ("Softmax", "opset8", "5", None, "out of the range [-1, 0]"),  # a missing axis is 1 there
    ("LogSoftmax", "opset5", "", None, "out of the range [-1, 0]"),
])
def test_what_the_runtime_refuses(tmp_path, kind, version, data, axis, words):
    expect_refusal(_ir(kind, version, data, axis), tmp_path, words)


def test_a_missing_axis_is_0_in_softmax_1(tmp_path):
    for n, data in enumerate(("", "5")):
        path = _ir("Softmax", "opset1", data, None).write(tmp_path, stem=f"m{n}")
        ov.Core().read_model(str(path))
        assert not _errors(path)


@pytest.mark.parametrize("kind,version", [("SoftMax", "opset1"), ("softmax", "opset8"),
                                          ("Softmax", "opset1"), ("LogSoftmax", "opset5")])
def test_spellings_and_a_missing_axis(tmp_path, kind, version):
    for n, axis in enumerate((None, 2)):
        path = _ir(kind, version, "2,3,4", axis).write(tmp_path, stem=f"m{n}")
        ov.Core().read_model(str(path))
        assert not _errors(path)
        assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 5), "op")


def test_wrong_input_count(tmp_path):
    ir = IR()
    ir.result(ir.op("Softmax", [ir.parameter("2,3"), ir.parameter("3")], [[2, 3]], name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")
