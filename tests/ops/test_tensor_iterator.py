"""TensorIterator against the runtime: the notes' cases (sliced, merged and invariant inputs,
last-value and concatenated outputs), random slicing, the body as declared, refusals and
stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

import openvino.opset8 as o8  # noqa: E402

import irvalidate  # noqa: E402
from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.ovmodels import (  # noqa: E402
    compare_file,
    const,
    edited,
    param,
    redeclare_parameter,
    shape,
)


def rnn_like(x_shape, h_shape, slicing=(0, 1, 1, -1, 1), concat=(0, 1, 1, -1, 1), name="ti",
             body_x=None, body_h=None, step=None):
    """h' = step(x_slice, h), X sliced and H merged; outputs: the last h', h' concatenated.
    ``slicing``/``concat`` are (start, stride, part_size, end, axis)."""
    x, h = param(x_shape, name="x"), param(h_shape, name="h")
    xs = o8.parameter(shape(body_x) if body_x is not None else _slice_shape(x_shape, slicing),
                      np.float32)
    hs = o8.parameter(shape(body_h if body_h is not None else h_shape), np.float32)
    new_h = (step or o8.add)(xs, hs)
    body = ov.Model([o8.result(new_h)], [xs, hs])
    ti = o8.tensor_iterator()
    ti.set_body(body)
    ti.set_sliced_input(xs, x.output(0), *slicing)
    ti.set_merged_input(hs, h.output(0), new_h.output(0))
    outs = [ti.get_iter_value(new_h.output(0), -1), ti.get_concatenated_slices(new_h.output(0), *concat)]
    ti.set_friendly_name(name)
    return ti, outs


def _slice_shape(x_shape, slicing):
    if x_shape is None:
        return ov.PartialShape.dynamic()
    dims = list(x_shape)
    dims[slicing[4]] = slicing[2]
    return shape(dims)


def ti_model(ti_and_outs):
    ti, outs = ti_and_outs
    return ov.Model([o8.result(o) for o in outs],
                    [p for p in _params(ti)], "m")


def _params(ti):
    return [ti.input(i).get_source_output().get_node() for i in range(ti.get_input_size())]


@pytest.mark.parametrize("x_shape,h_shape,slicing,concat", [
    ([2, 10, 3], [2, 1, 3], (0, 1, 1, -1, 1), (0, 1, 1, -1, 1)),
    ([2, 10, 3], [2, 2, 3], (0, 2, 2, -1, 1), (0, 2, 2, -1, 1)),
    ([2, 10, 3], [2, 1, 3], (2, 1, 1, 7, 1), (0, 1, 1, -1, 1)),
    ([2, 10, 3], [2, 3, 3], (0, 3, 3, -1, 1), (0, 3, 3, -1, 1)),
    ([2, 10, 3], [2, 1, 3], (0, 1, 1, -1, 1), (0, 1, 5, -1, 1)),
    ([2, 10, 3], [2, 1, 3], (0, 1, 1, 100, 1), (0, 1, 1, -1, 1)),
    ([2, 10, 3], [2, 1, 3], (-1, -1, 1, 0, 1), (0, 1, 1, -1, 1)),
    ([(1, 4), (5, 10), 3], [-1, 1, 3], (0, 1, 1, -1, 1), (0, 1, 1, -1, 1)),
    ([2, -1, 3], [2, 1, 3], (0, 1, 1, -1, 1), (0, 1, 1, -1, 1)),
    (None, [2, 1, 3], (0, 1, 1, -1, 1), (0, 1, 1, -1, 1)),
    ([2, 10, 3], None, (0, 1, 1, -1, 1), (0, 1, 1, -1, 1)),
    ([2, 10, 3], [1, 1, 1], (0, 1, 1, -1, 1), (0, 1, 1, -1, 1)),
    ([2, 10, 3], [2, 1, 3], (0, 1, 1, -1, 1), (0, 1, 1, -1, -1)),
    ([2, 10, 3], [2, 1, 3], (0, 1, 1, -1, 1), (0, 1, 1, -1, 0)),
])
def test_the_runtime_cases(tmp_path, x_shape, h_shape, slicing, concat):
    opcheck.compare(ti_model(rnn_like(x_shape, h_shape, slicing, concat)), tmp_path,
                    ["TensorIterator"])


def _no_sliced_input(h_shape, concat, scalar=False):
    h = param(h_shape, name="h")
    hs = o8.parameter(shape(h_shape), np.float32)
    new_h = o8.multiply(hs, hs)
    out = o8.reduce_sum(new_h, const(list(range(len(h_shape)))), False) if scalar else new_h
    body = ov.Model([o8.result(new_h), o8.result(out)], [hs])
    ti = o8.tensor_iterator()
    ti.set_body(body)
    ti.set_merged_input(hs, h.output(0), new_h.output(0))
    outs = [ti.get_iter_value(new_h.output(0), -1), ti.get_concatenated_slices(out.output(0), *concat)]
    ti.set_friendly_name("ti")
    return ti, outs


@pytest.mark.parametrize("concat,scalar", [((0, 1, 1, 7, 0), False), ((0, 1, 1, -1, 0), False),
                                           ((0, 1, 1, 5, 0), True), ((2, 1, 2, 9, 1), False)])
def test_without_sliced_inputs(tmp_path, concat, scalar):
    ti = _no_sliced_input([2, 3], concat, scalar)
    opcheck.compare(ti_model(ti), tmp_path, ["TensorIterator"])


def test_random_slicing(tmp_path):
    rng = random.Random(21)
    compared = 0
    for n in range(60):
        length = rng.choice([1, 6, 10])
        part = rng.choice([1, 2, 3])
        start, end = rng.choice([(0, -1), (-1, 0), (1, length - 2), (0, length + 3), (-2, 1)])
        axis = rng.choice([1, -2]) if False else 1
        x_shape = [rng.choice([2, -1, (1, 3)]), rng.choice([length, length, -1, (2, 9)]), 3]
        h_shape = [x_shape[0] if x_shape[0] != (1, 3) else -1, part, 3]
        c_axis = rng.choice([1, -2, 0, 2])
        c_part = rng.choice([1, part, 4])
        try:
            built = rnn_like(x_shape, h_shape, (start, 1, part, end, axis),
                             (0, 1, c_part, -1, c_axis), name=f"ti{n}")
            m = ti_model(built)
        except RuntimeError:
            continue
        opcheck.compare(m, tmp_path, ["TensorIterator"], stem=f"m{n}")
        compared += 1
    assert compared > 40


def _saved(tmp_path, built, stem="model"):
    return opcheck.save(ti_model(built), tmp_path, stem)


def test_body_types_are_not_replaced(tmp_path):
    """Body Parameters declared i32 stay i32 (TensorIterator sets only shapes): the outputs
    are i32, whatever the f32 inputs."""
    path = _saved(tmp_path, rnn_like([2, 10, 3], [2, 1, 3]))

    def to_i32(tree):
        for layer in tree.findall(".//layer[@type='TensorIterator']/body/layers/layer"):
            for port in layer.iter("port"):
                port.set("precision", "I32")
            if layer.get("type") == "Parameter":
                layer.find("data").set("element_type", "i32")
        for port in tree.findall(".//layer[@type='TensorIterator']/output/port"):
            port.set("precision", "I32")
        for port in tree.findall("layers/layer[@type='Result']/input/port"):
            port.set("precision", "I32")
    changed = edited(path, "i32", to_i32)
    model_ = ov.Core().read_model(str(changed))
    ti = [o for o in model_.get_ordered_ops() if o.get_friendly_name() == "ti"][0]
    assert ti.get_output_element_type(0) == ov.Type.i32
    compare_file(changed, ["TensorIterator"])


@pytest.mark.parametrize("declared,refused", [("1,1,1", False), ("...", False), ("5,5", True)])
def test_the_body_as_declared(tmp_path, declared, refused):
    """The sliced Parameter's declared shape is replaced, but the body is read with it first:
    [5,5] makes the body's Add refuse it (with [2,1,3]), so the runtime refuses the file.
    [1,1,1] loads, and the runtime writes [2,1,3] there: a stale declaration (IRV101), which
    --fix replaces with the set shape."""
    path = _saved(tmp_path, rnn_like([2, 10, 3], [2, 1, 3]))

    def redeclare(tree):
        body = tree.find(".//layer[@type='TensorIterator']/body")
        redeclare_parameter(body, body.find("layers/layer[@type='Parameter']"), declared)
    changed = edited(path, "declared", redeclare)
    if not refused:
        if declared != "...":  # a dynamic rank contradicts nothing
            assert {f.code for f in validate_file(str(changed)).findings
                    if f.level == "error"} == {"IRV101"}
            irvalidate.fix(changed, write=True)
        compare_file(changed, ["TensorIterator"])
        return
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(changed))
    found = [f for f in validate_file(str(changed)).findings if f.code == "IRV102"]
    assert found and found[0].layer.name == "ti" and "as declared" in found[0].message


def test_refusals(tmp_path):
    path = _saved(tmp_path, rnn_like([2, 10, 3], [2, 1, 3]))

    def drop_input(tree):
        port_map = tree.find(".//layer[@type='TensorIterator']/port_map")
        port_map.remove(port_map.findall("input")[1])

    def axis(tree):
        tree.find(".//layer[@type='TensorIterator']/port_map/input").set("axis", "5")

    def scalar_concat(tree):
        tree.find(".//layer[@type='TensorIterator']/port_map/output[@axis]").set("axis", "4")
    for stem, edit, words in (("drop", drop_input, "describes 1 inputs"),
                              ("axis", axis, "no axis 5"), ("concat", scalar_concat, "axis 4")):
        changed = edited(path, stem, edit)
        with pytest.raises(RuntimeError):
            ov.Core().read_model(str(changed))
        found = [f for f in validate_file(str(changed)).findings
                 if f.code in ("IRV102", "IRV104") and f.layer.name == "ti"]
        assert found and words in found[0].message, (stem, found)


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = opcheck.compare(ti_model(rnn_like([2, 10, 3], [2, 1, 3], name="victim")), tmp_path,
                           ["TensorIterator"])
    assert opcheck.named(opcheck.mutate(path, "victim", 1, 1, 11), "victim")


def test_a_stale_dim_inside_the_body_names_the_body_layer(tmp_path):
    """The body's Add as the runtime ends with it ([2,1,3], the sliced input's shape): a
    declared 4 there is stale."""
    step = lambda a, b: o8.add(a, b, name="body_add")  # noqa: E731
    path = opcheck.compare(ti_model(rnn_like([2, 10, 3], [2, 1, 3], step=step)), tmp_path,
                           ["TensorIterator"])
    assert opcheck.named(opcheck.mutate(path, "body_add", 0, 2, 4), "body_add")
