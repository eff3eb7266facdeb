"""One reading of a bool attribute, the runtime's: inference and value evaluation agree with it.

OpenVINO's reader takes ``true``/``1`` and ``false``/``0`` in any case and nothing else: any
other text (``yes``, ``2``, `` true`` with a space) leaves the op's default.  The table is
the runtime's answer for each spelling (checked against it below when openvino is there),
read on Divide's ``m_pythondiv`` (default true) and ReduceSum's ``keep_dims`` (default
false), so that keeping the default and reading false are told apart.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from irvalidate.ir.records import Layer
from irvalidate.ops.support.attributes import Field, parse_bool, read
from irvalidate.ops.support.evaluating import bool_attr
from support.irbuilder import IR

#: spelling -> what the runtime reads with a default of true, and with a default of false
RUNTIME = {
    "true": (True, True), "True": (True, True), "TRUE": (True, True), "tRuE": (True, True),
    "1": (True, True), "false": (False, False), "False": (False, False), "0": (False, False),
    "yes": (True, False), "no": (True, False), "": (True, False), " true": (True, False),
    "true ": (True, False), " 0": (True, False), "2": (True, False), "01": (True, False),
    "on": (True, False), "off": (True, False),
}


def layer(data) -> Layer:
    return Layer("0", "l", "Divide", "opset1", 1, data, (), ())


@pytest.mark.parametrize("text", list(RUNTIME))
def test_inference_and_evaluation_read_a_bool_as_the_runtime_does(text):
    for default, expected in zip((True, False), RUNTIME[text]):
        assert parse_bool(text, default) is expected
        assert read({"b": text}, "Op", (Field("b", "bool", default),)) == (expected,)
        assert bool_attr(layer({"b": text}), "b", default) is expected


def test_a_missing_bool_keeps_its_default():
    assert bool_attr(layer({}), "b", True) is True and bool_attr(layer({}), "b", False) is False


def _runtime_reads(ov, tmp_path: Path, op: str, attribute: str, text: str) -> bool:
    ir = IR()
    data = ir.parameter("1,2", "i32")
    other = ir.const([1], "i64") if op == "ReduceSum" else ir.const([2], "i32")
    extra = {} if op == "ReduceSum" else {"auto_broadcast": "numpy"}
    ir.result(ir.op(op, [data, other], [[1]], {**extra, attribute: text}, out_precision="I32"))
    model = ov.Core().read_model(str(ir.write(tmp_path, stem=op)))
    node = next(n for n in model.get_ops() if n.get_type_name() == op)
    return node.get_attributes()[attribute]


@pytest.mark.parametrize("text", list(RUNTIME))
def test_the_table_is_the_runtimes(tmp_path, text):
    ov = pytest.importorskip("openvino")
    got = (_runtime_reads(ov, tmp_path, "Divide", "m_pythondiv", text),
           _runtime_reads(ov, tmp_path, "ReduceSum", "keep_dims", text))
    assert got == RUNTIME[text]


def test_no_module_reads_a_bool_attribute_its_own_way():
    """Every bool attribute goes through attributes.parse_bool: a private ``== "true"`` reads
    "1" as false, where the runtime reads it as true (SmartReshape's MatMul flags did)."""
    import re
    from pathlib import Path
    package = Path(__file__).resolve().parents[2] / "irvalidate"
    own = re.compile(r"""\.lower\(\)\s*(==|!=|in)\s*\(?["'](true|false)""")
    found = [f"{p.relative_to(package)}:{n}" for p in sorted(package.rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if own.search(line)]
    assert found == []
