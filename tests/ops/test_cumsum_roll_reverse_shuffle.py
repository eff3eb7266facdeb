"""CumSum, Roll, Reverse, ReverseSequence and ShuffleChannels against the runtime: the notes'
cases, random ones, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset13 as o  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    const,
    create,
    expect_refusal,
    model,
    param,
    random_shape,
)

TYPES = ["CumSum", "Roll", "Reverse", "ReverseSequence", "ShuffleChannels"]


def build(opset, kind, data, others=(), attrs=None, et=np.float32):
    """One layer 'op' over Parameter data; ``others`` are lists (i64 Consts), (spec, type)
    pairs (Parameters), scalars (i64 Consts) or callables of the data Parameter."""
    x = param(data, et, "x")
    inputs, params = [x], [x]
    for other in others:
        if callable(other):
            node, extra = other(x)
            inputs.append(node)
            params += extra
        elif isinstance(other, tuple):
            p = param(*other)
            inputs.append(p)
            params.append(p)
        else:
            inputs.append(const(other))
    return model([create(opset, kind, inputs, attrs, name="op")], params)


def dim_of(index, spec=(1, 1, (2, 3))):
    """[d]: dim ``index`` of another Parameter's shape, exact unless an interval."""
    def make(x):
        y = param(list(spec))
        return o.gather(o.shape_of(y), const([index]), const(0)), [y]
    return make


@pytest.mark.parametrize("data,axis,attrs", [
    ([2, 3, 4], 1, {"exclusive": False, "reverse": False}), ([2, 3, 4], -1, {}),
    ([2, 3, 4], 3, {}), ([2, 3, 4], [1, 2], {}), ([2, 3, 4], [[1]], {}),
    ([(1, 2), -1], 1, {}), (None, 7, {}), ([], 0, {}),
    ([2, 3, 4], 1, {"exclusive": True, "reverse": True}),
])
def test_cumsum(tmp_path, data, axis, attrs):
    opcheck.compare(build("opset3", "CumSum", data, [axis], attrs), tmp_path, ["CumSum"])


def test_cumsum_axis_types(tmp_path):
    opcheck.compare(build("opset3", "CumSum", [2, 3], [([], np.int32)]), tmp_path, ["CumSum"])
    opcheck.compare(build("opset3", "CumSum", [2, 3], [([], np.int64)], et=bool), tmp_path,
                    ["CumSum"], stem="b")


@pytest.mark.parametrize("data,shift,axes", [
    ([2, 3, 4], [1, 2], [0, 2]), ([2, 3, 4], 1, [0, 2]), ([2, 3, 4], [1, 2], [-3, -1]),
    ([2, 3, 4], [1, 2], [0, 0]), ([2, 3, 4], [1, 2], ([2], np.int64)),
    ([2, 3, 4], ([-1], np.int64), ([-1], np.int64)), ([(2, 3), -1, 4], [1, 2], [0, 2]),
    (None, [1, 2], [0, 9]), ([], [1], [0]), ([], [1], [-1]), ([2, 3], 1, 0),
    ([2, 3], ([(1, 3)], np.int32), [0, 1]), ([2, 3], (None, np.int64), 0),
    ([2, 3], [1, 2], (None, np.int32)), ([2, 3], ([], np.int64), ([-1], np.int64)),
    ([2, 3, 4], [1], dim_of(1)), ([2, 3, 4], [1], dim_of(2)),
])
def test_roll(tmp_path, data, shift, axes):
    opcheck.compare(build("opset7", "Roll", data, [shift, axes]), tmp_path, ["Roll"])


@pytest.mark.parametrize("data,axes,mode", [
    ([4, 5], [0], "index"), ([4, 5], [0, 1], "index"), ([4, 5], [-1], "index"),
    ([4, 5], [0, 0], "index"), ([4, 5], [], "index"), ([4, 5], [-3], "index"),
    ([4, 5], [-100], "index"), ([(1, 3), -1], [1], "index"), (None, [5], "index"),
    ([4, 5], ([1], np.int64), "index"), ([], [], "index"), ([4, 5], ([1], np.uint8), "index"),
    ([4, 5], (None, np.int64), "index"), ([4, 5], ([2], bool), "mask"),
    ([4, 5], ([(1, 3)], bool), "mask"), (None, ([3], bool), "mask"),
    ([4, 5], dim_of(1), "index"),
])
def test_reverse(tmp_path, data, axes, mode):
    opcheck.compare(build("opset1", "Reverse", data, [axes], {"mode": mode}), tmp_path,
                    ["Reverse"])


@pytest.mark.parametrize("data,lengths,batch_axis,seq_axis", [
    ([4, 5, 3], [4], 0, 1), ([4, 5, 3], [5], 1, 0), ([4, 5, 3], [4], 0, 0),
    ([4, 5, 3], [4], -3, -2), ([(2, 6), 5, 3], [(4, 8)], 0, 1), ([-1, 5, 3], [4], 0, 1),
    (None, [4], 0, 1), ([4, 5, 3], None, 0, 1), ([4, 5, 3], [-1], 0, 1),
    ([4, 5, 3], [3], -1, 1), ([4, 5, 3], None, 3, 1), ([4, 5, 3], None, -4, 1),  # batch unread
])
def test_reverse_sequence(tmp_path, data, lengths, batch_axis, seq_axis):
    for n, et in enumerate((np.int64, np.float32)):
        built = build("opset1", "ReverseSequence", data, [(lengths, et)],
                      {"batch_axis": batch_axis, "seq_axis": seq_axis})
        opcheck.compare(built, tmp_path, ["ReverseSequence"], stem=f"m{n}")


@pytest.mark.parametrize("data,axis,group", [
    ([1, 6, 4, 4], 1, 3), ([1, 6, 4, 4], -3, 2), ([1, -1, 4, 4], 1, 4), ([1, (5, 9), 4, 4], 1, 4),
    ([1, (5, 7), 4, 4], 1, 4), (None, 7, 4), ([6], 0, 3), ([1, 0], 1, 4),
])
def test_shuffle_channels(tmp_path, data, axis, group):
    opcheck.compare(build("opset1", "ShuffleChannels", data, attrs={"axis": axis, "group": group}),
                    tmp_path, ["ShuffleChannels"])
    opcheck.compare(build("opset3", "ShuffleChannels", data, attrs={"axis": axis, "group": group}),
                    tmp_path, ["ShuffleChannels"], stem="v3")


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(13)
    for n in range(80):
        data = random_shape(rng, 2, 5, dynamic_rank=0.1)
        rank = len(data) if data is not None else 3
        kind = rng.choice(TYPES)
        axes = [rng.randrange(-rank, rank) for _ in range(rng.randint(1, rank))]
        if kind == "CumSum":
            built = build("opset3", kind, data, [axes[0]],
                          {"exclusive": rng.random() < 0.5, "reverse": rng.random() < 0.5})
        elif kind == "Roll":
            shift = rng.randint(-3, 3) if rng.random() < 0.3 else [rng.randint(-3, 3) for _ in axes]
            built = build("opset7", kind, data, [shift, axes])
        elif kind == "Reverse":
            built = build("opset1", kind, data, [[a % rank for a in axes]], {"mode": "index"})
        elif kind == "ReverseSequence":
            batch = rng.randrange(-rank, rank)
            seq = rng.randrange(-rank if data is not None else 0, rank)  # refused: see below
            count = data[batch] if data is not None else rng.choice([3, -1])
            built = build("opset1", kind, data, [([count], np.int32)],
                          {"batch_axis": batch, "seq_axis": seq})
        else:
            axis = rng.randrange(-rank, rank)
            dim = data[axis] if data is not None else -1
            group = rng.choice([d for d in (1, 2, 3, 4) if not isinstance(dim, int) or dim < 0
                                or dim % d == 0])
            built = build("opset1", kind, data, attrs={"axis": axis, "group": group})
        opcheck.compare(built, tmp_path, TYPES, stem=f"m{n}")



def _refused(kind, version, data, others, attrs=None, data_et="f32"):
    """Hand-written IR: ``others`` are (values, type, shape) Consts or (shape, type) Parameters."""
    ir = IR()
    inputs = [ir.parameter(data, data_et)]
    for other in others:
        if len(other) == 3:
            inputs.append(ir.const(other[0], other[1], shape=other[2]))
        else:
            inputs.append(ir.parameter(*other))
    ir.result(ir.op(kind, inputs, [[2, 3, 4]], attrs or {}, version=version, name="op"))
    return ir


@pytest.mark.parametrize("kind,version,data,others,attrs,words", [
    ("CumSum", "opset3", "2,3,4", [([1], "u8", [])], {}, "must be i32 or i64"),
    ("CumSum", "opset3", "2,3,4", [("", "f32")], {}, "must be i32 or i64"),
    ("Roll", "opset7", "2,3,4", [([1, 2, 3], "i64", [3]), ([0, 2], "i64", [2])], {}, "same shape"),
    ("Roll", "opset7", "2,3,4", [([1, 2], "i64", [2]), ([0], "i64", [])], {}, "same shape"),
    ("Roll", "opset7", "2,3,4", [([1, 2], "i64", [2]), ([0, 3], "i64", [2])], {}, "[-3, 2]"),
    ("Roll", "opset7", "", [([1], "i64", [1]), ([5], "i64", [1])], {}, "[-1, 0]"),
    ("Roll", "opset7", "2,3,4", [([1, 2], "i64", [1, 2]), ([0, 2], "i64", [2])], {}, "scalar or 1-D"),
    ("Roll", "opset7", "2,3,4", [([1], "i64", []), ([0, 2], "i64", [1, 2])], {}, "scalar or 1-D"),
    ("Roll", "opset7", "2,3,4", [([1], "u8", [1]), ([0], "i64", [1])], {}, "must be i32 or i64"),
    ("Roll", "opset7", "2,3,4", [([1], "i64", [1]), ([0], "u8", [1])], {}, "must be i32 or i64"),
    ("Reverse", "opset1", "4,5", [([2], "i64", [1])], {"mode": "index"}, "out of range"),
    ("Reverse", "opset1", "", [([-1], "i64", [1])], {}, "out of range"),
    ("Reverse", "opset1", "", [([-5], "i64", [1])], {}, "out of range"),
    ("Reverse", "opset1", "4,5", [([1], "u8", [1])], {"mode": "mask"}, "boolean in mask mode"),
    ("Reverse", "opset1", "4,5", [("1", "boolean")], {"mode": "mask"}, "holds 1 flags"),
    ("Reverse", "opset1", "4,5", [("2", "boolean")], {"mode": "index"}, "integer tensor"),
    ("Reverse", "opset1", "4,5", [([0], "i64", [1, 1])], {}, "must be 1-D"),
    ("Reverse", "opset1", "4,5", [([0], "i64", [1])], {"mode": "bogus"}, "mode"),
    ("ReverseSequence", "opset1", "4,5,3", [("5", "i64")], {}, "batch dim 0"),
    ("ReverseSequence", "opset1", "4,5,3", [("4", "i64")], {"batch_axis": "3"}, "[-3, 2]"),
    ("ReverseSequence", "opset1", "4", [("4", "i64")], {"seq_axis": "0"}, "rank 2 or more"),
    ("ReverseSequence", "opset1", "4,5", [("4,1", "i64")], {}, "must be 1-D"),
    ("ReverseSequence", "opset1", "4,5", [("4", "boolean")], {}, "numeric"),
    ("ReverseSequence", "opset1", "5,4,3", [("4", "i64")], {"seq_axis": "0"}, "batch dim 0"),
    ("ReverseSequence", "opset1", "...", [("4", "i64")], {"seq_axis": "-1"}, "dynamic rank"),
    ("ShuffleChannels", "opset1", "1,6,4,4", [], {"axis": "4", "group": "2"}, "[-4, 3]"),
    ("ShuffleChannels", "opset1", "1,6,4,4", [], {"axis": "1", "group": "4"}, "does not divide"),
    ("ShuffleChannels", "opset1", "1,6,4,4", [], {"axis": "1", "group": "0"}, "group is 0"),
    ("ShuffleChannels", "opset1", "...", [], {"group": "-1"}, "group is -1"),
    ("ShuffleChannels", "opset1", "", [], {"axis": "0"}, "scalar"),
])
def test_what_the_runtime_refuses(tmp_path, kind, version, data, others, attrs, words):
    expect_refusal(_refused(kind, version, data, others, attrs), tmp_path, words)


@pytest.mark.parametrize("kind,version,count", [("CumSum", "opset3", 1), ("Roll", "opset7", 2),
                                                ("Reverse", "opset1", 3),
                                                ("ReverseSequence", "opset1", 1),
                                                ("ShuffleChannels", "opset1", 2)])
def test_wrong_input_count(tmp_path, kind, version, count):
    ir = IR()
    inputs = [ir.parameter("2,3")] + [ir.const([1]) for _ in range(count - 1)]
    ir.result(ir.op(kind, inputs, [[2, 3]], version=version, name="op"))
    expect_refusal(ir, tmp_path, code="IRV105")


def test_stale_dims_are_named(tmp_path):
    for n, built in enumerate([build("opset3", "CumSum", [2, 3, 4], [1]),
                               build("opset7", "Roll", [2, 3, 4], [1, 0]),
                               build("opset1", "Reverse", [2, 3, 4], [[0]], {"mode": "index"}),
                               build("opset1", "ReverseSequence", [2, 3, 4], [([2], np.int64)]),
                               build("opset1", "ShuffleChannels", [2, 6, 4], attrs={"group": 2})]):
        path = opcheck.compare(built, tmp_path, TYPES, stem=f"m{n}")
        assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 7), "op")


def test_missing_attributes_read_as_the_runtime_reads_them(run):
    ir = IR()
    x = ir.parameter("4,5,3")
    ir.result(ir.op("ReverseSequence", [x, ir.parameter("4", "i64")], [[4, 5, 3]]))
    ir.result(ir.op("ShuffleChannels", [x], [[4, 5, 3]]))
    ir.result(ir.op("Reverse", [x, ir.const([1])], [[4, 5, 3]]))
    assert not [f for f in run(ir) if f.level == "error"]
