"""The fast path's fence: an op sees a producer through its type alone, and reaches the rest
of it only through ``Node.producer_layer``, which makes its inference not pure.

Reusing a remembered inference for a layer alike (ops.memo, analysis.likeness) is exact only
if inference read nothing the likeness does not name: the producer's type is in the memo's
key, its id, name, version and attributes are not.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from irvalidate.analysis.likeness import Likeness
from irvalidate.ir.records import Layer, Port
from irvalidate.ops.support import memo, registry
from irvalidate.ops.support.spec import Value
from irvalidate.shapes.dims import Dim

OPS = Path(__file__).resolve().parents[2] / "irvalidate" / "ops"
#: the fence itself: the node's readers, and the memo that keys on what they let through
FENCE = {OPS / "support" / "node.py", OPS / "support" / "memo.py"}
#: what a Value holds of other layers than the one inferred
LAYER_FIELDS = {"producer", "rests_on"}


def reaches(source: str) -> Iterator[tuple[int, str]]:
    """(line, how) for each read of a Value's layer fields in Python ``source``."""
    for found in ast.walk(ast.parse(source)):
        if isinstance(found, ast.Attribute) and found.attr in LAYER_FIELDS:
            yield found.lineno, f".{found.attr}"
        elif isinstance(found, ast.Call) and isinstance(found.func, ast.Name) and \
                found.func.id == "getattr" and any(
                    isinstance(a, ast.Constant) and a.value in LAYER_FIELDS for a in found.args):
            yield found.lineno, "getattr"
        elif isinstance(found, ast.keyword) and found.arg in LAYER_FIELDS:
            yield found.lineno, f"{found.arg}="


def test_the_scan_sees_each_way_of_reaching_a_producer():
    source = ("a = value.producer.name\nb = getattr(v, 'producer')\n"
              "c = v._replace(rests_on=None)\nd = node.producer_layer(0)\n")
    assert sorted(line for line, _ in reaches(source)) == [1, 2, 3]


def test_ops_reach_a_producer_only_through_the_node():
    found: list[str] = []
    for path in sorted(OPS.rglob("*.py")):
        if path in FENCE:
            continue
        found += [f"{path.relative_to(OPS)}:{line} {how}"
                  for line, how in reaches(path.read_text(encoding="utf-8"))]
    assert found == [], "ops must read a producer through Node.producer_type, Node.operand, " \
                        "Node.const_size or Node.producer_layer (which makes the layer not pure)"


#: the trace an inference leaves (Node.pure, Node.read): recorded by the node's readers,
#: read by the dispatch that hands it to the memo and the likeness, touched by nothing else
TRACE = {OPS / "support" / "node.py", OPS / "support" / "registry.py"}


def touches_trace(source: str) -> Iterator[int]:
    """The lines of ``source`` reading or setting ``.pure``, or ``.read`` other than called
    (``autobroadcast.read(node)`` is a reader of attributes)."""
    tree = ast.parse(source)
    called = {id(c.func) for c in ast.walk(tree) if isinstance(c, ast.Call)}
    for found in ast.walk(tree):
        if isinstance(found, ast.Attribute) and (found.attr == "pure" or (
                found.attr == "read" and id(found) not in called)):
            yield found.lineno


def test_the_trace_scan_sees_the_trace():
    source = "node.pure = False\nnode.read.append(1)\nab.read(node)\nx = node.read[0]\n"
    assert sorted(touches_trace(source)) == [1, 2, 4]


def test_only_the_node_and_the_dispatch_touch_the_trace():
    # (the packages that infer: the readers of files have ``.read`` attributes of their own)
    found = [f"{path.relative_to(OPS.parent)}:{line}"
             for package in ("ops", "analysis", "reshaping", "fixing", "engine")
             for path in sorted((OPS.parent / package).rglob("*.py")) if path not in TRACE
             for line in touches_trace(path.read_text(encoding="utf-8"))]
    assert found == []


class _Graph:
    weights = None


def _layer(lid: str, kind: str, version: str, data: dict, outputs: int = 1) -> Layer:
    ports = tuple(Port(str(i + 1), (), "FP32", 0) for i in range(outputs))
    return Layer(lid, f"{kind.lower()}_{lid}", kind, version, 0, data, (Port("0", (), "FP32", 0),),
                 ports)


def _shape_of(producer: Layer) -> tuple[object, object, object]:
    layer = _layer("9", "ShapeOf", "opset3", _DATA)
    spec = registry.lookup("ShapeOf", "opset3")
    return registry.infer(spec, layer, [Value((), "f32", producer)], _Graph())


_DATA = {"output_type": "i64"}  # (one dict: the memo keys on the <data> object)


def test_an_op_that_reaches_its_producer_is_not_remembered():
    # ShapeOf of a port without <dim> asks its producer's version (is its rank known?): an
    # op irvalidate does not model cannot tell a scalar from a dynamic rank
    memo.clear()
    try:
        inferred, tensor, trace = _shape_of(_layer("1", "Mystery", "opset1", {}))
        assert tensor is None and trace is None
        assert memo._MEMO == {}
        likeness = Likeness(None, _Graph())
        spec = registry.lookup("ShapeOf", "opset3")
        likeness.remember(("key",), _layer("9", "ShapeOf", "opset3", _DATA), None, spec,
                          [Value((), "f32", None)], ((), True, False), trace)
        assert likeness._clean == {}
        # a layer alike is inferred again, and gets what the first got
        other = _layer("2", "Mystery", "opset1", {})
        again, tensor, trace = _shape_of(other)
        assert again[1:3] == inferred[1:3] and again[4:] == inferred[4:]  # (but its table's
        assert again.operands[0].source is other and (tensor, trace) == (None, None)  # source)
        assert memo._MEMO == {}
    finally:
        memo.clear()


def test_a_pure_op_is_remembered():
    # the contrast, so the tests above can fail: Relu reads only what its key names
    memo.clear()
    try:
        spec = registry.lookup("Relu", "opset1")
        inputs = [Value((Dim(2, 2),), "f32", _layer("1", "Parameter", "opset1", {}))]
        _, _, trace = registry.infer(spec, _layer("3", "Relu", "opset1", {}), inputs, _Graph())
        assert trace == () and len(memo._MEMO) == 1
    finally:
        memo.clear()
