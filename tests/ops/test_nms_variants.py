"""MatrixNms-8, MulticlassNms-8/-9 and NMSRotated-13 against the runtime: the bounds of the
selected count (the notes' cases, intervals, unbounded dims, limits), the roisnum form,
attribute defaults and checks, random configurations, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset8  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import both_ways, const, model, near_shape, param, refusal, shape_text  # noqa: E402

_ET = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i32": np.int32, "i64": np.int64,
       "u8": np.uint8, "bf16": ov.Type.bf16}
MATRIX = dict(sort_result_type="none", output_type="i64", nms_top_k=-1, keep_top_k=-1,
              sort_result_across_batch=False, score_threshold=0.0, background_class=-1,
              decay_function="linear", gaussian_sigma=2.0, post_threshold=0.0, normalized=True)
MULTICLASS = dict(sort_result_type="none", output_type="i64", nms_top_k=-1, keep_top_k=-1,
                  sort_result_across_batch=False, iou_threshold=0.0, score_threshold=0.0,
                  background_class=-1, nms_eta=1.0, normalized=True)
ROTATED = dict(sort_result_descending=True, output_type="i64", clockwise=True)
DEFAULTS = {"MatrixNms": MATRIX, "MulticlassNms": MULTICLASS, "NMSRotated": ROTATED}


def _written(attrs):
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in attrs.items()}


def nms(kind, version, shapes, attrs=None, types=None):
    types = types or ["f32", "f32", "i64"][:len(shapes)]
    params = [param(s, _ET[t]) for s, t in zip(shapes, types)]
    node = NodeFactory(f"opset{version}").create(kind, params, {**DEFAULTS[kind], **(attrs or {})})
    node.set_friendly_name("nms")
    return model(node, params)


def nms_ir(kind, version, inputs, attrs=None, data=None):
    """By hand: ``inputs`` are ``(shape, et)`` Parameters or ``("c", values, et, shape)`` Consts."""
    def build():
        ir = IR()
        refs = []
        for spec in inputs:
            if spec[0] == "c":
                refs.append(ir.const(spec[1], spec[2], shape=spec[3]))
            else:
                refs.append(ir.parameter(shape_text(spec[0]), spec[1]))
        written = data if data is not None else _written({**DEFAULTS[kind], **(attrs or {})})
        layer = ir.op(kind, refs, [[9], [9], [9]], written, version=f"opset{version}", name="nms")
        for k in range(3):
            ir.result(layer.__class__(layer.layer, str(len(refs) + k), [9], layer.precision))
        return ir
    return build


S = [[2, 100, 4], [2, 5, 100]]


@pytest.mark.parametrize("shapes,attrs", [
    (S, {}), (S, {"nms_top_k": 10}), (S, {"nms_top_k": 10, "keep_top_k": 30}), (S, {"keep_top_k": 1000}),
    (S, {"keep_top_k": 0}), (S, {"nms_top_k": 0}), (S, {"nms_top_k": 200}), (S, {"background_class": 7}),
    ([[(1, 3), (50, 100), 4], [-1, 5, -1]], {}), ([[(1, 3), (50, 100), 4], [-1, 5, -1]], {"nms_top_k": 10}),
    ([[2, (50, 100), 4], [2, 5, -1]], {"nms_top_k": 10, "keep_top_k": 7}), ([[2, -1, 4], [2, 5, -1]], {"nms_top_k": 10}),
    ([[2, -1, 4], [2, 5, -1]], {"keep_top_k": 10}), ([[2, -1, 4], [2, (1, 5), -1]], {"keep_top_k": 10}),
    ([[2, 100, 4], None], {}), ([None, None], {}), ([None, [2, 5, 100]], {"nms_top_k": -5}),
    ([[2, 0, 4], [2, 5, 0]], {}), ([[2, (0, 3), 4], [2, 5, -1]], {"nms_top_k": 10}),
    ([[(2, 4), (3, 9), 4], [-1, (2, 3), -1]], {"keep_top_k": 20}), ([[2, 100, -1], [2, 5, -1]], {"nms_top_k": 3}),
    (S, {"output_type": "i32"}), ([[2, -1, 4], [2, 5, -1]], {"nms_top_k": 0}),
    ([[2, 3, 4], [2, -1, 3]], {"keep_top_k": 0}), ([[-1, 3, 4], [-1, 2, 3]], {"keep_top_k": 0}),
    ([[(2, -1), 3, 4], [(2, -1), 2, 3]], {"keep_top_k": 4}),
])
def test_matrix_nms_runtime_cases(tmp_path, shapes, attrs):
    opcheck.compare(nms("MatrixNms", 8, shapes, attrs), tmp_path, ["MatrixNms"])


def test_matrix_nms_types(tmp_path):
    for n, et in enumerate(["f16", "bf16"]):
        opcheck.compare(nms("MatrixNms", 8, S, types=[et, et]), tmp_path, ["MatrixNms"], stem=f"m{n}")


@pytest.mark.parametrize("version", [8, 9])
@pytest.mark.parametrize("shapes,attrs", [
    (S, {}), (S, {"nms_top_k": 10, "keep_top_k": 30}), (S, {"keep_top_k": 1000}), (S, {"keep_top_k": 0}),
    (S, {"background_class": 0}), (S, {"nms_eta": 0.5}), ([[(1, 3), (50, 100), 4], [-1, 5, -1]], {}),
    ([[(1, 3), (50, 100), 4], [-1, 5, -1]], {"nms_top_k": 10}), ([[2, (50, 100), 4], [2, 5, -1]], {"nms_top_k": 10}),
    ([[2, (50, 100), 4], [2, 5, -1]], {"keep_top_k": 10}), ([[2, -1, 4], [2, 5, -1]], {"keep_top_k": 10}),
    ([[2, -1, 4], [2, (1, 5), -1]], {"keep_top_k": 10}), ([[2, (0, 3), 4], [2, 5, -1]], {"nms_top_k": 10}),
    ([None, None], {}), ([None, [2, 5, 100]], {}), ([[2, 0, 4], [2, 5, 0]], {}), (S, {"output_type": "i32"}),
    ([[(2, 4), (3, 9), 4], [-1, (2, 3), -1]], {"keep_top_k": 20}), ([[2, -1, 4], [2, 5, -1]], {"nms_top_k": 0}),
    ([[2, 3, 4], [2, -1, 3]], {"keep_top_k": 0}), ([[-1, 3, 4], [-1, 2, 3]], {"keep_top_k": 0}),
    ([[(2, -1), 3, 4], [(2, -1), 2, 3]], {"keep_top_k": 4}),
])
def test_multiclass_nms_runtime_cases(tmp_path, shapes, attrs, version):
    opcheck.compare(nms("MulticlassNms", version, shapes, attrs), tmp_path, ["MulticlassNms"])


@pytest.mark.parametrize("shapes,attrs,roisnum", [
    ([[5, 100, 4], [5, 100], [2]], {}, "i64"), ([[5, 100, 4], [5, 100], [2]], {"nms_top_k": 10, "keep_top_k": 30}, "i32"),
    ([[5, 100, 4], [5, 100], [(1, 4)]], {"background_class": 0}, "i64"), ([None, None, [2]], {}, "i64"),
    ([None, [5, 100], [2]], {}, "i64"), ([[5, 100, 4], [5, 100], None], {}, "i64"), ([None, None, None], {}, "i32"),
    ([[(2, 6), (10, 20), 4], [(3, 5), -1], [(1, 4)]], {"nms_top_k": 15}, "i64"),
    ([[5, -1, 4], [5, -1], [3]], {"keep_top_k": 7}, "i64"),
])
def test_multiclass_nms_9_with_roisnum(tmp_path, shapes, attrs, roisnum):
    opcheck.compare(nms("MulticlassNms", 9, shapes, attrs, ["f32", "f32", roisnum]), tmp_path, ["MulticlassNms"])


def rotated(boxes, scores, limit=10, types=("f32", "f32"), attrs=None):
    """``limit``: a number (a scalar Const), ``[n]`` (a 1-D Const), ``"unknown"`` (a Parameter),
    ``("shape", d)`` (a Gather of the static dim of a ShapeOf: constant, but computed)."""
    params = [param(boxes, _ET[types[0]]), param(scores, _ET[types[1]])]
    if limit == "unknown":
        params.append(param([], np.int64))
        k = params[-1]
    elif isinstance(limit, tuple):
        params.append(param([limit[1]]))
        k = opset8.gather(opset8.shape_of(params[-1]), const(0), const(0))
    else:
        k = const(limit)
    node = NodeFactory("opset13").create("NMSRotated", [params[0], params[1], k, const(0.5, np.float32),
                                                        const(0.1, np.float32)], {**ROTATED, **(attrs or {})})
    node.set_friendly_name("nms")
    return model(node, params)


@pytest.mark.parametrize("boxes,scores,limit", [
    ([2, 100, 5], [2, 3, 100], 10), ([2, 100, 5], [2, 3, 100], 1000), ([2, 100, 5], [2, 3, 100], [10]),
    ([2, 100, 5], [2, 3, 100], -1), ([2, 100, 5], [2, 3, 100], -5), ([2, 100, 5], [2, 3, 100], 0),
    ([2, 100, 5], [2, 3, 100], "unknown"), ([2, 100, 5], [2, 3, 100], ("shape", 7)),
    ([2, 100, 5], [2, 3, 100], ("shape", (2, 5))),
    ([2, (50, 100), 5], [2, 3, -1], 10), ([(1, 2), (50, 100), 5], [-1, 3, -1], 10),
    ([(1, 2), 100, 5], [(1, 2), (2, 3), 100], 10), ([(1, 2), 100, 5], [(1, 2), (2, 3), 100], -1),
    ([2, 100, 5], None, 10), (None, [2, 3, 100], 10), (None, None, 10), ([2, 0, 5], [2, 3, 0], 10),
    ([0, 100, 5], [0, 3, 100], 10), ([0, 100, 5], [0, 3, 100], -5), ([0, 100, 5], [0, 3, 100], "unknown"),
    ([0, 100, 5], [0, 3, 100], -1), ([2, 100, 5], [2, 0, 100], -5), ([2, -1, 5], [2, 3, -1], 10),
    ([2, 100, -1], [2, 3, 100], 2 ** 40), ([2 ** 40, 100, 5], [2 ** 40, 2 ** 40, 100], 2 ** 40),
])
def test_nms_rotated_runtime_cases(tmp_path, boxes, scores, limit):
    opcheck.compare(rotated(boxes, scores, limit), tmp_path, ["NMSRotated"])


def test_nms_rotated_types(tmp_path):
    opcheck.compare(rotated([2, 100, 5], [2, 3, 100], types=("f16", "f16")), tmp_path, ["NMSRotated"])
    opcheck.compare(rotated([2, 100, 5], [2, 3, 100], types=("f16", "f32"), attrs={"output_type": "i32"}),
                    tmp_path, ["NMSRotated"], stem="i32")


@pytest.mark.parametrize("kind,version", [("MatrixNms", 8), ("MulticlassNms", 9), ("NMSRotated", 13)])
def test_every_missing_attribute_keeps_its_default(tmp_path, kind, version):
    if kind == "NMSRotated":
        inputs = [([2, 100, 5], "f32"), ([2, 3, 100], "f32"), ("c", [10], "i64", []), ("c", [0.5], "f32", []),
                  ("c", [0.1], "f32", [])]
    else:
        inputs = [(S[0], "f32"), (S[1], "f32")]
    for name in DEFAULTS[kind]:
        data = _written({k: v for k, v in DEFAULTS[kind].items() if k != name})
        path = nms_ir(kind, version, inputs, data=data)().write(tmp_path, stem=name)
        runtime = opcheck.runtime_shapes(path)["nms"]
        assert [o["inferred"] for o in opcheck.irvalidate_shapes(path)["nms"]["outputs"]] == runtime, name
        # (the hand-written output ports are placeholders: only refusals and unread attributes count)
        codes = {f.code for f in validate_file(str(path)).findings}
        assert not codes & {"IRV102", "IRV104", "IRV105", "IRV108"}, name


def _random_shapes(rng, b, m, c, rois):
    if rois:
        return [near_shape(rng, [c, m, 4]), near_shape(rng, [c, m]), near_shape(rng, [b])]
    return [near_shape(rng, [b, m, 4]), near_shape(rng, [b, c, m])]


def _random_attrs(rng):
    return {"nms_top_k": rng.choice([-1, -1, 0, 5, 200]), "keep_top_k": rng.choice([-1, -1, 0, 3, 50, 2000]),
            "background_class": rng.choice([-1, 0, 2]), "output_type": rng.choice(["i32", "i64"])}


@pytest.mark.parametrize("kind,version,rois", [("MatrixNms", 8, False), ("MulticlassNms", 8, False),
                                               ("MulticlassNms", 9, False), ("MulticlassNms", 9, True)])
def test_random_configurations_match_the_runtime(tmp_path, kind, version, rois):
    rng = random.Random(version * 10 + rois)
    compared = 0
    for n in range(70):
        shapes = _random_shapes(rng, rng.choice([1, 2, 3]), rng.choice([4, 10, 50]), rng.choice([1, 3, 7]), rois)
        attrs = _random_attrs(rng)
        et = rng.choice(["f32", "f16"])
        types = [et, et, rng.choice(["i32", "i64"])][:len(shapes)]
        hand = nms_ir(kind, version, list(zip(shapes, types)), attrs)
        compared += both_ways(lambda: nms(kind, version, shapes, attrs, types), hand, tmp_path, [kind], f"m{n}")
    assert compared > 35


def test_random_rotated_configurations_match_the_runtime(tmp_path):
    rng = random.Random(13)
    compared = 0
    for n in range(80):
        b, m, c = rng.choice([1, 2, 3]), rng.choice([4, 10, 50]), rng.choice([1, 3, 7])
        boxes, scores = _random_shapes(rng, b, m, c, False)
        if boxes is not None and len(boxes) == 3:
            boxes[2] = 5 if rng.random() < 0.95 else 4
        limit = rng.choice([0, 3, 20, 1000, -1, -2, "unknown", ("shape", 6), [7]])
        types = (rng.choice(["f32", "f16"]), rng.choice(["f32", "f16"]))
        k = ("c", limit, "i64", [1]) if isinstance(limit, list) else ("c", [limit], "i64", []) \
            if isinstance(limit, int) else ([], "i64") if limit == "unknown" else ([6], "f32")
        hand = nms_ir("NMSRotated", 13, [(boxes, types[0]), (scores, types[1]), k, ("c", [0.5], "f32", []),
                                         ("c", [0.1], "f32", [])])
        compared += both_ways(lambda: rotated(boxes, scores, limit, types), hand, tmp_path, ["NMSRotated"], f"r{n}")
    assert compared > 40


B, SC = ([2, 100, 4], "f32"), ([2, 5, 100], "f32")
RB, RS, K, IOU = ([2, 100, 5], "f32"), ([2, 3, 100], "f32"), ("c", [10], "i64", []), ("c", [0.5], "f32", [])


@pytest.mark.parametrize("build,kind,words", [
    (nms_ir("MatrixNms", 8, [B, ([3, 5, 100], "f32")]), "MatrixNms", "same first dim"),
    (nms_ir("MatrixNms", 8, [B, ([2, 5, 90], "f32")]), "MatrixNms", "as many boxes"),
    (nms_ir("MatrixNms", 8, [([2, 100, 5], "f32"), SC]), "MatrixNms", "4 coordinates"),
    (nms_ir("MatrixNms", 8, [([2, 100, 5], "f32"), (None, "f32")]), "MatrixNms", "4 coordinates"),
    (nms_ir("MatrixNms", 8, [([2, 100], "f32"), SC]), "MatrixNms", "3-D"),
    (nms_ir("MatrixNms", 8, [(None, "f32"), ([2, 5], "f32")]), "MatrixNms", "3-D"),
    (nms_ir("MatrixNms", 8, [B, SC], {"nms_top_k": -2}), "MatrixNms", "nms_top_k"),
    (nms_ir("MatrixNms", 8, [B, SC], {"keep_top_k": -2}), "MatrixNms", "keep_top_k"),
    (nms_ir("MatrixNms", 8, [B, SC], {"background_class": -2}), "MatrixNms", "background_class"),
    (nms_ir("MatrixNms", 8, [B, SC], {"output_type": "f32"}), "MatrixNms", "output_type"),
    (nms_ir("MatrixNms", 8, [B, SC], {"sort_result_type": "bad"}), "MatrixNms", "sort_result_type"),
    (nms_ir("MatrixNms", 8, [B, SC], {"decay_function": "bad"}), "MatrixNms", "decay_function"),
    (nms_ir("MatrixNms", 8, [(B[0], "f16"), SC]), "MatrixNms", "same element type"),
    (nms_ir("MatrixNms", 8, [(B[0], "i32"), (SC[0], "i32")]), "MatrixNms", "f32 or f16 or bf16"),
    (nms_ir("MatrixNms", 8, [B]), "MatrixNms", "takes 2 inputs"),
    (nms_ir("MulticlassNms", 9, [B, (None, "f32")]), "MulticlassNms", "out-of-range"),
    (nms_ir("MulticlassNms", 8, [B, (None, "f32")]), "MulticlassNms", "out-of-range"),
    (nms_ir("MulticlassNms", 9, [B, ([3, 5, 100], "f32")]), "MulticlassNms", "same first dim"),
    (nms_ir("MulticlassNms", 9, [B, ([2, 5, 90], "f32")]), "MulticlassNms", "as many boxes"),
    (nms_ir("MulticlassNms", 9, [([2, 100, 5], "f32"), SC]), "MulticlassNms", "4 coordinates"),
    (nms_ir("MulticlassNms", 9, [(None, "f32"), SC], {"nms_top_k": -5}), "MulticlassNms", "nms_top_k"),
    (nms_ir("MulticlassNms", 9, [B, SC], {"nms_eta": 2.0}), "MulticlassNms", "nms_eta"),
    (nms_ir("MulticlassNms", 9, [B, SC], {"nms_eta": -0.5}), "MulticlassNms", "nms_eta"),
    (nms_ir("MulticlassNms", 9, [B, SC], {"output_type": "f32"}), "MulticlassNms", "output_type"),
    (nms_ir("MulticlassNms", 9, [(B[0], "f64"), (SC[0], "f64")]), "MulticlassNms", "f32 or f16 or bf16"),
    (nms_ir("MulticlassNms", 9, [([5, 100, 4], "f32"), ([5, 90], "f32"), ([2], "i64")]), "MulticlassNms",
     "as many boxes"),
    (nms_ir("MulticlassNms", 9, [([5, 100, 4], "f32"), ([4, 100], "f32"), ([2], "i64")]), "MulticlassNms",
     "same first dim"),
    (nms_ir("MulticlassNms", 9, [([5, 100, 4], "f32"), ([5, 100], "f32"), ([2, 1], "i64")]), "MulticlassNms", "1-D"),
    (nms_ir("MulticlassNms", 9, [([5, 100, 4], "f32"), ([5, 100, 1], "f32"), ([2], "i64")]), "MulticlassNms", "2-D"),
    (nms_ir("MulticlassNms", 9, [([5, 100, 4], "f32"), ([5, 100], "f32"), ([2], "f32")]), "MulticlassNms",
     "i32 or i64"),
    (nms_ir("MulticlassNms", 8, [([5, 100, 4], "f32"), ([5, 100], "f32"), ([2], "i64")]), "MulticlassNms",
     "takes 2 inputs"),
    (nms_ir("MulticlassNms", 8, [(None, "f32"), (None, "f32"), ([2], "i64")]), "MulticlassNms", "takes 2 inputs"),
    (nms_ir("NMSRotated", 13, [RB, RS, K, IOU]), "NMSRotated", "takes 5 inputs"),
    (nms_ir("NMSRotated", 13, [([2, 100, 4], "f32"), RS, K, IOU, IOU]), "NMSRotated", "5 values per box"),
    (nms_ir("NMSRotated", 13, [RB, ([3, 3, 100], "f32"), K, IOU, IOU]), "NMSRotated", "same first dim"),
    (nms_ir("NMSRotated", 13, [RB, ([2, 3, 90], "f32"), K, IOU, IOU]), "NMSRotated", "as many boxes"),
    (nms_ir("NMSRotated", 13, [([2, 100, 5, 1], "f32"), RS, K, IOU, IOU]), "NMSRotated", "3-D"),
    (nms_ir("NMSRotated", 13, [RB, RS, ("c", [10, 20], "i64", [2]), IOU, IOU]), "NMSRotated", "one value"),
    (nms_ir("NMSRotated", 13, [RB, RS, ("c", [10], "i64", [1, 1]), IOU, IOU]), "NMSRotated", "one value"),
    (nms_ir("NMSRotated", 13, [RB, RS, K, ("c", [0.5, 0.3], "f32", [2]), IOU]), "NMSRotated", "iou_threshold"),
    (nms_ir("NMSRotated", 13, [(RB[0], "i32"), RS, K, IOU, IOU]), "NMSRotated", "floating"),
    (nms_ir("NMSRotated", 13, [RB, (RS[0], "i32"), K, IOU, IOU]), "NMSRotated", "floating"),
    (nms_ir("NMSRotated", 13, [RB, RS, ("c", [10], "f32", []), IOU, IOU]), "NMSRotated", "integer"),
    (nms_ir("NMSRotated", 13, [RB, RS, ([], "boolean"), IOU, IOU]), "NMSRotated", "integer"),
    (nms_ir("NMSRotated", 13, [RB, RS, K, ("c", [1], "i64", []), IOU]), "NMSRotated", "floating"),
    (nms_ir("NMSRotated", 13, [RB, RS, K, IOU, IOU], {"output_type": "f32"}), "NMSRotated", "output_type"),
])
def test_what_the_runtime_refuses(tmp_path, build, kind, words):
    refusal(tmp_path, build, kind, words)


def test_nms_rotated_accepts_any_integer_limit_and_ignores_box_encoding(tmp_path):
    for n, et in enumerate(["u8", "i8", "i32", "u64"]):
        inputs = [RB, RS, ("c", [10], et, []), IOU, IOU]
        path = nms_ir("NMSRotated", 13, inputs, {"box_encoding": "bad"})().write(tmp_path, stem=f"m{n}")
        assert opcheck.runtime_shapes(path)["nms"][0] == "[..60,3]"
        assert [o["inferred"] for o in opcheck.irvalidate_shapes(path)["nms"]["outputs"]][0] == "[..60,3]"


@pytest.mark.parametrize("build,types,port", [
    (lambda: nms("MatrixNms", 8, S), ["MatrixNms"], 0), (lambda: nms("MulticlassNms", 9, S), ["MulticlassNms"], 2),
    (lambda: rotated([2, 100, 5], [2, 3, 100]), ["NMSRotated"], 2),
])
def test_a_stale_declared_dim_names_the_nms(tmp_path, build, types, port):
    path = opcheck.compare(build(), tmp_path, types)
    # the serializer's own file: no finding at all (no unread attribute, no warning)
    assert not [f for f in validate_file(str(path)).findings if f.layer is not None and f.layer.name == "nms"]
    # a selected count the runtime bounds is declared -1: the static dims are the stale ones
    axis = 1 if port < 2 else 0
    assert opcheck.named(opcheck.mutate(path, "nms", port, axis, 9), "nms")
