"""Squeeze (v0, v15) and Unsqueeze against the runtime: the notes' cases, unknown and
computed axes (a dynamic rank where the runtime gives one), random ones, refusals, stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import (  # noqa: E402
    both_ways,
    computed,
    computed_scalar,
    const,
    differential,
    model,
    param,
    random_dim,
    refusal,
    shape_text,
)


def squeeze(data, axes, version=0, skip=False):
    x = param(data)
    params = [x]
    inputs = [x]
    if callable(axes):
        inputs.append(axes(params))
    elif axes is not None:
        inputs.append(const(axes))
    if version == 0:
        node = NodeFactory("opset1").create("Squeeze", inputs, {})
    else:
        node = NodeFactory("opset15").create("Squeeze", inputs, {"allow_axis_skip": skip})
    node.set_friendly_name("s")
    return model(node, params)


def unsqueeze(data, axes):
    x = param(data)
    params = [x]
    a = axes(params) if callable(axes) else const(axes)
    node = opset1.unsqueeze(x, a)
    node.set_friendly_name("u")
    return model(node, params)


def unknown(shape):
    return lambda params: params.append(param(shape, np.int64)) or params[-1]


SQUEEZE_CASES = [
    ([1, 2, 1, 3], None), ([1, 2, 1, 3], [0]), ([1, 2, 1, 3], [-2]), ([1, 2, 1, 3], [2, 0, 2]),
    ([1, 2, 1, 3], [1]), ([1, 2, 1, 3], []), ([1, 2, 1, 3], 2), ([1], None), ([], [0]), ([], [-1]),
    ([-1, 2], [0]), ([-1, 2], None), ([(1, 8), 2], [0]), ([(0, 1), 2], [0]), ([(2, 8), 1], None),
    ([(1, 8), 1], None), ([-1, 1, 2], [1]), ([1, (1, 3), 1, 3], [1]), (None, [0]),
    ([1, 2, 1], unknown([1])), ([1, 2, 1], unknown([])), ([3, 2, 4], unknown([1])),
    ([1, 2, 1], unknown([2])), ([1, 2, 1], unknown([-1])), ([], unknown([1])),
    ([1, 2, 1, 3], lambda ps: computed_scalar(2, params=ps)),
    ([1, 2, 1, 3], lambda ps: computed([2, 0], params=ps)),
    ([1, 2, 1, 3], lambda ps: computed([(2, 3)], params=ps)),
    ([-1, 3], None), ([2, -1, 3], unknown([1])),
]


@pytest.mark.parametrize("version,skip", [(0, False), (15, False), (15, True)])
@pytest.mark.parametrize("data,axes", SQUEEZE_CASES)
def test_squeeze_runtime_cases(tmp_path, data, axes, version, skip):
    opcheck.compare(squeeze(data, axes, version, skip), tmp_path, ["Squeeze"])


@pytest.mark.parametrize("data,axes", [
    ([2, 3], [0]), ([2, 3], [-1]), ([2, 3], [3, 0]), ([2, 3], [1, 1]), ([2, 3], [1, -3]),
    ([2, 3], [3, -1]), ([2, 3], 0), ([], [0, 1]), ([], [-1]), ([(1, 8), -1], [1]), (None, [0]),
    ([2, 3], unknown([1])), ([2, 3], lambda ps: computed_scalar(1, params=ps)),
    ([2, 3], lambda ps: computed([1], params=ps)), ([2, 3], lambda ps: computed([(1, 2)], params=ps)),
])
def test_unsqueeze_runtime_cases(tmp_path, data, axes):
    opcheck.compare(unsqueeze(data, axes), tmp_path, ["Unsqueeze"])


def test_random_squeezes_and_unsqueezes_match_the_runtime(tmp_path):
    rng = random.Random(5)
    done = 0
    for n in range(220):
        rank = rng.randint(0, 4)
        data = None if rng.random() < 0.05 else [random_dim(rng, (1, 1, 2, 3)) for _ in range(rank)]
        count = rng.randint(0, 3)
        axes = [rng.randint(-rank - 1, rank) for _ in range(count)]
        if rng.random() < 0.15:
            axes = None
        kind = rng.random()
        if kind < 0.5:
            version = rng.choice([0, 15])
            done += differential(lambda: squeeze(data, axes, version, rng.random() < 0.5),
                                 tmp_path, ["Squeeze"], f"s{n}")
        else:
            done += differential(lambda: unsqueeze(data, axes or [0]), tmp_path, ["Unsqueeze"], f"u{n}")
    assert done > 120


def test_random_constant_axes_refused_or_not_as_the_runtime(tmp_path):
    rng = random.Random(6)
    compared = 0
    for n in range(120):
        rank = rng.randint(0, 3)
        data = [random_dim(rng, (1, 1, 2, 3)) for _ in range(rank)]
        axes = [rng.randint(-rank - 2, rank + 1) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.5:
            version = rng.choice([0, 15])
            compared += both_ways(lambda: squeeze(data, axes, version),
                                  _ir("Squeeze", shape_text(data), axes, f"opset{max(version, 1)}"),
                                  tmp_path, ["Squeeze"], f"s{n}")
        else:
            compared += both_ways(lambda: unsqueeze(data, axes), _ir("Unsqueeze", shape_text(data), axes),
                                  tmp_path, ["Unsqueeze"], f"u{n}")
    assert 30 < compared < 115


def _ir(kind, data, axes, version="opset1", axes_shape=None, et="i64", extra=False):
    def build():
        ir = IR()
        x = ir.parameter(data)
        inputs = [x, ir.const(axes, et, shape=axes_shape)]
        if extra:
            inputs.append(ir.const([0]))
        ir.result(ir.op(kind, inputs, [[9]], version=version))
        return ir
    return build


@pytest.mark.parametrize("build,kind,words", [
    (_ir("Squeeze", "1,2,1,3", [4]), "Squeeze", "out of the range"),
    (_ir("Squeeze", "", [1]), "Squeeze", "out of the range [-1, 0]"),
    (_ir("Squeeze", "1,2,1,3", [0], axes_shape=[1, 1]), "Squeeze", "rank 2"),
    (_ir("Squeeze", "1,2,1,3", [0], version="opset15", axes_shape=[1, 1]), "Squeeze", "rank 2"),
    (_ir("Squeeze", "1,2,1,3", [0], extra=True), "Squeeze", "takes 1 or 2 inputs"),
    (_ir("Unsqueeze", "2,3", [3]), "Unsqueeze", "out of the range"),
    (_ir("Unsqueeze", "2,3", [], axes_shape=[0]), "Unsqueeze", "empty"),
    (_ir("Unsqueeze", "2,3", [0], axes_shape=[1, 1]), "Unsqueeze", "rank 2"),
    (_ir("Unsqueeze", "2,3", [1, 0, 0, 0, 0, 0, 0, 0], et="boolean", axes_shape=[1]), "Unsqueeze", None),
])
def test_what_the_runtime_refuses(tmp_path, build, kind, words):
    refusal(tmp_path, build, kind, words)


def test_a_squeeze_that_may_drop_a_dim_gives_a_dynamic_rank_downstream(tmp_path, run):
    # [?,3] squeezed without axes: a dynamic rank; its port writes no <dim>, and what
    # follows (a ReLU) reads it as the runtime does: no false IRV101/IRV102
    x = param([-1, 3])
    s = NodeFactory("opset1").create("Squeeze", [x], {})
    s.set_friendly_name("s")
    r = opset1.relu(s, name="relu")
    path = opcheck.compare(model(r, [x]), tmp_path, ["Squeeze"])
    assert not opcheck.errors(path)


def test_float_axes_leave_the_rank_open(tmp_path):
    # the runtime reads float axes ([1.0] points at a 2: ignored, rank 4); irvalidate does not
    # decode float Consts and must not guess a rank: no error on what read_model loads
    x = param([1, 2, 1, 3])
    node = NodeFactory("opset1").create("Squeeze", [x, const([1.0], np.float32)], {})
    path = opcheck.save(model(node, [x]), tmp_path)
    assert opcheck.runtime_shapes(path)[node.get_friendly_name()] == ["[1,2,1,3]"]
    assert not opcheck.errors(path)


def test_stale_dims_name_the_layer(tmp_path):
    path = opcheck.compare(squeeze([1, 2, 1, 3], [0]), tmp_path, ["Squeeze"])
    assert opcheck.named(opcheck.mutate(path, "s", 0, 0, 5), "s")
    path = opcheck.compare(unsqueeze([2, 3], [0]), tmp_path, ["Unsqueeze"], stem="u")
    assert opcheck.named(opcheck.mutate(path, "u", 0, 0, 2), "u")


def test_allow_axis_skip_is_read_only_by_squeeze_15(tmp_path, run):
    ir = IR()
    x = ir.parameter("?,2")
    ir.result(ir.op("Squeeze", [x, ir.const([0])], [[2]], {"allow_axis_skip": "true"}))
    assert "IRV108" in {f.code for f in run(ir)}
