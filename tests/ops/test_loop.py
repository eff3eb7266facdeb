"""Loop-5 against the runtime: the notes' cases (constant and computed trip counts and
conditions, do-while, zero iterations, back-edge widening, concatenated outputs), random
loops, the body as declared, refusals and stale dims."""
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
    parameters_of,
    redeclare_parameter,
    shape,
)


def loop_model(trip, cond, x_shape=(1, 3), step=None, body_cond=True, concat_axis=0,
               name="loop", x_et=np.float32, body_x=None, with_concat=True):
    """x' = step(x) with x merged (back edge); outputs: the last x', x' concatenated."""
    x = param(list(x_shape) if x_shape is not None else None, x_et, name="x")
    bx = o8.parameter(shape(body_x) if body_x is not None else
                      (shape(list(x_shape)) if x_shape is not None else ov.PartialShape.dynamic()),
                      x_et)
    new_x = (step or (lambda v: o8.add(v, v)))(bx)
    params = [bx]
    if body_cond is True or body_cond is False:
        c = o8.constant(np.array(body_cond))
    elif body_cond == "computed":
        c = o8.less(o8.reduce_sum(bx, const([0] * 0 + list(range(len(x_shape)))), False),
                    o8.constant(np.array(100, x_et)))
    else:  # a body Parameter fed by an outer value
        c = o8.parameter(ov.PartialShape([]), ov.Type.boolean)
        params.append(c)
    results = [o8.result(c), o8.result(new_x)]
    body = ov.Model(results, params)
    loop = o8.loop(trip, cond)
    loop.set_function(body)
    loop.set_special_body_ports([-1, 0])
    loop.set_merged_input(bx, x.output(0), new_x.output(0))
    if body_cond == "param":
        loop.set_invariant_input(c, o8.constant(np.array(True)).output(0))
    outs = [loop.get_iter_value(new_x.output(0), -1)]
    if with_concat:
        outs.append(loop.get_concatenated_slices(new_x.output(0), 0, 1, 1, -1, concat_axis))
    loop.set_friendly_name(name)
    outer = parameters_of(loop.outputs())
    return ov.Model([o8.result(o) for o in outs], outer, "m")


def _trip(kind):
    return {"5": lambda: const(5), "param": lambda: param([], np.int64),
            "-1": lambda: const(-1), "0": lambda: const(0),
            "computed": lambda: o8.gather(o8.shape_of(param([7, 3])), const(0), const(0)),
            "interval": lambda: o8.gather(o8.shape_of(param([(2, 9), 3])), const(0), const(0)),
            "f32": lambda: const(4.7, np.float32)}[kind]()


def _cond(kind):
    return {"true": lambda: const(True, np.bool_), "false": lambda: const(False, np.bool_),
            "param": lambda: param([], np.bool_)}[kind]()


@pytest.mark.parametrize("trip,cond,kwargs", [
    ("5", "true", {}),
    ("5", "true", dict(concat_axis=1)),
    ("5", "true", dict(concat_axis=-1)),
    ("5", "true", dict(body_cond="computed")),
    ("param", "true", {}),
    ("-1", "true", {}),
    ("0", "true", {}),
    ("5", "false", {}),
    ("5", "param", {}),
    ("5", "true", dict(body_cond=False)),
    ("5", "true", dict(body_cond="param")),
    ("5", "true", dict(x_shape=((1, 4), 3))),
    ("5", "true", dict(x_shape=None)),
    ("5", "true", dict(step=lambda v: o8.concat([v, v], 1))),
    ("param", "true", dict(step=lambda v: o8.concat([v, v], 1))),
    ("computed", "true", {}),
    ("interval", "true", {}),
    ("f32", "true", {}),
    ("5", "true", dict(step=lambda v: o8.concat([v, v], 0), body_cond=False)),
    ("5", "false", dict(step=lambda v: o8.reduce_sum(v, const([0, 1]), True))),
])
def test_the_runtime_cases(tmp_path, trip, cond, kwargs):
    opcheck.compare(loop_model(_trip(trip), _cond(cond), **kwargs), tmp_path, ["Loop"])


def test_a_scalar_body_result(tmp_path):
    x = param([1, 3], name="x")
    bx = o8.parameter(shape([1, 3]), np.float32)
    total = o8.reduce_sum(bx, const([0, 1]), False)
    body = ov.Model([o8.result(o8.constant(np.array(True))), o8.result(total), o8.result(bx)],
                    [bx])
    loop = o8.loop(const(5), const(True, np.bool_))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 0])
    loop.set_invariant_input(bx, x.output(0))
    outs = [loop.get_iter_value(total.output(0), -1),
            loop.get_concatenated_slices(total.output(0), 0, 1, 1, -1, 0)]
    loop.set_friendly_name("loop")
    opcheck.compare(ov.Model([o8.result(o) for o in outs], [x], "m"), tmp_path, ["Loop"])


# (ops irvalidate models: a body op it does not model passes on its declared dims, where
# an interval is written -1, and the back edges then widen what the runtime keeps)
STEPS = [
    lambda v: o8.add(v, v),
    lambda v: o8.concat([v, v], 0),
    lambda v: o8.concat([v, v], 1),
    lambda v: o8.relu(v),
    lambda v: o8.multiply(v, o8.constant(np.ones((1, 1), np.float32))),
    lambda v: o8.concat([v, o8.constant(np.ones((1, 3), np.float32))], 0),
]


def test_random_loops(tmp_path):
    rng = random.Random(31)
    compared = 0
    for n in range(80):
        kwargs = dict(x_shape=rng.choice([(1, 3), (2, 3), ((1, 4), 3), (-1, 3), (2, -1)]),
                      step=rng.choice(STEPS), body_cond=rng.choice([True, True, False, "param"]),
                      concat_axis=rng.choice([0, 1, -1]), name=f"loop{n}",
                      with_concat=rng.random() < 0.7)
        try:
            m = loop_model(_trip(rng.choice(["5", "param", "0", "-1", "computed", "interval"])),
                           _cond(rng.choice(["true", "true", "false", "param"])), **kwargs)
        except RuntimeError:
            continue
        opcheck.compare(m, tmp_path, ["Loop"], stem=f"m{n}")
        compared += 1
    assert compared > 40


def test_body_parameters_take_the_outer_types(tmp_path):
    """A body Parameter declared f16 [7,7] takes the outer f32 [1,3] (Loop sets both): its
    [7,7] and FP16 are stale (IRV101, IRV106: the runtime writes [1,3] and f32 there), and
    --fix writes what the runtime does."""
    path = opcheck.compare(loop_model(const(5), const(True, np.bool_)), tmp_path, ["Loop"])

    def redeclare(tree):
        body = tree.find(".//layer[@type='Loop']/body")
        layer = [p for p in body.findall("layers/layer[@type='Parameter']")
                 if p.find("data").get("element_type") == "f32"][0]
        redeclare_parameter(body, layer, "7,7", "FP16", "f16")
    changed = edited(path, "f16", redeclare)
    assert {f.code for f in validate_file(str(changed)).findings if f.level == "error"} == \
        {"IRV101", "IRV106"}
    irvalidate.fix(changed, write=True)
    compare_file(changed, ["Loop"])
    rewritten = tmp_path / "runtime.xml"
    ov.save_model(ov.Core().read_model(str(path)), str(rewritten), compress_to_fp16=False)

    def body_parameters(xml):
        from lxml import etree
        return [(dict(p.find("data").attrib), p.find("output/port").get("precision"),
                 [d.text for d in p.iter("dim")])
                for p in etree.parse(str(xml)).findall(".//body/layers/layer[@type='Parameter']")]
    assert body_parameters(changed) == body_parameters(rewritten)


def test_refusals(tmp_path):
    path = opcheck.compare(loop_model(const(5), const(True, np.bool_)), tmp_path, ["Loop"])

    def no_condition(tree):
        for out in tree.findall(".//layer[@type='Loop']/port_map/output"):
            out.attrib.pop("purpose", None)

    def concat_axis(tree):
        tree.find(".//layer[@type='Loop']/port_map/output[@axis]").set("axis", "2")
    for stem, edit, words in (("nocond", no_condition, "execution_condition"),
                              ("axis", concat_axis, "axis 2")):
        changed = edited(path, stem, edit)
        with pytest.raises(RuntimeError):
            ov.Core().read_model(str(changed))
        found = [f for f in validate_file(str(changed)).findings
                 if f.code == "IRV102" and f.layer.name == "loop"]
        assert found and words in found[0].message, (stem, found)


def test_a_matrix_trip_count_is_refused(tmp_path):
    m = loop_model(param([1], np.int64), const(True, np.bool_))
    path = opcheck.compare(m, tmp_path, ["Loop"])
    from support.ovmodels import reshaped
    trip = [n for n, r in opcheck.irvalidate_shapes(path).items()
            if r["type"] == "Parameter" and n != "x"][0]
    changed = reshaped(path, {trip: [1, 1]})
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(changed))
    found = [f for f in validate_file(str(changed)).findings if f.code == "IRV102"]
    assert found and found[0].layer.name == "loop" and "trip_count" in found[0].message


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = opcheck.compare(loop_model(const(5), const(True, np.bool_), name="victim"), tmp_path,
                           ["Loop"])
    assert opcheck.named(opcheck.mutate(path, "victim", 1, 0, 6), "victim")


def test_a_back_edge_keeps_the_parameters_own_dims(tmp_path):
    """A Result [1,4] fed back to a Parameter [?,2]: the runtime makes the Parameter [?,?]
    (its own dim where it contains the Result's, ? elsewhere), not [1,?] (the Result's);
    measured on openvino here, as [1..5,2..3] against [1,4..6] gives [1..5,?]."""
    from support.bodyports import differing

    def step(v):
        return o8.concat([o8.reduce_sum(v, const([0]), True)] * 2, 1)
    for stem, x_shape in (("dynamic", (-1, 2)), ("interval", ((1, 5), (2, 3)))):
        path = opcheck.save(loop_model(const(5), const(True, np.bool_), x_shape=x_shape,
                                       step=step, with_concat=False), tmp_path, stem)
        loop = ov.Core().read_model(str(path)).get_ordered_ops()
        body = [n for n in loop if n.get_type_name() == "Loop"][0].get_function()
        assert body.get_parameters()[0].get_partial_shape() == \
            shape([x_shape[0], -1])
        assert differing(path, tmp_path) == []


@pytest.mark.parametrize("x_shape,trip", [((0, 3), 5), ((0, 3), 0), ((2, 0), 5),
                                          ((0, 2, 0), 5), (((0, 5), 3), 5)])
def test_a_merged_input_that_starts_empty(tmp_path, x_shape, trip):
    """A back edge whose initial value has a dim of 0 starts its Parameter with ? there
    (the runtime's, checked here: [0,3] is [?,3] in the body, the last value and the
    concatenation [?,3]/[?,?], where irvalidate gave 0); an interval 0..5 stays."""
    from support.bodyports import differing
    path = opcheck.save(loop_model(const(trip), const(True, np.bool_), x_shape=x_shape,
                                   step=lambda v: o8.relu(v), concat_axis=-1), tmp_path)
    ops = ov.Core().read_model(str(path)).get_ordered_ops()
    body = [n for n in ops if n.get_type_name() == "Loop"][0].get_function()
    started = body.get_parameters()[0].get_partial_shape()
    assert [d.is_static and d.get_length() == 0 for d in started].count(True) == 0
    assert differing(path, tmp_path) == []
    assert not opcheck.errors(path)
