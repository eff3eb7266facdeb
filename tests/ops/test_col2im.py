"""Col2Im against the runtime: the note's cases, the block count in wrapping arithmetic,
random cases, refusals (and the attributes the runtime crashes on) and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset13 as o  # noqa: E402

from irvalidate.ops.col2im import block_count  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.partial_shapes import (  # noqa: E402
    const,
    create,
    errors_naming as _errors,
    expect_refusal,
    model,
    param,
)

CB = {"strides": [1, 1], "dilations": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]}


def col2im(data, size, kernel, attrs=None, et=np.int64):
    """size/kernel: a list is a Const, a (shape,) tuple a Parameter, a callable a subgraph of a
    Parameter it builds (returning (node, params))."""
    x = param(data, np.float32, "x")
    inputs, params = [x], [x]
    for spec in (size, kernel):
        if callable(spec):
            node, extra = spec()
            inputs.append(node)
            params += extra
        elif isinstance(spec, tuple):
            p = param(spec[0], et)
            inputs.append(p)
            params.append(p)
        else:
            inputs.append(const(spec, et))
    return model([create("opset15", "Col2Im", inputs, {**CB, **(attrs or {})}, name="op")], params)


def dims_of(spec, picked):
    def make():
        y = param(spec)
        return o.gather(o.shape_of(y), const(picked), const(0)), [y]
    return make


@pytest.mark.parametrize("data,size,kernel,attrs", [
    ([3, 12, 9], [4, 4], [2, 2], {}), ([12, 9], [4, 4], [2, 2], {}),
    ([3, 12, 16], [6, 6], [2, 2], {"strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1]}),
    ([3, 12, -1], [4, 4], [2, 2], {}), ([-1, -1, -1], [4, 4], [2, 2], {}),
    ([(1, 3), 12, 9], [4, 4], [2, 2], {}), (None, [4, 4], [2, 2], {}),
    ([3, 12, 9], ([2],), [2, 2], {}), ([3, 12, 9], [4, 4], ([2],), {}),
    ([3, 12, 9], dims_of([1, 2, 4, (3, 5)], [2, 3]), [2, 2], {}),
    ([3, 12, 9], [4, 4], dims_of([2, 2], [0, 1]), {}),
    ([3, 12, 9], [4, 4], dims_of([2, (2, 3)], [0, 1]), {}),
    ([3, 12, 9], [-1, 4], [2, 2], {}), ([3, 12, 9], [4, 4], [2, 2], {"strides": [1, 1, 7]}),
    ([3, 12, 16], [4, 4], [2, 2], {"dilations": [0, 0]}), ([3, 12, 49], [4, 4], [-2, -2], {}),
    ([3, 12, -1], [4, 4], [2, 2], {"strides": [0, 1]}), ([3, 12, (8, 10)], [4, 4], [2, 2], {}),
    ([3, 0, 9], [4, 4], [2, 2], {}), ([3, -1, 15], [4, 4], [0, 2], {}),
    ([3, 12, 9], (None,), [2, 2], {}),
])
def test_the_runtime_cases(tmp_path, data, size, kernel, attrs):
    opcheck.compare(col2im(data, size, kernel, attrs), tmp_path, ["Col2Im"])


def test_i32_sizes(tmp_path):
    opcheck.compare(col2im([3, 12, 9], [4, 4], [2, 2], et=np.int32), tmp_path, ["Col2Im"])


def test_random_cases_match_the_runtime(tmp_path):
    rng = random.Random(61)
    for n in range(60):
        kernel = [rng.randint(1, 3), rng.randint(1, 3)]
        strides = [rng.randint(1, 3), rng.randint(1, 3)]
        dilations = [rng.randint(1, 2), rng.randint(1, 2)]
        pads = [rng.randint(0, 2) for _ in range(4)]
        size = [rng.randint(3, 9), rng.randint(3, 9)]
        attrs = {"strides": strides, "dilations": dilations, "pads_begin": pads[:2],
                 "pads_end": pads[2:]}
        blocks = block_count(size, kernel, strides, dilations, pads[:2], pads[2:])
        if blocks <= 0:
            continue
        c = rng.randint(1, 3) * kernel[0] * kernel[1]
        data = [rng.choice([1, 2, -1]), rng.choice([c, c, -1]), rng.choice([blocks, blocks, -1])]
        if rng.random() < 0.3:
            data = data[1:]
        opcheck.compare(col2im(data, size, kernel, attrs), tmp_path, ["Col2Im"], stem=f"m{n}")


def test_block_count_wraps_as_the_runtime_s():
    assert block_count([4, 4], [2, 2], [1, 1], [1, 1], [0, 0], [0, 0]) == 9
    assert block_count([1, 1], [2, 2], [1, 1], [1, 1], [0, 0], [0, 0]) == 0
    assert block_count([2 ** 40, 2 ** 40], [2, 2], [1, 1], [1, 1], [0, 0], [0, 0]) == -2199023255551



def _ir(data, size, kernel, attrs, size_shape=None, size_et="i64", kernel_et="i64"):
    ir = IR()
    inputs = [ir.parameter(data), ir.const(size, size_et, shape=size_shape),
              ir.const(kernel, kernel_et)]
    ir.result(ir.op("Col2Im", inputs, [[3, 3, 4, 4]], attrs, version="opset15", name="op"))
    return ir


ATTRS = {k: ",".join(map(str, v)) for k, v in CB.items()}


@pytest.mark.parametrize("data,size,kernel,attrs,extra,words", [
    ("3,13,9", [4, 4], [2, 2], {}, {}, "not divisible"),
    ("3,12,10", [4, 4], [2, 2], {}, {}, "make 9"),
    ("3,12,9", [4, 4], [2, 2], {"dilations": "2,2"}, {}, "make 4"),
    ("3,12,9", [1, 1], [2, 2], {}, {}, "make 0"),
    ("3,12,9", [-2, 4], [2, 2], {}, {}, "make -3"),
    ("3,12,9", [4, 4], [2, 2], {"strides": "2,2"}, {}, "make 4"),
    ("3,12,9", [4, 4, 4], [2, 2], {}, {}, "must have shape [2]"),
    ("3,12,9,1", [4, 4], [2, 2], {}, {}, "rank 2 or 3"),
    ("3,12,9", [4, 4], [2, 2], {}, {"size_et": "i32"}, "share the type"),
    ("3,12,9", [4, 4], [0, 2], {}, {}, "positive product"),
    ("3,12,-1", [4, 4], [2, 2], {"strides": "0,1"}, {}, None),  # accepted: L unknown
])
def test_what_the_runtime_refuses(tmp_path, data, size, kernel, attrs, extra, words):
    ir = _ir(data, size, kernel, {**ATTRS, **attrs}, **extra)
    if words is None:
        path = ir.write(tmp_path)
        ov.Core().read_model(str(path))
        assert not _errors(path)
        return
    expect_refusal(ir, tmp_path, words)


@pytest.mark.parametrize("attrs,words", [
    ({"strides": "1"}, "past the end"), ({"pads_end": "0"}, "past the end"),
    ({"pads_begin": None}, "crashes"), ({"dilations": None}, "crashes"),
])
def test_short_or_missing_lists_are_refused(tmp_path, attrs, words):
    """The runtime crashes without them and reads past the end of a short one: never run
    read_model on those."""
    given = {k: v for k, v in {**ATTRS, **attrs}.items() if v is not None}
    found = _errors(_ir("3,12,9", [4, 4], [2, 2], given).write(tmp_path))
    assert found and words in found[0].message


def test_stale_dims_are_named(tmp_path):
    path = opcheck.compare(col2im([3, 12, 9], [4, 4], [2, 2]), tmp_path, ["Col2Im"])
    for axis, value in ((1, 4), (2, 5), (3, 3)):
        assert opcheck.named(opcheck.mutate(path, "op", 0, axis, value), "op")
