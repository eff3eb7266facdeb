"""Symbolic sizes and the exact solver (shapes/symbolic.py).

The solver's answers are checked against brute force: every condition evaluated size by size
over 1..(start + 3 periods) of the set it found and at sampled large sizes. The examples are
the issue's: a stride chain joined back gives "multiple of 32", a window "min 7", a clamp
"max 512", a flattened size "only 224", a broadcast "one of 1, 64"."""
import doctest

import pytest
from hypothesis import given, settings, strategies as st

from irvalidate.shapes import symbolic
from irvalidate.shapes.sizeset import Constraint, SizeSet
from irvalidate.shapes.symbolic import (
    BRUTE_BOUND,
    START_CAP,
    any_of,
    ceildiv,
    const,
    eq,
    floordiv,
    ge,
    le,
    maximum,
    minimum,
    solve,
    sym,
    tail,
    ties,
)

s, t = sym("s"), sym("t")


def contract_admits(c: Constraint, size: int) -> bool:
    """The issue's sentence, written out again rather than asking Constraint.admits."""
    return ((c.values is None or size in c.values) and size >= c.min
            and (c.max is None or size <= c.max) and (size - c.offset) % c.multiple_of == 0)


def test_the_module_example_holds():
    assert doctest.testmod(symbolic).attempted and not doctest.testmod(symbolic).failed


# -- expressions ------------------------------------------------------------------------------

def test_affine_forms_compare_equal_once_normalised():
    a = sym("a")
    assert a + 1 + 1 == a + 2
    assert 2 * a - a == a
    assert (a - a).is_const and (a - a).value == 0
    assert hash(sym("a") + sym("b")) == hash(sym("b") + sym("a"))
    assert sym("a") + sym("b") == sym("b") + sym("a")
    assert 3 * (a + 1) == 3 * a + 3
    assert const(4) * 2 == 8 and (const(4) * 2).is_const


def test_integers_of_any_kind_are_constants_and_other_numbers_are_refused():
    np = pytest.importorskip("numpy")
    assert s + np.int64(3) == s + 3 and floordiv(s, np.int32(2)) == floordiv(s, 2)
    assert solve([eq(s * t, 150528)], "s", {"t": np.int64(672)}).values == [224]
    for wrong in (2.0, True, None, "3"):
        with pytest.raises(TypeError):
            s + wrong


def test_divisions_fold_what_they_can():
    assert floordiv(4 * s + 7, 2) == 2 * s + 3
    assert floordiv(floordiv(s, 2), 3) == floordiv(s, 6)
    assert ceildiv(ceildiv(s, 2), 3) == ceildiv(s, 6)
    assert floordiv(s, 1) == s and floordiv(const(7), 2) == 3 and ceildiv(const(7), 2) == 4
    assert floordiv(s - 1, 2) + 1 == floordiv(s + 1, 2)
    assert minimum(s + 1, s) == s and maximum(s + 1, s) == s + 1 and minimum(3, 5) == 3
    with pytest.raises(ValueError):
        floordiv(s, 0)


def test_readable_text():
    assert str(floordiv(s - 1, 2) + 1) == "floor((s + 1) / 2)"
    assert str(ceildiv(s, 2) * 2 - 3) == "2*ceil(s / 2) - 3"
    assert str(minimum(s, 512)) == "min(s, 512)"
    assert str(-s + 3) == "-s + 3"
    assert str(s * t) == "s * t"


def test_a_deep_chain_is_walked_without_recursion():
    # a thousand stride-2 windows and clamps, as a deep network's spatial axis: well past
    # Python's recursion limit, and a text that stays short
    e = s
    for i in range(1500):
        e = floordiv(e - 1, 2) + 1 if i % 2 else minimum(e + 3, 4000 - i)
    def python(size):
        for i in range(1500):
            size = (size - 1) // 2 + 1 if i % 2 else min(size + 3, 4000 - i)
        return size
    assert all(e.evaluate({"s": n}) == python(n) for n in (1, 7, 100, 10**9))
    assert e.substitute({"s": 100}).value == python(100) and len(str(e)) <= 160
    sol = solve([ge(e, 4)], "s", {})
    assert sol.exact and [n for n in range(1, 200) if n in sol.sizes] == \
        [n for n in range(1, 200) if python(n) >= 4]


def test_a_side_already_inside_the_other_is_absorbed():
    """max(t, max(s, t)) is max(s, t), min alike: a size every block of a stack merges with
    the same input keeps one expression instead of growing a level a block."""
    merged = maximum(s, t)
    for _ in range(3):
        assert maximum(t, merged).key == merged.key and maximum(merged, s).key == merged.key
        merged = maximum(t, merged)
    assert minimum(s, minimum(s, t)).key == minimum(s, t).key
    assert maximum(s + 1, maximum(s, t)).key != maximum(s, t).key  # (s + 1 is not inside)


def test_substitute_folds_a_product_into_an_affine_form():
    h, w = sym("h"), sym("w")
    area = 3 * h * w
    assert area.symbols() == {"h", "w"}
    assert area.substitute({"h": 224}) == 672 * w
    assert area.substitute({"h": 2, "w": 5}).value == 30


# random quasi-affine expressions of s and t, with their Python meaning alongside

def _combine(children):
    pair = st.tuples(children, children)
    return st.one_of(
        pair.map(lambda p: (p[0][0] + p[1][0], lambda e, a=p: a[0][1](e) + a[1][1](e))),
        pair.map(lambda p: (p[0][0] - p[1][0], lambda e, a=p: a[0][1](e) - a[1][1](e))),
        st.tuples(children, st.integers(-3, 3)).map(
            lambda p: (p[0][0] * p[1], lambda e, a=p: a[0][1](e) * a[1])),
        st.tuples(children, st.integers(1, 6)).map(
            lambda p: (floordiv(p[0][0], p[1]), lambda e, a=p: a[0][1](e) // a[1])),
        st.tuples(children, st.integers(1, 6)).map(
            lambda p: (ceildiv(p[0][0], p[1]), lambda e, a=p: -(-a[0][1](e) // a[1]))),
        pair.map(lambda p: (minimum(p[0][0], p[1][0]), lambda e, a=p: min(a[0][1](e), a[1][1](e)))),
        pair.map(lambda p: (maximum(p[0][0], p[1][0]), lambda e, a=p: max(a[0][1](e), a[1][1](e)))),
    )


leaves = st.one_of(
    st.just((s, lambda e: e["s"])),
    st.just((t, lambda e: e["t"])),
    st.integers(-20, 40).map(lambda n: (const(n), lambda e, n=n: n)),
)
expressions = st.recursive(leaves, _combine, max_leaves=8)


@given(expressions, st.integers(0, 200), st.integers(0, 200))
@settings(max_examples=300, deadline=None)
def test_evaluate_and_substitute_agree_with_python(pair, a, b):
    """Symbols are sizes, 0 or more (min and max are folded where that decides them)."""
    expr, meaning = pair
    env = {"s": a, "t": b}
    assert expr.evaluate(env) == meaning(env)
    assert expr.substitute({"t": b}).evaluate({"s": a}) == meaning(env)
    assert expr.substitute(env).is_const and expr.substitute(env).value == meaning(env)


@given(expressions, st.integers(1, 30))
@settings(max_examples=300, deadline=None)
def test_a_tail_repeats_from_its_start(pair, fixed):
    expr = pair[0].substitute({"t": fixed})
    shape = tail(expr, "s")
    for size in range(shape.start, shape.start + 3 * shape.period + 5):
        after = expr.evaluate({"s": size + shape.period})
        assert after == expr.evaluate({"s": size}) + shape.step


def brute(sizes: SizeSet, upto: int) -> set:
    return {n for n in range(1, upto) if n in sizes}


# -- the solver -------------------------------------------------------------------------------

def conv_chain(size, levels=5):
    """3x3 convolutions of stride 2 and pads 1, as the runtime sizes them."""
    out = [size]
    for _ in range(levels):
        out.append(floordiv(out[-1] + 1 + 1 - 3, 2) + 1)
    return out


def test_a_stride_chain_joined_back_by_upsampling_gives_a_multiple_of_32():
    chain = conv_chain(s)
    joins = [eq(2 * chain[i + 1], chain[i], cause=f"cat{i}") for i in range(5)]
    sol = solve(joins, "s", {})
    assert sol.exact and (sol.min, sol.max, sol.multiple_of, sol.offset, sol.values) == \
        (32, None, 32, 0, None)
    assert sol.describe() == "multiple of 32"
    assert [c.condition.cause for c in sol.causes] == ["cat0", "cat1", "cat2", "cat3", "cat4"]
    assert sol.causes[0].part.describe() == "multiple of 2"
    # together they make the 32: each decides it, as leaving any one out changes it
    assert all(c.decides == ("min", "multiple_of") for c in sol.causes)
    windowed = solve(joins + [ge(s, 7, cause="pool"), le(s, 1024, cause="gather")], "s", {})
    assert windowed.describe() == "multiple of 32, max 1024"
    assert [c.decides for c in windowed.causes[5:]] == [(), ("max",)]  # 7 is below 32 anyway
    assert all(n in sol.sizes for n in (32, 64, 224, 608)) and 48 not in sol.sizes


def test_a_window_without_padding_gives_a_minimum():
    pooled = floordiv(s - 7, 1) + 1
    sol = solve([ge(pooled, 1, cause="pool5", reason="the window is 7")], "s", {})
    assert sol.exact and sol.min == 7 and sol.max is None and sol.describe() == "min 7"
    assert sol.causes[0].condition.reason == "the window is 7"
    # two windows of 7 (a stride of 1 and of 2): neither alone is needed, both impose it
    strided = floordiv(s - 7, 2) + 1
    twice = solve([ge(pooled, 1, cause="a"), ge(strided, 1, cause="b"), ge(s, 3, cause="c")],
                  "s", {})
    assert twice.describe() == "min 7"
    assert [c.decides for c in twice.causes] == [("min",), ("min",), ()]


def test_a_clamp_merged_with_the_size_gives_a_maximum():
    sol = solve([eq(minimum(s, 512), s)], "s", {})
    assert sol.exact and (sol.min, sol.max, sol.multiple_of) == (1, 512, 1)
    assert sol.describe() == "max 512"


def test_a_flattened_size_against_weights_gives_a_pin():
    h, w = sym("h"), sym("w")
    sol = solve([eq(3 * h * w, 150528, cause="fc")], "w", {"h": 224})
    assert sol.exact and sol.values == [224] and sol.describe() == "only 224"
    assert solve([eq(3 * h * w, 150528)], "w", {"h": 100}).values == []


def test_a_broadcast_gives_its_few_values():
    other = sym("bias")
    rule = any_of(eq(s, other), eq(s, 1), eq(other, 1), cause="add")
    sol = solve([rule], "s", {"bias": 64})
    assert sol.exact and sol.values == [1, 64] and sol.describe() == "one of 1, 64"
    assert sol.causes[0].decides == ("values",)
    joined = solve([rule, eq(2 * floordiv(s, 2), s, cause="join")], "s", {"bias": 64})
    assert joined.values == [64] and [c.decides for c in joined.causes] == [("values",)] * 2
    assert solve([rule], "s", {"bias": 1}).describe() == "any size"


def test_a_condition_on_a_free_symbol_is_dropped_and_ties_are_named():
    a, b = sym("a"), sym("b")
    conditions = [eq(a + 0, b), eq(2 * b, 2 * a), eq(a, b + 1), eq(a, 3 * b), ge(a, 4)]
    sol = solve(conditions, "a", {})
    assert sol.dropped == tuple(conditions[:4]) and sol.min == 4
    assert ties(conditions) == [("a", "b")]
    assert ties([eq(a, 3 * b), eq(a + b, 0), ge(a, b), eq(a, sym("c"), cause="x")]) == [("a", "c")]
    assert solve(conditions, "a", {"b": 5}).values == []  # a == 5 and a == 6 cannot both hold


def test_what_is_not_quasi_affine_is_checked_up_to_a_bound_and_said_inexact():
    sol = solve([eq(s * s, 49)], "s", {})
    assert not sol.exact and "multiplies two sizes" in sol.why_inexact
    assert 7 in sol.sizes and all(n not in sol.sizes for n in range(1, BRUTE_BOUND) if n != 7)
    assert sol.min == 7 and sol.max is None  # every size it excludes fails; past the bound unknown
    shrinking = solve([ge(floordiv(12, 20 - s), 2)], "s", {})  # by a size that shrinks
    assert not shrinking.exact and "does not grow" in shrinking.why_inexact
    assert brute(shrinking.sizes, 30) == set(range(14, 20))


def test_a_division_by_a_growing_size_ends_constant():
    assert solve([ge(floordiv(12, s), 2)], "s", {}).describe() == "max 6"
    assert solve([ge(floordiv(100, s - 3), 1)], "s", {}).describe() == "min 4, max 103"
    assert solve([eq(ceildiv(7 * s, 2 * s + 1), 4)], "s", {}).describe() == "min 4"
    # P / s tends to 2 exactly: P - 2s is 0 for odd s and -40 for even s, so the quotient
    # ends periodic: 2 for odd sizes, 1 for even sizes from 40 on (80 - 40 = 40)
    odd = s - 2 * floordiv(s, 2)
    numerator = 2 * s - 40 + 40 * odd
    assert solve([eq(floordiv(numerator, s), 2)], "s", {}).describe() == "1 mod 2"
    evens = solve([eq(floordiv(numerator, s), 1)], "s", {})
    assert evens.exact and evens.describe() == "multiple of 2, min 40"
    # a Reshape's -1 over [b, s, 768] into [b, -1, 12, 192]: b cancels, s must be a multiple of 3
    b = sym("b")
    total, known = b * t * 768, b * 12 * 192
    fits = eq(floordiv(total, known) * known, total)
    assert solve([fits], "b", {"t": 129}).describe() == "any size"
    assert solve([fits], "b", {"t": 128}).describe() == "no size"
    assert solve([fits], "t", {"b": 4}).describe() == "multiple of 3"
    sol = solve([fits], "b", {"t": 129})
    assert sol.exact and all(n in sol.sizes for n in range(1, 100))


def test_residues_that_settle_at_different_sizes():
    # even s = 2m: m - 10 >= 0 from 20 on; odd s = 2m + 1: m - 11 >= 0 from 23 on
    rising = solve([ge(3 * floordiv(s, 2) - s, 10)], "s", {})
    assert brute(rising.sizes, 100) == {20, 22} | set(range(23, 100))
    assert not rising.exact and rising.min == 20 and "size 21 fails" in rising.why_inexact
    # and falling: m <= 10 for even s (up to 20), m - 1 <= 10 for odd s (up to 23)
    falling = solve([le(3 * floordiv(s, 2) - s, 10)], "s", {})
    assert brute(falling.sizes, 100) == set(range(1, 22)) | {23}
    assert not falling.exact and (falling.min, falling.max) == (1, 23)


def test_large_constants_stay_exact():
    sol = solve([le(s, 131072), ge(s, 100000), eq(floordiv(s, 8) * 8, s)], "s", {})
    assert sol.exact and (sol.min, sol.max, sol.multiple_of) == (100000, 131072, 8)
    assert solve([eq(s, 10**9)], "s", {}).exact is False  # past the cap: said, not guessed


INT64_MAX, INT32_MAX = (1 << 63) - 1, (1 << 31) - 1


def test_a_slice_to_the_last_element_clamps_nothing():
    # a Slice's end of INT64_MAX: no size is larger, so min(s, end) is s and stays exact
    clamped = minimum(s, INT64_MAX)
    sol = solve([eq(32 * floordiv(clamped, 32), s), ge(clamped - 6, 1)], "s", {})
    assert sol.exact and sol.describe() == "multiple of 32"
    bounded = solve([le(s, INT64_MAX), ge(maximum(s, -INT64_MAX), 3)], "s", {})
    assert bounded.exact and bounded.describe() == "min 3"
    beyond = solve([eq(s - 1, INT64_MAX)], "s", {})  # 2^63 is no size
    assert beyond.exact and beyond.values == []


def test_a_clamp_far_past_the_cap_is_solved_up_to_it_and_said_inexact():
    clamped = minimum(s, INT32_MAX)  # 2^31 - 1: sizes past it exist, the set changes there
    sol = solve([eq(32 * floordiv(clamped, 32), s), ge(clamped, 7)], "s", {})
    assert not sol.exact and "solved up to size 2147483647 only" in sol.why_inexact
    assert brute(sol.sizes, 5000) == set(range(32, 5000, 32))  # exact below the cap
    assert all(n in sol.sizes for n in (START_CAP + 1, START_CAP + 2))  # kept past it
    assert sol.min == 32 and sol.max is None  # every size the fields exclude fails


def products():
    """Expressions that multiply s by t, by itself or divide by it: not always quasi-affine."""
    return st.tuples(expressions, expressions).flatmap(lambda p: st.sampled_from([
        (p[0][0] * p[1][0], lambda e, a=p: a[0][1](e) * a[1][1](e)),
        (floordiv(p[0][0], p[1][0]) if not p[1][0].is_const else p[0][0] * p[1][0], None),
    ]))


def clamps():
    """Expressions clamped far out, as Slice ends and position limits are."""
    far = st.sampled_from([INT64_MAX, INT32_MAX, 2_000_000, 5_000, -INT64_MAX])
    return st.tuples(expressions, far, st.booleans()).map(lambda p: (
        (minimum if p[2] else maximum)(p[0][0], p[1]), None))


def conditions(exprs):
    simple = st.one_of(
        st.tuples(exprs, exprs).map(lambda p: eq(p[0][0], p[1][0])),
        st.tuples(exprs, st.integers(-10, 60)).map(lambda p: ge(p[0][0], p[1])),
        st.tuples(exprs, st.integers(-10, 60)).map(lambda p: le(p[0][0], p[1])),
    )
    return st.one_of(simple, st.lists(simple, min_size=1, max_size=3).map(lambda cs: any_of(*cs)))


def contract(c):
    return (c.min, c.max, c.multiple_of, c.offset, c.values)


def holds_all(conds, env):
    return all(c.holds(env) for c in conds)


def check_against_brute_force(conds, fixed):
    sol = solve(conds, "s", {"t": fixed})
    assert not sol.dropped
    sizes = sol.sizes
    horizon = max(sizes.start, *(c.part.sizes.start for c in sol.causes), 1) + 3 * sizes.period
    probes = list(range(1, min(horizon + 3 * sol.multiple_of + 40, 3 * BRUTE_BOUND)))
    probes += [10**6 + k for k in range(0, 97, 3)] if sol.exact else []
    for size in probes:
        truth = holds_all(conds, {"s": size, "t": fixed})
        if sol.exact:
            assert (size in sizes) == truth, (size, [str(c) for c in conds])
            assert contract_admits(sol, size) == truth, (size, [str(c) for c in conds])
        elif size <= BRUTE_BOUND or "not solved exactly" not in sol.why_inexact:
            assert truth <= (size in sizes), size
            assert truth <= contract_admits(sol, size), size
    for cause in sol.causes:
        if not cause.decides and sol.exact:  # leaving it out (and its repeats) changes nothing
            others = [c for c in conds if c.substitute({"t": fixed}).key
                      != cause.condition.substitute({"t": fixed}).key]
            assert contract(solve(others, "s", {"t": fixed})) == contract(sol)
        assert not cause.part.sizes.is_everything
        assert all((n in cause.part.sizes) >= cause.condition.holds({"s": n, "t": fixed})
                   for n in range(1, min(horizon, BRUTE_BOUND)))
    return sol


@given(st.lists(conditions(expressions), min_size=1, max_size=4), st.integers(1, 20))
@settings(max_examples=400, deadline=None)
def test_the_solver_agrees_with_brute_force(conds, fixed):
    check_against_brute_force(conds, fixed)


@given(st.lists(conditions(st.one_of(expressions, products(), clamps())), min_size=1,
                max_size=3),
       st.integers(1, 20))
@settings(max_examples=80, deadline=None)
def test_the_solver_is_sound_where_it_is_not_quasi_affine(conds, fixed):
    check_against_brute_force(conds, fixed)


@given(st.integers(1, 6), st.integers(0, 5), st.integers(1, 6), st.integers(-30, 30))
@settings(max_examples=300, deadline=None)
def test_windows_and_joins_agree_with_brute_force(stride, pad, kernel, shift):
    # the shapes the lead's inference makes: a window's output, scaled back and compared
    out = floordiv(s + pad - kernel, stride) + 1
    conds = [ge(s + pad, kernel), eq(out * stride + shift, s)]
    sol = check_against_brute_force(conds, 1)
    assert sol.exact  # (quasi-affine: the solver states these sets exactly)


@given(expressions, st.integers(0, 200), st.integers(0, 200))
@settings(max_examples=300, deadline=None)
def test_least_is_a_lower_bound(pair, a, b):
    """Interval bounds never claim more than the sizes give: the value at any sizes of 0
    or more is at least least(0), and at sizes of 1 or more at least least(1)."""
    expr = pair[0]
    assert expr.evaluate({"s": a, "t": b}) >= expr.least(0)
    if a >= 1 and b >= 1:
        assert expr.evaluate({"s": a, "t": b}) >= expr.least(1)


def test_a_condition_that_holds_at_any_sizes_is_not_dropped_as_unknown():
    """A window of 1 over h x w (two axes, one dynamic) fits at any sizes: solving for s
    does not take it as depending on t."""
    from irvalidate.shapes.symbolic import ge
    fits = ge(floordiv(s + 1, 2) * floordiv(t + 1, 2), const(1))
    assert fits.always()
    assert not ge(s - t, const(0)).always()
    assert not solve([fits], "s", {}).dropped
