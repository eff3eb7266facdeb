"""Values and bounds through every op the runtime bound-evaluates, against ``read_model``
(issue 23): random models of shape subgraphs feeding Broadcast, Reshape, Range, Tile and
StridedSlice, with NonZero, Loop and TensorIterator layers (``valuegen``).

* A valid model gives no error finding (a *false error* otherwise).
* A declared output dim of a consumer changed to a number outside what the runtime infers
  there (a static dim or a bounded interval), on its output port and the input ports it
  feeds, gives an error naming that layer (a *miss* otherwise; 1% are tolerated, see
  ``LOOSE_SHARE``).
* Irvalidate's shape of every consumer is the runtime's, or (for 1% at most) looser: a
  looser one is a miss waiting to happen, a tighter one a false error (none is tolerated).

``IRVALIDATE_VALUEGEN_MODELS`` sets the number of models (300 by default, ~30 s); run this
file as a script (``PYTHONPATH=tests python tests/ops/test_value_bounds.py N``) for the
figures alone.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

ov = pytest.importorskip("openvino")
pytest.importorskip("lxml")

from support import (  # noqa: E402  (after importorskip: the module needs openvino)
    opcheck,
    valuegen,
)
from support.valuecheck import parse_bounds as _dims  # noqa: E402

N_MODELS = int(os.environ.get("IRVALIDATE_VALUEGEN_MODELS", "300"))
MAX_SHOWN = 15

Bound = tuple[int, int | None]


def _contains(outer: list[Bound] | None, inner: list[Bound] | None) -> bool:
    if outer is None:
        return True
    return inner is not None and len(outer) == len(inner) and all(
        lo <= ilo and (hi is None or (ihi is not None and ihi <= hi))
        for (lo, hi), (ilo, ihi) in zip(outer, inner))


def shape_disagreements(model: valuegen.ValueModel) -> list[str]:
    """The consumers whose shape irvalidate infers otherwise than the runtime."""
    ours = opcheck.irvalidate_shapes(model.xml)
    out = []
    for name in model.consumers:
        row = ours.get(name)
        mine = [o["inferred"] for o in row["outputs"]] if row else None
        if mine != model.runtime[name]:
            looser = mine is not None and all(
                m is not None and _contains(_dims(m), _dims(r))
                for m, r in zip(mine, model.runtime[name]))
            out.append(f"{'looser' if looser else 'WRONG'} seed {model.seed} {name}: "
                       f"runtime {model.runtime[name]}, irvalidate {mine}")
    return out


def mutation(model: valuegen.ValueModel) -> tuple[Path, str, str] | None:
    """(the mutated copy, the layer, what changed): one bounded output dim of a consumer set
    past the runtime's upper bound."""
    rnd = random.Random(model.seed)
    places = []
    for name in model.consumers:
        for port, text in enumerate(model.runtime[name]):
            for axis, (_, hi) in enumerate(_dims(text) or []):
                if hi is not None:
                    places.append((name, port, axis, hi))
    if not places:
        return None
    name, port, axis, hi = rnd.choice(places)
    value = hi + rnd.randint(1, 3)
    path = opcheck.mutate(model.xml, name, port, axis, value)
    return path, name, f"port {port} axis {axis}: {model.runtime[name][port]} -> {value}"


def measure(n: int, folder: Path) -> dict[str, list[str]]:
    """False errors, misses and shape disagreements over the models of seeds 0..n-1."""
    found: dict[str, list[str]] = {"false errors": [], "misses": [], "mutants": [],
                                   "disagreements": [], "consumers": []}
    for seed in range(n):
        model = valuegen.generate(seed, folder / "models")
        found["consumers"] += model.consumers
        errors = opcheck.errors(model.xml)
        if errors:
            found["false errors"].append(f"seed {seed}: {errors[:2]}")
        found["disagreements"] += shape_disagreements(model)
        mutant = mutation(model)
        if mutant is not None:
            path, name, what = mutant
            found["mutants"].append(name)
            if not opcheck.named(path, name):
                found["misses"].append(f"seed {seed} {name} {what}")
    return found


def _shown(title: str, cases: list[str]) -> str:
    return f"{title}: {len(cases)}\n  " + "\n  ".join(cases[:MAX_SHOWN])


@pytest.fixture(scope="module")
def figures(tmp_path_factory) -> dict[str, list[str]]:
    return measure(N_MODELS, tmp_path_factory.mktemp("valuegen"))


def test_valid_models_give_no_error(figures):
    assert not figures["false errors"], _shown("false errors", figures["false errors"])


#: the share of misses and of looser shapes tolerated: what is left are StridedSlices whose
#: begin or end the runtime bounds where irvalidate has no value (a Select on a comparison
#: of intervals, a Gather of u8 values), where irvalidate's ..max holds the runtime's dim
LOOSE_SHARE = 0.01


def test_mutated_dims_are_named(figures):
    assert len(figures["mutants"]) > N_MODELS // 2
    allowed = int(len(figures["mutants"]) * LOOSE_SHARE)
    assert len(figures["misses"]) <= allowed, _shown("misses", figures["misses"])


def test_consumer_shapes_are_the_runtimes(figures):
    """No shape other than the runtime's but a looser one (never tighter: a false error
    waiting to happen), and few of those."""
    wrong = [d for d in figures["disagreements"] if not d.startswith("looser")]
    assert not wrong, _shown("disagreements", wrong)
    allowed = int(len(figures["consumers"]) * LOOSE_SHARE)
    assert len(figures["disagreements"]) <= allowed, \
        _shown("looser shapes", figures["disagreements"])


if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        result = measure(int(sys.argv[1]) if len(sys.argv) > 1 else N_MODELS, Path(tmp))
    for key, cases in result.items():
        print(_shown(key, cases) if key not in ("mutants", "consumers") else
              f"{key}: {len(cases)}")


# --------------------------------------------------------------------------------------
# the classes of issue 23, one model each, against read_model

import numpy as np  # noqa: E402
import openvino.opset16 as op  # noqa: E402

from support.ovvalues import parameter  # noqa: E402


def _i64(values) -> ov.Node:
    return op.constant(np.array(values, dtype=np.int64))


def _f32(values) -> ov.Node:
    return op.constant(np.array(values, dtype=np.float32))


def _broadcast(value) -> ov.Node:
    node = op.broadcast(_f32(1.0), value)
    node.set_friendly_name("B")
    return node


def _yolo_anchors() -> ov.Model:
    """YOLOv8's anchor generation: a feature map's size, Converted to f32, is Range's stop."""
    image = parameter([1, 3, 320, 320], name="image")
    outs = []
    for stride in (8, 16, 32):
        pooled = op.avg_pool(image, [stride, stride], [0, 0], [0, 0], [stride, stride], True)
        size = op.gather(op.shape_of(pooled), _i64(2), _i64(0))
        stop = op.convert(size, "f32")
        node = op.range(_f32(0.0), stop, _f32(1.0), "f32")
        node.set_friendly_name(f"anchors{stride}")
        outs.append(op.add(node, _f32(0.5)))
    return ov.Model(outs, [image], "yolo")


def _through(make) -> ov.Model:
    x = parameter([4, 6], name="x")
    return ov.Model([_broadcast(make(op.shape_of(x)))], [x], "m")


CLASSES = {
    "yolo-range": (_yolo_anchors, ["anchors8", "anchors16", "anchors32"]),
    "convert-f32-and-back": (lambda: _through(
        lambda s: op.convert(op.multiply(op.convert(s, "f32"), _f32([0.5])), "i64")), ["B"]),
    "relu": (lambda: _through(op.relu), ["B"]),
    "floor": (lambda: _through(
        lambda s: op.convert(op.floor(op.divide(op.convert(s, "f32"), _f32([4.0]))), "i64")),
        ["B"]),
    "nonzero-f32-const": (lambda: ov.Model(
        [op.non_zero(_f32(np.eye(3)))], [], "nz"), ["NonZero"]),
}


def _strided_unbounded_begin() -> ov.Model:
    """A begin the runtime cannot bound (Relu of a shape with an interval) under begin_mask:
    the sliced dim is ..8, not 8, so adding a [5,3] Parameter later is valid."""
    x = parameter([(2, 6), 3], name="x")
    data = parameter([8, 3], name="data")
    begin = op.subtract(op.gather(op.relu(op.shape_of(x)), _i64([0]), _i64(0)), _i64([1]))
    node = op.strided_slice(data, begin, _i64([8]), _i64([1]), [1], [0])
    node.set_friendly_name("S")
    other = parameter([5, 3], name="other")
    return ov.Model([op.add(node, other)], [x, data, other], "ss")


def _tile_of_empty_repeats(computed_begin: bool) -> ov.Model:
    """Repeats of length 0, a StridedSlice of a shape to nothing: the runtime evaluates it
    when every begin and end element no mask ignores is exact (the data's shape stays),
    and reads ``?`` repeats when one is not (a begin of ``-2..3``)."""
    x = parameter([-1, -1, 5] if not computed_begin else [(0, 5)], name="x")
    shape = op.shape_of(x, "i64")
    first = op.gather(shape, _i64([0]), _i64(0))
    if computed_begin:
        repeats = op.strided_slice(shape, op.subtract(first, _i64([2])), _i64([0]), _i64([1]),
                                   [0], [0])
    else:  # from past the end, the end masked
        repeats = op.strided_slice(shape, _i64([3]), first, _i64([1]), [0], [1])
    node = op.tile(x, repeats)
    node.set_friendly_name("T")
    return ov.Model([node], [x], "tile")


def _reals_gathered_and_reduced() -> ov.Model:
    """A size in f32, gathered and reduced (ReduceMin) before Range reads it."""
    x = parameter([4, 6, 3], name="x")
    sizes = op.convert(op.shape_of(x), "f32")
    stop = op.reduce_min(op.gather(sizes, _i64([0, 1]), _i64(0)), _i64([0]), False)
    node = op.range(_f32(0.0), stop, _f32(0.5), "f32")
    node.set_friendly_name("R")
    return ov.Model([node], [x], "reals")


def _sum_of_nothing() -> ov.Model:
    """ReduceSum of an empty slice of a shape is 0: a Range to it is empty."""
    x = parameter([3, 3], name="x")
    empty = op.slice(op.shape_of(x), _i64([2]), _i64([5]), _i64([1]))
    stop = op.squeeze(op.reduce_sum(empty, _i64([0]), True), _i64([0]))
    node = op.range(_i64(0), stop, _i64(1), "i64")
    node.set_friendly_name("R")
    return ov.Model([node], [x], "sum")


def _loop_of_computed_trips() -> ov.Model:
    """A Loop whose trip count is a size through Relu and f32: its concatenated output is
    [16,3] (the runtime folds the trip count), not [?,3]."""
    x = parameter([4, 3], name="x")
    size = op.gather(op.relu(op.shape_of(x)), _i64(0), _i64(0))
    trips = op.convert(op.multiply(op.convert(size, "f32"), _f32(1.0)), "i64")
    inner = op.parameter([4, 3], np.float32)
    counter = op.parameter([], np.int64)
    out = op.relu(inner)
    body = ov.Model([op.result(op.constant(True)), op.result(out)], [inner, counter], "body")
    node = op.loop(trips, op.constant(True))
    node.set_function(body)
    node.set_special_body_ports([1, 0])
    node.set_invariant_input(inner, x.output(0))
    joined = node.get_concatenated_slices(out.output(0), 0, 1, 1, -1, 0)
    node.validate_and_infer_types()
    node.set_friendly_name("L")
    return ov.Model([joined], [x], "loop")


def _min_of_nothing() -> ov.Model:
    """ReduceMin of an empty i32 slice of a shape is the type's maximum, a number."""
    x = parameter([8, 6], name="x")
    empty = op.slice(op.shape_of(x, "i32"), _i64([2]), _i64([5]), _i64([1]))
    node = _broadcast(op.reduce_min(empty, _i64([0]), True))
    return ov.Model([node], [x], "min")


def _through_f64() -> ov.Model:
    """The runtime does not gather f64 values: a size through f64 and Gather is ``?``."""
    return _through(lambda s: op.convert(op.gather(op.convert(s, "f64"), _i64([1]), _i64(0)),
                                         "i64"))


def _f32_to_f64_and_back() -> ov.Model:
    """A size through f32, then f64 (irvalidate's analysis once failed there), and back."""
    return _through(lambda s: op.convert(op.convert(op.convert(s, "f32"), "f64"), "i64"))


def _product_of_maybe_negative() -> ov.Model:
    """ReduceProd of [2, -3..0]: the runtime evaluates no bounds of a value that may be
    negative, so a Reshape to it is [?] (irvalidate gave [36..0])."""
    x = parameter([6, (1, 4)], name="x")
    data = parameter([6, 2, 5, 5], name="data")
    factors = op.tile(op.subtract(op.shape_of(x, "i32"), op.constant(np.int32(4))), _i64([2]))
    node = op.reshape(data, op.reduce_prod(factors, _i64([0]), True), True)
    node.set_friendly_name("R")
    return ov.Model([node], [x, data], "prod")


CLASSES.update({
    "reduce-prod-maybe-negative": (_product_of_maybe_negative, ["R"]),
    "f32-f64-and-back": (_f32_to_f64_and_back, ["B"]),
    "f64-gather-unknown": (_through_f64, ["B"]),
    "reduce-min-of-nothing": (_min_of_nothing, ["B"]),
    "loop-computed-trips": (_loop_of_computed_trips, ["L"]),
    "reduce-sum-of-nothing": (_sum_of_nothing, ["R"]),
    "f32-gather-reduce": (_reals_gathered_and_reduced, ["R"]),
    "strided-slice-unbounded-begin": (_strided_unbounded_begin, ["S"]),
    "tile-empty-repeats": (lambda: _tile_of_empty_repeats(False), ["T"]),
    "tile-empty-repeats-unknown": (lambda: _tile_of_empty_repeats(True), ["T"]),
})


@pytest.mark.parametrize("source", ["parameter", "relu"])
def test_strided_slice_of_unknown_bounds_is_never_tighter(source, tmp_path):
    """A begin or end irvalidate has no bounds of (a Parameter, or a Relu of a shape with an
    interval, which the runtime does not evaluate), masked or not: each sliced dim holds the
    runtime's, and the file gives no error (measured: with a masked unknown begin, [:2] of
    3..9 is ..9, [:2:2] ..5, [:5] 3..5, and any slice of a static 10 is ..10)."""
    shape = parameter([(2, 3), 5], name="shape")
    unknown = (parameter([1], et=np.int64, name="unknown") if source == "parameter" else
               op.subtract(op.gather(op.relu(op.shape_of(shape)), _i64([0]), _i64(0)),
                           _i64([2])))
    datas = [parameter([1, 6], name="a"), parameter([(3, 9), 6], name="b"),
             parameter([10, 6], name="c")]
    outs = []
    for data in datas:
        for known, stride in ((2, 1), (2, 2), (5, 1), (-8, 1), (0, 1)):
            for begin_unknown in (True, False):
                for masks in (([1], [1]), ([1], [0]), ([0], [1]), ([0], [0])):
                    begin, end = (unknown, _i64([known])) if begin_unknown else \
                        (_i64([known]), unknown)
                    node = op.strided_slice(data, begin, end, _i64([stride]), *masks)
                    node.set_friendly_name(f"S{len(outs)}")
                    outs.append(node)
    params = [shape, *datas] + ([unknown] if source == "parameter" else [])
    path = opcheck.save(ov.Model(outs, params, "ss"), tmp_path)
    runtime, ours = opcheck.runtime_shapes(path), opcheck.irvalidate_shapes(path)
    for node in outs:
        name = node.get_friendly_name()
        mine = ours[name]["outputs"][0]["inferred"]
        assert _contains(_dims(mine), _dims(runtime[name][0])), (name, mine, runtime[name])
    assert not opcheck.errors(path)


@pytest.mark.parametrize("case", sorted(CLASSES))
def test_issue_classes_match_the_runtime(case, tmp_path):
    build, names = CLASSES[case]
    model = build()
    for node in model.get_ordered_ops():  # (NonZero keeps the name the test asks for)
        if node.get_type_name() == "NonZero":
            node.set_friendly_name("NonZero")
    path = opcheck.save(model, tmp_path)
    runtime = opcheck.runtime_shapes(path)
    ours = opcheck.irvalidate_shapes(path)
    for name in names:
        assert [o["inferred"] for o in ours[name]["outputs"]] == runtime[name], name
    assert not opcheck.errors(path)
    name = names[0]
    bounded = [(axis, hi) for axis, (lo, hi) in enumerate(_dims(runtime[name][0]) or [])
               if hi is not None]
    if not bounded:  # (nothing the runtime bounds: no declared dim can be wrong)
        return
    axis, hi = bounded[-1]
    mutated = opcheck.mutate(path, name, 0, axis, hi + 2)  # a dim past the runtime's
    assert opcheck.named(mutated, name)


def test_fix_repairs_a_stale_anchor_count(tmp_path):
    """YOLOv8's anchors: a stale 41 where the runtime infers [40] is found and --fix writes 40
    (irvalidate gave [?] before, and neither the check nor --fix saw it)."""
    import subprocess
    path = opcheck.save(_yolo_anchors(), tmp_path)
    stale = opcheck.mutate(path, "anchors8", 0, 0, 41)
    assert opcheck.named(stale, "anchors8")
    run = subprocess.run([sys.executable, "-m", "irvalidate", "--fix", str(stale)],
                         capture_output=True, text=True, cwd=str(tmp_path), timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert not opcheck.errors(stale)
    ours = opcheck.irvalidate_shapes(stale)["anchors8"]["outputs"][0]
    assert ours["declared"] == ours["inferred"] == "[40]"
