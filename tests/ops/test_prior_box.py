"""PriorBox-1/-8 and PriorBoxClustered against the runtime: the notes' cases, random attribute
sets, refusals and a stale dim."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

import openvino.opset8 as o8  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.ovmodels import accepted, const, make, model_of, param  # noqa: E402

BASE = dict(min_size=[64.], max_size=[128.], aspect_ratio=[2.], flip=True, clip=False, step=8.,
            offset=0.5, variance=[0.1, 0.1, 0.2, 0.2], scale_all_sizes=True)
CLUSTERED = dict(width=[4., 8., 12.], height=[5., 9., 13.], clip=False, step_w=8., step_h=8.,
                 offset=0.5, variance=[0.1, 0.1, 0.2, 0.2])


def feature_size(dims):
    """ShapeOf(x)[2:4] of a feature map with these last two dims, as a detector computes it."""
    x = param([1, 3] + list(dims))
    return o8.strided_slice(o8.shape_of(x), const([2]), const([4]), const([1]), [0], [0])


def prior_box(opset, size, image, attrs, name="pb"):
    return make(opset, "PriorBox", [size, image], attrs, name)


@pytest.mark.parametrize("opset", ["opset1", "opset8"])
@pytest.mark.parametrize("size,image,attrs", [
    ([19, 19], [300, 300], BASE),
    ([19, 19], [300, 300], dict(BASE, flip=False)),
    ([19, 19], [300, 300], dict(BASE, aspect_ratio=[2., 3., 0.5])),
    ([19, 19], [300, 300], dict(BASE, aspect_ratio=[2., 2.0000001, 1.])),
    ([19, 19], [300, 300], dict(BASE, scale_all_sizes=False, min_size=[32., 64.])),
    ([19, 19], [300, 300], dict(BASE, fixed_size=[32., 64.], density=[2., 3.])),
    ([19, 19], [300, 300], dict(BASE, fixed_size=[32.], fixed_ratio=[1., 2.], density=[2.7])),
    ([19, 19], [300, 300], {}),
    ([19, 19], [300, 300], dict(min_size=[64.])),
    ([19, 19], [300, 300, 3], BASE),
    ([-1, 19], [300, 300], BASE),
    ([-5, 19], [300, 300], BASE),
    ([19, 19], [300, 300], dict(aspect_ratio=[3., 0.333333], flip=True, min_size=[1.])),
    ([19, 19], [300, 300], dict(aspect_ratio=[1.00001, 0.99999], flip=True, min_size=[1.])),
    ([19, 19], [300, 300], dict(density=[0.], aspect_ratio=[2., 3.])),
    ([7, 5], [300, 300], dict(density=[0.], min_size=[1.])),
])
def test_constant_sizes(tmp_path, opset, size, image, attrs):
    opcheck.compare(model_of(prior_box(opset, const(size), const(image), attrs)), tmp_path,
                    ["PriorBox"])


def test_the_serializer_rounds_ratios_into_a_stale_dim(tmp_path):
    """NodeFactory counts 3 and 1/3 with flip as 3 ratios; the serializer writes 1/3 as
    0.333333, whose inverse no longer rounds to 3, so read_model counts 4: the file it wrote
    declares a dim its own reader contradicts, and irvalidate says so."""
    node = prior_box("opset8", const([19, 19]), const([300, 300]),
                     dict(aspect_ratio=[3., 1 / 3.], flip=True, min_size=[1.]), "victim")
    assert node.get_output_partial_shape(0) == ov.PartialShape([2, 4332])
    path = opcheck.save(model_of(node), tmp_path)
    assert opcheck.runtime_shapes(path)["victim"] == ["[2,5776]"]
    assert opcheck.named(path, "victim")


@pytest.mark.parametrize("opset", ["opset1", "opset8"])
def test_integer_types_may_differ(tmp_path, opset):
    node = prior_box(opset, const([19, 19], np.int32), const([200, 200], np.uint8), BASE)
    opcheck.compare(model_of(node), tmp_path, ["PriorBox"])


@pytest.mark.parametrize("opset", ["opset1", "opset8"])
@pytest.mark.parametrize("size", [
    lambda: param([2], np.int64),            # a Parameter's values are unknown: [2,?]
    lambda: param(None, np.int64),           # so are a dynamic-rank one's
    lambda: feature_size([(10, 19), 5]),     # an interval: [2,800..1520]
    lambda: feature_size([-1, 5]),
    lambda: feature_size([19, 19]),
])
def test_computed_and_unknown_sizes(tmp_path, opset, size):
    opcheck.compare(model_of(prior_box(opset, size(), const([300, 300]), BASE)), tmp_path,
                    ["PriorBox"])


def test_a_dynamic_rank_size_lets_any_image_rank_pass(tmp_path):
    node = prior_box("opset1", param(None, np.int64), const([[300, 300]]), BASE)
    opcheck.compare(model_of(node), tmp_path, ["PriorBox"])


@pytest.mark.parametrize("size,image,attrs", [
    ([19, 19], [300, 300], CLUSTERED),
    ([19, 10], [300, 300], dict(width=[4.], height=[5.])),
    ([19, 19], [300, 300], {}),
    ([19, 19], [300, 300], dict(CLUSTERED, variance=[0.1, 0.2, 0.3])),
    ([-1, 19], [300, 300], CLUSTERED),
])
def test_clustered_constant_sizes(tmp_path, size, image, attrs):
    node = make("opset1", "PriorBoxClustered", [const(size), const(image)], attrs, "pbc")
    opcheck.compare(model_of(node), tmp_path, ["PriorBoxClustered"])


@pytest.mark.parametrize("size", [
    lambda: param([2], np.int32), lambda: param(None, np.int64),
    lambda: feature_size([(10, 19), 5]), lambda: feature_size([3, (2, 9)]),
])
def test_clustered_computed_and_unknown_sizes(tmp_path, size):
    node = make("opset1", "PriorBoxClustered", [size(), const([300, 300])], CLUSTERED, "pbc")
    opcheck.compare(model_of(node), tmp_path, ["PriorBoxClustered"])


def _random_attrs(rng):
    # at most six significant digits: the serializer writes no more, and a value it rounds
    # can change the prior count read_model infers (see test_the_serializer_rounds_ratios)
    floats = lambda n, lo, hi: [round(rng.uniform(lo, hi), rng.choice([0, 1, 2, 3]))  # noqa: E731
                                for _ in range(n)]
    attrs = {}
    for name, lo, hi in (("min_size", 1, 300), ("max_size", 1, 300), ("aspect_ratio", 0.1, 4),
                         ("density", 0, 4), ("fixed_ratio", 0.2, 3), ("fixed_size", 1, 100)):
        if rng.random() < 0.5:
            attrs[name] = floats(rng.randint(0, 4), lo, hi)
    for name in ("flip", "clip", "scale_all_sizes"):
        if rng.random() < 0.6:
            attrs[name] = rng.random() < 0.5
    if rng.random() < 0.3:
        attrs["aspect_ratio"] = [1.0, 2.0, 0.5, 0.333333, 3.0, 1.00001, 0.99999][:rng.randint(1, 7)]
    return attrs


def test_random_prior_boxes_match_the_runtime(tmp_path):
    rng = random.Random(11)
    for n in range(12):
        nodes = []
        for k in range(16):
            opset = rng.choice(["opset1", "opset8"])
            dims = [rng.choice([1, 3, 19, -1, (2, 9), (10, 38)]) for _ in range(2)]
            size = feature_size(dims) if rng.random() < 0.5 else const(
                [rng.choice([1, 5, 19, 38, -1, 0]) for _ in range(2)])
            node = accepted(lambda: prior_box(opset, size, const([300, 300]),
                                              _random_attrs(rng), f"pb{k}"))
            if node is not None:
                nodes.append(node)
        opcheck.compare(model_of(*nodes), tmp_path, ["PriorBox"], stem=f"m{n}")


def test_random_clustered_match_the_runtime(tmp_path):
    rng = random.Random(12)
    for n in range(6):
        nodes = []
        for k in range(16):
            count = rng.randint(0, 6)
            widths = [rng.uniform(1, 50) for _ in range(count)]
            dims = [rng.choice([1, 3, 19, -1, (2, 9), (10, 38)]) for _ in range(2)]
            size = feature_size(dims) if rng.random() < 0.5 else const(
                [rng.choice([1, 5, 19, -1]) for _ in range(2)])
            nodes.append(make("opset1", "PriorBoxClustered", [size, const([300, 300])],
                              dict(width=widths, height=widths[::-1]), f"pbc{k}"))
        opcheck.compare(model_of(*nodes), tmp_path, ["PriorBoxClustered"], stem=f"c{n}")


def refusal(tmp_path, ir):
    """(the runtime's message, irvalidate's error findings naming layer 'victim')."""
    path = ir.write(tmp_path)
    with pytest.raises(RuntimeError) as err:
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings
             if f.level == "error" and f.layer is not None and f.layer.name == "victim"]
    return str(err.value).strip().splitlines()[-1], found


@pytest.mark.parametrize("type_,size,image,data,words", [
    ("PriorBox", [19, 19, 1], [300, 300], {"min_size": "64"}, "two values"),
    ("PriorBox", [[19, 19]], [300, 300], {"min_size": "64"}, "must both be 1-D"),
    ("PriorBox", [19, 19], [[300, 300]], {"min_size": "64"}, "must both be 1-D"),
    ("PriorBoxClustered", [19, 19], [300, 300], {"width": "4,8,12", "height": "5,9"},
     "width has 3 and height 2"),
    ("PriorBoxClustered", [19, 19], [300, 300], {"width": "4,8,12"}, "width has 3 and height 0"),
    ("PriorBoxClustered", [19, 19, 1], [300, 300], {"width": "4", "height": "4"}, "two values"),
])
def test_refusals_name_the_layer(tmp_path, type_, size, image, data, words):
    ir = IR()
    flat = lambda v: [x for row in v for x in row] if isinstance(v[0], list) else v  # noqa: E731
    dims = lambda v: [len(v), len(v[0])] if isinstance(v[0], list) else [len(v)]  # noqa: E731
    a, b = ir.const(flat(size), shape=dims(size)), ir.const(flat(image), shape=dims(image))
    ir.result(ir.op(type_, [a, b], [[2, 16]], data, name="victim"))
    message, found = refusal(tmp_path, ir)
    assert found and words in found[0].message, (message, found)


def test_a_float_size_is_a_type_error(tmp_path):
    ir = IR()
    ir.result(ir.op("PriorBox", [ir.const([19.0, 19.0], "f32"), ir.const([300, 300])],
                    [[2, 5776]], {"min_size": "64"}, name="victim"))
    path = ir.write(tmp_path)
    with pytest.raises(RuntimeError, match="integral"):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV106"]
    assert found and found[0].layer.name == "victim"


@pytest.mark.parametrize("type_,attrs", [("PriorBox", BASE), ("PriorBoxClustered", CLUSTERED)])
def test_a_stale_declared_dim_names_the_layer(tmp_path, type_, attrs):
    node = make("opset1", type_, [feature_size([19, 19]), const([300, 300])], attrs, "victim")
    path = opcheck.compare(model_of(node), tmp_path, [type_])
    assert opcheck.named(opcheck.mutate(path, "victim", 0, 1, 7), "victim")
