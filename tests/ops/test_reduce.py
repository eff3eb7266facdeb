"""The Reduce family against the runtime: the note's cases on all nine ops, random ones,
value evaluation in shape subgraphs, refusals, stale dims and numpy's reduction shapes."""
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

ov = pytest.importorskip("openvino")
from openvino import opset13 as o  # noqa: E402

from irvalidate.ops.support.spec import Value  # noqa: E402
from irvalidate.shapes.values import Origin, constant  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    create,
    dims,
    errors_naming as _errors,
    expect_refusal,
    infer,
    model,
    param,
    random_shape,
)

ARITHMETIC = ["ReduceMean", "ReduceMax", "ReduceMin", "ReduceSum", "ReduceProd", "ReduceL1",
              "ReduceL2"]
LOGICAL = ["ReduceLogicalAnd", "ReduceLogicalOr"]
ALL = ARITHMETIC + LOGICAL


def _opset(kind):
    return "opset4" if kind in ("ReduceL1", "ReduceL2") else "opset1"


def family(data_spec, make_axes, keep_dims, kinds=ALL):
    """One model: every Reduce type of ``kinds`` over the same data shape and axes."""
    x = param(data_spec, np.float32, "x")
    b = param(data_spec, bool, "b")
    params, outs = [x, b], []
    for kind in kinds:
        axes, extra = make_axes(x)
        params += extra
        outs.append(create(_opset(kind), kind, [b if kind in LOGICAL else x, axes],
                           {"keep_dims": keep_dims}, name=kind))
    return model(outs, params)


def c(values):
    return lambda x: (o.constant(np.array(values, dtype=np.int64)), [])


def p(axes_spec):
    def make(x):
        axes = param(axes_spec, np.int64)
        return axes, [axes]
    return make


def gather_dim(shape_spec, index):
    """Gather(ShapeOf(y), [index]) of another Parameter: exact when that dim is static."""
    def make(x):
        y = param(shape_spec, np.float32)
        return o.gather(o.shape_of(y), o.constant(np.array([index])), o.constant(0)), [y]
    return make


def scalar_dim(shape_spec, index, et=np.int64):
    """Gather(ShapeOf(y), index) as a scalar, converted to ``et``: exact when that dim is."""
    def make(x):
        y = param(shape_spec, np.float32)
        value = o.gather(o.shape_of(y), o.constant(index), o.constant(0))
        return (value if et == np.int64 else o.convert(value, et)), [y]
    return make


def range_of_first_dim(x):
    return o.range(o.constant(0), o.gather(o.shape_of(x), o.constant(0), o.constant(0)),
                   o.constant(1), "i64"), []


@pytest.mark.parametrize("data,axes", [
    ([2, 3, 4], c([1])), ([2, 3, 4], c([0, 2])), ([2, 3, 4], c([-1])), ([2, 3, 4], c([2, -1])),
    ([2, 3, 4], c([])), ([2, 3, 4], c(1)), ([2, 3, 4], c([0, 1, 2])), ([5], c(0)), ([], c([])),
    ([(1, 8), -1, 4], c([0])), ([0, 3], c([0])), (None, c([0])), ([2, 3, 4], p([1])),
    ([2, 3, 4], p([])), ([2, 3, 4], p([2])), ([2, 3, 4], p([-1])), ([], p([1])),
    (None, p([1])), ([2, 3, 4], gather_dim([1, -1], 0)), ([2, 3, 4], gather_dim([1, -1], 1)),
    ([2, 3, 4], range_of_first_dim), ([(2, 5), 3], c([-2])), ([2, 3, 4], scalar_dim([2, -1], 0)),
    ([2, 3, 4], scalar_dim([(1, 2), 2], 0)), ([2, 3, 4], scalar_dim([1, 2], 1, np.int32)),
    ([2, 3, 4], scalar_dim([1, 2], 1, np.uint8)),
])
@pytest.mark.parametrize("keep_dims", [False, True])
def test_the_runtime_cases(tmp_path, data, axes, keep_dims):
    opcheck.compare(family(data, axes, keep_dims), tmp_path, ALL)


def test_a_scalar_reduced_without_keep_dims(tmp_path):
    opcheck.compare(family([], c([0]), False), tmp_path, ALL)
    opcheck.compare(family([], c(-1), False), tmp_path, ALL, stem="neg")


def test_a_missing_keep_dims_is_false(run):
    ir = IR()
    x = ir.parameter("2,3")
    ir.result(ir.op("ReduceMean", [x, ir.const([0])], [[3]]))
    assert not [f for f in run(ir) if f.level == "error"]


def test_random_reductions_match_the_runtime(tmp_path):
    rng = random.Random(11)
    for n in range(70):
        data = random_shape(rng, 0, 5, dynamic_rank=0.08)
        rank = max(len(data), 1) if data is not None else 4
        roll = rng.random()
        if roll < 0.7:
            count = rng.randint(0, min(rank, 3))
            values = [rng.randrange(-rank, rank) for _ in range(count)]
            axes = c(values[0] if count == 1 and rng.random() < 0.3 else values)
        else:
            values, axes = [], p(rng.choice([[1], [], [2], [-1]]))
        keep = rng.random() < 0.5 and not (data == [] and values)  # refused: tested below
        opcheck.compare(family(data, axes, keep), tmp_path, ALL, stem=f"m{n}")


# ------------------------------------------------------------------------------ values


def _target(make_value, kind, axes, keep_dims, x_spec):
    """Broadcast(1, Reshape(Reduce(value), [-1])): a target the runtime bound-evaluates."""
    x = param(x_spec, np.float32, "x")
    value = make_value(x)
    reduced = create(_opset(kind), kind, [value, o.constant(np.array(axes, dtype=np.int64))],
                     {"keep_dims": keep_dims}, name="reduce")
    target = o.reshape(reduced, o.constant(np.array([-1])), False)
    return model([o.broadcast(o.constant(np.float32(1)), target, name="bcast")], [x])


def _shape_of(et="i64"):
    return lambda x: o.shape_of(x, et)


def _two_rows(x):
    """A 2-D value [[d0, d1], [d2, d0]]."""
    s = o.shape_of(x)
    return o.reshape(o.gather(s, o.constant(np.array([0, 1, 2, 0])), o.constant(0)),
                     o.constant(np.array([2, 2])), False)


VALUE_SHAPES = [[2, 3, 4], [(2, 5), 3, 7], [-1, 3, (1, 6)], [4, (0, 3), 2], [6, 2, 2]]


@pytest.mark.parametrize("kind", ["ReduceMax", "ReduceMin", "ReduceSum", "ReduceMean",
                                  "ReduceL1", "ReduceL2", "ReduceProd"])
@pytest.mark.parametrize("x_spec", VALUE_SHAPES)
def test_reduced_shape_values_match_the_runtime(tmp_path, kind, x_spec):
    opcheck.compare(_target(_shape_of(), kind, [0], True, x_spec), tmp_path, ["Broadcast", kind])
    opcheck.compare(_target(_shape_of("i32"), kind, [0], False, x_spec), tmp_path,
                    ["Broadcast", kind], stem="i32")


@pytest.mark.parametrize("kind", ["ReduceMax", "ReduceMin", "ReduceSum", "ReduceMean"])
@pytest.mark.parametrize("axes,keep", [([0], True), ([1], False), ([-1], True), ([0, 1], True)])
def test_two_dimensional_values_match_the_runtime(tmp_path, kind, axes, keep):
    for n, x_spec in enumerate(VALUE_SHAPES):
        opcheck.compare(_target(_two_rows, kind, axes, keep, x_spec), tmp_path,
                        ["Broadcast", kind], stem=f"v{n}")


def test_max_of_an_unbounded_dim_is_unbounded_above(tmp_path):
    path = opcheck.compare(_target(_shape_of(), "ReduceMax", [0], True, [-1, 3]), tmp_path,
                           ["Broadcast"])
    assert opcheck.runtime_shapes(path)["bcast"] == ["[3..]"]


# ------------------------------------------------------------------------------ refusals



@pytest.mark.parametrize("kind,data_et,axes,axes_et,words", [
    ("ReduceMean", "boolean", [1], "i64", "must be numeric"),
    ("ReduceLogicalOr", "f32", [1], "i64", "must be boolean"),
    ("ReduceSum", "f32", [3], "i64", "out of the range [-3, 2]"),
    ("ReduceMax", "f32", [-4], "i32", "out of the range [-3, 2]"),
])
def test_what_the_runtime_refuses(tmp_path, kind, data_et, axes, axes_et, words):
    ir = IR()
    x = ir.parameter("2,3,4", data_et)
    ir.result(ir.op(kind, [x, ir.const(axes, axes_et)], [[2, 3]], {"keep_dims": "false"},
                    version=_opset(kind), name="op"))
    expect_refusal(ir, tmp_path, words)


def test_float_and_two_dimensional_axes_are_refused(tmp_path):
    for n, (shape, et, words) in enumerate([([1], "f32", "integer"),
                                            ([1, 1], "i64", "scalar or 1-D")]):
        ir = IR()
        x = ir.parameter("2,3")
        axes = ir.parameter(",".join(map(str, shape)), et)
        ir.result(ir.op("ReduceSum", [x, axes], [[-1]], name="op"))
        expect_refusal(ir, tmp_path, words, stem=f"m{n}")


def test_keep_dims_on_a_scalar_is_refused(tmp_path):
    assert opcheck.refused(lambda: family([], c([0]), True, ["ReduceMean"]), tmp_path)
    ir = IR()
    x = ir.parameter("")
    ir.result(ir.op("ReduceMean", [x, ir.const([0])], [[]], {"keep_dims": "true"}, name="op"))
    assert any("keep_dims on a scalar" in f.message for f in _errors(ir.write(tmp_path)))


def test_wrong_input_count(tmp_path):
    ir = IR()
    x = ir.parameter("2,3")
    ir.result(ir.op("ReduceMean", [x], [[2, 3]], name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")


def test_a_stale_declared_dim_names_the_reduction(tmp_path):
    path = opcheck.compare(family([2, 3, 4], c([1]), True, ["ReduceMean"]), tmp_path,
                           ["ReduceMean"])
    assert opcheck.named(opcheck.mutate(path, "ReduceMean", 0, 1, 3), "ReduceMean")
    path = opcheck.compare(family([2, 3, 4], c([1]), False, ["ReduceSum"]), tmp_path,
                           ["ReduceSum"], stem="sum")
    assert opcheck.named(opcheck.mutate(path, "ReduceSum", 0, 1, 5), "ReduceSum")


# ------------------------------------------------------------------------------ properties


@settings(max_examples=200, deadline=None)
@given(shape=st.lists(st.integers(0, 4), max_size=5), data=st.data(), keep=st.booleans())
def test_reduction_shapes_are_numpy_s(shape, data, keep):
    rank = len(shape)
    axes = data.draw(st.lists(st.integers(-max(rank, 1), max(rank, 1) - 1), max_size=4))
    if rank == 0 and axes and keep:
        return  # refused (tested above)
    axes_value = constant(axes, [len(axes)], "i64", Origin("axes"))
    result, _ = infer("ReduceSum", "opset1",
                      [Value(dims(shape), "f32"), Value(dims([len(axes)]), "i64", None, axes_value)],
                      {"keep_dims": str(keep).lower()})
    where = tuple(sorted({a % rank for a in axes})) if rank else ()
    expected = np.sum(np.zeros(shape), axis=where, keepdims=keep).shape
    assert result.shapes[0] == dims(list(expected))
