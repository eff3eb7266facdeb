"""shapes.symdims: the shape maths keep the symbols' expressions and record the conditions."""
from __future__ import annotations

import pytest

from irvalidate.shapes import arith, dims, windows
from irvalidate.shapes.dims import DYNAMIC, Dim, broadcast_merge, intersect, static
from irvalidate.shapes.symbolic import solve, sym
from irvalidate.shapes.symdims import SymDim, expr_of, opaque, recording, with_expr

S = with_expr(static(224), sym("s"))


def _sizes(conditions, upto=80):
    solution = solve(conditions, "s", {})
    return [n for n in range(1, upto) if n in solution.sizes]


def test_outside_a_recording_nothing_is_kept_nor_recorded():
    assert dims.SYMBOLIC is None
    assert type(arith.add(S, static(1))) is Dim and intersect(S, static(224)) == static(224)


def test_a_merge_records_equality_and_keeps_the_symbol():
    with recording() as found:
        merged = intersect(S, static(224))
    assert type(merged) is SymDim and merged.expr == sym("s")
    assert _sizes(found.conditions, 300) == [224]


def test_a_merge_that_fails_at_the_witness_is_not_recorded():
    with recording() as found:
        assert intersect(S, static(7)) is None
    assert not found.conditions


def test_a_broadcast_takes_equal_sizes_or_1_and_gives_the_larger():
    with recording() as found:
        merged = broadcast_merge(S, static(224))
        assert broadcast_merge(S, static(1)) is S  # a 1 puts no condition
    assert _sizes(found.conditions, 300) == [1, 224]
    assert expr_of(merged).substitute({"s": 1}).value == 224


def test_a_symbol_whose_witness_is_1_still_broadcasts_by_the_rule():
    one = with_expr(static(1), sym("s"))
    with recording() as found:
        assert broadcast_merge(one, static(64)) == static(64)
    assert _sizes(found.conditions, 100) == [1, 64]


def test_arithmetic_and_windows_keep_expressions():
    with recording() as found:
        out = windows.conv_dim(S, static(3), 2, 1, 2, False, 0)  # 3x3, stride 2, pads 1+1
        pooled = windows.pool_dim(S, 7, 1, 1, (0, 0), "floor", "explicit", 0)
    assert out == static(112) and expr_of(out).substitute({"s": 7}).value == 4
    assert pooled == static(218) and _sizes(found.conditions)[0] == 7  # the window fits from 7


def test_an_exact_division_requires_a_multiple():
    with recording() as found:
        half = arith.divide(S, 32)
    assert half == static(7) and _sizes(found.conditions, 100) == [32, 64, 96]


def test_an_opaque_dim_makes_its_conditions_unknown():
    lost = opaque(static(56), frozenset({"s"}), "slice")
    with recording() as found:
        merged = intersect(lost, static(56))
        summed = arith.add(lost, S)
    assert not found.conditions and found.unknowns[0].depends == {"s"}
    assert found.unknowns[0].origin == "slice"
    assert type(merged) is SymDim and merged.expr is None
    assert type(summed) is SymDim and summed.expr is None and summed.depends == {"s"}


def test_a_dynamic_witness_merges_with_a_static_size():
    d = with_expr(DYNAMIC, sym("s"))
    with recording() as found:
        assert intersect(d, static(64)) == static(64)
    assert _sizes(found.conditions, 100) == [64]


def test_one_recording_at_a_time():
    with recording(), pytest.raises(RuntimeError), recording():
        pass
    assert dims.SYMBOLIC is None


def test_an_expression_that_misses_the_witness_is_opaque():
    """A hook's mistake makes a dim unknown, never a wrong size."""
    with recording({"s": 224}):
        wrong = with_expr(static(100), sym("s"))
        right = with_expr(static(224), sym("s"))
    assert type(wrong) is SymDim and wrong.expr is None and right.expr == sym("s")


def test_a_slice_by_constant_bounds_keeps_the_length():
    from irvalidate.shapes.slicing import make_dim
    with recording({"s": 512}):
        crop = make_dim(with_expr(static(512), sym("s")), (0, 0), (256, 256), 1)
        end = ((1 << 63) - 1,) * 2  # "to the end"
        tail = make_dim(with_expr(static(512), sym("s")), (-3, -3), end, 2)
    assert crop == static(256) and crop.expr.substitute({"s": 100}).value == 100
    assert tail == static(2) and tail.expr.substitute({"s": 2}).value == 1


def _layer(name):
    from types import SimpleNamespace
    return SimpleNamespace(id="1", name=name, type="Op")  # (a body's ids repeat the model's)


def test_a_layer_not_followed_drops_what_its_body_recorded():
    """A Loop's body layers are inferred inside it: when the Loop is not followed, the
    conditions its body recorded go with its own."""
    outer, lone = _layer("loop"), _layer("later")
    inner = [_layer("body/add"), _layer("body/mul")]
    shape = ((S,), None, None)
    with recording() as found:
        found.cause = outer
        for layer in inner:  # two body layers, each with a condition
            found.cause = layer
            intersect(S, static(224))
            assert found.settle(layer, (True, True, False), (), [shape])[2] is False
        assert len(found.conditions) == 2
        assert found.settle(outer, (False, False, False), (), [shape])[2] is True
        assert not found.conditions and found.unknowns[-1].cause is outer
        found.cause = lone  # a layer after it starts afresh
        intersect(S, static(224))
    assert len(found.conditions) == 1


def test_taint_is_told_by_the_layer_not_its_id():
    """A body layer and a model layer share the id "1": the taint of one is not the other's."""
    body, model, reader = _layer("body"), _layer("model"), _layer("reader")
    with recording() as found:
        found.cause = body
        found.settle(body, (True, False, False), (), [((S,), None, None)], made_values=False)
        assert id(body) in found.tainted and id(model) not in found.tainted
        found.cause = reader
        depends, _, unfollowed = found.settle(reader, (True, True, False), (0,),
                                              [((static(2),), None, id(model))])
    assert not depends and not unfollowed


def test_a_recalled_layer_names_itself_as_the_maker():
    first, second = _layer("first"), _layer("second")
    with recording() as found:
        found.cause = first
        made = arith.add(S, static(1))
        found.cause = second  # its inputs alike, the memo gives back the first one's dims
        mine = with_expr(static(224), sym("s"))
        owned = found.owned(second, (made, S), [(mine,)])
    assert owned[0].made_by is second and owned[0].expr == made.expr
    assert owned[1] is mine  # passed on: its own input, not the first one's
