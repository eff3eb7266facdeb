"""IRV107 spec-runtime-divergence: both readings are named."""
from conftest import codes

from support.irbuilder import IR


def pdpd(a, b, axis=None):
    ir = IR()
    x, y = ir.parameter(a), ir.parameter(b)
    data = {"auto_broadcast": "pdpd"}
    if axis is not None:
        data["auto_broadcast.auto_broadcast_axis"] = axis
    ir.result(ir.op("Add", [x, y], [[int(d) for d in a.split(",")]], data))
    return ir


def test_pdpd_without_axis_runtime_rejects_spec_accepts(run):
    findings = run(pdpd("2,3,4,5", "5"))
    assert codes(findings) == ["IRV102", "IRV107"]
    [w] = [f for f in findings if f.code == "IRV107"]
    assert w.level == "warning" and "runtime reads as 0" in w.message
    assert "rejects" in w.message and "specification accepts" in w.message


def test_pdpd_with_explicit_axis_has_no_divergence(run):
    assert run(pdpd("2,3,4,5", "5", "-1")) == []


def test_pdpd_trailing_ones(run):
    # the document strips B's trailing 1s: [3,1] at axis 1 is fine by both readings, but
    # [4,5,1] at axis 2 fits only once its trailing 1 is dropped; the runtime refuses it
    assert run(pdpd("2,3,4,5", "3,1", "1")) == []
    findings = run(pdpd("2,3,4,5", "4,5,1", "2"))
    assert [f.code for f in findings] == ["IRV102", "IRV107"]
    assert "trailing 1s" in findings[1].message


def test_interval_leniency_warns(run):
    ir = IR()
    x, y = ir.parameter("1..8"), ir.parameter("10")
    ir.result(ir.op("Add", [x, y], [[10]]))
    [w] = run(ir)
    assert w.code == "IRV107" and "1..8" in w.message and "10" in w.message


def test_dynamic_dim_against_static_is_not_leniency(run):
    ir = IR()
    x, y = ir.parameter("?"), ir.parameter("10")
    ir.result(ir.op("Add", [x, y], [[10]]))
    assert run(ir) == []
