"""ConvertPromoteTypes against the runtime: the notes' cases and every pair of supported
types under every attribute combination (shapes pass through; the common type must be the
runtime's, or refused where it refuses), refusals and a stale dim."""
import itertools
import random

import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import model, refusal, shape  # noqa: E402

TYPES = ("boolean", "f16", "f32", "f64", "i4", "i8", "i16", "i32", "i64", "u1", "u4", "u8", "u16",
         "u32", "u64", "f8e4m3", "f8e5m2", "bf16")


def promote(a, b, et_a, et_b, attrs=None):
    x = opset1.parameter(shape(a), getattr(ov.Type, et_a), name="a")
    y = opset1.parameter(shape(b), getattr(ov.Type, et_b), name="b")
    node = NodeFactory("opset14").create("ConvertPromoteTypes", [x, y], attrs or {})
    node.set_friendly_name("c")
    return model(node, [x, y])


def check(built, tmp_path, stem="model"):
    path = opcheck.compare(built, tmp_path, ["ConvertPromoteTypes"], stem=stem)
    opcheck.compare_types(path, ["ConvertPromoteTypes"])
    found = opcheck.inferred_types(path)["c"]
    assert None not in found, found  # every type the runtime accepts is inferred


@pytest.mark.parametrize("a,b,et_a,et_b,attrs", [
    # ConvertPromoteTypes.md
    ([2, 3], [4], "f32", "f16", None), ([2, 3], [4], "i32", "u8", None), ([2, 3], [4], "boolean", "u8", None),
    ([2, 3], [4], "dynamic", "f16", None), ([(1, 4), -1], None, "f32", "f32", None),
    ([2], [3], "i32", "u32", {"promote_unsafe": True}), ([2], [3], "i64", "u64", {"promote_unsafe": True}),
    ([2], [3], "i64", "u64", {"promote_unsafe": True, "u64_integer_promotion_target": "i64"}),
    ([2], [3], "bf16", "f16", {"promote_unsafe": True}), ([2], [3], "f8e4m3", "f16", None),
    ([2], [], "boolean", "i64", {"pytorch_scalar_promotion": True}),
    # more
    ([], [3], "i64", "i8", {"pytorch_scalar_promotion": True, "promote_unsafe": True}),
    ([2], None, "i64", "i8", {"pytorch_scalar_promotion": True}), ([], [], "f32", "f16", {"pytorch_scalar_promotion": True}),
    ([2], [], "f16", "f32", {"pytorch_scalar_promotion": True, "promote_unsafe": True}),
    ([2], [], "i32", "u8", {"pytorch_scalar_promotion": True}), ([-1], [], "u8", "i8", {"pytorch_scalar_promotion": True, "promote_unsafe": True}),
    ([2], [3], "u4", "i4", {"promote_unsafe": True}), ([2], [3], "u1", "i8", None), ([2], [3], "f8e5m2", "f8e4m3", {"promote_unsafe": True}),
])
def test_the_notes_cases(tmp_path, a, b, et_a, et_b, attrs):
    check(promote(a, b, et_a, et_b, attrs), tmp_path)


def _ir(et_a, et_b, a="2", b="3", attrs=None):
    def build():
        ir = IR()
        x, y = ir.parameter(a, et_a), ir.parameter(b, et_b)
        out = ir.op("ConvertPromoteTypes", [x, y], [[9], [9]], attrs or {}, version="opset14")
        ir.result(out)
        return ir
    return build


def test_every_pair_of_types_under_every_attribute(tmp_path):
    """18 x 18 types, 2 x 2 flags and two rank pairs, sampled: the runtime's common type, or
    a refusal where it refuses (the hand-written file then names the layer)."""
    rng = random.Random(2)
    combos = list(itertools.product(TYPES, TYPES, (False, True), (False, True)))
    compared = refused = 0
    for n, (et_a, et_b, unsafe, pytorch) in enumerate(rng.sample(combos, 260)):
        ranks = rng.choice([([2], [3]), ([], [3]), ([2], []), (None, [])])
        attrs = {"promote_unsafe": unsafe, "pytorch_scalar_promotion": pytorch,
                 "u64_integer_promotion_target": rng.choice(["f32", "i64", "f16"])}
        try:
            built = promote(*ranks, et_a, et_b, attrs)
        except RuntimeError:
            text = {k: str(v).lower() for k, v in attrs.items()}
            refusal(tmp_path / f"r{n}", _ir(et_a, et_b, *(("..." if r is None else ",".join(map(str, r)))
                                                         for r in ranks), text),
                    "ConvertPromoteTypes")
            refused += 1
            continue
        check(built, tmp_path, f"m{n}")
        compared += 1
    assert compared > 120 and refused > 40


@pytest.mark.parametrize("et_a,et_b,attrs,words", [
    ("f32", "i32", None, "cannot be promoted safely to f32"),
    ("i32", "u32", None, "unsigned type cannot be promoted safely"),
    ("i8", "u8", None, "unsigned type"), ("bf16", "f16", None, "no common type"),
    ("string", "f16", None, "does not take string"), ("nf4", "f16", None, "does not take nf4"),
])
def test_what_the_runtime_refuses(tmp_path, et_a, et_b, attrs, words):
    refusal(tmp_path, _ir(et_a, et_b, attrs=attrs), "ConvertPromoteTypes", words)


@pytest.mark.parametrize("a,b,et_a,et_b", [("2,3", "", "f16", "f32"), ("", "4", "i64", "i8")])
def test_pytorch_scalars_the_runtime_refuses(tmp_path, a, b, et_a, et_b):
    refusal(tmp_path, _ir(et_a, et_b, a, b, {"pytorch_scalar_promotion": "true"}),
            "ConvertPromoteTypes", "the PyTorch way")


def test_a_missing_promote_unsafe_reads_false(tmp_path):
    refusal(tmp_path, _ir("f32", "i32", attrs={"pytorch_scalar_promotion": "false"}),
            "ConvertPromoteTypes", "promote_unsafe is false")


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = opcheck.compare(promote([2, 3], [4], "f32", "f16"), tmp_path, ["ConvertPromoteTypes"])
    assert opcheck.named(opcheck.mutate(path, "c", 1, 0, 5), "c")
