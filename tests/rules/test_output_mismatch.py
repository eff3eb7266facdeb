"""IRV101 output-shape-mismatch and IRV103 dynamic-dim-declared."""
import pytest
from conftest import codes

from support.irbuilder import IR


def add_model(out, a="2,1,5", b="4,1", mode=None, name="add"):
    ir = IR()
    x, y = ir.parameter(a), ir.parameter(b)
    data = {"auto_broadcast": mode} if mode else {}
    ir.result(ir.op("Add", [x, y], [out], data, name=name))
    return ir


def test_valid_numpy_output_is_quiet(run):
    assert run(add_model([2, 4, 5])) == []


def test_wrong_dim_is_error_naming_layer_port_and_shapes(run):
    ir = add_model([2, 4, 6])
    [f] = run(ir)
    assert (f.code, f.slug, f.level) == ("IRV101", "output-shape-mismatch", "error")
    assert f.layer.id == "2" and f.layer.name == "add" and f.layer.type == "Add"
    assert f.port == "2" and f.expected == "[2,4,5]" and f.declared == "[2,4,6]"
    assert f.table.marks == (2,)
    assert [r.label for r in f.table.rows] == ["A", "B", "Result", "Declared"]
    assert ir.line_of("2") < f.line  # the output port's own line


def test_wrong_rank_is_error(run):
    [f] = run(add_model([4, 5]))
    assert f.code == "IRV101" and "rank 2" in f.message


def test_declared_scalar_where_inference_gives_rank_3(run):
    assert codes(run(add_model([]))) == ["IRV101"]



def test_declared_static_inside_inferred_interval_is_not_a_contradiction(run):
    # [1..8] + [1] -> 1..8; a declared 4 lies inside the interval (not provable wrong), but
    # promises a value the model does not guarantee: IRV109's warning, not IRV101's error
    [f] = run(add_model([4], a="1..8", b="1"))
    assert (f.code, f.level, f.expected) == ("IRV109", "warning", "[1..8]")


def test_declared_static_outside_inferred_interval_is_error(run):
    [f] = run(add_model([9], a="1..8", b="1"))
    assert f.code == "IRV101" and f.expected == "[1..8]"


def test_dynamic_declared_where_static_inferred_is_warning(run):
    [f] = run(add_model([2, -1, 5]))
    assert (f.code, f.level) == ("IRV103", "warning") and f.table.marks == (1,)


@pytest.mark.parametrize("out,axis", [([-1, 4, 5], 0), ([2, 4, -1], 2), ([-1, -1, 5], None)])
def test_dynamic_declared_on_any_axis_is_found(run, out, axis):
    # (a port declaring no -1 is passed over without reading its dims one by one)
    [f] = run(add_model(out))
    assert f.code == "IRV103" and f.table.marks == ((0, 1) if axis is None else (axis,))


def test_dynamic_declared_where_dynamic_inferred_is_quiet(run):
    assert run(add_model([2, -1, 5], a="2,?,5", b="5")) == []


@pytest.mark.parametrize("op", ["Relu", "Sigmoid", "Convert"])
def test_shape_preserving_ops_propagate_and_are_checked(run, op):
    ir = IR()
    x = ir.parameter("2,3")
    ir.result(ir.op(op, [x], [[2, 4]], {"destination_type": "f32"} if op == "Convert" else {}))
    [f] = run(ir)
    assert f.code == "IRV101" and f.layer.type == op


def test_dynamic_rank_input_makes_any_declaration_consistent(run):
    ir = IR()
    x, y = ir.parameter("..."), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[]]))
    assert run(ir) == []


def test_dimless_output_of_unmodelled_layer_is_scalar_by_default(run):
    # ReduceMean to a scalar (no <dim>), then Add with [2,3]: the Add must give [2,3]
    ir = IR()
    x, y = ir.parameter("4"), ir.parameter("2,3")
    axes = ir.const([0])
    mean = ir.op("ReduceMean", [x, axes], [[]], {"keep_dims": "false"})
    ir.result(ir.op("Add", [mean, y], [[2, 4]]))
    assert [f.code for f in run(ir)] == ["IRV101"]


def test_dimless_output_of_reshape_with_unknown_length_target_is_dynamic_rank(run):
    # Reshape's target is i64[?]: its output rank is unknown, written without <dim>
    ir = IR()
    x, target = ir.parameter("4"), ir.parameter("?", "i64")
    reshaped = ir.op("Reshape", [x, target], [[]], {"special_zero": "false"})
    y = ir.parameter("4,1")
    ir.result(ir.op("Add", [reshaped, y], [[]]))
    assert run(ir) == []
