"""Loop and TensorIterator models from a seeded generator (``loopgen``), every port of them
and of their bodies compared with the runtime's re-serialization: none tighter (a false
error risk), none looser (a miss), none missing, and no error finding on a file the runtime
reads.  IRVALIDATE_LOOPGEN_MODELS raises the number of seeds (800 by default, ~10 s)."""
import os

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

import openvino.opset8 as op  # noqa: E402

from support import (  # noqa: E402
    loopgen,
    opcheck,
)
from support.bodyports import differing  # noqa: E402

N_MODELS = int(os.environ.get("IRVALIDATE_LOOPGEN_MODELS", "800"))


def test_every_port_is_the_runtimes(tmp_path):
    found = loopgen.run(range(N_MODELS), tmp_path)
    assert found.models > N_MODELS * 0.7
    assert found.ports > found.models * 5
    assert found.tighter == [] and found.looser == [] and found.other == []


def test_errors_where_the_runtime_refuses_and_only_there(tmp_path):
    """(the API writes some port maps the reader refuses: a negative sliced axis)"""
    checked = 0
    for seed in range(0, N_MODELS, 8):
        model = loopgen.build(seed)
        if model is None:
            continue
        path = opcheck.save(model, tmp_path, f"m{seed}")
        try:
            opcheck.core().read_model(str(path))
        except RuntimeError:
            assert opcheck.errors(path), seed
            continue
        assert not opcheck.errors(path), seed
        checked += 1
    assert checked > N_MODELS // 16


def _const(value, et=np.int64):
    return op.constant(np.array(value, et))


def test_a_nested_loop_keeps_an_earlier_iteration_count(tmp_path):
    """Outer Loop: x [6,1,5] merged, fed back doubled along axis 0 (so its Parameter widens
    to [?,1,5]); inner Loop: trip count dim 0 of that Parameter, condition true.  The
    runtime folds the trip count (6) while the Parameter is [6,1,5], and keeps 6 after it
    widens: the inner concatenation is [6,1,5] where irvalidate gives [?,1,5]."""
    x = op.parameter(ov.PartialShape([6, 1, 5]), np.float32)
    p = op.parameter(ov.PartialShape([6, 1, 5]), np.float32)
    q = op.parameter(ov.PartialShape([6, 1, 5]), np.float32)
    part = op.reduce_sum(q, _const([0]), True)
    inner_body = ov.Model([op.result(_const(True, np.bool_)), op.result(part)], [q])
    inner = op.loop(op.gather(op.shape_of(p), _const(0), _const(0)), _const(True, np.bool_))
    inner.set_function(inner_body)
    inner.set_special_body_ports([-1, 0])
    inner.set_invariant_input(q, p.output(0))
    joined = inner.get_concatenated_slices(inner_body.get_results()[1].output(0), 0, 1, 1, -1, 0)
    inner.set_friendly_name("inner")
    grown = op.concat([joined, p], 0)
    body = ov.Model([op.result(_const(True, np.bool_)), op.result(grown)], [p])
    outer = op.loop(_const(3), _const(True, np.bool_))
    outer.set_function(body)
    outer.set_special_body_ports([-1, 0])
    outer.set_merged_input(p, x.output(0), body.get_results()[1].output(0))
    last = outer.get_iter_value(body.get_results()[1].output(0), -1)
    outer.set_friendly_name("outer")
    path = opcheck.save(ov.Model([op.result(last)], [x]), tmp_path)
    ops = ov.Core().read_model(str(path)).get_ordered_ops()
    nested = [n for n in ops if n.get_type_name() == "Loop"][0].get_function()
    count = [n for n in nested.get_ordered_ops() if n.get_friendly_name() == "inner"][0]
    assert count.get_output_partial_shape(0) == ov.PartialShape([6, 1, 5])
    assert differing(path, tmp_path) == []


def test_a_nested_loop_keeps_the_count_of_its_body_as_declared(tmp_path):
    """The runtime validates a body as declared before the outer Loop sets its Parameters:
    the outer body's Parameter declared [6,1,5] (its input is [?,1,5]) folds the inner trip
    count to 6 there, and the inner Loop keeps it once the Parameter is set to [?,1,5]."""
    x = op.parameter(ov.PartialShape([-1, 1, 5]), np.float32)
    p = op.parameter(ov.PartialShape([6, 1, 5]), np.float32)
    p.set_friendly_name("p")
    q = op.parameter(ov.PartialShape([6, 1, 5]), np.float32)
    inner_body = ov.Model([op.result(_const(True, np.bool_)),
                           op.result(op.reduce_sum(q, _const([0]), True))], [q])
    inner = op.loop(op.gather(op.shape_of(p), _const(0), _const(0)), _const(True, np.bool_))
    inner.set_function(inner_body)
    inner.set_special_body_ports([-1, 0])
    inner.set_invariant_input(q, p.output(0))
    joined = inner.get_concatenated_slices(inner_body.get_results()[1].output(0), 0, 1, 1, -1, 0)
    inner.set_friendly_name("inner")
    body = ov.Model([op.result(_const(True, np.bool_)), op.result(op.relu(joined))], [p])
    outer = op.loop(_const(3), _const(True, np.bool_))
    outer.set_function(body)
    outer.set_special_body_ports([-1, 0])
    outer.set_invariant_input(p, x.output(0))
    last = outer.get_iter_value(body.get_results()[1].output(0), -1)
    path = opcheck.save(ov.Model([op.result(last)], [x]), tmp_path)
    # the serializer writes p as the runtime ends with it, [?,1,5]: declare it [6,1,5]
    text = path.read_text()
    start = text.index('name="p"')
    end = text.index("</layer>", start)
    layer = text[start:end].replace('shape="?,1,5"', 'shape="6,1,5"', 1)
    layer = layer.replace("<dim>-1</dim>", "<dim>6</dim>", 1)
    path.write_text(text[:start] + layer + text[end:])
    ops = opcheck.core().read_model(str(path)).get_ordered_ops()
    assert ops[-1].get_input_partial_shape(0) == ov.PartialShape([6, 1, 5])
    assert differing(path, tmp_path) == []
