"""The trace names every value an inference read, so a layer alike is alike on them too.

A value's kind (analysis.likeness) leaves out the numbers it carries: the MatMuls of a
model whose every block has its own weights behind a Convert are alike.  That is exact only
if each computed value an op's inference or evaluation reads lands in ``Node.read`` (the
trace, keyed on the values' payloads): a value read outside it would let two layers that
read different numbers share one result.  Here every read of an input's computed value is
watched while the nodes run, on the sample models, the wild corpus and a model of every op
class; a node that stays pure must have named each one.
"""
from __future__ import annotations

import struct
from pathlib import Path

from irvalidate.analysis import stream as stream_module
from irvalidate.engine import streaming
from irvalidate.engine.validation import validate_file, weights_of
from irvalidate.ops.support import memo, registry
from irvalidate.ops.support.spec import Value
from irvalidate.rules import RULES
from support.irbuilder import IR
from support.places import CORPUS_FILES, SAMPLES


class Watch:
    """The computed inputs each running node read, against what it named in its trace."""

    def __init__(self, monkeypatch) -> None:
        self.running: list[tuple] = []  # (node, the indices of computed inputs it read)
        self.unnamed: list[str] = []
        self.pure_reads = 0
        monkeypatch.setattr(Value, "tensor", property(self._tensor))
        monkeypatch.setattr(registry, "run", self._run(registry.run))
        memo.clear()

    def _tensor(self, value):
        tensor = tuple.__getitem__(value, 3)
        if self.running and tensor is not None:
            node, seen = self.running[-1]
            seen.update(i for i, v in enumerate(node.inputs) if v is value)
        return tensor

    def _run(self, run):
        def watched(spec, node):
            self.running.append((node, set()))
            try:
                return run(spec, node)
            finally:
                _, seen = self.running.pop()
                if node.pure and seen:
                    self.pure_reads += 1
                    if not seen <= set(node.read):
                        self.unnamed.append(f"{spec.name}-{spec.versions[0]} "
                                            f"{node.layer.describe()}: read {sorted(seen)}, "
                                            f"named {sorted(set(node.read))}")
        return watched


def _models(tmp_path: Path) -> list[Path]:
    found = list(SAMPLES) + list(CORPUS_FILES)
    try:
        import openvino as ov
    except ImportError:
        return found
    from support import everyop_models
    for name, build in everyop_models.GROUPS.items():
        found.append(tmp_path / f"{name}.xml")
        ov.save_model(build(), str(found[-1]), compress_to_fp16=False)
    return found


def test_every_computed_value_a_pure_node_reads_is_in_its_trace(tmp_path, monkeypatch):
    paths = _models(tmp_path)
    watch = Watch(monkeypatch)
    for path in paths:
        validate_file(str(path))
    assert watch.pure_reads > 20  # (pure nodes did read computed values: the watch saw them)
    assert not watch.unnamed, "\n".join(watch.unnamed[:20])


def _f16(values: list[float]) -> list[int]:
    """The bytes of f16 numbers (irbuilder writes unknown types' values as raw bytes)."""
    return list(struct.pack(f"<{len(values)}e", *values))


def _decoder_like(blocks: int, width: int = 1) -> IR:
    """Blocks of Convert(f16 weights, each block's own) -> MatMul -> Tile whose repeats come
    from a Convert too; the MatMul reads its weights' shape only, the Tile its repeats' values
    (``width`` of them repeat by 2 rather than 1, from block ``blocks // 2`` on)."""
    ir = IR()
    x = ir.parameter("?,8")
    for number in range(blocks):
        weights = ir.const(_f16([float(number + i) for i in range(16)]), "f16", shape=[2, 8])
        wide = ir.op("Convert", [weights], [[2, 8]], {"destination_type": "f32"},
                     out_precision="FP32", name=f"convert{number}")
        x = ir.op("MatMul", [x, wide], [[-1, 2]], {"transpose_a": "false",
                                                    "transpose_b": "true"},
                  name=f"matmul{number}")
        times = 4 * (2 if number >= blocks // 2 else 1) ** width
        repeats = ir.op("Convert", [ir.const([1.0, float(times)], "f32")], [[2]],
                        {"destination_type": "i64"}, out_precision="I64",
                        name=f"repeats{number}")
        x = ir.op("Tile", [x, repeats], [[-1, 2 * times]], name=f"tile{number}")
        x = ir.op("StridedSlice", [x, ir.const([0, 0]), ir.const([0, 8]), ir.const([1, 1])],
                  [[-1, 8]], {"begin_mask": "1,0", "end_mask": "1,0"}, name=f"slice{number}")
    ir.result(x)
    return ir


def _novel(path: Path, monkeypatch) -> tuple[list[str], list]:
    """The types of the layers the stream inferred, and the findings (streamed)."""
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    monkeypatch.setattr(streaming, "BATCH", 1)  # (a layer is alike once its batch is clean)
    novel: list[str] = []
    found = stream_module.StreamAnalysis._novel_layer

    def counted(self, layer, *args):
        novel.append(layer.type)
        return found(self, layer, *args)
    monkeypatch.setattr(stream_module.StreamAnalysis, "_novel_layer", counted)
    streamed = streaming.check(str(path), weights_of(str(path), None),
                               [(r, r.LEVEL) for r in RULES])
    assert streamed is not None
    return list(novel), validate_file(str(path)).findings


def test_layers_alike_but_for_the_weights_they_do_not_read_are_alike(tmp_path, monkeypatch):
    novel, findings = _novel(_decoder_like(40).write(tmp_path), monkeypatch)
    assert not findings
    # two MatMuls inferred (the first reads the Parameter, the second a StridedSlice), the
    # 38 after them alike though each block has its own weights
    assert novel.count("MatMul") == 2, novel
    # the Tiles read their repeats: one for each of the two values
    assert novel.count("Tile") == 2, novel


def test_a_value_read_still_tells_layers_apart(tmp_path, monkeypatch):
    """Tiles alike but for the repeats they read: a stale dim after the change is found on
    the first Tile that repeats more, as the whole-graph check finds it."""
    ir = _decoder_like(8)
    path = ir.write(tmp_path)
    text = path.read_text()
    bad = Path(tmp_path) / "bad.xml"
    # tile4 and on repeat 8 times: declare tile4's output as if it still repeated 4 times
    layer = text.index('name="tile4"')
    port = text.index("<output>", layer)
    bad.write_text(text[:port] + text[port:].replace("<dim>16</dim>", "<dim>8</dim>", 1))
    bad.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    novel, streamed = _novel(bad, monkeypatch)
    monkeypatch.setattr(streaming, "MIN_BYTES", 1 << 62)
    whole = validate_file(str(bad)).findings
    assert [(f.code, f.layer) for f in streamed] == [(f.code, f.layer) for f in whole]
    assert [(f.code, f.layer.name) for f in streamed][0] == ("IRV101", "tile4")


def _to_f32(ir: IR, weights, dims: list[int], number: int):
    return ir.op("Convert", [weights], [dims], {"destination_type": "f32"},
                 out_precision="FP32", name=f"convert{number}")


def _matmul(ir: IR, x, weights, width: int, number: int):
    """x [?, width] times square weights (read as given: a transpose changes nothing here)."""
    return ir.op("MatMul", [x, weights], [[-1, width]], {"transpose_a": "false",
                                                         "transpose_b": "true"},
                 name=f"matmul{number}")


def test_converts_of_weights_too_large_to_be_values_are_alike(tmp_path, monkeypatch):
    """A weight of more than MAX_REAL_ELEMENTS numbers never carries a value, which its shape
    tells: its Convert's evaluation asks nothing of the graph, and the next block's Convert
    is alike it (each was inferred anew: 'it read more and made nothing')."""
    ir = IR()
    x = ir.parameter("?,16")
    for number in range(12):
        weights = ir.const(_f16([float(number + i % 7) for i in range(16 * 16)]), "f16",
                           shape=[16, 16])
        x = _matmul(ir, x, _to_f32(ir, weights, [16, 16], number), 16, number)
    ir.result(x)
    novel, findings = _novel(ir.write(tmp_path), monkeypatch)
    assert not findings
    assert novel.count("Convert") == 1 and novel.count("MatMul") <= 2, novel


def test_decompression_converts_of_integer_weights_are_alike(tmp_path, monkeypatch):
    """u8 weights of 4,096 numbers (a value as integers) behind a Convert to a real type: no
    real value has that many numbers, which Convert says from the shape, before decoding the
    weight; each block's Convert and scaling Multiply are alike the first's."""
    ir = IR()
    x = ir.parameter("?,64")
    for number in range(12):
        weights = ir.const([(number * 7 + i) % 256 for i in range(64 * 64)], "u8",
                           shape=[64, 64])
        scale = ir.const([0.01 * (number + 1)] * 64, "f32", shape=[64, 1])
        scaled = ir.op("Multiply", [_to_f32(ir, weights, [64, 64], number), scale], [[64, 64]],
                       name=f"scale{number}")
        x = _matmul(ir, x, scaled, 64, number)
    ir.result(x)
    novel, findings = _novel(ir.write(tmp_path), monkeypatch)
    assert not findings
    assert novel.count("Convert") == 1 and novel.count("Multiply") == 1, novel


def _evaluations(monkeypatch) -> list[str]:
    """The names of the layers whose values are evaluated, as they are."""
    from irvalidate.ops.support import registry as registry_module
    names: list[str] = []
    evaluate = registry_module.evaluate

    def counted(spec, node):
        names.append(node.layer.name)
        return evaluate(spec, node)
    monkeypatch.setattr(registry_module, "evaluate", counted)
    return names


def test_small_weights_nothing_reads_are_never_evaluated(tmp_path, monkeypatch):
    """Each block's own 16 f16 weights behind a Convert: a value, but none is read (the
    MatMul reads shapes), so past the first block none is made (a value made when read)."""
    evaluated = _evaluations(monkeypatch)
    novel, findings = _novel(_decoder_like(40).write(tmp_path), monkeypatch)
    assert not findings
    converts = [name for name in evaluated if name.startswith("convert")]
    assert len(converts) <= 4 * 2, converts  # (the first blocks', in the stream and whole)


def test_a_value_made_when_read_is_the_value(tmp_path, monkeypatch):
    """Range's bounds come from Converts of f16 scalars, each block its own stop: the values
    wait until Range reads them, and a stale dim is found where the whole-graph check
    finds it."""
    ir = IR()
    for number in range(12):
        start, stop, step = (ir.op("Convert", [ir.const(_f16([v]), "f16", shape=[])], [[]],
                                   {"destination_type": "f32"}, out_precision="FP32",
                                   name=f"{what}{number}")
                             for what, v in (("start", 0.0), ("stop", 4.0 + number % 3),
                                             ("step", 1.0)))
        declared = 4 + number % 3 + (number == 7)  # block 7 (5 values) declares 6
        ir.result(ir.op("Range", [start, stop, step], [[declared]], {"output_type": "f32"},
                        version="opset4", name=f"range{number}"))
    path = ir.write(tmp_path)
    _, streamed = _novel(path, monkeypatch)
    monkeypatch.setattr(streaming, "MIN_BYTES", 1 << 62)
    whole = validate_file(str(path)).findings
    assert [(f.code, f.layer.name) for f in streamed] == [(f.code, f.layer.name) for f in whole]
    assert [(f.code, f.layer.name) for f in streamed][:1] == [("IRV101", "range7")], streamed
