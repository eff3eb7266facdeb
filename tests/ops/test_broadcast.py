"""Broadcast-1 and Broadcast-3 through a layer: the specification's examples, the output as
the target (-1 read as ?), each mode's failures (IRV102), the modes and input counts each
version takes (IRV104, IRV105) and an integer target (IRV106).

The shape rules alone (irvalidate.shapes.broadcasting) are tested in
tests/shapes/test_broadcasting.py and tests/shapes/test_seed_examples.py."""
import pytest
from conftest import codes

from support.irbuilder import IR


def only(findings, code):
    found = [f for f in findings if f.code == code]
    assert len(found) == 1, findings
    return found[0]


def broadcast(data_shape, target, out, mode=None, axes=None, version="opset3", extra=None):
    ir = IR()
    x = ir.parameter(data_shape)
    inputs = [x, ir.const(target)]
    if axes is not None:
        inputs.append(ir.const(axes))
    data = dict(extra or {})
    if mode:
        data["mode"] = mode
    ir.result(ir.op("Broadcast", inputs, [out], data, version=version))
    return ir


@pytest.mark.parametrize("version", ["opset1", "opset3"])
def test_spec_broadcast1_examples_are_valid(run, version):
    assert run(broadcast("16,1,1", [1, 16, 50, 50], [1, 16, 50, 50], "numpy", version=version)) == []
    assert run(broadcast("16", [1, 16, 50, 50], [1, 16, 50, 50], "explicit", [1], version)) == []
    assert run(broadcast("50,50", [1, 50, 50, 16], [1, 50, 50, 16], "explicit", [1, 2], version)) == []


@pytest.mark.parametrize("data,target,mode,axes,fragment", [
    ("3,4", [2, 5, 4], "numpy", None, "cannot be broadcast"),
    ("2,3,4", [3, 4], "numpy", None, "smaller rank"),
    ("3,2", [2, 3, 3], "explicit", [1, 2], "expected 2"),
    ("3", [2, 3, 4], "explicit", [1, 2], "axes_mapping has 2 elements"),
    ("3,4", [2, 3, 4], "explicit", [2, 1], "not sorted"),
    ("3,4", [2, 3, 4], "explicit", [1, 3], "exceeds the target rank"),
    ("4,3,2", [8, 6, 4], "bidirectional", None, "expecting 1 or 4"),
    ("3", [2, 3, 4], "pdpd", None, "does not reach"),
])
def test_broadcast_failures(run, data, target, mode, axes, fragment):
    extra = {"mode.mode.axis": "1"} if mode == "pdpd" else None
    out = [1] * len(target)
    f = only(run(broadcast(data, target, out, mode, axes, extra=extra)), "IRV102")
    assert fragment in f.message and f.layer.type == "Broadcast"


def test_broadcast_numpy_output_is_the_target(run):
    # data [3,1] to target [2,3,6]: the output is the target, never refined by the data
    ir = broadcast("3,1", [2, 3, 6], [2, 3, 7], "numpy")
    f = only(run(ir), "IRV101")
    assert f.expected == "[2,3,6]"


def test_broadcast_target_minus_one_is_dynamic(run):
    assert run(broadcast("3", [2, -1, 3], [2, -1, 3], "numpy")) == []


def test_bidirectional_is_illegal_for_broadcast1_but_legal_for_broadcast3(run):
    for version, expected in (("opset1", ["IRV104"]), ("opset3", [])):
        ir = IR()
        x = ir.parameter("3,1")
        ir.result(ir.op("Broadcast", [x, ir.const([2, 1, 4])], [[2, 3, 4]],
                        {"mode": "bidirectional"}, version=version))
        assert codes(run(ir)) == expected, version


@pytest.mark.parametrize("mode,count,ok", [("numpy", 3, False), ("explicit", 2, False),
                                          ("bidirectional", 2, True)])
def test_broadcast3_input_count_per_mode(run, mode, count, ok):
    ir = IR()
    x = ir.parameter("3")
    inputs = [x, ir.const([2, 3])] + ([ir.const([1])] if count == 3 else [])
    ir.result(ir.op("Broadcast", inputs, [[2, 3]], {"mode": mode}, version="opset3"))
    assert codes(run(ir)) == ([] if ok else ["IRV105"])


def test_broadcast1_explicit_with_two_inputs_becomes_numpy(run):
    ir = IR()
    x = ir.parameter("3")
    ir.result(ir.op("Broadcast", [x, ir.const([2, 3])], [[2, 3]], {"mode": "explicit"}))
    assert run(ir) == []


def test_broadcast_target_must_be_integer(run):
    ir = IR()
    x = ir.parameter("3")
    target = ir.parameter("2", "f32")
    ir.result(ir.op("Broadcast", [x, target], [[-1, -1]], {"mode": "numpy"}, version="opset3"))
    assert codes(run(ir)) == ["IRV106"]
