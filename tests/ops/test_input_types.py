"""The one element type check every op uses for its inputs (ops/support/input_types): the
words of its notes, which the findings carry, and what passes.  The runtime's refusals behind
them are tested per op (test_pad_tile, test_embedding, test_ctc...)."""
import pytest

from irvalidate.ir.records import Layer
from irvalidate.ops.support.input_types import INDEX_TYPES, INTEGER_LIKE, require_type
from irvalidate.ops.support.node import Node
from irvalidate.ops.support.spec import TYPE, Value


def notes(element_types, index, *args, **kwargs):
    layer = Layer("1", "op", "Op", "opset1", 1, {}, (), ())
    node = Node(layer, [Value((), et) for et in element_types], graph=None)  # type: ignore[arg-type]
    require_type(node, index, *args, **kwargs)
    assert all(p.kind == TYPE for p in node.problems)
    return [p.message for p in node.problems]


@pytest.mark.parametrize("args, kwargs, et, message", [
    (("axes",), {}, "f32", "axes (input 1) must be an integer tensor, not f32"),
    (("axis", INDEX_TYPES), {}, "u8", "axis (input 1) must be i32 or i64, not u8"),
    (("boxes", ("f32", "f16", "bf16")), {}, "f64", "boxes (input 1) must be f32 or f16 or bf16, not f64"),
    (("logits", frozenset({"f32"}), "floating point"), {}, "i32",
     "logits (input 1) must be floating point, not i32"),
    (("blank_index",), {"words": "an integer"}, "f16", "blank_index (input 1) must be an integer, not f16"),
    (("pads", INTEGER_LIKE), {}, "boolean", "pads (input 1) must be an integer tensor, not boolean"),
])
def test_a_refused_type_is_noted_in_the_runtimes_words(args, kwargs, et, message):
    assert notes(["f32", et], 1, *args, **kwargs) == [message]


@pytest.mark.parametrize("args, et", [
    (("axes",), "u4"),
    (("axis", INDEX_TYPES), "i64"),
    (("pads", INTEGER_LIKE), "string"),  # is_integral_number takes a string (measured)
    (("repeats", INTEGER_LIKE | {"boolean"}), "boolean"),  # is_integral takes a boolean
    (("axes",), "dynamic"),  # an undecided type can only be less strict than the runtime
    (("axes",), None),
])
def test_an_accepted_or_unknown_type_passes(args, et):
    assert notes(["f32", et], 1, *args) == []


def test_an_input_left_out_passes():
    assert notes(["f32"], 2, "axis") == []
