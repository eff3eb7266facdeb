"""If-8 against the runtime: constant and unknown conditions, the lenient merge of the two
bodies, bodies seeing the outer shapes and types, refusals and stale dims inside and out."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

import openvino.opset8 as o8  # noqa: E402

from irvalidate.cli.shapes import layers_of  # noqa: E402
from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.ovmodels import compare_file, const, model_of, param  # noqa: E402


def if_layer(cond, xs, then_outputs, else_outputs, name="if"):
    """If over the outer values ``xs``; each body gets a Parameter per x (declared like x)
    and returns ``*_outputs(*params)``."""
    kind = [(x.get_output_partial_shape(0), x.get_output_element_type(0)) for x in xs]
    then_model, then_params = _body(kind, then_outputs)
    else_model, else_params = _body(kind, else_outputs)
    node = o8.if_op(cond.output(0) if hasattr(cond, "output") else cond)
    node.set_then_body(then_model)
    node.set_else_body(else_model)
    for x, tp, ep in zip(xs, then_params, else_params):
        node.set_input(x.output(0), tp, ep)
    for tr, er in zip(then_model.get_results(), else_model.get_results()):
        node.set_output(tr, er)
    node.set_friendly_name(name)
    return node


def _body(kind, make_outputs):
    params = [o8.parameter(s, et) for s, et in kind]
    return ov.Model([o8.result(o) for o in make_outputs(*params)], params), params


def reshape(x, target):
    return o8.reshape(x, const(target), False)


def reduce_all(x):
    return o8.reduce_sum(x, const([0, 1]), False)


CASES = {
    "relu both": (lambda x: [o8.relu(x)], lambda x: [o8.relu(x)]),
    "[6] or [3,2]": (lambda x: [reshape(x, [6])], lambda x: [reshape(x, [3, 2])]),
    "[2,3] or [3,2]": (lambda x: [o8.relu(x)], lambda x: [reshape(x, [3, 2])]),
    "[] or [6]": (lambda x: [reduce_all(x)], lambda x: [reshape(x, [6])]),
    "[] or []": (lambda x: [reduce_all(x)], lambda x: [reduce_all(x)]),
    "[6] or [1,6]": (lambda x: [reshape(x, [6])], lambda x: [reshape(x, [1, 6])]),
    "const or x": (lambda x: [const(np.zeros((5, 3)), np.float32)], lambda x: [o8.relu(x)]),
    "two outputs": (lambda x: [o8.relu(x), x], lambda x: [x, o8.sigmoid(x)]),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("cond", ["true", "false", "param", "param f32", "folded", "unfolded"])
@pytest.mark.parametrize("x_shape", [[2, 3], [(1, 4), 3]])
def test_the_runtime_cases(tmp_path, case, cond, x_shape):
    if "[6]" in case and x_shape != [2, 3] or case == "[2,3] or [3,2]" and x_shape != [2, 3]:
        pytest.skip("a reshape to 6 elements needs 6 elements")
    x = param(x_shape, name="x")
    c = {"true": lambda: const(True, np.bool_), "false": lambda: const(False, np.bool_),
         "param": lambda: param([], np.bool_), "param f32": lambda: param([], np.float32),
         "folded": lambda: o8.equal(o8.gather(o8.shape_of(param([2, 3])), const(0), const(0)),
                                    const(2)),
         "unfolded": lambda: o8.equal(o8.gather(o8.shape_of(param([(1, 3), 3])), const(0),
                                                const(0)), const(2))}[cond]()
    then_outputs, else_outputs = CASES[case]
    opcheck.compare(model_of(if_layer(c, [x], then_outputs, else_outputs)), tmp_path, ["If"])


BODIES = [
    lambda x: [o8.relu(x)],
    lambda x: [o8.concat([x, x], 0)],
    lambda x: [o8.concat([x, x, x], -1)],
    lambda x: [reduce_all(x)],
    lambda x: [o8.reduce_sum(x, const([0]), True)],
    lambda x: [const(np.zeros((2, 3)), np.float32)],
    lambda x: [const(np.zeros((3,)), np.float32)],
    lambda x: [const(np.zeros((4, 3)), np.float32)],
    lambda x: [o8.shape_of(x)],
]


def test_random_bodies_and_conditions(tmp_path):
    rng = random.Random(14)
    compared = 0
    for n in range(60):
        x_shape = rng.choice([[2, 3], [(1, 4), 3], [-1, 3], [2, -1], [5, 3]])
        x = param(x_shape, name="x")
        cond = rng.choice([lambda: const(bool(rng.random() < 0.5), np.bool_),
                           lambda: param([], np.bool_), lambda: param([1], np.bool_)])()
        then_outputs, else_outputs = rng.choice(BODIES), rng.choice(BODIES)
        try:
            node = if_layer(cond, [x], then_outputs, else_outputs, name=f"if{n}")
        except RuntimeError:
            continue
        opcheck.compare(model_of(node), tmp_path, ["If"], stem=f"m{n}")
        compared += 1
    assert compared > 40


def test_bodies_see_the_outer_shapes_and_types(tmp_path):
    """Body Parameters declared [5,5] f16 take the outer [2,3] f32 (the runtime replaces
    both); the bodies' layers then hold what the outer input gives."""
    x = param([2, 3], name="x")
    node = if_layer(param([], np.bool_), [x], lambda p: [o8.relu(p)], lambda p: [o8.relu(p)])
    path = opcheck.compare(model_of(node), tmp_path, ["If"])
    from lxml import etree
    tree = etree.parse(str(path))
    for data in tree.findall(".//layer[@type='If']//layer[@type='Parameter']/data"):
        data.set("shape", "5,5")
        data.set("element_type", "f16")
    edited = path.with_name("declared.xml")
    tree.write(str(edited))
    edited.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    assert opcheck.runtime_shapes(edited)["if"] == ["[2,3]"]
    assert opcheck.irvalidate_shapes(edited)["if"]["outputs"][0]["inferred"] == "[2,3]"
    inner = [r for r in layers_of(str(edited))
             if r["scope"] and r["type"].lower() == "relu"]
    assert inner and all(r["outputs"][0]["inferred"] == "[2,3]" for r in inner)


def test_nested_ifs(tmp_path):
    x = param([(1, 4), 3], name="x")

    def inner(p):
        return [if_layer(const(True, np.bool_), [p], lambda q: [o8.concat([q, q], 0)],
                         lambda q: [q], name="inner")]
    node = if_layer(param([], np.bool_), [x], inner, lambda p: [o8.relu(p)], name="outer")
    path = opcheck.compare(model_of(node), tmp_path, ["If"])
    rows = layers_of(str(path))
    [row] = [r for r in rows if r["name"] == "inner"]
    assert row["modelled"] and row["outputs"][0]["inferred"] == "[2..8,3]"


def _refusal(path, code, name):
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == code]
    assert found and found[0].layer.name == name, found
    return found[0].message


def test_a_condition_of_two_values_is_refused(tmp_path):
    x = param([2, 3], name="x")
    node = if_layer(param([2], np.bool_), [x], lambda p: [o8.relu(p)], lambda p: [p])
    path = opcheck.save(model_of(node), tmp_path)
    # the condition a Const of two values (written over the Parameter)
    from lxml import etree
    tree = etree.parse(str(path))
    for layer in tree.findall("layers/layer"):
        if layer.get("type") == "Parameter" and layer.find("data").get("element_type") == "boolean":
            layer.set("type", "Const")
            layer.find("data").attrib.update({"offset": "0", "size": "2", "shape": "2"})
    edited = path.with_name("two.xml")
    tree.write(str(edited))
    edited.with_suffix(".bin").write_bytes(b"\x01\x00")
    assert "holds 2 values" in _refusal(edited, "IRV102", "if")


def test_a_matrix_condition_is_refused(tmp_path):
    x = param([2, 3], name="x")
    node = if_layer(param([1], np.bool_), [x], lambda p: [o8.relu(p)], lambda p: [p])
    path = opcheck.compare(model_of(node), tmp_path, ["If"])
    from support.ovmodels import reshaped
    edited = reshaped(path, {[n for n, r in opcheck.irvalidate_shapes(path).items()
                              if r["type"] == "Parameter" and n != "x"][0]: [1, 1]})
    assert "scalar or 1-D" in _refusal(edited, "IRV102", "if")


def test_branch_types_must_agree_when_the_condition_is_unknown(tmp_path):
    """The else body's Relu rewritten as a Convert to f16: refused with an unknown condition,
    accepted with a constant one (which picks a body and compares nothing)."""
    from lxml import etree
    for cond, refused in ((param([], np.bool_), True), (const(True, np.bool_), False)):
        x = param([2, 3], name="x")
        node = if_layer(cond, [x], lambda p: [o8.relu(p)], lambda p: [o8.relu(p)])
        path = opcheck.save(model_of(node), tmp_path, f"m{refused}")
        tree = etree.parse(str(path))
        relu = tree.find(".//layer[@type='If']/else_body//layer[@type='ReLU']")
        relu.set("type", "Convert")
        etree.SubElement(relu, "data").set("destination_type", "f16")
        relu.insert(0, relu.find("data"))
        relu.find("output/port").set("precision", "FP16")
        for port in tree.findall(".//layer[@type='If']/else_body//layer[@type='Result']/input/port"):
            port.set("precision", "FP16")
        edited = path.with_name(f"f16{refused}.xml")
        tree.write(str(edited))
        edited.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
        if refused:
            assert "else_body" in _refusal(edited, "IRV106", "if")
        else:
            compare_file(edited, ["If"])


def test_a_body_refused_as_declared_refuses_the_if(tmp_path):
    """The then body declares its Parameter [5,5], which its Concat with a [2,3] constant
    refuses: the runtime reads the body as declared first and stops, though [2,3] would
    pass."""
    x = param([2, 3], name="x")
    join = lambda p: [o8.concat([p, const(np.zeros((2, 3)), np.float32)], 0)]  # noqa: E731
    node = if_layer(param([], np.bool_), [x], join, join)
    path = opcheck.compare(model_of(node), tmp_path, ["If"])
    from lxml import etree
    tree = etree.parse(str(path))
    data = tree.find(".//layer[@type='If']/then_body//layer[@type='Parameter']/data")
    data.set("shape", "5,5")
    edited = path.with_name("declared.xml")
    tree.write(str(edited))
    edited.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    message = _refusal(edited, "IRV102", "if")
    assert "as declared" in message


def test_stale_dims_outside_and_inside(tmp_path):
    x = param([2, 3], name="x")
    node = if_layer(param([], np.bool_), [x], lambda p: [o8.relu(p)],
                    lambda p: [reshape(p, [3, 2])], name="victim")
    path = opcheck.compare(model_of(node), tmp_path, ["If"])
    assert opcheck.named(opcheck.mutate(path, "victim", 0, 0, 7), "victim")


@pytest.mark.parametrize("seed", [2228, 2662, 3940])
def test_a_scalar_and_a_1d_branch_give_no_warning(tmp_path, seed):
    """Random valid models (tests/support/ovgen.py) whose If merges a scalar then-branch with a [1]
    else-branch: read_model gives [1] (the sources read as if they gave [?]); irvalidate
    infers [1] too, so the declared [1] draws no IRV109."""
    from irvalidate.engine.validation import validate_file
    from support import ovgen
    model = ovgen.generate(seed, tmp_path / "m")
    assert [f.code for f in validate_file(str(model.xml)).findings] == []


@pytest.mark.parametrize("other", [[1], [9], [-1], [(1, 4)], [(0, 1)], [(2, 4)]],
                         ids=["1", "9", "dynamic", "1..4", "..1", "2..4"])
def test_a_scalar_branch_against_a_1d_one(tmp_path, other):
    """Measured: only a static [1] against a scalar stays [1]; anything else is [?]."""
    import numpy as np
    import openvino as ov
    import openvino.opset8 as o8

    def body(scalar, shape):
        p = o8.parameter(shape, np.float32)
        r = o8.squeeze(p, o8.constant(np.array([0], np.int64))) if scalar else o8.relu(p)
        return ov.Model([o8.result(r)], [p])
    shape = ov.PartialShape([ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d)
                             for d in other])
    cond = o8.parameter([], np.bool_, name="c")
    x, xt = o8.parameter(shape, np.float32, name="x"), o8.parameter([1], np.float32, name="xt")
    then, other_body = body(True, [1]), body(False, shape)
    node = o8.if_op(cond)
    node.set_then_body(then)
    node.set_else_body(other_body)
    node.set_input(xt.output(0), then.get_parameters()[0], None)
    node.set_input(x.output(0), None, other_body.get_parameters()[0])
    out = node.set_output(then.get_results()[0], other_body.get_results()[0])
    node.validate_and_infer_types()
    opcheck.compare(ov.Model([out], [cond, x, xt]), tmp_path, ["If"])
