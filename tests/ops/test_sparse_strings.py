"""SegmentMax, SparseFillEmptyRows, StringTensorPack and StringTensorUnpack against the
runtime: the notes' cases, index values given as Consts, computed or unknown, random
configurations, refusals (a crash of the runtime among them) and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import differential, model, param, refusal, shape, shape_text, value  # noqa: E402


def check(built, tmp_path, kind, stem="model"):
    opcheck.compare_types(opcheck.compare(built, tmp_path, [kind], stem=stem), [kind])


def segment_max(data, ids, count=None, attrs=None, et=np.float32):
    x = param(data, et)
    params = [x]
    inputs = [x, value(ids, params)] + ([] if count is None else [value(count, params)])
    node = NodeFactory("opset16").create("SegmentMax", inputs, attrs or {"fill_mode": "ZERO"})
    node.set_friendly_name("s")
    return model(node, params)


def sparse_fill(values, dense, indices, default=(), et=np.float32):
    v = param(values, et)
    d = param(list(default) if default is not None else None, et)
    params = [v, d]
    node = NodeFactory("opset16").create("SparseFillEmptyRows", [v, value(dense, params),
                                                                 value(indices, params), d], {})
    node.set_friendly_name("s")
    return model(node, params)


IDS = [0, 0, 1, 1, 3, 3]


@pytest.mark.parametrize("data,ids,count,attrs", [
    # SegmentMax.md
    ([6, 3], IDS, None, None), ([6, 3], IDS, 5, None), ([6, 3], IDS, 2, None), ([6, 3], ("p", [6]), None, None),
    ([6, 3], ("p", [6]), 4, None), ([(4, 8), -1], IDS, None, None), (None, [0, 1], None, None), ([6], IDS, None, None),
    ([6, 3], IDS, -1, None),
    # more
    ([6, 3], IDS, -3, None), ([6, 3], [-3, -2, 0, 0, 1, 1], None, None), ([2, 3], [-5, -3], None, None),
    ([2, 3], [-5, -2], None, None), ([0, 3], np.zeros((0,), np.int64), 2, None), ([6, 3], ("c", IDS), None, None),
    ([6, 3], ("p", [6]), ("p", []), None), ([6, 3], IDS, ("p", []), None), ([6, 3], IDS, ("i32", 5), None),
    ([6, 3], ("i32", IDS), None, None), ([6, 3], IDS, None, {"fill_mode": "lowest"}), ([6, 3], ("p", [-1]), None, None),
    ([6, 3], ("p", None), None, None), ([6, 3], ("p", [(2, 8)]), None, None), (None, [0, 1], 3, None),
    (None, ("p", [2]), 3, None), ([-1, 2, 2], [0, 4, 4], None, None),
])
def test_segment_max_cases(tmp_path, data, ids, count, attrs):
    check(segment_max(data, ids, count, attrs), tmp_path, "SegmentMax")


ROWS = [[0, 1], [0, 3], [2, 0]]


@pytest.mark.parametrize("values,dense,indices,default", [
    # SparseFillEmptyRows.md
    ([3], [4, 5], ROWS, ()), ([3], [4, 5], [[0, 1], [0, 3], [0, 0]], ()), ([3], [4, 5], ("p", [3, 2]), ()),
    ([3], ("p", [2]), ROWS, ()), ([3], ("so", [(3, 6), 5]), ("p", [3, 2]), ()), ([3], [0, 5], ("p", [3, 2]), ()),
    ([3], ("p", None), ("p", None), ()),
    # more
    ([3], ("so", [4, 5]), ROWS, ()), ([3], ("c", [(3, 6), 5]), ROWS, ()), ([3], [-1, 5], ROWS, ()),
    ([3], [-3, 5], ("p", [3, 2]), ()), ([3], [4, -1], ROWS, ()), (None, ("p", [2]), ("p", [3, 2]), ()),
    ([-1], [4, 5], ROWS, ()), ([(1, 5)], [4, 5], ROWS, ()), ([3], [4, 5], ROWS, None),
    ([0], [4, 5], np.zeros((0, 2), np.int64), ()), (None, [4, 5], ("p", [3, 2]), ()), (None, [4, 5], ("p", None), ()),
    ([3], ("p", [(1, 3)]), ("p", [3, 2]), ()), ([3], ("p", [-1]), ("p", [-1, -1]), ()),
    ([3], ("c", [4, 5]), ROWS, ()), ([5], [7, 3], [[6, 2], [6, 0], [0, 0], [3, 1], [6, 1]], ()),
])
def test_sparse_fill_empty_rows_cases(tmp_path, values, dense, indices, default):
    check(sparse_fill(values, dense, indices, default), tmp_path, "SparseFillEmptyRows")


def test_random_configurations_match_the_runtime(tmp_path):
    rng = random.Random(37)
    done = 0
    for n in range(200):
        if n % 2:
            rows = rng.randint(0, 6)
            ids = sorted(rng.randint(-2, 5) for _ in range(rows))
            data = [rng.choice([rows, rows, -1, (0, 8)])] + [rng.choice([3, -1, (1, 4)]) for _ in range(rng.randint(0, 2))]
            spec = rng.choice([ids, ids, ("p", [rows]), ("c", [max(i, 0) for i in ids]) if ids else ids])
            count = rng.choice([None, None, 3, -1, 0, ("p", [])])
            if not ids and count is None and isinstance(spec, list):
                count = 2
            build = lambda: segment_max(None if rng.random() < 0.05 else data,  # noqa: E731
                                        np.array(spec, np.int64) if isinstance(spec, list) else spec, count)
            kind = "SegmentMax"
        else:
            r, c = rng.randint(0, 5), rng.randint(1, 5)
            count = rng.randint(0, 5)
            pairs = np.array([[rng.randrange(max(r, 1)), rng.randrange(c)] for _ in range(count)],
                             np.int64).reshape(count, 2)
            dense = rng.choice([[r, c], [r, c], ("p", [2]), ("so", [r, c]), ("so", [(0, r + 2), c])])
            indices = rng.choice([pairs, pairs, ("p", [count, 2]), ("p", [-1, 2])])
            values = rng.choice([[count], [count], [-1], None])
            build = lambda: sparse_fill(values, dense, indices)  # noqa: E731
            kind = "SparseFillEmptyRows"
        done += differential(build, tmp_path, [kind], f"m{n}", True)
    assert done > 130


def _segment_ir(data, ids, count=None, ets=None, ids_shape=None, count_shape=None):
    ets = ets or {}

    def build():
        ir = IR()
        inputs = [ir.parameter(shape_text(data)), ir.const(ids, ets.get(1, "i64"), shape=ids_shape)]
        if count is not None:
            inputs.append(ir.const([count], ets.get(2, "i64"), shape=[] if count_shape is None else count_shape))
        ir.result(ir.op("SegmentMax", inputs, [[9]], {"fill_mode": "zero"}, version="opset16"))
        return ir
    return build


@pytest.mark.parametrize("build,words", [
    (_segment_ir([], [0]), "must not be a scalar"), (_segment_ir([6, 3], [0, 1, 0, 1, 3, 3]), "must be sorted"),
    (_segment_ir([5, 3], IDS), "holds 6 ids for the 5 rows"), (_segment_ir([6, 3], IDS, 5, count_shape=[1]), "must be a scalar"),
    (_segment_ir([6, 3], IDS, ids_shape=[1, 6]), "must be 1-D"), (_segment_ir([6, 3], IDS, ets={1: "i8"}), "i32 or i64"),
    (_segment_ir([6, 3], IDS, 5, ets={2: "u8"}), "i32 or i64"),
])
def test_what_the_runtime_refuses_of_segment_max(tmp_path, build, words):
    refusal(tmp_path, build, "SegmentMax", words)


def test_empty_ids_without_a_count_are_refused_without_asking_the_runtime(run):
    # read_model segfaults on them (the maximum of no ids), measured on 2026.4.1
    [f] = [f for f in run(_segment_ir([0, 3], [])()) if f.level == "error"]
    assert f.code == "IRV102" and "crashes" in f.message


def _sparse_ir(values, dense, indices, default=(), ets=None, shapes=None):
    ets, shapes = ets or {}, shapes or {}

    def build():
        ir = IR()
        flat = [v for pair in indices for v in pair] if indices and isinstance(indices[0], list) else indices
        inputs = [ir.parameter(shape_text(values), ets.get(0, "f32")),
                  ir.const(dense, ets.get(1, "i64"), shape=shapes.get(1)),
                  ir.const(flat, ets.get(2, "i64"), shape=shapes.get(2, [len(indices), 2])),
                  ir.parameter(shape_text(list(default)), ets.get(3, "f32"))]
        ir.result(ir.op("SparseFillEmptyRows", inputs, [[9, 2], [9], [9]], {}, version="opset16"))
        return ir
    return build


@pytest.mark.parametrize("build,words", [
    (_sparse_ir([3], [4, 5], [[0, 1], [0, 3], [4, 0]]), "row 4, outside the 4 rows"),
    (_sparse_ir([3], [4, 5], [[-1, 1], [0, 3], [2, 0]]), "row -1"),
    (_sparse_ir([3], [4, 5], [[0, 1], [0, 5], [2, 0]]), "column 5, outside the 5 columns"),
    (_sparse_ir([3], [4, 5, 6], ROWS), "must hold 2 values"),
    (_sparse_ir([4], [4, 5], ROWS), "N the length of values"),
    (_sparse_ir([3, 1], [4, 5], ROWS), "values [3,1] must be 1-D"),
    (_sparse_ir([3], [4, 5], ROWS, (1,)), "default_value [1] must be a scalar"),
    (_sparse_ir([3], [4, 5], ROWS, ets={1: "i32"}), "must be one type"),
    (_sparse_ir([3], [4, 5], ROWS, ets={1: "u8", 2: "u8"}), "i32 or i64"),
    (_sparse_ir(None, [4, 5], ROWS), "out-of-range"),
])
def test_what_the_runtime_refuses_of_sparse_fill_empty_rows(tmp_path, build, words):
    refusal(tmp_path, build, "SparseFillEmptyRows", words)


def strings_pack(begins, ends, symbols, ets=("i32", "i32", "u8")):
    ps = [opset1.parameter(shape(s), getattr(ov.Type, t), name=f"x{i}")
          for i, (s, t) in enumerate(zip((begins, ends, symbols), ets))]
    node = NodeFactory("opset15").create("StringTensorPack", ps, {})
    node.set_friendly_name("s")
    return model(node, ps)


def strings_unpack(data):
    x = opset1.parameter(shape(data), ov.Type.string, name="x")
    node = NodeFactory("opset15").create("StringTensorUnpack", [x], {})
    node.set_friendly_name("s")
    return model(node, [x])


@pytest.mark.parametrize("begins,ends,symbols,ets", [
    ([2, 3], [2, 3], [20], ("i32", "i32", "u8")), ([(1, 4), -1], [2, (2, 5)], [-1], ("i32", "i32", "u8")),
    (None, [2, 3], [20], ("i64", "i64", "u8")), (None, None, None, ("i32", "i32", "u8")),
    ([], [], [5], ("i32", "i32", "u8")), ([-1], [(3, 9)], [0], ("i64", "i64", "u8")),
])
def test_string_tensor_pack_cases(tmp_path, begins, ends, symbols, ets):
    check(strings_pack(begins, ends, symbols, ets), tmp_path, "StringTensorPack")


@pytest.mark.parametrize("data", [[2, 3], [(1, 4), -1], None, [], [0], [2, 0, 3], [(0, 3)], [(0, 3), 0],
                                  [-1, 0], [1]])
def test_string_tensor_unpack_cases(tmp_path, data):
    check(strings_unpack(data), tmp_path, "StringTensorUnpack")


def _strings_ir(kind, shapes, ets):
    def build():
        ir = IR()
        ps = [ir.parameter(shape_text(s), t) for s, t in zip(shapes, ets)]
        outs = [[9]] if kind == "StringTensorPack" else [[9], [9], [9]]
        ir.result(ir.op(kind, ps, outs, {}, version="opset15"))
        return ir
    return build


@pytest.mark.parametrize("kind,shapes,ets,words", [
    ("StringTensorPack", [[2, 3], [2, 4], [20]], ("i32", "i32", "u8"), "must be one shape"),
    ("StringTensorPack", [[2, 3], [2, 3, 1], [20]], ("i32", "i32", "u8"), "must be one shape"),
    ("StringTensorPack", [[2, 3], [2, 3], [20]], ("i32", "i64", "u8"), "must be one type"),
    ("StringTensorPack", [[2, 3], [2, 3], [20]], ("dynamic", "i32", "u8"), "must be one type"),
    ("StringTensorPack", [[2, 3], [2, 3], [20]], ("u8", "u8", "u8"), "i32 or i64"),
    ("StringTensorPack", [[2, 3], [2, 3], [20, 1]], ("i32", "i32", "u8"), "must be 1-D"),
    ("StringTensorPack", [[2, 3], [2, 3], [20]], ("i32", "i32", "i32"), "must be u8"),
    ("StringTensorPack", [[2, 3], [2, 3], [20]], ("i32", "i32", "dynamic"), "must be u8"),
    ("StringTensorUnpack", [[2, 3]], ("u8",), "must be a string tensor"),
    ("StringTensorUnpack", [[2, 3]], ("dynamic",), "must be a string tensor"),
    ("StringTensorUnpack", [[2, 3], [2]], ("string", "string"), "takes 1"),
])
def test_what_the_runtime_refuses_of_strings(tmp_path, kind, shapes, ets, words):
    refusal(tmp_path, _strings_ir(kind, shapes, ets), kind, words)


def test_stale_dims_name_the_layers(tmp_path):
    path = opcheck.compare(segment_max([6, 3], IDS), tmp_path, ["SegmentMax"])
    assert opcheck.named(opcheck.mutate(path, "s", 0, 0, 6), "s")
    path = opcheck.compare(sparse_fill([3], [4, 5], ROWS), tmp_path, ["SparseFillEmptyRows"], stem="f")
    assert opcheck.named(opcheck.mutate(path, "s", 0, 0, 3), "s")
    assert opcheck.named(opcheck.mutate(path, "s", 2, 0, 5), "s")
    path = opcheck.compare(strings_unpack([2, 3]), tmp_path, ["StringTensorUnpack"], stem="u")
    assert opcheck.named(opcheck.mutate(path, "s", 1, 1, 4), "s")
