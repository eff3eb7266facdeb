"""The bodies of If as the runtime ends with them, port by port against
``ov.save_model(read_model(x))``: a constant condition validates only the taken body with the
outer inputs, and the other keeps the shapes of its first reading (its own Parameters); body
Parameters the outer inputs set take their shapes, so stale dims on them are reported."""
import numpy as np
import pytest

ov = pytest.importorskip("openvino")

import openvino.opset8 as o8  # noqa: E402
from lxml import etree  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import bodyports  # noqa: E402
from support.bodyports import differing  # noqa: E402
from support.opcheck import convert  # noqa: E402
from support.ovmodels import parameters_of  # noqa: E402


def _body(shape, make):
    p = o8.parameter(ov.PartialShape(shape), np.float32)
    return ov.Model([o8.result(out) for out in make(p)], [p]), p


def if_model(cond, x_shape, then, other, declared=(-1, -1), name="if"):
    """An If over one outer input x; each body's Parameter is declared ``declared`` and the
    python API sets only what it validates (as the runtime does when it reads the file)."""
    x = o8.parameter(ov.PartialShape(list(x_shape)), np.float32, name="x")
    then_model, tp = _body(declared, then)
    else_model, ep = _body(declared, other)
    node = o8.if_op(cond.output(0))
    node.set_then_body(then_model)
    node.set_else_body(else_model)
    node.set_input(x.output(0), tp, ep)
    for tr, er in zip(then_model.get_results(), else_model.get_results()):
        node.set_output(tr, er)
    node.set_friendly_name(name)
    return ov.Model([o8.result(out) for out in node.outputs()],
                    parameters_of(node.outputs()), "m")


def save(model, folder, stem="model"):
    path = folder / f"{stem}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def constant(value):
    return o8.constant(np.array(value))


def folded(value):
    """A condition the runtime folds: dim 0 of a static [2,3] compared with 2 (or 3)."""
    shape = o8.shape_of(o8.parameter([2, 3], np.float32, name="shaped"))
    dim = o8.gather(shape, o8.constant(np.array(0, np.int64)), o8.constant(np.array(0, np.int64)))
    return o8.equal(dim, o8.constant(np.array(2 if value else 3, np.int64)))


def relu(p):
    return [o8.relu(p)]


def doubled(p):
    return [o8.concat([p, p], 0)]


def flat(p):
    return [o8.reshape(p, o8.constant(np.array([-1], np.int64)), False)]


CONDITIONS = {"true": lambda: constant(True), "false": lambda: constant(False),
              "folded true": lambda: folded(True), "folded false": lambda: folded(False)}


@pytest.mark.parametrize("cond", sorted(CONDITIONS))
@pytest.mark.parametrize("bodies", [(relu, doubled), (doubled, flat), (flat, relu)],
                         ids=["relu-doubled", "doubled-flat", "flat-relu"])
@pytest.mark.parametrize("declared", [(-1, -1), (-1, 3)], ids=["?,?", "?,3"])
def test_the_untaken_body_keeps_its_first_reading(tmp_path, cond, bodies, declared):
    """A file the runtime wrote itself gives no finding, and every port of both bodies is
    what the runtime writes again (the untaken body's dynamic dims stay dynamic)."""
    path = save(if_model(CONDITIONS[cond](), (2, 3), *bodies, declared=declared), tmp_path)
    assert [f"{f.code} {f.message}" for f in validate_file(str(path)).findings] == []
    assert differing(path, tmp_path) == []


def test_a_nested_if_in_the_untaken_body_keeps_its_first_reading(tmp_path):
    """The untaken body's own If was validated once, with the body's declared shapes."""
    def inner(p):
        tm, tp = _body((-1, -1), doubled)
        em, ep = _body((-1, -1), relu)
        node = o8.if_op(constant(True).output(0))
        node.set_then_body(tm)
        node.set_else_body(em)
        node.set_input(p.output(0), tp, ep)
        node.set_output(tm.get_results()[0], em.get_results()[0])
        node.set_friendly_name("inner")
        return [node.output(0)]
    path = save(if_model(constant(False), (2, 3), inner, relu), tmp_path)
    assert [f"{f.code} {f.message}" for f in validate_file(str(path)).findings] == []
    assert differing(path, tmp_path) == []


def _edit(path, stem, edit):
    tree = etree.parse(str(path))
    edit(tree)
    out = path.with_name(f"{stem}.xml")
    tree.write(str(out))
    out.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    return out


def _resize_x(tree, rows=4):
    """The outer input x made [rows,3] (its attribute and port), nothing else: the body
    Parameters and the dims after x are now stale."""
    x = tree.find("layers/layer[@name='x']")
    x.find("data").set("shape", f"{rows},3")
    x.find("output/port/dim").text = str(rows)


def _findings(path):
    return sorted((f.code, f.layer.name if f.layer else None, f.scope or "")
                  for f in validate_file(str(path)).findings)


def _body_of(scope):
    return scope.split(" body")[0] if scope else "model"


@pytest.mark.parametrize("cond", ["true", "false"])
def test_stale_dims_in_the_taken_body_are_reported_and_not_in_the_other(tmp_path, cond):
    """Bodies declared for x [2,3], x resized to [4,3]: the runtime rewrites the taken
    body's dims (and its Parameter) and leaves the other body as it was."""
    path = save(if_model(CONDITIONS[cond](), (2, 3), relu, relu, declared=(2, 3)), tmp_path)
    stale = _edit(path, "stale", _resize_x)
    taken = "then" if cond == "true" else "else"
    found = _findings(stale)
    bodies = {_body_of(scope) for _, _, scope in found}
    assert taken in bodies and ({"then", "else"} - {taken}) & bodies == set(), found
    assert sorted(differing(stale, tmp_path)) == [], differing(stale, tmp_path)
def test_stale_body_parameters_are_reported(tmp_path):
    """An unknown condition: the runtime sets both bodies' Parameters from x and writes
    [4,3] on them; the dims rules say so of each (it wrote [2,3] before x was resized)."""
    cond = o8.parameter([], np.bool_, name="c")
    path = save(if_model(cond, (2, 3), relu, doubled, declared=(2, 3)), tmp_path)
    stale = _edit(path, "stale", _resize_x)
    parameters = [(code, scope) for code, name, scope in _findings(stale)
                  if name and name.startswith("Parameter") and scope]
    assert sorted(_body_of(s) for c, s in parameters if c == "IRV101") == ["else", "then"]
    assert differing(stale, tmp_path) == []


def test_a_body_parameter_declared_dynamic_where_the_outer_input_is_static(tmp_path):
    """The runtime writes the taken body's Parameter static: IRV103 there, and nothing in the
    untaken body, whose Parameter it leaves dynamic."""
    path = save(if_model(constant(True), (2, 3), relu, relu, declared=(-1, -1)), tmp_path)

    def dynamic_then(tree):
        body = tree.find(".//then_body")
        p = body.find(".//layer[@type='Parameter']")
        p.find("data").set("shape", "?,?")
        # its port and the port it feeds (the edge stays consistent)
        fed = body.find(f".//edge[@from-layer='{p.get('id')}']").get("to-layer")
        relu = body.find(f".//layer[@id='{fed}']")
        for dim in p.findall("output/port/dim") + relu.findall("input/port/dim"):
            dim.text = "-1"
    edited = _edit(path, "dynamic", dynamic_then)
    found = _findings(edited)
    assert [(c, _body_of(s)) for c, n, s in found] == [("IRV103", "then")], found
    assert differing(edited, tmp_path) == []


def _runtime_reshaped_ports(path, folder, shape):
    """Layer name -> output port dims as the runtime writes them after Model.reshape."""
    from support import bodyports
    reshaped = ov.Core().read_model(str(path))
    reshaped.reshape({"x": shape})
    out = folder / "reshaped-runtime.xml"
    ov.save_model(reshaped, str(out), compress_to_fp16=False)
    return {layer.get("name"): [tuple(int(d.text) for d in port.findall("dim"))
                                for port in layer.findall("output/port")]
            for layer in etree.parse(str(out)).iter("layer")}, bodyports


@pytest.mark.parametrize("cond", ["param", "true"])
def test_shapes_reshape_lists_every_body_layer(tmp_path, cond):
    """``shapes --reshape`` lists the bodies' layers (nested ones too), each as the runtime
    writes it after Model.reshape: the outer If's bodies get the new shape; with a constant
    condition the untaken body keeps its own."""
    from irvalidate.cli.shapes import layers_of
    from irvalidate.reshaping.spec import parse_all

    def inner(p):
        tm, tp = _body((-1, -1), doubled)
        em, ep = _body((-1, -1), relu)
        total = o8.reduce_sum(p, o8.constant(np.array([0, 1], np.int64)), False)
        node = o8.if_op(o8.greater(total, o8.constant(np.array(0, np.float32))).output(0))
        node.set_then_body(tm)
        node.set_else_body(em)
        node.set_input(p.output(0), tp, ep)
        node.set_output(tm.get_results()[0], em.get_results()[0])
        node.set_friendly_name("inner")
        return [node.output(0)]
    c = o8.parameter([], np.bool_, name="c") if cond == "param" else constant(True)
    model = if_model(c, (2, 3), inner, relu, declared=(2, 3))
    path = save(model, tmp_path)
    runtime, bodyports = _runtime_reshaped_ports(path, tmp_path, [5, 3])
    rows = layers_of(str(path), reshape=parse_all(["x[5,3]"]))
    listed = {row["name"]: row for row in rows}
    assert set(listed) == set(runtime)
    assert len(rows) == len(runtime)
    ours = {name: [bodyports._as_port(o["inferred"]) for o in row["outputs"]]
            for name, row in listed.items()}
    assert {n: p for n, p in ours.items() if p != runtime[n]} == {}


@pytest.mark.parametrize("channels", [3, 4], ids=["then taken", "else taken"])
def test_an_onnx_if_on_a_static_dim_converted_by_the_runtime(tmp_path, channels):
    """``if x.shape[1] == 3`` exported to ONNX and converted by openvino: the condition
    folds when the file is read, and the untaken branch keeps the dynamic shapes the
    converter gave it (before: IRV103 on its layers, and 3 ports unlike the runtime's)."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    def branch(name, op):
        out = helper.make_tensor_value_info(f"{name}_out", TensorProto.FLOAT, None)
        nodes = [helper.make_node(op, ["x"], [f"{name}_a"]),
                 helper.make_node("Concat", [f"{name}_a", "x"], [f"{name}_out"], axis=1)]
        return helper.make_graph(nodes, name, [], [out])
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Gather", ["s", "one"], ["c"], axis=0),
             helper.make_node("Equal", ["c", "three"], ["cond"]),
             helper.make_node("If", ["cond"], ["y"], then_branch=branch("then", "Relu"),
                              else_branch=branch("else", "Sigmoid"))]
    inits = [helper.make_tensor("one", TensorProto.INT64, [], [1]),
             helper.make_tensor("three", TensorProto.INT64, [], [3])]
    graph = helper.make_graph(nodes, "g", [x], [y], initializer=inits)
    source = tmp_path / "if.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]), str(source))
    path = save(convert(source), tmp_path)
    assert "If" in path.read_text()  # the converter kept it: the reader folds the condition
    assert [f"{f.code} {f.message}" for f in validate_file(str(path)).findings] == []
    assert differing(path, tmp_path) == []


BODY_OPS = [relu, doubled, flat,
            lambda p: [o8.reduce_sum(p, o8.constant(np.array([1], np.int64)), True)],
            lambda p: [o8.shape_of(p)],
            lambda p: [o8.transpose(p, o8.constant(np.array([1, 0], np.int64)))]]


def _random_if(rng, depth=0):
    """A random If over x: a condition of any kind, bodies of random ops over Parameters
    declared as x, dynamic or half dynamic, and now and then a nested If."""
    kind = rng.choice(["true", "false", "folded true", "folded false", "param"])
    cond = o8.parameter([], np.bool_, name=f"c{depth}") if kind == "param" else \
        CONDITIONS[kind]()

    def make(p):
        if depth < 1 and rng.random() < 0.3:
            return [_nested(rng, p, depth + 1)]
        return rng.choice(BODY_OPS)(p)
    return cond, make


def _nested(rng, p, depth):
    cond, make = _random_if(rng, depth)
    declared = rng.choice([(-1, -1), (-1, 3), (2, 3)])
    if cond.get_type_name() == "Parameter":  # a body has no Parameter of its own to spare
        cond = o8.greater(o8.reduce_sum(p, o8.constant(np.array([0, 1], np.int64)), False),
                          o8.constant(np.array(0, np.float32)))
    then_model, tp = _body(declared, make)
    else_model, ep = _body(declared, lambda q: rng.choice(BODY_OPS)(q))
    node = o8.if_op(cond.output(0))
    node.set_then_body(then_model)
    node.set_else_body(else_model)
    node.set_input(p.output(0), tp, ep)
    node.set_output(then_model.get_results()[0], else_model.get_results()[0])
    return node.output(0)


def test_random_ifs_against_the_runtime(tmp_path):
    """Random If models as the runtime writes them, and with x resized afterwards (stale
    dims): every port of every body is what ov.save_model(read_model(x)) writes; the
    runtime's own file draws no finding."""
    import random
    rng = random.Random(23)
    checked = 0
    for n in range(50):
        cond, make = _random_if(rng)
        declared = rng.choice([(-1, -1), (-1, 3), (2, 3)])
        try:
            model = if_model(cond, (2, 3), make, lambda p: rng.choice(BODY_OPS)(p),
                             declared=declared)
            path = save(model, tmp_path, f"m{n}")
            ov.Core().read_model(str(path))
        except RuntimeError:
            continue  # branches the runtime refuses to merge (ranks, types)
        assert [f"{f.code} {f.message}" for f in validate_file(str(path)).findings] == [], n
        assert differing(path, tmp_path) == [], n
        stale = _edit(path, f"m{n}-stale", _resize_x)
        try:
            ov.Core().read_model(str(stale))
        except RuntimeError:
            continue
        assert differing(stale, tmp_path) == [], n
        # every layer whose ports the runtime writes otherwise is named by a finding
        named = {f.layer.name for f in validate_file(str(stale)).findings if f.layer}
        assert set(bodyports.stale(stale, tmp_path)) <= named, n
        checked += 1
    assert checked >= 30, checked


def _unevaluated(value):
    """A condition the runtime folds and irvalidate does not evaluate: a Const's square
    root compared with 1.5 (2 > 1.5, or 1 > 1.5)."""
    root = o8.sqrt(o8.constant(np.array(4.0 if value else 1.0, np.float32)))
    return o8.greater(root, o8.constant(np.array(1.5, np.float32)))


@pytest.mark.parametrize("value", [True, False])
def test_a_condition_only_the_runtime_folds(tmp_path, value):
    """irvalidate cannot tell which body the runtime keeps as declared: the rules read both
    as declared (what the runtime wrote of each), so the file draws no finding; the If's
    output is the two bodies merged, a shape wider than the runtime's (loose)."""
    path = save(if_model(_unevaluated(value), (2, 3), relu, doubled, declared=(-1, -1)),
                tmp_path)
    assert [f"{f.code} {f.message}" for f in validate_file(str(path)).findings] == []
    assert all(d.startswith("if ") for d in differing(path, tmp_path)), differing(path, tmp_path)


def test_branch_types_are_not_compared_when_the_runtime_may_fold(tmp_path):
    """The else body's Relu made a Convert to f16: the runtime folds the condition and
    reads the file; irvalidate, which cannot, does not refuse it either."""
    path = save(if_model(_unevaluated(True), (2, 3), relu, relu, declared=(2, 3)), tmp_path)

    def f16_else(tree):
        relu_layer = tree.find(".//layer[@type='If']/else_body//layer[@type='ReLU']")
        relu_layer.set("type", "Convert")
        etree.SubElement(relu_layer, "data").set("destination_type", "f16")
        relu_layer.insert(0, relu_layer.find("data"))
        relu_layer.find("output/port").set("precision", "FP16")
        for port in tree.findall(".//layer[@type='If']/else_body//layer[@type='Result']/input/port"):
            port.set("precision", "FP16")
    edited = _edit(path, "f16", f16_else)
    ov.Core().read_model(str(edited))  # accepted
    assert [f"{f.code} {f.message}" for f in validate_file(str(edited)).findings
            if f.level == "error"] == []


def test_an_outer_input_irvalidate_infers_wider_than_the_runtime(tmp_path):
    """x is a Reshape to a target computed from a Const's square root, which irvalidate
    does not evaluate: it infers [?,?] where the runtime has [2,3].  The bodies' [2,3]
    Parameters and layers then draw no IRV109 (the values reaching them are loose)."""
    data = o8.parameter([6], np.float32, name="data")
    rows = o8.convert(o8.sqrt(o8.constant(np.array([4.0], np.float32))), "i64")
    x = o8.reshape(data, o8.concat([rows, o8.constant(np.array([3], np.int64))], 0), False)
    then_model, tp = _body((2, 3), relu)
    else_model, ep = _body((2, 3), relu)
    node = o8.if_op(o8.parameter([], np.bool_, name="c").output(0))
    node.set_then_body(then_model)
    node.set_else_body(else_model)
    node.set_input(x.output(0), tp, ep)
    node.set_output(then_model.get_results()[0], else_model.get_results()[0])
    path = save(ov.Model([o8.result(node.output(0))], parameters_of(node.outputs()), "m"),
                tmp_path)
    assert [f"{f.code} {f.message}" for f in validate_file(str(path)).findings] == []
