"""The embedding bags (EmbeddingBagOffsetsSum/-Offsets, EmbeddingBagPackedSum/-Packed,
EmbeddingSegmentsSum) against the runtime: the notes' cases, computed num_segments, random
configurations (compared, or refused on both sides), refusals, defaults and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import both_ways, const, model, param, refusal, shape_text  # noqa: E402

_ET = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i64": np.int64, "u8": np.uint8}
#: (type, opset, the layer's inputs in order)
OFFSETS = ("EmbeddingBagOffsetsSum", 3)
OFFSETS15 = ("EmbeddingBagOffsets", 15)
PACKED = ("EmbeddingBagPackedSum", 3)
PACKED15 = ("EmbeddingBagPacked", 15)
SEGMENTS = ("EmbeddingSegmentsSum", 3)


def _input(spec, params):
    """``(shape, et)`` a Parameter; ``("c", value, et)`` a Const; ``("computed", dim)`` a scalar
    Squeeze(Gather(ShapeOf(x[dim]), [0])), ``("computed-", dim, k)`` the same minus k."""
    if spec[0] == "c":
        return const(spec[1], _ET[spec[2]])
    if spec[0] in ("computed", "computed-"):
        from openvino import opset8
        x = param([spec[1], 3])
        params.append(x)
        value = opset8.squeeze(opset8.gather(opset8.shape_of(x), const([0]), const(0)), const([0]))
        return value if spec[0] == "computed" else opset8.subtract(value, const(spec[2]))
    params.append(param(spec[0], _ET[spec[1]]))
    return params[-1]


def bag(op, inputs, attrs=None):
    params = []
    nodes = [_input(s, params) for s in inputs]
    node = NodeFactory(f"opset{op[1]}").create(op[0], nodes, attrs or {})
    node.set_friendly_name("bag")
    return model(node, params)


def bag_ir(op, inputs, attrs=None, version=None):
    """The same layer written by hand (irbuilder), for what openvino will not build."""
    def build():
        ir = IR()
        refs = []
        for s in inputs:
            if s[0] == "c":
                value = s[1] if isinstance(s[1], list) else [s[1]]
                refs.append(ir.const(value, s[2], shape=[len(value)] if isinstance(s[1], list) else []))
            else:
                refs.append(ir.parameter(shape_text(s[0]), s[1]))
        ir.result(ir.op(op[0], refs, [[9]], attrs or {}, version=version or f"opset{op[1]}", name="bag"))
        return ir
    return build


T, I, L = ([10, 4], "f32"), ([6], "i64"), ([3], "i64")


@pytest.mark.parametrize("op", [OFFSETS, OFFSETS15])
@pytest.mark.parametrize("inputs", [
    [T, I, L], [T, I, L, ([], "i64")], [T, I, L, ([], "i64"), ([6], "f32")],
    [([10, 4, 5], "f32"), ([6], "i32"), ([3], "i32")], [([10], "f32"), I, L],
    [([-1, (2, 8)], "f32"), ([-1], "i64"), ([(2, 5)], "i64")], [(None, "f32"), (None, "i64"), (None, "i64")],
    [T, I, (None, "i64")], [T, (None, "i64"), ([(2, 5)], "i64"), (None, "i64"), ([(3, 9)], "f32")],
    [T, ([(1, 6)], "i64"), L, ([], "i64"), ([(4, 9)], "f32")], [([10, 4], "f16"), I, L, ([], "i64"), ([6], "f16")],
    [([10, 4], "i32"), I, L], [(None, "f32"), I, ([(0, 3)], "i64")], [T, I, L, ("c", 0, "i64")],
])
def test_offsets_runtime_cases(tmp_path, op, inputs):
    opcheck.compare(bag(op, inputs), tmp_path, [op[0]])


def test_offsets_15_mean_and_sum(tmp_path):
    opcheck.compare(bag(OFFSETS15, [T, I, L, ([], "i64")], {"reduction": "mean"}), tmp_path, [OFFSETS15[0]])
    opcheck.compare(bag(OFFSETS15, [T, I, L, ([], "i64"), ([6], "f32")], {"reduction": "sum"}), tmp_path,
                    [OFFSETS15[0]], stem="sum")


@pytest.mark.parametrize("op", [PACKED, PACKED15])
@pytest.mark.parametrize("inputs", [
    [T, ([3, 2], "i64")], [T, ([3, 2], "i64"), ([3, 2], "f32")], [([10, 4, 5], "f32"), ([3, 2], "i32")],
    [([10], "f32"), ([3, 2], "i64")], [([-1, (2, 8)], "f32"), ([(2, 5), -1], "i64")],
    [T, ([-1, 2], "i64"), ([(1, 4), (2, 3)], "f32")], [T, ([(2, 6), 2], "i64"), ([(1, 4), (2, 3)], "f32")],
    [T, (None, "i64"), ([3, 2], "f32")], [(None, "f32"), (None, "i64")], [(None, "f32"), ([3, 2], "i64"), (None, "f32")],
    [([(2, 8), 4, 5], "f32"), (None, "i64"), (None, "f32")], [T, ([0, 2], "i64")],
])
def test_packed_runtime_cases(tmp_path, op, inputs):
    opcheck.compare(bag(op, inputs), tmp_path, [op[0]])


S6 = ([6], "i64")


@pytest.mark.parametrize("inputs", [
    [T, S6, S6, ("c", 5, "i64")], [([10, 4, 2], "f32"), S6, S6, ("c", 5, "i64")], [([10], "f32"), S6, S6, ("c", 5, "i64")],
    [T, S6, S6, ("c", 0, "i64")], [T, S6, S6, ("c", -1, "i64")], [T, S6, S6, ("c", -3, "i64")],
    [T, S6, S6, ([], "i64")], [T, S6, S6, (None, "i64")], [T, S6, S6, ("computed", (2, 7))],
    [T, S6, S6, ("computed", 7)], [T, S6, S6, ("computed", -1)], [T, S6, S6, ("computed-", (2, 7), 1)],
    [([(5, 10), -1], "f32"), (None, "i64"), ([(2, 8)], "i64"), ("c", 5, "i64")],
    [(None, "f32"), S6, S6, ("c", 5, "i64")], [T, S6, S6, ("c", 5, "i64"), ("c", 0, "i64"), ([6], "f32")],
    [T, (None, "i64"), (None, "i64"), ([], "i64"), (None, "i64"), (None, "f32")],
    [([10, 4], "f16"), ([6], "i32"), ([6], "i32"), ("c", 4, "i32")],
])
def test_segments_runtime_cases(tmp_path, inputs):
    opcheck.compare(bag(SEGMENTS, inputs), tmp_path, [SEGMENTS[0]])


def test_a_num_segments_that_can_be_negative_is_refused(tmp_path):
    message = refusal(tmp_path, lambda: _negative_count_ir(), SEGMENTS[0], "can be negative")
    assert "num_segments" in message


def _negative_count_ir():
    ir = IR()
    x = ir.parameter("2..7,3")
    shape = ir.op("ShapeOf", [x], [[2]], {"output_type": "i64"}, version="opset3")
    first = ir.op("Gather", [shape, ir.const([0], shape=[]), ir.const([0], shape=[])], [[]], {}, version="opset8")
    count = ir.op("Subtract", [first, ir.const([5], shape=[])], [[]])
    ir.result(ir.op(SEGMENTS[0], [ir.parameter("10,4"), ir.parameter("6", "i64"), ir.parameter("6", "i64"), count],
                    [[9, 4]], {}, version="opset3", name="bag"))
    return ir


def _random_dim(rng, fixed=None):
    if fixed is not None and rng.random() < 0.7:
        return fixed
    return rng.choice([1, 3, 6, -1, (2, 5), (0, 4), (4, 9)])


def _random_inputs(rng, op):
    index_et = rng.choice(["i32", "i64"])
    table_et = rng.choice(["f32", "f16"])
    rank = rng.choice([None, 1, 2, 2, 3])
    table = (None if rank is None else [_random_dim(rng) for _ in range(rank)], table_et)
    count = _random_dim(rng, 6)

    def one_d(d=None, rank=1):
        if rng.random() < 0.1:
            return None
        shape = [_random_dim(rng, d)] + [_random_dim(rng, 2) for _ in range(rank - 1)]
        if rng.random() < 0.05:  # a wrong rank, refused
            shape.append(1)
        return shape
    if op[0].startswith("EmbeddingBagOffsets"):
        inputs = [table, (one_d(count), index_et), (one_d(), index_et)]
        extra = rng.randint(0, 2)
        if extra:
            inputs.append(([] if rng.random() < 0.9 else [1], index_et))
        if extra == 2:
            inputs.append((one_d(count), table_et))
    elif op[0].startswith("EmbeddingBagPacked"):
        indices = one_d(count, 2)
        inputs = [table, (indices, index_et)]
        if rng.random() < 0.5:
            inputs.append((one_d(count, 2) if rng.random() < 0.3 else indices, table_et))
    else:
        inputs = [table, (one_d(count), index_et), (one_d(count), index_et)]
        inputs.append(rng.choice([("c", rng.choice([0, 2, 5, -1]), index_et), ([], index_et)]))
        if rng.random() < 0.5:
            inputs.append(("c", 0, index_et))
            if rng.random() < 0.5:
                inputs.append((one_d(count), table_et))
    return inputs


@pytest.mark.parametrize("op", [OFFSETS, OFFSETS15, PACKED, PACKED15, SEGMENTS])
def test_random_bags_match_the_runtime(tmp_path, op):
    rng = random.Random(len(op[0]) * 31 + op[1])
    compared = 0
    for n in range(70):
        inputs = _random_inputs(rng, op)
        attrs = {"reduction": "sum"} if op[1] == 15 else {}
        compared += both_ways(lambda: bag(op, inputs, attrs), bag_ir(op, inputs, attrs), tmp_path, [op[0]],
                              f"m{n}")
    assert compared > 40


@pytest.mark.parametrize("build,op,words", [
    (bag_ir(OFFSETS, [([], "f32"), I, L]), OFFSETS, "scalar"),
    (bag_ir(OFFSETS, [T, ([6, 1], "i64"), L]), OFFSETS, "1-D"),
    (bag_ir(OFFSETS, [T, I, ([3, 1], "i64")]), OFFSETS, "1-D"),
    (bag_ir(OFFSETS, [T, I, L, ([1], "i64")]), OFFSETS, "scalar"),
    (bag_ir(OFFSETS, [T, I, L, ([], "i64"), ([5], "f32")]), OFFSETS, "same shape"),
    (bag_ir(OFFSETS, [T, I, ([3], "i32")]), OFFSETS, "same element type"),
    (bag_ir(OFFSETS, [T, ([6], "u8"), ([3], "u8")]), OFFSETS, "i32 or i64"),
    (bag_ir(OFFSETS, [T, I, L, ([], "i32")]), OFFSETS, "same element type"),
    (bag_ir(OFFSETS, [T, I, L, ([], "i64"), ([6], "f16")]), OFFSETS, "same element type"),
    (bag_ir(OFFSETS, [T, I]), OFFSETS, "takes 3 or 4 or 5 inputs"),
    (bag_ir(OFFSETS15, [T, I, L, ([], "i64"), ([6], "f32")], {"reduction": "mean"}), OFFSETS15, "mean"),
    (bag_ir(OFFSETS15, [T, I, L], {"reduction": "max"}), OFFSETS15, "reduction"),
    (bag_ir(PACKED, [T, ([3], "i64")]), PACKED, "2-D"),
    (bag_ir(PACKED, [T, ([3, 2], "i64"), ([3, 3], "f32")]), PACKED, "same shape"),
    (bag_ir(PACKED, [T, ([3, 2], "i64"), ([3], "f32")]), PACKED, "2-D"),
    (bag_ir(PACKED, [T, ([3, 2], "f32")]), PACKED, "i32 or i64"),
    (bag_ir(PACKED, [([], "f32"), ([3, 2], "i64")]), PACKED, "scalar"),
    (bag_ir(PACKED15, [T, ([3, 2], "i64"), ([3, 2], "f32")], {"reduction": "mean"}), PACKED15, "mean"),
    (bag_ir(SEGMENTS, [T, S6, ([5], "i64"), ([], "i64")]), SEGMENTS, "same shape"),
    (bag_ir(SEGMENTS, [T, S6, S6, ("c", [5], "i64")]), SEGMENTS, "scalar"),
    (bag_ir(SEGMENTS, [T, S6, S6, ([], "i32")]), SEGMENTS, "same element type"),
    (bag_ir(SEGMENTS, [T, S6, ([6], "i32"), ([], "i32")]), SEGMENTS, "same element type"),
    (bag_ir(SEGMENTS, [T, ([6], "u8"), ([6], "u8"), ([], "u8")]), SEGMENTS, "i32 or i64"),
    (bag_ir(SEGMENTS, [T, S6, S6]), SEGMENTS, "takes 4 or 5 or 6 inputs"),
    (bag_ir(SEGMENTS, [T, S6, S6, ([], "i64"), ([1], "i64")]), SEGMENTS, "scalar"),
    (bag_ir(SEGMENTS, [T, S6, S6, ([], "i64"), ([], "i64"), ([6, 1], "f32")]), SEGMENTS, "1-D"),
    (bag_ir(SEGMENTS, [([], "f32"), S6, S6, ([], "i64")]), SEGMENTS, "scalar"),
])
def test_what_the_runtime_refuses(tmp_path, build, op, words):
    refusal(tmp_path, build, op[0], words)


def test_reduction_defaults_to_sum(tmp_path):
    # without the attribute the v15 classes sum, so per_sample_weights are accepted
    for op, inputs in ((OFFSETS15, [T, I, L, ([], "i64"), ([6], "f32")]), (PACKED15, [T, ([3, 2], "i64"), ([3, 2], "f32")])):
        path = bag_ir(op, inputs)().write(tmp_path, stem=op[0])
        ov.Core().read_model(str(path))
        assert not [f for f in validate_file(str(path)).findings if f.code in ("IRV104", "IRV105", "IRV108")]


@pytest.mark.parametrize("op,inputs", [(OFFSETS, [T, I, L]), (PACKED15, [T, ([3, 2], "i64")]),
                                       (SEGMENTS, [T, S6, S6, ("c", 5, "i64")])])
def test_a_stale_declared_dim_names_the_bag(tmp_path, op, inputs):
    path = opcheck.compare(bag(op, inputs), tmp_path, [op[0]])
    # the serializer's own file: no finding at all (no unread attribute, no warning)
    assert not [f for f in validate_file(str(path)).findings if f.layer is not None and f.layer.name == "bag"]
    assert opcheck.named(opcheck.mutate(path, "bag", 0, 0, 7), "bag")
    assert opcheck.named(opcheck.mutate(path, "bag", 0, 1, 7), "bag")
