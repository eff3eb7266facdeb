"""IRV109 static-dim-declared: a declared number where the runtime infers ``?`` or an interval.

The warning is only as good as the inference under it: where irvalidate could not evaluate a
value the runtime may have evaluated (a Broadcast target computed through an op whose values
irvalidate does not follow), its ``?`` may be wider than the runtime's, and then it claims
nothing, and --fix writes no -1.
"""
import numpy as np
import pytest

import irvalidate
from support.irbuilder import IR

ov = pytest.importorskip("openvino")
import openvino.opset13 as ops  # noqa: E402

from support.opcheck import runtime_shapes, save  # noqa: E402


def test_a_static_dim_inside_an_interval_is_a_warning(run):
    ir = IR()
    x = ir.parameter("2..6,3")
    ir.result(ir.op("Relu", [x], [[4, 3]]))
    [f] = run(ir)
    assert (f.code, f.level, f.expected, f.declared) == ("IRV109", "warning", "[2..6,3]", "[4,3]")


@pytest.mark.parametrize("shape,declared", [("3,2..6", [3, 4]), ("3,5,?", [3, 5, 7])])
def test_an_interval_past_a_static_axis_is_found(run, shape, declared):
    # (a port inferred static on every axis is passed over without reading its dims)
    ir = IR()
    x = ir.parameter(shape)
    ir.result(ir.op("Relu", [x], [declared]))
    [f] = run(ir)
    assert (f.code, f.expected, f.table.marks) == ("IRV109", f"[{shape}]", (len(declared) - 1,))


def test_dynamic_where_declared_dynamic_is_quiet(run):
    ir = IR()
    x = ir.parameter("2..6,3")
    ir.result(ir.op("Relu", [x], [[-1, 3]]))
    assert run(ir) == []


def _target_through(make, tmp_path):
    """Broadcast of a scalar to ``make(ShapeOf(x))``, x static [2,3]: the runtime knows the
    target exactly when it bound-evaluates ``make``."""
    x = ops.parameter([2, 3], np.float32, name="x")
    target = make(ops.shape_of(x))
    out = ops.broadcast(ops.constant(np.float32(1.0)), target, name="B")
    return save(ov.Model([out], [x]), tmp_path)


class Unevaluated:
    """A stand-in for an op whose values irvalidate does not follow but the runtime does:
    found among the ops of the current registry, so the test outlives new evaluations."""

    CANDIDATES = {
        "FloorMod": lambda s: ops.floor_mod(s, ops.constant(np.array([7, 7], dtype=np.int64))),
        "Mod": lambda s: ops.mod(s, ops.constant(np.array([7, 7], dtype=np.int64))),
        "Power": lambda s: ops.power(s, ops.constant(np.array([1, 1], dtype=np.int64))),
    }

    @classmethod
    def pick(cls, tmp_path):
        from irvalidate.ops.support.registry import lookup
        for name, make in cls.CANDIDATES.items():
            spec = lookup(name, "opset1")
            if spec is None or spec.evaluate is None:
                return name, make
        pytest.skip("every candidate op is evaluated now: add one that is not")


def test_a_dim_irvalidate_cannot_evaluate_gives_no_warning_and_no_fix(tmp_path):
    name, make = Unevaluated.pick(tmp_path)
    path = _target_through(make, tmp_path)
    assert runtime_shapes(path)["B"] == ["[2,3]"], name  # the runtime evaluates it
    report = irvalidate.validate(path)
    assert [f.rule for f in report.files[0].findings] == []
    assert irvalidate.fix(path) == []
