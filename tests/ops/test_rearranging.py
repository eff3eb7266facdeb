"""DepthToSpace, SpaceToDepth, BatchToSpace, SpaceToBatch and ExtractImagePatches against
the runtime: the notes' cases, random layers both ways, refusals and stale dims."""

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1, opset2, opset3  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.irsettle import assert_refused, random_differential  # noqa: E402
from support.ovvalues import computed, parameter  # noqa: E402

D = None


def blocks_model(kind, data, block_size=2, mode="blocks_first", et=np.float32):
    p = parameter(data, et)
    build = opset1.depth_to_space if kind == "DepthToSpace" else opset1.space_to_depth
    return ov.Model([build(p, mode, block_size, name="op")], [p])


@pytest.mark.parametrize("data,block,mode", [
    ([1, 16, 4, 6], 2, "blocks_first"), ([1, 16, 4, 6], 2, "depth_first"),
    ([1, 16, 4, 6, 8], 2, "blocks_first"), ([1, 16, 4], 2, "blocks_first"),
    ([1, 16, 4, 6], 4, "blocks_first"), ([1, 18, 4, 6], 3, "blocks_first"),
    ([-1, (16, 32), -1, (4, 6)], 2, "blocks_first"), ([1, -1, 4, 6], 2, "blocks_first"),
    ([1, (15, 17), 4, 6], 2, "blocks_first"), ([1, (3, 5), (5, 7), 6], 2, "blocks_first"),
    (D, 2, "blocks_first"), ([1, 16, 4, 6], 1, "blocks_first"),
    ([1, (2, 1 << 62), 4, 6], 2, "blocks_first"),
])
def test_depth_to_space_runtime_cases(tmp_path, data, block, mode):
    opcheck.compare(blocks_model("DepthToSpace", data, block, mode), tmp_path, ["DepthToSpace"])


@pytest.mark.parametrize("data,block", [
    ([1, 16, 4, 6], 2), ([1, 16, 4, 6, 8], 2), ([1, 16, 4], 2), ([-1, (16, 32), -1, (4, 6)], 2),
    ([1, (15, 17), 4, 6], 2), ([1, (3, 5), (5, 7), 6], 2), (D, 2), ([1, 16, 4, 6], 1),
    ([1, 2, (5, 1 << 62), 6], 2), ([1, 3, 9, 9], 3),
])
def test_space_to_depth_runtime_cases(tmp_path, data, block):
    opcheck.compare(blocks_model("SpaceToDepth", data, block), tmp_path, ["SpaceToDepth"])


def batch_model(kind, data, values, et=np.float32):
    p = parameter(data, et)
    params = [p]
    args = []
    for spec in values:
        if isinstance(spec, tuple):
            source, node = computed(*spec)
            params.append(source)
            args.append(node)
        elif isinstance(spec, str):
            q = parameter([int(spec)], np.int64)
            params.append(q)
            args.append(q)
        else:
            args.append(opset1.constant(np.array(spec, dtype=np.int64)))
    build = opset2.batch_to_space if kind == "BatchToSpace" else opset2.space_to_batch
    return ov.Model([build(p, *args, name="op")], params)


@pytest.mark.parametrize("data,values", [
    ([48, 3, 3, 1], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0]]),
    ([48, 3, 3, 1], [[1, 2, 4, 3], [0, 0, 0, 0], [0, 0, 0, 0]]),
    ([10, 3], [[1, 5], [0, 2], [0, 1]]),
    ([48, 3, 3, 1], [[2, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0]]),
    ([-1, 3, 3, 1], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0]]),
    ([(24, 48), 3, (2, 3), -1], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0]]),
    ([(40, 50), 3, 3, 1], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0]]),
    ([48, 3, 3, 1], ["4", [0, 0, 1, 0], [0, 0, 1, 0]]),  # unknown blocks: each dim times 1..
    ([48, 3, 3, 1], [[1, 2, 4, 3], "4", [0, 0, 1, 0]]),
    ([48, 3, 3, 1], [[1, 2, 4, 3], ([0, 0, (1, 2), 0], [0, 1, 2, 3]), [0, 0, 1, 0]]),  # inexact: `?`
    ([48, 3, 3, 1], [[1, 2, 4, 3], ([0, 0, 1, 0], [0, 1, 2, 3]), [0, 0, 1, 0]]),  # folded: exact
    (D, [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0]]),
    ([48, (3, 1 << 40), 3, 1], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0]]),
])
def test_batch_to_space_runtime_cases(tmp_path, data, values):
    opcheck.compare(batch_model("BatchToSpace", data, values), tmp_path, ["BatchToSpace"])


@pytest.mark.parametrize("data,values", [
    ([2, 6, 5, 8], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 2, 1]]),
    ([2, 6, 5, 8], [[1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]]),
    ([2, 6, 5, 8], [[2, 2, 4, 3], [0, 0, 1, 0], [0, 0, 2, 1]]),
    ([-1, 6, (5, 13), -1], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 2, 1]]),
    ([2, 6, (5, 6), 8], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 2, 1]]),
    ([2, 6, 5, 8], ["4", [0, 0, 1, 0], [0, 0, 2, 1]]),
    ([2, 6, 5, 8], [[1, 2, 4, 3], "4", [0, 0, 2, 1]]),
    (D, [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 2, 1]]),
    ([2, 6, 5, 8], [[1, 2, 4, 3, 1], [0, 0, 1, 0, 0], [0, 0, 2, 1, 0]]),  # extra values ignored
    ([2, 6, 5, 8], [[1, 2, 4, 3], [0, 0, -1, 0], [0, 0, 2, 1]]),  # a pad of -1: `2..`
    ([2, 6, 5, 8], [[-1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 2, 1]]),  # block 0 unchecked
    ([2, 6, (5, 1 << 40), 8], [[1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 2, 1]]),
])
def test_space_to_batch_runtime_cases(tmp_path, data, values):
    opcheck.compare(batch_model("SpaceToBatch", data, values), tmp_path, ["SpaceToBatch"])


def patches_model(data, sizes=(3, 3), strides=(5, 5), rates=(1, 1), auto_pad="valid"):
    p = parameter(data)
    node = opset3.extract_image_patches(p, list(sizes), list(strides), list(rates), auto_pad, name="op")
    return ov.Model([node], [p])


@pytest.mark.parametrize("data,kw", [
    ([64, 3, 10, 10], {}), ([64, 3, 10, 10], dict(auto_pad="same_upper")),
    ([64, 3, 10, 10], dict(auto_pad="same_lower")), ([64, 3, 10, 10], dict(rates=(2, 2))),
    ([64, 3, 10, 10], dict(sizes=(4, 4), strides=(7, 7), rates=(2, 2))),
    ([64, 3, 10, 10], dict(sizes=(11, 11))), ([64, 3, 10, 10], dict(sizes=(11, 11), auto_pad="same_upper")),
    ([(1, 64), 3, (10, 20), -1], {}), ([(1, 64), 3, (10, 20), -1], dict(auto_pad="same_upper")),
    ([64, 3, (2, 12), 10], {}), ([64, 3, 0, 10], {}), ([-1, -1, -1, -1], {}), (D, {}),
])
def test_extract_image_patches_runtime_cases(tmp_path, data, kw):
    opcheck.compare(patches_model(data, **kw), tmp_path, ["ExtractImagePatches"])


def layer(kind, data, attrs, values=(), version="opset1"):
    ir = IR()
    args = [ir.parameter(data)] + [ir.const(v) if isinstance(v, list) else ir.parameter(v, "i64")
                                   for v in values]
    ir.result(ir.op(kind, args, [[1]], attrs, version=version, name="op"))
    return ir


@pytest.mark.parametrize("kind,data,attrs,values,version,words", [
    ("DepthToSpace", "1,16", {"block_size": "2"}, (), "opset1", "has rank 2"),
    ("DepthToSpace", "1,18,4,7", {"block_size": "2"}, (), "opset1", "(18) holds no multiple of 4"),
    ("DepthToSpace", "1,16,4,6", {"mode": "blocks_first"}, (), "opset1", "block_size is 0"),
    ("DepthToSpace", "1,16,4,6", {"block_size": "2", "mode": "bogus"}, (), "opset1", "attribute mode"),
    ("DepthToSpace", "1,16,4,6", {"block_size": "-2"}, (), "opset1", "divisor negative"),
    ("SpaceToDepth", "1,16,4,6", {"block_size": "4"}, (), "opset1", "(6) holds no multiple of 4"),
    ("SpaceToDepth", "1,16,4,6", {}, (), "opset1", "block_size is 0"),
    ("SpaceToDepth", "1,16,4,6", {"block_size": "-2"}, (), "opset1", "is negative"),
    ("BatchToSpace", "50,3,3,1", {}, ([1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0]), "opset2", "product 24"),
    ("BatchToSpace", "48,3,3,1", {}, ([1, 2, 4, 3], [0, 0, 13, 0], [0, 0, 0, 0]), "opset2", "exceed"),
    ("BatchToSpace", "48,3,3,1", {}, ([1, 2, 4, 3], [0, 0, -1, 0], [0, 0, 0, 0]), "opset2", "0 or more"),
    ("BatchToSpace", "48,3,3,1", {}, ([1, 2, 4, 0], [0, 0, 1, 0], [0, 0, 1, 0]), "opset2", "below 1"),
    ("BatchToSpace", "48,3,3,1", {}, ([1, 2, 4], [0, 0, 1], [0, 0, 1]), "opset2", "3 values for data"),
    ("BatchToSpace", "48", {}, ([48], [0], [0]), "opset2", "has rank 1"),
    ("BatchToSpace", "48,3,3,1", {}, ([1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 0, 0]), "opset2", "same shape"),
    ("SpaceToBatch", "2,6,5,8", {}, ([1, 2, 4, 3], [0, 0, -2, 0], [0, 0, 1, 1]), "opset2", "padded to 6"),
    ("SpaceToBatch", "2,6,5,8", {}, ([1, 2, 4, 3], [0, 0, 1, 0], [0, 0, 1, 1]), "opset2", "padded to 7"),
    ("SpaceToBatch", "2,6,5,8", {}, ([1, 2, 4, 0], [0, 0, 1, 0], [0, 0, 2, 1]), "opset2", "holds 0 at"),
    ("SpaceToBatch", "2,6,5,8", {}, ([1, 2, 4], [0, 0, 1], [0, 0, 2]), "opset2", "reads past their end"),
    ("SpaceToBatch", "6", {}, ([3], [0], [0]), "opset2", "has rank 1"),
    ("ExtractImagePatches", "64,3,10,10", {"sizes": "3,3", "strides": "5,5", "rates": "1,1",
                                           "auto_pad": "explicit"}, (), "opset3", "auto_pad must be"),
    ("ExtractImagePatches", "64,3,10,10", {}, (), "opset3", "sizes must hold 2 values"),
    ("ExtractImagePatches", "64,3,10,10", {"sizes": "3,3", "strides": "0,5", "rates": "1,1",
                                           "auto_pad": "valid"}, (), "opset3", "strides (0,5)"),
    ("ExtractImagePatches", "64,3,10", {"sizes": "3,3", "strides": "5,5", "rates": "1,1",
                                        "auto_pad": "valid"}, (), "opset3", "must have rank 4"),
])
def test_what_the_runtime_refuses(tmp_path, kind, data, attrs, values, version, words):
    assert_refused(layer(kind, data, attrs, values, version), tmp_path, words)


def test_hand_written_cases_the_runtime_loads(tmp_path):
    from support.irsettle import compare_ir
    cases = [("DepthToSpace", "...", {}, (), "opset1"),  # no block_size, but a dynamic rank
             ("ExtractImagePatches", "64,3,10,10", {"sizes": "0,3", "strides": "5,5", "rates": "1,1",
                                                    "auto_pad": "valid"}, (), "opset3"),
             ("SpaceToBatch", "2,6,5,8", {}, ([1, 2, 4, 3], [0, 0, -1, 0], [0, 0, -1, 1]), "opset2")]
    for n, (kind, data, attrs, values, version) in enumerate(cases):
        compare_ir(layer(kind, data, attrs, values, version), tmp_path, [kind], stem=f"m{n}")


def random_layer(rng):
    kind = rng.choice(["DepthToSpace", "SpaceToDepth", "BatchToSpace", "SpaceToBatch",
                       "ExtractImagePatches"])
    rank = 4 if kind == "ExtractImagePatches" else rng.randint(2, 5)

    def dim():
        n = rng.choice([1, 2, 3, 4, 6, 8, 12, 16, 24])
        roll = rng.random()
        return str(n) if roll < 0.75 else (f"{n}..{n * 2}" if roll < 0.9 else "?")
    data = "..." if rng.random() < 0.05 else ",".join(dim() for _ in range(rank))
    if kind in ("DepthToSpace", "SpaceToDepth"):
        return kind, layer(kind, data, {"block_size": str(rng.randint(1, 3))})
    if kind == "ExtractImagePatches":
        pair = lambda lo, hi: f"{rng.randint(lo, hi)},{rng.randint(lo, hi)}"  # noqa: E731
        attrs = {"sizes": pair(1, 4), "strides": pair(1, 3), "rates": pair(1, 2),
                 "auto_pad": rng.choice(["valid", "same_upper", "same_lower"])}
        return kind, layer(kind, data, attrs, version="opset3")
    blocks = [rng.randint(1, 3) for _ in range(rank)]
    begin = [rng.randint(0 if kind == "BatchToSpace" else -1, 2) for _ in range(rank)]
    end = [rng.randint(0 if kind == "BatchToSpace" else -1, 2) for _ in range(rank)]
    values = [blocks if rng.random() < 0.9 else str(rank), begin, end]
    return kind, layer(kind, data, {}, values, "opset2")


def test_random_layers_match_the_runtime(tmp_path):
    loaded = random_differential(random_layer, 5150, 250, tmp_path)
    assert loaded >= 120


def test_stale_declared_dims_name_the_layers(tmp_path):
    path = opcheck.compare(blocks_model("DepthToSpace", [1, 16, 4, 6]), tmp_path, ["DepthToSpace"])
    assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 8), "op")
    path = opcheck.compare(batch_model("BatchToSpace", [48, 3, 3, 1], [[1, 2, 4, 3], [0, 0, 1, 0],
                                                                        [0, 0, 1, 0]]),
                           tmp_path, ["BatchToSpace"], stem="b")
    assert opcheck.named(opcheck.mutate(path, "op", 0, 2, 12), "op")
    path = opcheck.compare(patches_model([64, 3, 10, 10]), tmp_path, ["ExtractImagePatches"], stem="e")
    assert opcheck.named(opcheck.mutate(path, "op", 0, 1, 28), "op")
