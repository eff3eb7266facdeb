"""Pad-1/-12 and Tile-1 against the runtime: the notes' cases (pads and repeats as Consts,
Parameters and computed subgraphs), random layers both ways, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1, opset12  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.irsettle import assert_refused, compare_ir, differential, refused_ir  # noqa: E402
from support.ovvalues import computed, parameter  # noqa: E402

D = None


def value(spec, params, dtype=np.int64):
    """A list is a Const, "P<n>" a Parameter of length n ("P?" unknown, "P..." dynamic rank),
    a tuple a computed ShapeOf(Parameter)[indices] (+ add)."""
    if isinstance(spec, list):
        return opset1.constant(np.array(spec, dtype=dtype))
    if isinstance(spec, str):
        shape = None if spec == "P..." else [-1 if spec == "P?" else int(spec[1:])]
        p = parameter(shape, dtype)
        params.append(p)
        return p
    source, node = computed(*spec)
    params.append(source)
    return node


def pad_model(data, begin, end, mode="constant", version=1, et=np.float32):
    p = parameter(data, et)
    params = [p]
    build = opset1.pad if version == 1 else opset12.pad
    node = build(p, value(begin, params), value(end, params), mode, name="pad")
    return ov.Model([node], params)


@pytest.mark.parametrize("version", [1, 12])
@pytest.mark.parametrize("data,begin,end,mode", [
    ([1, 3, 10, 10], [0, 0, 1, 2], [0, 0, 3, 4], "constant"),
    ([1, 3, 10, 10], [0, 0, 9, 2], [0, 0, 3, 4], "reflect"),
    ([1, 3, 10, 10], [0, 0, 10, 2], [0, 0, 3, 4], "symmetric"),
    ([1, 3, 10, 10], [0, 0, -1, 2], [0, 0, 3, -4], "constant"),  # negative pads, Pad-1 too
    ([1, 3, 10, 10], [0, 0, -1, 2], [0, 0, 3, -4], "reflect"),
    ([1, 3, 10, 10], [0, 0, -11, 2], [0, 0, 3, -4], "constant"),
    ([1, 3, 10, 10], [0, 0, -15, 0], [0, 0, 0, 0], "constant"),  # a negative size: `?`
    ([1, 3, (10, 20), -1], [0, 0, 1, 2], [0, 0, 3, 4], "constant"),
    ([1, 3, (10, 20), -1], [0, 0, -1, -2], [0, 0, -3, -4], "constant"),
    ([1, 3, (2, 10), -1], [0, 0, -5, -5], [0, 0, 0, 0], "constant"),
    ([1, 3, (10, 20), -1], [0, 0, 10, 2], [0, 0, 3, 4], "reflect"),  # no check on intervals
    ([1, 3, 10, 10], ([1, 2, (5, 8), -1], [0, 1, 2, 3]), [0, 0, 0, 0], "constant"),
    ([1, 3, 10, 10], ([1, 2, (5, 8), -1], [0, 1, 2, 3], [-3, -3, -10, 0]), [0, 0, 0, 0], "constant"),
    ([1, 3, 10, 10], "P4", [0, 0, 3, 4], "constant"),
    ([1, 3, 10, 10], "P3", [0, 0, 3, 4], "constant"),
    ([1, 3, 10, 10], "P?", [0, 0, 3, 4], "constant"),
    ([1, 3, 10, 10], [0, 0, 3, 4], "P...", "constant"),
    (D, [0, 0, 1, 2], [0, 0, 3, 4], "constant"),
    ([1, 3, 0, 10], [0, 0, 1, 2], [0, 0, 3, 4], "constant"),
    ([1, 3, 10, 10], [0, 0, -2, 2], [0, 0, 3, 4], "edge"),
    ([1, 3, 1, 10], [0, 0, 0, 2], [0, 0, 0, 4], "reflect"),
    ([(1, 1 << 50), 3], [1, 0], [(1 << 61), 0], "constant"),
])
def test_pad_runtime_cases(tmp_path, version, data, begin, end, mode):
    opcheck.compare(pad_model(data, begin, end, mode, version), tmp_path, ["Pad"])


def test_pad_of_booleans_and_a_pad_value(tmp_path):
    opcheck.compare(pad_model([1, 3], [0, 1], [1, 0], et=np.bool_), tmp_path, ["Pad"])
    p = parameter([1, 3, 10, 10])
    node = opset1.pad(p, np.array([0, 0, 1, 2]), np.array([0, 0, 3, 4]), "constant",
                      np.float32(5.0), name="pad")
    opcheck.compare(ov.Model([node], [p]), tmp_path, ["Pad"], stem="value")


def tile_model(data, repeats, et=np.float32):
    p = parameter(data, et)
    params = [p]
    node = opset1.tile(p, value(repeats, params), name="tile")
    return ov.Model([node], params)


@pytest.mark.parametrize("data,repeats", [
    ([2, 3], [2, 3]), ([2, 3], [2]), ([2, 3], [2, 3, 4]), ([], [2, 3]), ([2, 3], [0, 3]),
    ([2, 3], [-1, 3]), ([2, 3], [-2, 3]), ([(2, 4), -1], [3, 2]), ([(2, 4), -1, 5], [3]),
    (D, [2, 3]), ([2, 3], "P2"), ([2, 3], "P3"), ([2, 3], "P?"), (D, "P3"),
    ([2, 3], ([1, (2, 5)], [0, 1])), ([2, 3], ([4, (2, 5), -1], [0, 1, 2])),
    ([(1, 1 << 40), 3], [1 << 30, 1]),
])
def test_tile_runtime_cases(tmp_path, data, repeats):
    opcheck.compare(tile_model(data, repeats), tmp_path, ["Tile"])


def layer(kind, data, inputs, attrs=None, et="f32"):
    ir = IR()
    args = [ir.parameter(data, et)]
    for spec in inputs:
        if isinstance(spec, tuple):  # (values, shape, type)
            args.append(ir.const(spec[0], spec[2], shape=spec[1]))
        elif isinstance(spec, list):
            args.append(ir.const(spec))
        else:
            args.append(ir.parameter(spec, "i64"))
    ir.result(ir.op(kind, args, [[1]], attrs or {}, name="op"))
    return ir


@pytest.mark.parametrize("kind,data,inputs,attrs", [
    ("Pad", "", [([], [0], "i64"), ([], [0], "i64")], {}),  # an empty Const without bytes is fine
    ("Pad", "1,3,10,10", ["5..6", "4"], {}),  # only a static length is checked
    ("Pad", "1,3,10,10", [[0, 0, 1, 2], [0, 0, 3, 4], ([5], [1], "f32")], {"pad_mode": "edge"}),
    ("Pad", "1,3,10,10", [([0, 0, 1, 2], [4], "i32"), ([0, 0, 3, 4], [4], "u8")], {}),
    ("Tile", "2,3", [([2, 3], [2], "i32")], {}),
])
def test_hand_written_layers(tmp_path, kind, data, inputs, attrs):
    compare_ir(layer(kind, data, inputs, attrs), tmp_path, [kind])


@pytest.mark.parametrize("kind,data,inputs,attrs,words", [
    ("Pad", "1,3,10,10", [[0, 0, 10, 2], [0, 0, 3, 4]], {"pad_mode": "reflect"}, "below the dim (10)"),
    ("Pad", "1,3,10,10", [[0, 0, 11, 2], [0, 0, 3, 4]], {"pad_mode": "symmetric"}, "at most the dim"),
    ("Pad", "1,3,0,10", [[0, 0, 1, 2], [0, 0, 3, 4]], {"pad_mode": "edge"}, "at least 1 at axis 2"),
    ("Pad", "1,3,1,10", [[0, 0, 0, 2], [0, 0, 1, 4]], {"pad_mode": "reflect"}, "at least 2 at axis 2"),
    ("Pad", "1,3,10,10", [[0, 0, 1], [0, 0, 3, 4]], {}, "pads_begin has 3 values"),
    ("Pad", "1,3,10,10", [[0, 0, 1, 2], [0, 0, 3, 4], ([5], [1], "f32")], {}, "must be a scalar"),
    ("Pad", "1,3,10,10", ["5", "4"], {}, "has 5 values for data of rank 4"),
    ("Pad", "1,3,10,10", [[0, 0, 1, 2], [0, 0, 3, 4]], {"pad_mode": "wrap"}, "attribute pad_mode"),
    ("Pad", "1,3,10,10", [[0, 0, 1, 2]], {}, "takes 3 or 4 inputs"),
    ("Pad", "1,3,10,10", [([0, 0, 1, 2], [2, 2], "i64"), [0, 0, 3, 4]], {}, "must be a 1-D"),
    ("Tile", "2,3", [([2, 3], [1, 2], "i64")], {}, "must be a 1-D tensor"),
    ("Tile", "2,3", [([2], [], "i64")], {}, "must be a 1-D tensor"),
    ("Tile", "2,3", [([], [0], "i64")], {}, "empty Const with no bytes"),
])
def test_what_the_runtime_refuses(tmp_path, kind, data, inputs, attrs, words):
    assert_refused(layer(kind, data, inputs, attrs), tmp_path, words)


@pytest.mark.parametrize("kind,inputs,words", [
    ("Pad", [([0, 0, 1, 2], [4], "f32"), [0, 0, 3, 4]], "must be an integer tensor"),
    ("Pad", [[0, 0, 1, 2], [0, 0, 3, 4], ([5], [], "i32")], "must have the data's element type"),
    ("Tile", [([2, 3], [2], "f32")], "must be an integer tensor"),
])
def test_element_types_the_runtime_refuses(tmp_path, kind, inputs, words):
    assert_refused(layer(kind, "1,3,10,10", inputs), tmp_path, words, code="IRV106")


def computed_layer(kind, data, dims, add):
    """ShapeOf(Parameter dims) + add, as pads_begin (Pad) or repeats (Tile), by hand (the
    openvino API refuses to build the negative ones)."""
    ir = IR()
    shape_of = ir.op("ShapeOf", [ir.parameter(dims)], [[len(add)]], {"output_type": "i64"},
                     version="opset3", out_precision="I64")
    values = ir.op("Add", [shape_of, ir.const(add)], [[len(add)]], out_precision="I64")
    args = [ir.parameter(data), values] + ([ir.const([0] * len(add))] if kind == "Pad" else [])
    ir.result(ir.op(kind, args, [[1]], name="op"))
    return ir


def test_computed_negative_values(tmp_path):
    # Pad reads bounds and takes a negative one; Tile refuses it ("can't be lower than zero")
    compare_ir(computed_layer("Pad", "1,3,10,10", "1,2,5..8,9", [-3, -3, -10, 0]), tmp_path, ["Pad"])
    ir = computed_layer("Tile", "2,3", "4,2..5", [-5, 0])
    assert "lower than zero" in refused_ir(ir, tmp_path)
    assert opcheck.named(ir.write(tmp_path, "mine"), "op")


def random_pad(rng):
    rank = rng.randint(0, 4)
    dims = [rng.randint(0, 9) for _ in range(rank)]
    text = "..." if rng.random() < 0.05 else ",".join(
        str(d) if rng.random() < 0.7 else rng.choice(["?", f"{d}..{d + 4}"]) for d in dims)
    mode = rng.choice(["constant", "constant", "edge", "reflect", "symmetric"])
    begin = [rng.randint(-3, 4) for _ in range(rank)]
    end = [rng.randint(-3, 4) for _ in range(rank)]
    inputs = [begin if rng.random() < 0.9 else str(rank), end]
    if rng.random() < 0.2 and mode == "constant":
        inputs.append(([0], [], "f32"))
    return layer("Pad", text, inputs, {"pad_mode": mode})


def random_tile(rng):
    rank = rng.randint(0, 4)
    text = "..." if rng.random() < 0.05 else ",".join(
        rng.choice(["1", "2", "3", "0", "?", "2..5", "1.."]) for _ in range(rank))
    repeats = [rng.randint(-1, 4) for _ in range(rng.randint(0, 5))]
    return layer("Tile", text, [repeats if rng.random() < 0.85 else str(len(repeats))])


def test_random_pads_and_tiles_match_the_runtime(tmp_path):
    rng = random.Random(99)
    loaded = sum(differential(random_pad(rng), tmp_path, ["Pad"], "op", stem=f"p{n}")
                 for n in range(150))
    assert loaded >= 80
    loaded = sum(differential(random_tile(rng), tmp_path, ["Tile"], "op", stem=f"t{n}")
                 for n in range(150))
    assert loaded >= 120


def test_stale_declared_dims_name_the_layers(tmp_path):
    path = opcheck.compare(pad_model([1, 3, 10, 10], [0, 0, 1, 2], [0, 0, 3, 4]), tmp_path, ["Pad"])
    assert opcheck.named(opcheck.mutate(path, "pad", 0, 2, 13), "pad")
    path = opcheck.compare(tile_model([2, 3], [2, 3]), tmp_path, ["Tile"], stem="t")
    assert opcheck.named(opcheck.mutate(path, "tile", 0, 1, 6), "tile")


def test_the_integer_checks_are_the_runtimes(tmp_path):
    # is_integral_number takes a string (measured) and refuses a boolean; Tile's is_integral
    # takes both
    for n, (kind, et) in enumerate((("Pad", "string"), ("Tile", "boolean"), ("Tile", "string"))):
        ir = IR()
        args = [ir.parameter("1,3")] + [ir.parameter("2", et)] * (2 if kind == "Pad" else 1)
        ir.result(ir.op(kind, args, [[1]], name="op"))
        compare_ir(ir, tmp_path, [kind], stem=f"m{n}")


def test_negative_pads_of_pad_1_are_a_divergence(tmp_path):
    from irvalidate.engine.validation import validate_file
    for version, expected in (("opset1", True), ("opset12", False)):
        ir = IR()
        args = [ir.parameter("1,3,10,10"), ir.const([0, 0, -1, 2]), ir.const([0, 0, 3, -4])]
        ir.result(ir.op("Pad", args, [[1, 3, 12, 8]], version=version, name="op"))
        codes = {f.code for f in validate_file(str(ir.write(tmp_path, version))).findings}
        assert ("IRV107" in codes) == expected and "IRV101" not in codes
