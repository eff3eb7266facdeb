"""Nested bodies (If, Loop) of genuine openvino-serialized models are analysed recursively."""
import json

import numpy as np
import pytest

from irvalidate.cli.main import main

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset16")


def if_model(path):
    x = ops.parameter([2, 3], ov.Type.f32, name="x")
    cond = ops.parameter([], ov.Type.boolean, name="c")
    tp = ops.parameter([2, 3], ov.Type.f32, name="tp")
    then_body = ov.Model([ops.result(ops.add(tp, ops.constant(np.ones(3, np.float32)),
                                             name="then_add"))], [tp], "then")
    ep = ops.parameter([2, 3], ov.Type.f32, name="ep")
    else_body = ov.Model([ops.result(ops.multiply(ep, ops.constant(np.ones((2, 1), np.float32)),
                                                  name="else_mul"))], [ep], "else")
    node = ops.if_op(cond)
    node.set_then_body(then_body)
    node.set_else_body(else_body)
    node.set_input(x.output(0), tp, ep)
    out = node.set_output(then_body.get_results()[0], else_body.get_results()[0])
    ov.save_model(ov.Model([out], [x, cond], "ifm"), str(path), compress_to_fp16=False)


def loop_model(path):
    x = ops.parameter([2, 3], ov.Type.f32, name="x")
    trip = ops.constant(np.array(3, np.int64))
    cond = ops.constant(np.array(True))
    bp = ops.parameter([2, 3], ov.Type.f32, name="bp")
    add = ops.add(bp, ops.constant(np.ones((1, 3), np.float32)), name="body_add")
    body = ov.Model([ops.result(ops.constant(np.array(True))), ops.result(add)], [bp], "body")
    loop = ops.loop(trip, cond)
    loop.set_function(body)
    loop.set_special_body_ports([-1, 0])
    loop.set_merged_input(bp, x.output(0), add.output(0))
    out = loop.get_iter_value(add.output(0), -1)
    ov.save_model(ov.Model([out], [x], "loopm"), str(path), compress_to_fp16=False)


def findings(path, capsys):
    code = main(["--format", "json", str(path)])
    return code, json.loads(capsys.readouterr().out)["files"][0]["findings"]


@pytest.mark.parametrize("build,layer", [(if_model, "then_add"), (if_model, "else_mul"),
                                         (loop_model, "body_add")])
def test_body_layers_are_checked(tmp_path, capsys, build, layer):
    path = tmp_path / "m.xml"
    build(path)
    ov.Core().read_model(str(path))
    assert findings(path, capsys) == (0, [])
    # break the declared output of one layer inside a body
    text = path.read_text()
    start = text.index(f'name="{layer}"')
    out = text.index("<output>", start)
    dim = text.index("<dim>3</dim>", out)
    path.write_text(text[:dim] + "<dim>7</dim>" + text[dim + len("<dim>3</dim>"):])
    code, found = findings(path, capsys)
    named = [f for f in found if f["rule"] == "IRV101" and f["layer"]["name"] == layer]
    assert code == 1 and named and "body" in named[0]["scope"]
