"""DFT, IDFT, RDFT and IRDFT against the runtime: the notes' cases, axes and signal sizes
given as Consts, computed by shape subgraphs or unknown, random configurations, refusals, a
stale dim, and the halving/doubling rules against plain arithmetic."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
from hypothesis import given, settings, strategies as st  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import both_ways, differential, model, param, refusal, shape_text, value  # noqa: E402

KINDS = ("DFT", "IDFT", "RDFT", "IRDFT")
COMPLEX = ("DFT", "IDFT", "IRDFT")


def fft(kind, data, axes, sizes=None, et=np.float32, opset="opset9"):
    x = param(data, et)
    params = [x]
    inputs = [x, value(axes, params)] + ([] if sizes is None else [value(sizes, params)])
    node = NodeFactory(opset).create(kind, inputs, {})
    node.set_friendly_name("f")
    return model(node, params)


NOTES = [
    # DFT/IDFT (DFT.md, IDFT.md)
    ([2, 10, 8, 2], [1, 2], None), ([2, 10, 8, 2], [1, 2], [5, -1]), ([2, 10, 8, 2], [2, 0], [4, 6]),
    ([(1, 4), -1, 8, 2], [1, 2], [-1, 16]), ([2, 10, 8, 2], [1, 2], ("p", [2])),
    ([2, 10, 8, 2], ("p", [2]), [4, 4]), ([2, 10, 8, 2], ("p", [2]), None),
    ([2, 10, 8, 2], [1, 2], ("c", [(3, 7), 5])), ([2, 10, 8, 2], [1], [-2]), (None, [1, 2], None),
]


@pytest.mark.parametrize("kind", ["DFT", "IDFT"])
@pytest.mark.parametrize("data,axes,sizes", NOTES)
def test_dft_and_idft_notes_cases(tmp_path, kind, data, axes, sizes):
    opcheck.compare(fft(kind, data, axes, sizes, opset="opset7"), tmp_path, [kind])


@pytest.mark.parametrize("data,axes,sizes", [
    ([2, 10, 8, 2], [1, 2], ("c", [(3, 7), -1])), ([2, 10, 8, 2], [1, 2], ("c", [(3, 7), -2])),
    ([2, 10, 8, 2], [1, 2], ("c", [-1, (0, -1)])), ([2, 10, 8, 2], [1, 2], ("c", [(2, 5), (3, -1)])),
    ([(1, 4), -1, 8, 2], [1, 2], ("c", [(2, 5), (3, -1)])), ([2, 10, 8, 2], [2, 0], ("c", [-2, 7])),
    ([2, 10, 8, 2], ("c", [1, 2]), [4, 4]), ([2, 10, 8, 2], [0, 1, 2], None), ([2, 10, 8, 2], [-3], None),
    ([2, 10, 8, 2], [1], [-3]), ([2, 10, 8, (1, 3)], [1], None), ([2, 10, 8, -1], [1], [4]),
    ([2, 10, 8, (1, 3)], ("i32", [1]), ("i32", [4])), ([2, 10, 8, 2], ("p", [-1]), [4, 4]),
    ([2, 10, 8, 2], ("p", None), [4, 4]), (None, ("p", None), [4, 4]), ([2, 10, 8, 2], [1, 2], ("p", None)),
    ([2, 10, 8, 2], [], None), ([2, 10, 8, 2], [], []), ([3, 2], [0], [7]), ([(0, 3), 2], [-1], None),
])
def test_dft_with_computed_unknown_and_odd_values(tmp_path, data, axes, sizes):
    opcheck.compare(fft("DFT", data, axes, sizes), tmp_path, ["DFT"])


@pytest.mark.parametrize("data,axes,sizes", [
    # RDFT.md
    ([2, 10, 8], [1, 2], None), ([2, 10, 9], [2], None), ([2, 10, 8], [-3], None),
    ([2, 10, 8], [1, 2], [6, -1]), ([2, 10, 8], [1, 2], [-1, 5]), ([2, 10, 8], [1, 2], [6, 7]),
    ([(1, 4), (5, 11), -1], [1], None), ([2, (0, 1), 8], [1], None), ([2, 10, 8], ("p", [2]), None),
    ([2, 10, 8], [1], ("p", [1])), ([2], [0], None), (None, [1], None),
    # more
    ([2, 10, 8], [1], [-3]), ([2, 10, 8], [0, 1, 2], None), ([2, 10, (0, 1)], [2], None),
    ([2, 10, -1], [2], None), ([2, 10, (3, -1)], [2], None), ([2, 10, 8], ("p", [2]), [4, 4]),
    ([2, 10, 8], ("c", [1, 2]), [4, 4]), ([2, 10, 8], [1, 2], ("c", [4, 4])),
    ([2, 10, 8], [1, 2], ("c", [4, (2, 5)])), ([2, 10, 8], [2, 1], None), ([2, 10, 8], [2, 1], [-1, 3]),
    ([2, 10, 8], ("i32", [0, 2]), ("i32", [-1, 0])), ([0, 10], [0], None),
])
def test_rdft_cases(tmp_path, data, axes, sizes):
    opcheck.compare(fft("RDFT", data, axes, sizes), tmp_path, ["RDFT"])


@pytest.mark.parametrize("data,axes,sizes", [
    # IRDFT.md
    ([2, 10, 8, 2], [1, 2], None), ([2, 10, 5, 2], [2], None), ([2, 10, 8, 2], [2, 1], None),
    ([2, 10, 8, 2], [1, 2], [6, -1]), ([2, 10, 8, 2], [1, 2], [-1, 5]),
    ([(1, 4), (5, 11), -1, 2], [1], None), ([2, (0, 1), 8, 2], [1], None), ([2, 10, 1, 2], [2], None),
    ([2, 10, 8, 2], ("p", [2]), None), ([2, 10, 8, 2], [1], ("p", [1])), ([2, 2], [0], None),
    (None, [1], None),
    # more
    ([2, 10, 8, 2], [1], [-3]), ([2, 10, 8, 2], [1], [-1]), ([2, 10, (1, 3), 2], [2], None),
    ([2, 10, 8, 2], ("p", [2]), [4, 4]), ([2, 10, 8, 2], [1, 2], ("c", [4, 4])),
    ([2, 10, 8, 2], [1, 2], ("c", [4, (4, 6)])), ([2, 10, 8, 2], [1, 2], ("p", None)),
    ([2, 10, 8, 2], [-3], None), ([2, 10, (3, -1), -1], [-1], [-1]), ([2, -1, 8, (1, 2)], [0, 1], [3, -1]),
])
def test_irdft_cases(tmp_path, data, axes, sizes):
    opcheck.compare(fft("IRDFT", data, axes, sizes), tmp_path, ["IRDFT"])


@pytest.mark.parametrize("kind", KINDS)
def test_half_precision_data_keeps_its_type(tmp_path, kind):
    data = [2, 6, 2] if kind in COMPLEX else [2, 6]
    opcheck.compare(fft(kind, data, [1] if kind != "RDFT" else [1], None, np.float16), tmp_path, [kind])


def _random_case(rng, kind):
    complex_input = kind in COMPLEX
    rank = rng.randint(1, 4) + (1 if complex_input else 0)
    dims = [rng.choice([1, 2, 3, 5, 8, 0, -1, (1, 6), (0, 4), (3, -1)]) for _ in range(rank)]
    if complex_input:
        dims[-1] = rng.choice([2, 2, 2, -1, (1, 3)])
    data = None if rng.random() < 0.05 else dims
    room = rank - 1 if complex_input else rank
    count = rng.randint(0 if kind in ("DFT", "IDFT") else 1, room)
    axes = [a - room if rng.random() < 0.3 else a for a in rng.sample(range(room), count)]
    if rng.random() < 0.1:
        axes = ("p", [count])
    elif rng.random() < 0.1 and count:
        axes = ("c", [a % room for a in axes])
    sizes = None
    if rng.random() < 0.6:
        choice = rng.random()
        if choice < 0.15:
            sizes = ("p", [count])
        elif choice < 0.4 and count:
            sizes = ("c", [rng.choice([3, (2, 9), (0, 4), (5, -1), -1, -2]) for _ in range(count)])
        else:
            sizes = [rng.choice([-1, -1, -2, 0, 1, 3, 4, 7, 16]) for _ in range(count)]
    return data, axes, sizes


def test_random_transforms_match_the_runtime(tmp_path):
    rng = random.Random(97)
    done = 0
    for n in range(240):
        kind = KINDS[n % 4]
        data, axes, sizes = _random_case(rng, kind)
        done += differential(lambda: fft(kind, data, axes, sizes), tmp_path, [kind], f"m{n}", True)
    assert done > 200


def _ir(kind, data, values, shapes=None, et="f32", version="opset9", index_et="i64"):
    def build():
        ir = IR()
        x = ir.parameter(data, et)
        inputs = [x] + [ir.const(v, index_et, shape=(shapes or {}).get(i)) for i, v in enumerate(values)]
        ir.result(ir.op(kind, inputs, [[9]], {}, version=version))
        return ir
    return build


def test_random_constant_axes_refused_or_not_as_the_runtime(tmp_path):
    """Axes and signal sizes out of range, repeated or too many: compared when openvino builds
    them, else refused by irvalidate too."""
    rng = random.Random(5)
    compared = 0
    for n in range(120):
        kind = KINDS[n % 4]
        rank = rng.randint(1, 4)
        data = [rng.choice([2, 3, 4, (1, 5), -1]) for _ in range(rank)]
        if kind in COMPLEX and rng.random() < 0.8:
            data[-1] = 2
        count = rng.randint(1, rank + 1)
        if rng.random() < 0.6:  # distinct axes, in range or just out of it
            axes = rng.sample(range(-rank, rank + 1), min(count, 2 * rank))
        else:
            axes = [rng.randint(-rank - 1, rank) for _ in range(count)]
        values = [axes]
        if rng.random() < 0.5:
            values.append([rng.choice([-1, 3, 4]) for _ in range(rng.choice([count, count, count + 1]))])
        compared += both_ways(lambda: fft(kind, data, *values), _ir(kind, shape_text(data), values),
                              tmp_path, [kind], f"r{n}")
    assert 15 < compared < 100


@pytest.mark.parametrize("kind,data,values,shapes,words", [
    ("DFT", "2,10,8,3", [[1]], None, "must be 2"),
    ("IRDFT", "2,10,8,3", [[1]], None, "must be 2"),
    ("DFT", "2", [[0]], None, "rank 2 or more"),
    ("RDFT", "", [[0]], None, "rank 1 or more"),
    ("DFT", "2,10,8,2", [[3]], None, "out of the range [-3, 2]"),
    ("RDFT", "2,10,8", [[3]], None, "out of the range [-3, 2]"),
    ("IDFT", "2,10,8,2", [[-4]], None, "out of the range"),
    ("DFT", "2,10,8,2", [[1, 1]], None, "repeat an axis"),
    ("RDFT", "2,10,8", [[2, -1]], None, "repeat an axis"),
    ("DFT", "2,10,8,2", [[0, 1, 2, 3]], None, "more than the 3 transformable dims"),
    ("RDFT", "2,10,8", [[0, 1, 2, 0]], None, "more than the 3"),
    ("DFT", "2,10,8,2", [[1, 2], [4]], None, "they must be as many"),
    ("DFT", "2,10,8,2", [[1], [5]], {1: []}, "signal_size (input 2) must be a 1-D tensor"),
    ("DFT", "2,10,8,2", [[1, 2], [5, 6]], {1: [1, 2]}, "1-D"),
    ("DFT", "2,10,8,2", [[1]], {0: []}, "not a scalar"),
    ("RDFT", "2,10,8", [[1]], {0: []}, "not a scalar"),
    ("DFT", "...", [[1]], {0: []}, "must be a 1-D tensor"),
    ("DFT", "2,10,8,2", [[1, 2]], {0: [1, 2]}, "1-D"),
])
def test_what_the_runtime_refuses(tmp_path, kind, data, values, shapes, words):
    refusal(tmp_path, _ir(kind, data, values, shapes), kind, words)


@pytest.mark.parametrize("kind,data", [("DFT", "2,10,8,2"), ("RDFT", "2,10,8")])
def test_element_types_the_runtime_refuses(tmp_path, kind, data):
    refusal(tmp_path / "d", _ir(kind, data, [[1]], et="i32"), kind, "must be f32, f16 or bf16")
    refusal(tmp_path / "a", _ir(kind, data, [[1]], index_et="i8"), kind, "must be i32 or i64")


@pytest.mark.parametrize("kind,data", [("RDFT", "2,10,8"), ("IRDFT", "2,10,8,2")])
def test_empty_axes_are_refused_without_asking_the_runtime(run, kind, data):
    # read_model segfaults on them (axes.back() of an empty vector), measured on 2026.4.1
    ir = _ir(kind, data, [[]])()
    found = [f for f in run(ir) if f.level == "error" and f.layer is not None and f.layer.type == kind]
    assert found and found[0].code == "IRV102" and "crashes" in found[0].message


def test_every_opset_name_reads_the_same_class(tmp_path, run):
    for version in ("opset7", "opset12", "opset16"):
        ir = IR()
        x = ir.parameter("2,10,8,2")
        ir.result(ir.op("DFT", [x, ir.const([1])], [[2, 10, 8, 2]], {}, version=version))
        assert not [f for f in run(ir) if f.level == "error"]


@pytest.mark.parametrize("kind,data,axes,port_axis", [
    ("DFT", [2, 10, 8, 2], [1], 1), ("IDFT", [2, 10, 8, 2], [1], 0),
    ("RDFT", [2, 10, 8], [2], 2), ("IRDFT", [2, 10, 8, 2], [2], 2)])
def test_a_stale_declared_dim_names_the_transform(tmp_path, kind, data, axes, port_axis):
    path = opcheck.compare(fft(kind, data, axes), tmp_path, [kind])
    assert opcheck.named(opcheck.mutate(path, "f", 0, port_axis, 99), "f")


@settings(max_examples=200, deadline=None)
@given(lo=st.integers(0, 60), width=st.integers(0, 30))
def test_rdft_and_irdft_lengths_hold_every_static_length(lo, width):
    """The halved (RDFT) and doubled (IRDFT) intervals hold each length of the input interval
    and nothing beyond the extremes."""
    from irvalidate.ops.fft import _half
    from irvalidate.shapes import arith
    from irvalidate.shapes.dims import Dim
    d = Dim(lo, lo + width)
    half = _half(d)
    full = arith.mul(Dim(2, 2), arith.sub(d, Dim(1, 1)))
    halves = [n // 2 + 1 if n else 0 for n in range(d.lo, d.hi + 1)]
    fulls = [max(2 * (n - 1), 0) for n in range(d.lo, d.hi + 1)]
    assert (half.lo, half.hi) == (min(halves), max(halves))
    assert (full.lo, full.hi) == (min(fulls), max(fulls))
