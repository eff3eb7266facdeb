"""``--reshape`` as it streams (``reshaping/streamed.py``) against the whole-graph what-if: on
every file, with requests derived from its inputs, the same findings and the same outcome
(the new shapes of the inputs and outputs, the verdict, the rewrites); the stream declines
wherever it could differ (a request that does not fit, a refused layer, a layer SmartReshape
might rewrite).

The whole path is forced with ``engine.streaming.MIN_BYTES`` (the stream's own threshold),
and batches are made tiny (``BATCH``), as tests/engine/test_streaming.py makes them.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from irvalidate.analysis import analyse, likeness
from irvalidate.analysis.stream import Decline
from irvalidate.analysis.what_if import parameters
from irvalidate.engine import streaming
from irvalidate.engine.validation import weights_of
from irvalidate.ir.reader import parse
from irvalidate.ops.support import memo
from irvalidate.reshaping import constraints, run
from irvalidate.reshaping.smart_reshape import plan
from irvalidate.reshaping.spec import parse_each
from irvalidate.reshaping.streamed import StreamedWhatIf
from irvalidate.rules import RESHAPE_RULES
from irvalidate.shapes.dims import format_shape
from support.irbuilder import IR
from support.places import CORPUS_FILES, SAMPLES

PLANNED = [(r, r.LEVEL) for r in RESHAPE_RULES]


@pytest.fixture(autouse=True)
def small_batches(monkeypatch):
    monkeypatch.setattr(streaming, "BATCH", 3)


def requests_of(path: Path) -> list[str]:
    """Requests on the file's inputs: every input with its dynamic dims set to 8 and its
    batch doubled, and the same with the first input's last dim one larger (which breaks
    many models); then requests that do not fit (a name no input has, the first input with
    one dim more): the stream declines those as the whole run refuses them.  None when an
    input has a dynamic rank or a name the syntax cannot hold."""
    doc = parse(str(path))
    if doc.fatal:
        return []
    inputs = parameters(doc.graph)
    if not inputs or any(shape is None or any(c in layer.name for c in ",[]:?. ")
                         for layer, shape in inputs):
        return []
    found = []
    for grow_last in (False, True):
        parts = []
        for index, (layer, shape) in enumerate(inputs):
            sizes = [d.lo if d.is_static else 8 for d in shape or ()]
            if sizes:
                sizes[0] *= 2
                if grow_last and index == 0:
                    sizes[-1] += 1
            parts.append(f"{layer.name}[{','.join(map(str, sizes))}]")
        found.append(",".join(parts))
    first, shape = inputs[0]
    found += ["nosuch[1,2]", f"{first.name}[{','.join(['1'] * (len(shape or ()) + 1))}]"]
    return found


def _outcome(result) -> tuple:
    shown = result.reshape
    outcome = None if shown is None else (
        [(n, format_shape(s)) for n, s in shown.inputs],
        [(n, format_shape(s)) for n, s in shown.outputs],
        [(r.layer.name, r.transformation, r.detail) for r in shown.rewrites],
        shown.works, shown.changed, shown.smart)
    findings = [(f.line, f.code, f.message, f.level, f.layer, f.port, f.table, f.scope)
                for f in result.findings]
    return findings, outcome, len(result.requests)


def both_ways(path: Path, spec: str, monkeypatch, smart: bool = True) -> bool:
    """The outcome streamed and whole agree; whether the stream kept the file."""
    kept: list[StreamedWhatIf] = []
    made = run._watch

    def watching(*args):
        found = made(*args)
        kept.append(found)
        return found
    monkeypatch.setattr(run, "_watch", watching)
    requests = parse_each([spec])
    monkeypatch.setattr(streaming, "MIN_BYTES", 1 << 62)
    whole = _outcome(run.reshape_each(str(path), requests, smart))
    assert not kept
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    streamed = _outcome(run.reshape_each(str(path), requests, smart))
    assert streamed == whole, (path, spec)
    return bool(kept) and kept[-1].finished


def _agree(paths: list[Path], monkeypatch) -> tuple[int, int]:
    """(requests tried, requests the stream kept) over the files."""
    tried = kept = 0
    for path in paths:
        for spec in requests_of(path):
            tried += 1
            kept += both_ways(path, spec, monkeypatch)
    return tried, kept


def test_samples(monkeypatch):
    tried, kept = _agree(SAMPLES, monkeypatch)
    assert tried >= 60 and kept >= 20, (tried, kept)


@pytest.mark.skipif(not CORPUS_FILES, reason="no wild corpus here")
def test_wild_corpus(monkeypatch):
    tried, kept = _agree(CORPUS_FILES, monkeypatch)
    assert kept >= 20, (tried, kept)


def test_without_smart_reshape(monkeypatch):
    """--no-smart-reshape: no rewrite to fear, so the stream keeps the files SmartReshape
    would rewrite, with the same outcome."""
    kept = sum(both_ways(p, spec, monkeypatch, smart=False) for p in SAMPLES
               for spec in requests_of(p))
    assert kept >= 20, kept


def _rewritten(paths: list[Path]) -> list[tuple[Path, list[str]]]:
    """The files a plain check streams on which SmartReshape makes rewrites, with them."""
    found = []
    for path in paths:
        weights = weights_of(str(path), None)
        if streaming.check(str(path), weights, PLANNED) is None:
            continue
        doc = parse(str(path))
        made = plan(analyse(doc.graphs(), weights)[0])
        if made:
            found.append((path, sorted({r.transformation for r in made})))
    return found


def test_a_rewrite_is_declined(monkeypatch):
    """Every file on which SmartReshape rewrites a layer is declined by the stream for that
    reason (the matchers' superset, streamed.might_rewrite), whatever the request: here
    the file's own shapes, with which nothing is refused."""
    rewritten = _rewritten(SAMPLES + CORPUS_FILES)
    assert len(rewritten) >= 5, rewritten
    for path, _ in rewritten:
        weights = weights_of(str(path), None)
        with pytest.raises(Decline, match="SmartReshape may rewrite"):
            streaming._check(str(path), weights, PLANNED, StreamedWhatIf(str(path), [], weights))


def _constraints(path: Path, stream: bool, monkeypatch, smart: bool = True) -> list[dict]:
    monkeypatch.setattr(streaming, "MIN_BYTES", 0 if stream else 1 << 62)
    return constraints.constraints_of(str(path), smart)


def _named_apart(inputs: list[dict]) -> list[dict]:
    """The answer with each axis's causes as (type, the part of the sizes they decide):
    of two layers alike that put one condition, the streamed run names the first in the
    file and the whole-graph run the first in its own order (the memo recalls the other)."""
    out = []
    for found in inputs:
        axes = [dict(row, causes=sorted((c["type"], c["reason"].split(":")[0])
                                        for c in row["causes"])) for row in found["axes"]]
        out.append(dict(found, axes=axes))
    return out


def test_reshapeable_streamed_as_whole(monkeypatch):
    """reshapeable streamed (constraints._streamed) gives the whole run's answer on every
    sample and corpus file: every field of every axis, the causes' layers apart (above),
    on enough files that the stream keeps."""
    kept = 0
    made = constraints.StreamedSymbols.finish

    def counted(watch):
        nonlocal kept
        kept += 1
        made(watch)
    monkeypatch.setattr(constraints.StreamedSymbols, "finish", counted)
    named_apart = []
    for path in SAMPLES + CORPUS_FILES:
        try:
            whole = _constraints(path, False, monkeypatch)
        except (OSError, ValueError):
            continue
        streamed = _constraints(path, True, monkeypatch)
        assert _named_apart(streamed) == _named_apart(whole), path
        if streamed != whole:
            named_apart.append(path.name)
    assert kept >= (40 if CORPUS_FILES else 15), kept
    # (one corpus file: a YOLOv8 whose C2f blocks feed one input to two alike 1x1 Convs)
    assert len(named_apart) <= 1, named_apart


def _recalled(monkeypatch) -> list[str]:
    """The names of the layers the streamed reshapeable recalls symbolically, as they are,
    and "kept" once the stream has kept the file to its end."""
    recalled: list[str] = []
    made, finished = likeness.Likeness._symbolic, constraints.StreamedSymbols.finish

    def counted(self, spec, layer, *args):
        recalled.append(layer.name)
        return made(self, spec, layer, *args)

    def kept(watch):
        recalled.append("kept")
        finished(watch)
    monkeypatch.setattr(likeness.Likeness, "_symbolic", counted)
    monkeypatch.setattr(constraints.StreamedSymbols, "finish", kept)
    return recalled


def _shared_consts(ir: IR):
    """A maker of small Consts whose bytes are written once per value, as the serializer
    writes equal payloads."""
    offsets: dict[tuple, int] = {}

    def small(values: list[int], shape: list[int] | None = None):
        offset = offsets.setdefault((tuple(values), str(shape)), len(ir.weights))
        return ir.const(values, shape=shape, offset=offset)
    return small


def _seq_of(ir: IR, small, source, name: str):
    """Gather(ShapeOf(source), [1]): a decoder's sequence length."""
    shape = ir.op("ShapeOf", [source], [[3]], {"output_type": "i64"}, version="opset3",
                  out_precision="I64", name=f"shape{name}")
    return ir.op("Gather", [shape, small([1]), small([0], [])], [[1]], {"batch_dims": "0"},
                 version="opset8", name=f"seq{name}")


def _alike_both_ways(path: Path, monkeypatch, batches=(3,)) -> tuple[list[dict], list[str]]:
    """The whole run's answer, which the stream gives at each batch size, keeping the file
    and recalling layers; and the layers recalled at the last."""
    whole = _constraints(path, False, monkeypatch)
    recalled: list[str] = []
    for batch in batches:
        monkeypatch.setattr(streaming, "BATCH", batch)
        recalled = _recalled(monkeypatch)
        assert _constraints(path, True, monkeypatch) == whole, batch
        assert recalled and recalled[-1] == "kept", (batch, recalled)
    return whole, recalled


def _repeated_blocks(tmp_path: Path, blocks: int = 12) -> Path:
    """x[1,?,8] and y[1,?,8] through ``blocks`` alike blocks (a MatMul by the block's own
    weights; an Add of y, which ties the two sequence axes; a Multiply), then a Reshape
    whose target is read from the data (ReduceMax -> Convert): the values the last block
    makes depend on the sequence axes, so the Reshape's dims are not known, and the answer
    names the layer where the values stopped being followed: the last block's Add (a MatMul
    makes no values, so each block's Add starts again)."""
    ir = IR()
    x, y = ir.parameter("1,?,8", name="x"), ir.parameter("1,?,8", name="y")
    for block in range(blocks):
        x = ir.op("MatMul", [x, ir.const([0.5 + block] * 64, "f32", [8, 8])], [[1, -1, 8]],
                  name=f"matmul{block}")
        x = ir.op("Add", [x, y], [[1, -1, 8]], name=f"add{block}")
        x = ir.op("Multiply", [x, ir.const([float(block)] * 8, "f32", [8])], [[1, -1, 8]],
                  name=f"mul{block}")
    peak = ir.op("ReduceMax", [x, ir.const([0, 1])], [[8]], {"keep_dims": "false"})
    target = ir.op("Convert", [peak], [[8]], {"destination_type": "i64"}, out_precision="I64")
    ir.result(ir.op("Reshape", [x, target], [[-1] * 8], {"special_zero": "false"}))
    return ir.write(tmp_path)


def test_alike_symbolic_layers_are_recalled_as_whole(tmp_path, monkeypatch):
    """The streamed reshapeable recalls the layers of a repeated block (analysis.likeness:
    the same expressions reach them) instead of inferring each, and gives the whole run's
    answer: the same conditions (the first block puts them, as the memo recalls the
    others in the whole run) and the same taint, whose origin the answer names."""
    whole, recalled = _alike_both_ways(_repeated_blocks(tmp_path), monkeypatch)
    assert len(recalled) >= 20 and "mul11" in recalled, recalled
    x_seq = whole[0]["axes"][1]
    assert not x_seq["exact"] and "'add11'" in x_seq["why_inexact"], x_seq
    assert x_seq["equal_to"] == [{"input": "y", "axis": 1}], x_seq


def test_a_recalled_layer_makes_its_own_sizes(tmp_path, monkeypatch):
    """A recalled layer that makes a size (a Concat of x with itself: 2 x[1]) is named as
    its maker, as in the whole run, not the first layer alike: the Add after the last block
    compares that size with 16, and the answer names the last block's Concat."""
    ir = IR()
    x = ir.parameter("1,?,8", name="x")
    for block in range(12):
        doubled = ir.op("Concat", [x, x], [[1, -1, 8]], {"axis": "1"}, name=f"concat{block}")
        x = ir.op("Reshape", [doubled, ir.const([1, -1, 16])], [[1, -1, 16]],
                  {"special_zero": "false"}, name=f"reshape{block}")
        x = ir.op("MatMul", [x, ir.const([0.5 + block] * 128, "f32", [16, 8])], [[1, -1, 8]],
                  name=f"matmul{block}")
    ir.result(ir.op("Add", [doubled, ir.const([0.0] * 128, "f32", [1, 16, 8])], [[1, 16, 8]],
                    name="last"))
    ir.result(x)
    whole, recalled = _alike_both_ways(ir.write(tmp_path), monkeypatch)
    assert "concat11" in recalled, recalled
    seq = whole[0]["axes"][1]
    assert seq["values"] == [8] and {c["layer"] for c in seq["causes"]} >= {"last", "concat11"}, seq


def test_recalled_shape_subgraphs_put_their_conditions_again(tmp_path, monkeypatch):
    """Each block's mask is a Broadcast of m[1,4]'s rows to a target computed from the
    block's input (ShapeOf -> Gather -> Multiply by 2 -> Concat), as a decoder's attention
    mask is: the whole run infers every such layer (the memo recalls none whose inputs carry
    values), so every Broadcast puts "m's 4 is 1 or twice the sequence's size" and is named
    among the causes, with the Multiply that made the size it compares.
    The stream recalls them and their values, and puts the conditions again, each at its
    own Broadcast."""
    ir = IR()
    small = _shared_consts(ir)
    x, m = ir.parameter("1,?,8", name="x"), ir.parameter("1,4", name="m")
    for block in range(12):
        x = ir.op("MatMul", [x, ir.const([0.5 + block] * 64, "f32", [8, 8])], [[1, -1, 8]],
                  name=f"matmul{block}")
        shape = ir.op("ShapeOf", [x], [[3]], {"output_type": "i64"}, version="opset3",
                      out_precision="I64", name=f"shapeof{block}")
        batch = ir.op("Gather", [shape, small([0]), small([0], [])], [[1]],
                      {"batch_dims": "0"}, version="opset8", name=f"batch{block}")
        seq = ir.op("Gather", [shape, small([1]), small([0], [])], [[1]],
                    {"batch_dims": "0"}, version="opset8", name=f"seq{block}")
        seq = ir.op("Multiply", [seq, small([2])], [[1]], out_precision="I64",
                    name=f"double{block}")
        target = ir.op("Concat", [batch, small([1]), seq, seq], [[4]], {"axis": "0"},
                       name=f"target{block}")
        rows = ir.op("Unsqueeze", [m, small([1, 2])], [[1, 1, 1, 4]], name=f"rows{block}")
        mask = ir.op("Broadcast", [rows, target], [[1, 1, -1, -1]], {"mode": "numpy"},
                     version="opset3", name=f"mask{block}")
        ir.result(mask)
    ir.result(x)
    whole, recalled = _alike_both_ways(ir.write(tmp_path), monkeypatch)
    assert {"mask11", "seq11", "target11", "shapeof11"} <= set(recalled), recalled
    seq_axis = whole[0]["axes"][1]
    assert seq_axis["values"] == [2] and seq_axis["exact"], seq_axis
    # (each block's Multiply makes the size its Broadcast compares, and is named for it)
    causes = {c["layer"] for c in seq_axis["causes"]}
    assert causes >= {f"mask{n}" for n in range(12)} | {f"double{n}" for n in range(12)}, causes


def test_a_recalled_layer_passes_on_its_inputs_sizes(tmp_path, monkeypatch):
    """x[1,?,8] + y[1,?,8] in every block: from the third block on, the whole run's memo
    recalls the Add, whose size max(x[1], y[1]) its input already has: owned() names that
    input's (the second Add's) as its own, and so must the stream; the last Add names its
    maker when it compares the size with 4."""
    ir = IR()
    x, y = ir.parameter("1,?,8", name="x"), ir.parameter("1,?,8", name="y")
    for block in range(12):
        x = ir.op("Add", [x, y], [[1, -1, 8]], name=f"add{block}")
    ir.result(ir.op("Add", [x, ir.const([0.0] * 32, "f32", [1, 4, 8])], [[1, 4, 8]],
                    name="last"))
    # (at batches of one, the second Add is remembered at once)
    whole, recalled = _alike_both_ways(ir.write(tmp_path), monkeypatch, batches=(1,))
    assert "add11" in recalled, recalled
    causes = whole[0]["axes"][1]["together"]["causes"]  # (with y[1], its partner)
    assert [c["layer"] for c in causes if "it makes" in c["reason"]] == ["add1"], causes


def test_another_files_memo_is_forgotten(tmp_path, monkeypatch):
    """The memo an earlier file filled (at most memo.SIZE inferences) is forgotten before
    each run: left, it is cleared midway through this file, at one layer in the whole run
    and at another in the streamed one, and the two name different causes (seen on the
    ONNX backend models run one after another in one process)."""
    path = _repeated_blocks(tmp_path)
    clean = _constraints(path, False, monkeypatch)
    for stream in (False, True):
        for left in (memo.SIZE - 3, 3):  # (what another file left: a clear away, or little)
            memo.clear()
            for number in range(left):
                memo._MEMO[("another file", number)] = ({}, [])
            assert _constraints(path, stream, monkeypatch) == clean
            assert ("another file", 0) not in memo._MEMO


def test_a_size_in_two_slots_is_repeated_only_where_it_is_one_size(tmp_path, monkeypatch):
    """Each block broadcasts a Tile p of x against the shape of a Tile q transposed; in the
    first two blocks q is p, so the Broadcast's inputs hand it each size twice, and which
    one it compares is not known: the later blocks, whose q is a Tile of its own, are
    inferred where they differ, and every Broadcast names both Tiles as the makers of the
    sizes it compares, as in the whole run."""
    ir = IR()
    small = _shared_consts(ir)
    x = ir.parameter("1,?,4", name="x")
    for block in range(8):
        p = ir.op("Tile", [x, small([1, 2, 3])], [[1, -1, -1]], name=f"p{block}")
        q = p if block < 2 else ir.op("Tile", [x, small([1, 2, 3])], [[1, -1, -1]],
                                      name=f"q{block}")
        t = ir.op("Transpose", [q, small([0, 2, 1])], [[1, -1, -1]], name=f"t{block}")
        s = ir.op("ShapeOf", [t], [[3]], {"output_type": "i64"}, version="opset3",
                  out_precision="I64", name=f"s{block}")
        ir.result(ir.op("Broadcast", [p, s], [[1, -1, -1]], {"mode": "numpy"},
                        version="opset3", name=f"b{block}"))
    whole, recalled = _alike_both_ways(ir.write(tmp_path), monkeypatch)
    assert "t7" in recalled, recalled
    makers = {c["layer"] for c in whole[0]["axes"][1]["causes"] if "it makes" in c["reason"]}
    assert {"p7", "q7"} <= makers, makers


def test_the_memo_is_not_bounded_while_recording(tmp_path, monkeypatch):
    """A chain of layers each unlike the others fills the memo past its bound between two
    alike tails: the whole run's memo must still recall the second tail, as the stream
    does (bounded, it forgot the first, inferred the second again and named it too)."""
    monkeypatch.setattr(memo, "SIZE", 16)
    ir = IR()
    x = ir.parameter("1,?,8", name="x")
    axes = ir.const([1])
    zeros = ir.const([0.0] * 32, "f32", [1, 4, 8])

    def tail(source, name: str) -> None:
        peak = ir.op("ReduceMax", [source, axes], [[1, 1, 8]], {"keep_dims": "true"},
                     name=f"peak{name}")
        h = ir.op("Add", [x, peak], [[1, -1, 8]], name=f"h{name}")
        ir.result(ir.op("Add", [h, zeros], [[1, 4, 8]], name=name))
    tail(x, "first")
    y = x
    for number in range(40):  # (each its own expression: a memo entry of its own)
        y = ir.op("Concat", [y, x], [[1, -1, 8]], {"axis": "1"}, name=f"cat{number}")
    ir.result(y)
    tail(y, "second")
    whole, recalled = _alike_both_ways(ir.write(tmp_path), monkeypatch)
    assert "second" in recalled, recalled
    assert [c["layer"] for c in whole[0]["axes"][1]["causes"]] == ["first"], whole


def test_a_size_with_no_maker_in_the_first_is_taken_by_slot(tmp_path, monkeypatch):
    """The first block's Broadcast compares x[1] as the input has it (no maker), the
    second's a size an Add made: the second names that Add, as in the whole run."""
    ir = IR()
    small = _shared_consts(ir)
    x, m = ir.parameter("1,?,8", name="x"), ir.parameter("4", name="m")
    for block in range(2):
        source = x if block == 0 else ir.op("Add", [x, x], [[1, -1, 8]], name="add1")
        ir.result(ir.op("Broadcast", [m, _seq_of(ir, small, source, str(block))], [[-1]],
                        {"mode": "numpy"}, version="opset3", name=f"mask{block}"))
    ir.result(x)
    whole, _ = _alike_both_ways(ir.write(tmp_path), monkeypatch, batches=(1, 2, 3))
    assert "add1" in {c["layer"] for c in whole[0]["axes"][1]["causes"]}, whole


def test_a_recalled_layer_passes_on_the_size_owned_would(tmp_path, monkeypatch):
    """Where a layer's inputs hold two sizes of one expression (a Concat's and a Tile's
    2 x[1]), the one a memo-recalled layer passes on is the last met, as ``owned`` finds
    it in the layer's own inputs, whichever the first layer alike passed on."""
    ir = IR()
    small = _shared_consts(ir)
    x, m = ir.parameter("1,?,8", name="x"), ir.parameter("4", name="m")
    for block in range(2):
        a = ir.op("Concat", [x, x], [[1, -1, 8]], {"axis": "1"}, name=f"cat_a{block}") \
            if block == 0 else ir.op("Tile", [x, small([1, 2, 1])], [[1, -1, 8]],
                                     name=f"tile_a{block}")
        c = ir.op("Concat", [x, x], [[1, -1, 8]], {"axis": "1"}, name=f"cat_c{block}")
        u = ir.op("MatMul", [a, c], [[1, -1, -1]], {"transpose_b": "true"}, name=f"u{block}")
        v = ir.op("MatMul", [c, a], [[1, -1, -1]], {"transpose_b": "true"}, name=f"v{block}")
        w = ir.op("Add", [u, v], [[1, -1, -1]], name=f"w{block}")
        ir.result(ir.op("Broadcast", [m, _seq_of(ir, small, w, str(block))], [[-1]],
                        {"mode": "numpy"}, version="opset3", name=f"mask{block}"))
    ir.result(x)
    whole, _ = _alike_both_ways(ir.write(tmp_path), monkeypatch, batches=(1, 2))
    makers = {c["layer"] for c in whole[0]["axes"][1]["causes"] if "it makes" in c["reason"]}
    assert "cat_c1" in makers, makers


def _transpose_matmul(ir: IR) -> None:
    x = ir.parameter("1,?,8", name="x")
    swapped = ir.op("Transpose", [x, ir.const([0, 2, 1])], [[1, 8, -1]], name="swap")
    ir.result(ir.op("MatMul", [swapped, x], [[1, 8, 8]], name="mm"))


def _broadcast_range(ir: IR) -> None:
    x = ir.parameter("2", et="i64", name="x")
    ir.result(ir.op("Broadcast", [ir.const([0, 1, 2, 3], shape=[1, 4]), x], [[-1, 4]],
                    {"mode": "bidirectional"}, version="opset3", out_precision="I64",
                    name="bc"))


def _squeeze_slice(ir: IR) -> None:
    x = ir.parameter("1,?,8", name="x")
    squeezed = ir.op("Squeeze", [x, ir.const([0])], [[-1, 8]], name="sq")
    ir.result(ir.op("StridedSlice", [squeezed, ir.const([0, 0]), ir.const([2, 8]),
                                     ir.const([1, 1])], [[2, 8]],
                    {"begin_mask": "0,0", "end_mask": "0,0"}, name="ss"))


@pytest.mark.parametrize("build, reason, rewritten", [
    (_transpose_matmul, "TransposeMatMul", True),
    (_broadcast_range, "BroadcastConstRangeReplacement", False),  # (not a range of the target)
    (_squeeze_slice, "SqueezeStridedSlice", True)])
def test_each_matcher_the_stream_fears_is_declined_by_name(build, reason, rewritten, tmp_path):
    """might_rewrite's patterns no sample reaches: the stream declines each, naming the
    rewrite, where SmartReshape rewrites it and where it may (a superset of its matches:
    a file the stream keeps has none)."""
    ir = IR()
    build(ir)
    path = str(ir.write(tmp_path))
    weights = weights_of(path, None)
    made = plan(analyse(parse(path).graphs(), weights)[0])
    assert ({r.transformation for r in made} == {reason}) == rewritten, made
    with pytest.raises(Decline, match=reason):
        streaming._check(path, weights, PLANNED, StreamedWhatIf(path, [], weights))
