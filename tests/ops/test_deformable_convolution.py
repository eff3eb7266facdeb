"""DeformableConvolution-1 and -8 against the runtime: the notes' cases, the missing group
attributes, random layers both ways, refusals and a stale dim."""
import random

import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1, opset8  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.irsettle import assert_refused, differential  # noqa: E402
from support.ovvalues import parameter  # noqa: E402

D = None


def model(shapes, v8=False, strides=(1, 1), pads=(0, 0), auto_pad="explicit", group=1, dg=1, **kw):
    params = [parameter(s, name=f"in{i}") for i, s in enumerate(shapes)]
    args = dict(auto_pad=auto_pad, group=group, deformable_group=dg, name="dconv")
    if v8:
        node = opset8.deformable_convolution(params[0], params[1], params[2], list(strides),
                                             list(pads), list(pads), [1, 1],
                                             mask=params[3] if len(params) > 3 else None, **args, **kw)
    else:
        node = opset1.deformable_convolution(params[0], params[1], params[2], list(strides),
                                             list(pads), list(pads), [1, 1], **args)
    return ov.Model([node], params)


@pytest.mark.parametrize("v8", [False, True])
@pytest.mark.parametrize("shapes,kw", [
    ([[1, 4, 10, 10], [1, 18, 8, 8], [8, 4, 3, 3]], {}),
    ([[1, 4, 10, 10], [1, 36, 8, 8], [8, 2, 3, 3]], dict(group=2, dg=2)),
    ([[1, 4, 10, 10], [1, 18, 5, 5], [8, 4, 3, 3]], dict(strides=(2, 2), pads=(1, 1))),
    ([[1, 4, 10, 10], [1, 18, 5, 5], [8, 4, 3, 3]], dict(strides=(2, 2), auto_pad="same_upper")),
    ([[(1, 4), 4, (10, 20), -1], [-1, 18, -1, -1], [8, 4, 3, 3]], {}),
    ([[-1, 4, -1, -1], [2, 18, 4, 5], [8, 4, 3, 3]], {}),
    ([D, D, [8, 4, 3, 3]], {}),
    ([D, [1, 18, 5, 5], D], {}),
    ([D, D, D], {}),
    ([[1, (3, 9), 10, 10], [1, -1, 8, 8], [(6, 8), 2, 3, 3]], dict(group=2)),
])
def test_runtime_cases(tmp_path, v8, shapes, kw):
    opcheck.compare(model(shapes, v8, **kw), tmp_path, ["DeformableConvolution"])


@pytest.mark.parametrize("shapes,kw", [
    ([[1, 4, 10, 10], [1, 18, 8, 8], [8, 4, 3, 3], [1, 9, 8, 8]], dict(bilinear_interpolation_pad=True)),
    ([[-1, 4, 10, 10], [1, 18, -1, 8], [8, 4, 3, 3], [(2, 3), 9, -1, -1]], {}),
    ([D, D, D, [1, 9, 8]], {}),  # the mask's rank is checked only once k is known
])
def test_v8_mask_cases(tmp_path, shapes, kw):
    opcheck.compare(model(shapes, True, **kw), tmp_path, ["DeformableConvolution"])


def layer(shapes, attrs, version="opset1"):
    ir = IR()
    ir.result(ir.op("DeformableConvolution", [ir.parameter(s) for s in shapes], [[1]], attrs,
                    version=version, name="op"))
    return ir


G = {"group": "1", "deformable_group": "1"}


@pytest.mark.parametrize("shapes,attrs,version,words", [
    (["1,4,10,10", "1,18,8,8", "8,4,3,3"], {}, "opset1", "attribute group is 0"),
    (["1,4,10,10", "1,18,8,8", "8,4,3,3"], {"group": "1"}, "opset8", "attribute deformable_group is 0"),
    (["1,4,10,10", "1,18,7,8", "8,4,3,3"], G, "opset1", "offsets [1,18,7,8] has spatial dims"),
    (["1,4,10,10", "1,17,8,8", "8,4,3,3"], G, "opset1", "have 17 channels where 2 x"),
    (["1,4,10,10,10", "1,18,8,8,8", "8,4,3,3,3"], G, "opset1", "must have rank 4"),
    (["1,4,10,10", "2,18,8,8", "8,4,3,3"], G, "opset1", "have batch 2 where data has 1"),
    (["1,3,10,10", "1,18,8,8", "8,4,3,3"], dict(G, group="3"), "opset1", "not divisible by group 3"),
    (["1,3,10,10", "1,18,8,8", "8,4,3,3"], G, "opset1", "has 3 channels where group 1"),
    (["1,4,10,10", "1,18,8,8", "8,4,3,3", "1,9,8,8"], G, "opset1", "takes 3 inputs"),
    (["1,4,10,10", "1,18,8,8", "8,4,3,3", "1,9,7,8"], G, "opset8", "mask [1,9,7,8] has spatial"),
    (["1,4,10,10", "1,18,8,8", "8,4,3,3", "2,9,8,8"], G, "opset8", "has batch 2 where data"),
    (["1,4,10,10", "1,18,8,8", "8,4,3,3", "1,8,8,8"], G, "opset8", "has 8 channels where deformable"),
    (["...", "...", "...", "9"], G, "opset8", "has no channel dim"),
    (["", "...", "..."], G, "opset1", "unsigned arithmetic"),
])
def test_what_the_runtime_refuses(tmp_path, shapes, attrs, version, words):
    assert_refused(layer(shapes, attrs, version), tmp_path, words)


def random_layer(rng):
    group, dg = rng.randint(1, 2), rng.randint(1, 2)
    kh, kw = rng.randint(1, 3), rng.randint(1, 3)
    s = rng.randint(1, 2)
    size = [rng.randint(kh, 9), rng.randint(kw, 9)]
    out = [(size[0] - kh) // s + 1, (size[1] - kw) // s + 1]
    n, cin, cout = rng.randint(1, 2), group * rng.randint(1, 2), group * rng.randint(1, 2)
    shapes = [[n, cin] + size, [n, 2 * dg * kh * kw] + out, [cout, cin // group, kh, kw],
              [n, dg * kh * kw] + out]
    v8 = rng.random() < 0.5
    count = 4 if v8 and rng.random() < 0.5 else 3

    def text(values):
        if rng.random() < 0.07:
            return "..."
        return ",".join(str(v) if rng.random() < 0.8 else rng.choice(["?", f"{max(v - 1, 0)}..{v + 2}"])
                        for v in values)
    attrs = {"group": str(group), "deformable_group": str(dg), "strides": f"{s},{s}"}
    if rng.random() < 0.1:  # a wrong channel count now and then: refused both ways
        shapes[1][1] += 1
    return layer([text(v) for v in shapes[:count]], attrs, "opset8" if v8 else "opset1")


def test_random_deformable_convolutions_match_the_runtime(tmp_path):
    rng = random.Random(808)
    loaded = sum(differential(random_layer(rng), tmp_path, ["DeformableConvolution"], "op",
                              stem=f"m{n}") for n in range(150))
    assert loaded >= 110


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = opcheck.compare(model([[1, 4, 10, 10], [1, 18, 8, 8], [8, 4, 3, 3]]), tmp_path,
                           ["DeformableConvolution"])
    assert opcheck.named(opcheck.mutate(path, "dconv", 0, 1, 9), "dconv")
