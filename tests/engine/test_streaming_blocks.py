"""The streamed check against the whole check on random models made of repeated blocks of shape
subgraphs: ShapeOf, then one to four ops on the computed value (Gather, Concat, Slice,
StridedSlice, arithmetic, Convert, reductions, Squeeze, Unsqueeze, Range, Select, Tile, Split,
VariadicSplit, Broadcast), then a consumer that reads it as a shape (Broadcast, Reshape, Tile,
Range) or a Result.  Blocks repeat a few recipes and differ only in their Const numbers,
equal Consts sharing their bytes as the serializer writes them: the layers of later blocks
are alike those of earlier ones (``analysis.likeness``) and must still compute their own
values.  Each model is first made clean (its declared dims set to what the whole check
infers), then broken (a dim of each block's last value changed, and of one to three other
values); both must give the same findings either way, messages and lines included.  (Grown from a review's fuzzer, which found the
case of ``test_streaming.test_an_op_reading_the_inputs_of_another_layer_declines``.)
"""
from __future__ import annotations

import random

import pytest

from irvalidate.engine import streaming
from irvalidate.engine.validation import validate_file, weights_of
from irvalidate.rules import RULES
from support.irbuilder import IR, Ref

SEEDS = range(100)


class Blocks:
    """One random model; ``declared`` sets the dims an output port declares."""

    def __init__(self, seed: int, declared: dict) -> None:
        self.ir, self._offsets, self._declared = IR(), {}, declared
        rng = random.Random(seed)
        shapes = rng.sample(["2,6,4", "3,6,4", "?,6,4", "1..5,6,4", "2,6", "6"], 2)
        sources = [self.ir.parameter(s) for s in shapes]
        one = self.ir.parameter("1")
        recipes = [[rng.choice(list(OPS)) for _ in range(rng.randint(1, 4))]
                   for _ in range(rng.randint(1, 3))]
        for _ in range(rng.randint(4, 9)):
            recipe = rng.choice(recipes)
            numbers = random.Random(rng.randrange(3))  # (few variants of the Const numbers)
            own = self.op("Relu", [rng.choice(sources)])
            value = self.op("ShapeOf", [own], 1, {"output_type": "i64"}, "opset3", "I64")
            for name in recipe:
                value = OPS[name](self, value, numbers)
            self.ir.result(rng.choice(CONSUMERS)(self, value, numbers, own, one))

    def const(self, values, et: str = "i64", shape=None) -> Ref:
        shape = [len(values)] if shape is None else shape
        key = (tuple(values), et, tuple(shape))
        ref = self.ir.const(values, et, shape=shape, offset=self._offsets.get(key))
        self._offsets.setdefault(key, int(self.ir.layers[-1].data["offset"]))
        return ref

    def op(self, kind: str, inputs, outputs: int = 1, data=None, version: str = "opset1",
           precision=None):
        lid = str(len(self.ir.layers))
        dims = [self._declared.get((lid, str(len(inputs) + k)), []) for k in range(outputs)]
        first = self.ir.op(kind, inputs, dims, data, version=version, out_precision=precision)
        if outputs == 1:
            return first
        return [Ref(lid, str(len(inputs) + k), dims[k], first.precision) for k in range(outputs)]


def _split(b, v, r):
    return b.op("Split", [v, b.const([0], "i64", [])], 2, {"num_splits": "2"})[r.choice([0, 1])]


def _variadic_split(b, v, r):
    lengths = r.choice([[1, -1], [2, 1], [0, -1], [1, 2]])
    return b.op("VariadicSplit", [v, b.const([0], "i64", []), b.const(lengths)], 2)[r.choice([0, 1])]


def _arithmetic(b, v, r):
    kind = r.choice(["Multiply", "Add", "Subtract", "Divide", "Maximum", "Minimum"])
    data = {"auto_broadcast": "numpy", **({"m_pythondiv": "true"} if kind == "Divide" else {})}
    return b.op(kind, [v, b.const(r.choice([[2], [0], [-1], [3], [1]]), "i64", r.choice([[1], []]))],
                1, data)


def _select(b, v, r):
    condition = b.ir.const(r.choice([[1], [0]]), "u8", shape=[1])
    b.ir.layers[-1].data["element_type"] = "boolean"
    b.ir.layers[-1].outputs[0].precision = "BOOL"
    return b.op("Select", [condition, v, b.const(r.choice([[7], [1]]))], 1, {"auto_broadcast": "numpy"})


def _range(b, v, r):
    stop = b.op("Gather", [v, b.const([r.choice([0, 1, 2])], "i64", []), b.const([0], "i64", [])],
                1, {"batch_dims": "0"}, "opset8")
    return b.op("Range", [b.const([r.choice([0, 1])], "i64", []), stop,
                          b.const([r.choice([1, 2, -1])], "i64", [])], 1, {"output_type": "i64"}, "opset4")


def _gather(b, v, r):
    indices = r.choice([[0], [1], [-1], [5], [0, 1], [1, 0]])
    scalar = len(indices) == 1 and r.random() < 0.5
    return b.op("Gather", [v, b.const(indices, "i64", [] if scalar else None), b.const([0], "i64", [])],
                1, {"batch_dims": "0"}, "opset8")


def _strided_slice(b, v, r):
    begin, end, shrink = r.choice([([0], [1], "1"), ([1], [2], "0"), ([0], [2], "0"),
                                   ([-1], [0], "1"), ([5], [6], "1")])
    return b.op("StridedSlice", [v, b.const(begin), b.const(end), b.const([1])], 1,
                {"begin_mask": "0", "end_mask": "0", "new_axis_mask": "",
                 "shrink_axis_mask": shrink, "ellipsis_mask": ""})


_PRECISIONS = {"i64": "I64", "i32": "I32", "u8": "U8", "i8": "I8", "u64": "U64"}

OPS = {
    "gather": _gather,
    "concat": lambda b, v, r: b.op("Concat", [b.const(r.choice([[4], [1], [0], [-1], [2, 3]])), v][
        ::r.choice([1, -1])], 1, {"axis": "0"}),
    "slice": lambda b, v, r: b.op("Slice", [v, *(b.const([n]) for n in r.choice(
        [(0, 2, 1), (1, 3, 1), (-1, -3, -1), (0, 10, 2), (2, 1, 1)])), b.const([0])], 1, {}, "opset8"),
    "strided_slice": _strided_slice,
    "arithmetic": _arithmetic,
    "convert": lambda b, v, r: (lambda et: b.op("Convert", [v], 1, {"destination_type": et},
                                                "opset1", _PRECISIONS[et]))(r.choice(list(_PRECISIONS))),
    "reduce": lambda b, v, r: b.op(r.choice(["ReduceProd", "ReduceSum", "ReduceMax"]),
                                   [v, b.const([0], "i64", r.choice([[1], []]))], 1,
                                   {"keep_dims": r.choice(["true", "false"])}),
    "unsqueeze": lambda b, v, r: b.op("Unsqueeze", [v, b.const(r.choice([[0], [1], [-1]]), "i64", [1])]),
    "squeeze": lambda b, v, r: b.op("Squeeze", [v, b.const(r.choice([[0], [1]]), "i64", [1])]),
    "range": _range,
    "select": _select,
    "tile": lambda b, v, r: b.op("Tile", [v, b.const([r.choice([1, 2, 0])])]),
    "split": _split,
    "variadic_split": _variadic_split,
    "broadcast": lambda b, v, r: b.op("Broadcast", [v, b.const(r.choice([[2, 3], [3], [1, 2]]))], 1,
                                      {"mode": "bidirectional"}, "opset3"),
}


def _range_of_max(b, v, r, own, one):
    stop = b.op("ReduceMax", [v, b.const([0], "i64", [1])], 1, {"keep_dims": "false"})
    return b.op("Range", [b.const([0], "i64", []), stop, b.const([1], "i64", [])], 1,
                {"output_type": "i64"}, "opset4")


CONSUMERS = [
    lambda b, v, r, own, one: b.op("Broadcast", [one, v], 1, {"mode": "numpy"}, "opset3"),
    lambda b, v, r, own, one: b.op("Reshape", [own, v], 1, {"special_zero": r.choice(["true", "false"])}),
    lambda b, v, r, own, one: b.op("Tile", [own, v]),
    _range_of_max,
    lambda b, v, r, own, one: v,
]


def _findings(path, stream: bool, monkeypatch) -> list:
    monkeypatch.setattr(streaming, "MIN_BYTES", 0 if stream else 1 << 62)
    return [(f.line, f.code, f.message, f.level, f.layer, f.port, f.expected, f.declared,
             f.table) for f in validate_file(str(path)).findings]


def _model(seed: int, directory, monkeypatch, broken: bool):
    """The model of ``seed``, its declared dims set to the whole check's inference (a few
    rounds: a dim set may let the next layer be inferred), then, if ``broken``, changed."""
    monkeypatch.setattr(streaming, "MIN_BYTES", 1 << 62)
    declared: dict = {}
    for _ in range(4):
        path = Blocks(seed, declared).ir.write(directory)
        before = dict(declared)
        for f in validate_file(str(path)).findings:
            if f.code == "IRV101" and f.expected and f.layer is not None:
                declared[(f.layer.id, f.port)] = [
                    int(d) if d.lstrip("-").isdigit() else -1
                    for d in f.expected.strip("[]").split(",") if d]
        if declared == before:
            break
    if broken:
        rng = random.Random(seed * 7 + 1)
        ir = Blocks(seed, declared).ir
        ports = [(layer.id, ref.port) for layer in ir.layers
                 if layer.type not in ("Const", "Parameter", "Result") for ref in layer.outputs]
        results = {layer.id for layer in ir.layers if layer.type == "Result"}
        # every block's last value (what its Result reads), and one to three others
        last = [(a, b) for a, b, c, _ in ir.edges if c in results]
        for key in last + rng.sample(ports, min(len(ports), rng.randint(1, 3))):
            dims = list(declared.get(key, []))
            if dims and rng.random() < 0.8:
                axis = rng.randrange(len(dims))
                dims[axis] = dims[axis] + 1 if dims[axis] >= 0 else 5
            else:
                dims.append(1)
            declared[key] = dims
    return Blocks(seed, declared).ir.write(directory)


@pytest.mark.parametrize("batch", [2, 3, 5])
def test_repeated_shape_subgraphs_stream_as_they_check_whole(batch, tmp_path, monkeypatch):
    monkeypatch.setattr(streaming, "BATCH", batch)
    streamed = broken_found = 0
    for seed in SEEDS:
        for broken in (False, True):
            path = _model(seed, tmp_path, monkeypatch, broken)
            whole = _findings(path, False, monkeypatch)
            assert _findings(path, True, monkeypatch) == whole, (seed, broken)
            broken_found += broken and bool(whole)
            streamed += streaming.check(str(path), weights_of(str(path), None),
                                        [(r, r.LEVEL) for r in RULES]) is not None
    # (the stream reads most of them itself, rather than leaving them to the whole check)
    assert streamed >= len(SEEDS) and broken_found >= len(SEEDS) // 2, (streamed, broken_found)
