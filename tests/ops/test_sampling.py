"""RandomUniform and Multinomial against the runtime: shapes given as Consts, computed by
shape subgraphs or unknown, every attribute, min/max checks on every number type, random
configurations, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import (  # noqa: E402
    computed,
    computed_scalar,
    const,
    differential,
    model,
    param,
    refusal,
    shape_text,
)

TYPES = {"i32": np.int32, "i64": np.int64, "u8": np.uint8, "f16": np.float16, "f32": np.float32,
         "f64": np.float64}


def value(spec, et, params):
    """A number or list is a Const; ("p", shape) a Parameter; ("c", items) a 1-D value
    computed by ShapeOf -> Gather -> Concat; ("cs", dim) a computed scalar; ("sub", dim, n)
    a computed scalar minus n."""
    if isinstance(spec, tuple) and spec[0] == "p":
        params.append(param(spec[1], et))
        return params[-1]
    if isinstance(spec, tuple) and spec[0] == "c":
        return computed(spec[1], et, params=params)
    if isinstance(spec, tuple) and spec[0] == "cs":
        return computed_scalar(spec[1], et, params=params)
    if isinstance(spec, tuple) and spec[0] == "sub":
        return opset1.subtract(computed_scalar(spec[1], params=params), const(spec[2]))
    return const(spec, et)


def uniform(shape, low=0.0, high=1.0, attrs=None, types=None):
    t = {"shape": "i64", "min": "f32", "max": "f32", **(types or {})}
    params = []
    inputs = [value(shape, TYPES[t["shape"]], params), value(low, TYPES[t["min"]], params),
              value(high, TYPES[t["max"]], params)]
    node = NodeFactory("opset8").create("RandomUniform", inputs,
                                        {"output_type": "f32"} if attrs is None else attrs)
    node.set_friendly_name("r")
    return model(node, params)


def multinomial(probs, count, attrs=None, types=None):
    t = {"probs": "f32", "n": "i64", **(types or {})}
    x = param(probs, TYPES[t["probs"]])
    params = [x]
    node = NodeFactory("opset13").create("Multinomial", [x, value(count, TYPES[t["n"]], params)],
                                         {"convert_type": "i32"} if attrs is None else attrs)
    node.set_friendly_name("r")
    return model(node, params)


def check(built, tmp_path, kind, stem="model"):
    opcheck.compare_types(opcheck.compare(built, tmp_path, [kind], stem=stem), [kind])


@pytest.mark.parametrize("shape,low,high,attrs,types", [
    # RandomUniform.md
    ([2, 3], 0.0, 1.0, None, None), ([2, 0, 3], 0.0, 1.0, None, None), ([-1, 3], 0.0, 1.0, None, None),
    (("c", [(2, 6), 3]), 0.0, 1.0, None, None), (("p", [3]), 0.0, 1.0, None, None),
    (("p", [(2, 5)]), 0.0, 1.0, None, None), (("p", [-1]), 0.0, 1.0, None, None), (("p", None), 0.0, 1.0, None, None),
    ([2, 3], [0.0], [1.0], None, None), ([2, 3], ("p", []), ("p", []), None, None),
    # more
    ([-2, 3], 0.0, 1.0, None, None), (("c", [(2, 6), 3]), 0.0, 1.0, None, {"shape": "i32"}),
    (("p", [0]), 0.0, 1.0, None, None), ([2, 3], ("p", []), 1.0, None, None),
    ([2, 3], ("p", [-1]), 1.0, None, None), ([2, 3], ("p", [(1, 3)]), 1.0, None, None),
    ([2, 3], ("p", None), 1.0, None, None), ([2, 3], 0, 10, {"output_type": "i32"}, {"min": "i32", "max": "i32"}),
    ([2, 3], -7, -6, {"output_type": "i64"}, {"min": "i64", "max": "i64"}),
    ([2, 3], 0.0, 1.0, {"output_type": "f16"}, {"min": "f16", "max": "f16"}),
    ([2, 3], -1.5, -1.25, {"output_type": "f64"}, {"min": "f64", "max": "f64"}),
    ([2, 3], 0.0, 1.0, {"output_type": "f32", "alignment": "pytorch", "op_seed": 7, "global_seed": 9}, None),
    ([], 0.0, 1.0, None, None), ([3000], 0.0, 1.0, None, None), (("c", [4, (0, 3), 0]), 0.0, 1.0, None, None),
])
def test_random_uniform_cases(tmp_path, shape, low, high, attrs, types):
    check(uniform(shape, low, high, attrs, types), tmp_path, "RandomUniform")


@pytest.mark.parametrize("probs,count,attrs,types", [
    # Multinomial.md
    ([2, 5], 3, None, None), ([2, 5], [3], {"convert_type": "i64"}, None), ([2, 5], ("p", []), None, None),
    ([(1, 4), 5], 3, None, None), (None, 3, None, None), ([2, 5], 7, {"convert_type": "i32", "with_replacement": False}, None),
    ([2, 5], 0, None, None), ([2, 5], -1, None, None), ([2, 5], 3, {"convert_type": "f32"}, None),
    # more
    ([2, 5], -3, None, None), ([2, 5], ("cs", (2, 6)), None, None), ([2, 5], ("c", [(2, 6)]), None, None),
    ([2, 5], ("cs", 4), None, None), ([2, 5], ("p", [1]), None, None), ([2, 5], ("p", [-1]), None, None),
    ([2, 5], ("p", None), None, None), ([2, 5], ("p", [(1, 3)]), None, None), ([2, 5], 3, {"convert_type": "u8"}, None),
    ([2, 5], 3, None, {"n": "i32"}), ([2, 5], 3, None, {"n": "u8"}), ([2, 5], 3, None, {"probs": "f16"}),
    ([-1, -1], ("cs", (0, 9)), {"convert_type": "i64", "with_replacement": True, "log_probs": True,
                                "global_seed": 4, "op_seed": 3}, None),
])
def test_multinomial_cases(tmp_path, probs, count, attrs, types):
    check(multinomial(probs, count, attrs, types), tmp_path, "Multinomial")


def test_a_missing_convert_type_gives_a_dynamic_type(tmp_path, run):
    """The runtime reads it as dynamic and accepts it; the output precision is then free."""
    ir = IR()
    x, n = ir.parameter("2,5"), ir.const([3], shape=[])
    ir.result(ir.op("Multinomial", [x, n], [[2, 3]], {}, version="opset13", out_precision="I32"))
    assert [f for f in run(ir) if f.level == "error"] == []


def test_random_configurations_match_the_runtime(tmp_path):
    rng = random.Random(3)
    done = 0
    for n in range(200):
        if n % 2:
            shape = rng.choice([[rng.randint(-2, 5) for _ in range(rng.randint(0, 4))],
                                ("p", [rng.choice([0, 1, 3, -1, (1, 4)])]),
                                ("c", [rng.choice([(0, 5), 3, (2, -1), -1]) for _ in range(rng.randint(1, 3))])])
            et = rng.choice(["f32", "f16", "i32", "i64"])
            low, high = sorted(rng.sample(range(-5, 6), 2))
            if et.startswith("f"):
                low, high = low / 4, high / 4
            built = lambda: uniform(shape, low, high, {"output_type": et}, {"min": et, "max": et})  # noqa: E731
            kind = "RandomUniform"
        else:
            probs = None if rng.random() < 0.1 else [rng.choice([1, 3, -1, (1, 4)]), rng.choice([5, -1])]
            count = rng.choice([0, 3, -1, -2, [4], ("p", []), ("cs", (1, 7)), ("c", [(0, 3)])])
            built = lambda: multinomial(probs, count, {"convert_type": rng.choice(["i32", "i64", "f32"])})  # noqa: E731
            kind = "Multinomial"
        done += differential(built, tmp_path, [kind], f"m{n}", True)
    assert done > 150


def _uniform_ir(shape_values, low, high, attrs=None, shapes=None, ets=None):
    ets = {"shape": "i64", "min": "f32", "max": "f32", **(ets or {})}

    def build():
        ir = IR()
        s = ir.const(shape_values, ets["shape"], shape=(shapes or {}).get(0))
        lo = ir.const(low if isinstance(low, list) else [low], ets["min"], shape=(shapes or {}).get(1, []))
        hi = ir.const([high], ets["max"], shape=[])
        ir.result(ir.op("RandomUniform", [s, lo, hi], [[9]],
                        {"output_type": "f32"} if attrs is None else attrs, version="opset8",
                        out_precision="FP32"))
        return ir
    return build


@pytest.mark.parametrize("build,words", [
    (_uniform_ir([2, 3], 1.0, 1.0), "min 1 must be less than max 1"),
    (_uniform_ir([2, 3], 2.0, 1.0), "must be less than"),
    (_uniform_ir([2, 3], 5, 5, {"output_type": "i32"}, ets={"min": "i32", "max": "i32"}), "must be less"),
    (_uniform_ir([2, 3], [0.0, 1.0], 2.0, shapes={1: [2]}), "min (input 1) must be a scalar"),
    (_uniform_ir([2, 3], 0.0, 1.0, shapes={0: [1, 2]}), "must be a 1-D tensor"),
    (_uniform_ir([2, 3], 0.0, 1.0, ets={"shape": "i8"}), "i32 or i64"),
    (_uniform_ir([2, 3], 0.0, 1.0, {"output_type": "i32"}), "output_type i32"),
    (_uniform_ir([2, 3], 0, 9, {"output_type": "u8"}, ets={"min": "u8", "max": "u8"}), "output_type u8"),
    (_uniform_ir([2, 3], 0.0, 1, ets={"max": "i32"}), "must be one type"),
    (_uniform_ir([2, 3], 0.0, 1.0, {}), "output_type is missing"),
    (_uniform_ir([2, 3], 0.0, 1.0, {"output_type": "dynamic"}), "output_type dynamic"),
])
def test_what_the_runtime_refuses_of_random_uniform(tmp_path, build, words):
    refusal(tmp_path, build, "RandomUniform", words)


def _multinomial_ir(probs, count, attrs=None, count_shape=None, ets=None):
    ets = {"probs": "f32", "n": "i64", **(ets or {})}

    def build():
        ir = IR()
        x = ir.parameter(shape_text(probs), ets["probs"])
        n = ir.const(count, ets["n"], shape=count_shape)
        ir.result(ir.op("Multinomial", [x, n], [[9, 9]], {"convert_type": "i32"} if attrs is None else attrs,
                        version="opset13", out_precision="I32"))
        return ir
    return build


@pytest.mark.parametrize("build,words", [
    (_multinomial_ir([5], [3], count_shape=[]), "must be 2-D"),
    (_multinomial_ir([2, 5, 1], [3], count_shape=[]), "must be 2-D"),
    (_multinomial_ir([2, 5], [3, 4]), "num_samples (input 1) must be a scalar"),
    (_multinomial_ir([2, 5], [3], count_shape=[], ets={"probs": "i32"}), "floating-point"),
    (_multinomial_ir([2, 5], [3], count_shape=[], ets={"n": "f32"}), "must be an integer"),
])
def test_what_the_runtime_refuses_of_multinomial(tmp_path, build, words):
    refusal(tmp_path, build, "Multinomial", words)


def test_a_computed_count_that_can_be_negative_is_refused(tmp_path):
    for build in (lambda: multinomial([2, 5], ("sub", (2, 6), 3)),
                  lambda: uniform(("c", [(2, 6), -1]))):
        assert "lower than zero" in opcheck.refused(build, tmp_path)

    def ir_build():
        ir = IR()
        x, y = ir.parameter("2,5"), ir.parameter("2..6")
        shape = ir.op("ShapeOf", [y], [[1]], {"output_type": "i64"}, version="opset3", out_precision="I64")
        first = ir.op("Gather", [shape, ir.const([0], shape=[]), ir.const([0], shape=[])], [[]],
                      {"batch_dims": "0"}, version="opset8")
        count = ir.op("Subtract", [first, ir.const([3], shape=[])], [[]])
        ir.result(ir.op("Multinomial", [x, count], [[2, -1]], {"convert_type": "i32"},
                        version="opset13", out_precision="I32"))
        return ir
    refusal(tmp_path / "ir", ir_build, "Multinomial", "lower than zero")


def test_stale_dims_name_the_layers(tmp_path):
    path = opcheck.compare(uniform([2, 3]), tmp_path, ["RandomUniform"])
    assert opcheck.named(opcheck.mutate(path, "r", 0, 1, 4), "r")
    path = opcheck.compare(multinomial([2, 5], 3), tmp_path, ["Multinomial"], stem="m")
    assert opcheck.named(opcheck.mutate(path, "r", 0, 1, 4), "r")
