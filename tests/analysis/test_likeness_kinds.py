"""The kinds of the stream's values (analysis.likeness's concept, kept there by output port,
not in ``Value``) are forgotten with the values: a long file does not grow them."""
from __future__ import annotations

from irvalidate.analysis import likeness, stream as stream_module
from irvalidate.engine import streaming
from irvalidate.engine.validation import weights_of
from irvalidate.ops.support.spec import Value
from irvalidate.rules import RULES
from support.irbuilder import IR

LAYERS = 300


def test_kinds_are_forgotten_with_the_values(tmp_path, monkeypatch):
    ir = IR()
    x = ir.parameter("2,3")
    for number in range(LAYERS):
        x = ir.op("Relu", [x], [[2, 3]], name=f"relu{number}")
    ir.result(x)
    path = str(ir.write(tmp_path))
    monkeypatch.setattr(streaming, "BATCH", 8)
    seen = []
    finish = stream_module.StreamAnalysis.finish

    def watched(self):
        seen.append((dict(self.likeness.kinds), dict(self.propagation.outputs),
                     len(self.likeness._clean)))
        return finish(self)
    monkeypatch.setattr(stream_module.StreamAnalysis, "finish", watched)
    assert streaming.check(path, weights_of(path, None), [(r, r.LEVEL) for r in RULES]) is not None
    (kinds, outputs, clean), = seen
    assert clean >= 1  # (the Relus after the first are alike it: kinds were compared)
    assert set(kinds) <= set(outputs) and len(kinds) <= 4, (len(kinds), len(outputs))


def test_a_value_carries_no_kind():
    assert "kind" not in Value._fields


def test_computed_values_of_distinct_weights_are_forgotten(tmp_path, monkeypatch):
    """Each block's own small constant behind a Convert is a value of its own: at most
    VALUES_SIZE of them are kept (8,192 of them were 27 MB on a 100k-layer export).  (An
    integer one: it is evaluated as it streams, where a real one waits to be read.)"""
    ir = IR()
    x = ir.parameter("2,3", et="i64")
    for number in range(60):
        weight = ir.op("Convert", [ir.const([number, 1, 2], "i32")], [[3]],
                       {"destination_type": "i64"}, out_precision="I64",
                       name=f"convert{number}")
        x = ir.op("Add", [x, weight], [[2, 3]], name=f"add{number}")
    ir.result(x)
    path = str(ir.write(tmp_path))
    monkeypatch.setattr(streaming, "BATCH", 8)
    monkeypatch.setattr(likeness, "VALUES_SIZE", 16)
    seen = []
    finish = stream_module.StreamAnalysis.finish

    def watched(self):
        seen.append(len(self.likeness._values))
        return finish(self)
    monkeypatch.setattr(stream_module.StreamAnalysis, "finish", watched)
    streamed = streaming.check(path, weights_of(path, None), [(r, r.LEVEL) for r in RULES])
    assert streamed is not None and not streamed.problems
    assert 0 < seen[0] <= 16, seen
