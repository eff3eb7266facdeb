"""Concat against the runtime: the notes' cases, random ones, refusals and a stale dim."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from conftest import codes  # noqa: E402
from openvino import opset1  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402


def shape(spec):
    if spec is None:
        return ov.PartialShape.dynamic()
    return ov.PartialShape([ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d)
                            for d in spec])


def model(shapes, axis):
    params = [opset1.parameter(shape(s), np.float32, name=f"p{i}") for i, s in enumerate(shapes)]
    return ov.Model([opset1.concat(params, axis, name="cat")], params)


@pytest.mark.parametrize("shapes,axis", [
    ([[2, 3], [4, 3]], 0), ([[2, 3], [2, 4]], -1), ([[2, 3], [4, 3], [1, 3]], 0),
    ([[2, 3]], 0), ([[0, 3], [2, 3]], 0), ([[(1, 8), 3], [(2, 4), (2, 5)]], 0),
    ([[(1, 8), 3], [-1, 3]], 0), ([[(1, 8), (2, 6)], [-1, (4, 9)]], 0), ([[-1, 3], [2, -1]], 1),
    ([[2, 3], None], 0), ([None, [2, 3]], -1), ([None, None], 0),
])
def test_the_runtime_cases(tmp_path, shapes, axis):
    opcheck.compare(model(shapes, axis), tmp_path, ["Concat"])


def test_random_concats_match_the_runtime(tmp_path):
    rng = random.Random(7)
    for n in range(60):
        rank = rng.randint(1, 4)
        axis = rng.randrange(-rank, rank)
        base = [rng.choice([1, 2, 3, -1, (1, 4), (2, 6)]) for _ in range(rank)]
        shapes = []
        for _ in range(rng.randint(1, 4)):
            s = list(base)
            s[axis] = rng.choice([1, 2, 5, -1, (0, 3), (2, 7)])
            for i in range(rank):  # off-axis dims that still merge with the base
                if i != axis % rank and rng.random() < 0.3:
                    s[i] = -1
            shapes.append(None if rng.random() < 0.1 else s)
        opcheck.compare(model(shapes, axis), tmp_path, ["Concat"], stem=f"m{n}")


@pytest.mark.parametrize("shapes,axis,words", [
    ([[2, 3], [2, 4]], 0, "every other dim must be equal"),
    ([[2, 3], [2, (4, 5)]], 0, "every other dim must be equal"),
    ([[2, 3], [2, 3, 1]], 0, "ranks 2 and 3"),
])
def test_what_the_runtime_refuses_is_incompatible_inputs(tmp_path, shapes, axis, words):
    assert opcheck.refused(lambda: model(shapes, axis), tmp_path) is not None
    # the same layer written by hand (openvino will not build it)
    from support.irbuilder import IR
    ir = IR()
    text = lambda d: str(d) if isinstance(d, int) else f"{d[0]}..{d[1]}"  # noqa: E731
    ps = [ir.parameter(",".join(text(d) for d in s)) for s in shapes]
    ir.result(ir.op("Concat", ps, [[9, 9]], {"axis": str(axis)}))
    path = ir.write(tmp_path)
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV102"]
    assert found and words in found[0].message and found[0].layer.type == "Concat"


def test_a_stale_declared_dim_names_the_concat(tmp_path):
    path = opcheck.compare(model([[2, 3], [4, 3]], 0), tmp_path, ["Concat"])
    assert opcheck.named(opcheck.mutate(path, "cat", 0, 0, 7), "cat")


def test_axis_out_of_range_and_missing_axis(tmp_path, run):
    from support.irbuilder import IR
    ir = IR()
    a, b = ir.parameter("2,3"), ir.parameter("4,3")
    ir.result(ir.op("Concat", [a, b], [[6, 3]]))  # no axis: 0, as the reader reads it
    assert "IRV101" not in codes(run(ir))
    ir = IR()
    a, b = ir.parameter("2,3"), ir.parameter("2,3")
    ir.result(ir.op("Concat", [a, b], [[4, 3]], {"axis": "2"}))
    [f] = [f for f in run(ir) if f.code == "IRV102"]
    assert "axis 2 is out of the range" in f.message
