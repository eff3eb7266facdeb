"""Example-based tests for irvalidate.shapes.dims and irvalidate.shapes.broadcasting.

Every expected value below was taken from a document, not from running the library:

* ../shared/seeds/000..004: the specification texts; every example there is a case.
* ../shared/research/ov_semantics.md: how OpenVINO 2026.4.1 behaves in practice (the
  tables in sections 2.3, 2.6, 2.8 and 2.9, the examples in 3.3 and the conformance cases in 6).

Where the runtime and the specification text disagree (PDPD: trailing 1s of B, and a missing
axis attribute), the runtime function is held to ov_semantics.md and the documented reading is
checked against ``pdpd_spec_merge``.
"""
from __future__ import annotations

import numpy as np
import pytest

from irvalidate.shapes import broadcasting as bc, dims
from irvalidate.shapes.dims import INF, Dim, parse_dim, parse_shape

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------

def S(text):
    """Shape from text: ``"2,3"``, ``""`` (scalar), ``"..."`` (dynamic rank), intervals allowed."""
    return parse_shape(text)


def ints(text):
    """Static integer tuple from text, for numpy cross-checks."""
    return tuple(int(t) for t in text.split(",")) if text.strip() else ()


def lenient_cols(out):
    """Output columns flagged as lenient (entries may be bare columns or (column, ...))."""
    return tuple(p[0] if isinstance(p, tuple) else p for p in out.lenient)


def expect_error(fn, *args, column="any", **kwargs):
    with pytest.raises(bc.BroadcastError) as info:
        fn(*args, **kwargs)
    err = info.value
    assert isinstance(err.message, str) and err.message
    if column != "any":
        assert err.column == column, (err.column, err.message)
    return err


# --------------------------------------------------------------------------------------------
# Helper sanity: the shape vocabulary the tests depend on (ov_semantics §2.1)
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("token, expected", [
    ("5", Dim(5, 5)),
    ("?", Dim(0, INF)),
    ("-1", Dim(0, INF)),
    ("2..8", Dim(2, 8)),
    ("2..", Dim(2, INF)),
    ("..8", Dim(0, 8)),
    ("0", Dim(0, 0)),
])
def test_parse_dim_forms(token, expected):
    assert parse_dim(token) == expected


@pytest.mark.parametrize("token", ["5", "?", "2..8", "2..", "..8", "0", "1"])
def test_format_dim_printed_forms(token):
    # §2.1: printed forms are 5, ?, 2..8, 2.. and ..8
    assert dims.format_dim(parse_dim(token)) == token


def test_parse_shape_special_forms():
    assert parse_shape("...") is None
    assert parse_shape("") == ()
    assert parse_shape("1,1..8,?") == (Dim(1, 1), Dim(1, 8), dims.DYNAMIC)


# ============================================================================================
# Seeds 000 / 001 / 002: numpy examples (identical in the three documents)
# ============================================================================================

NUMPY_SEED_OK = [
    ("", "", ""),                       # scalar + scalar -> scalar (rule 5)
    ("2,3", "1", "2,3"),
    ("3", "2,3", "2,3"),
    ("2,3,5", "", "2,3,5"),
    ("2,1,5", "1,4,5", "2,4,5"),
    ("6,5", "2,1,5", "2,6,5"),
    ("2,1,5", "4,1", "2,4,5"),
    ("3,2,1,4", "5,4", "3,2,5,4"),
    ("1,5,3", "5,2,1,3", "5,2,5,3"),
]


@pytest.mark.parametrize("a, b, result", NUMPY_SEED_OK)
def test_seed_numpy_examples(a, b, result):
    out = bc.numpy_merge(S(a), S(b))
    assert out.shape == S(result)
    assert lenient_cols(out) == ()
    # the same through the eltwise dispatcher
    assert bc.eltwise(S(a), S(b), "numpy").shape == S(result)
    # the rule compares dims elementwise, so the order of the operands does not matter
    assert bc.numpy_merge(S(b), S(a)).shape == S(result)
    # the documented rule is numpy's own (seed 003 says so explicitly)
    assert np.broadcast_shapes(ints(a), ints(b)) == ints(result)


def test_seed_numpy_scalar_result_is_rank_zero():
    out = bc.numpy_merge((), ())
    assert out.shape == () and len(out.shape) == 0


@pytest.mark.parametrize("a, b, column", [
    ("3", "2", 0),            # "broadcast won't happen due to dimensions mismatch"
    ("3,1,5", "4,4,5", 0),    # "... mismatch on the leftmost axis"
])
def test_seed_numpy_rejections(a, b, column):
    expect_error(bc.numpy_merge, S(a), S(b), column=column)
    expect_error(bc.numpy_merge, S(b), S(a), column=column)
    expect_error(bc.eltwise, S(a), S(b), "numpy", column=column)
    with pytest.raises(ValueError):
        np.broadcast_shapes(ints(a), ints(b))


# None broadcast (000 rules): dimensions must match, no implicit broadcast.
@pytest.mark.parametrize("a, b, ok", [
    ("2,3", "2,3", True),
    ("", "", True),
    ("2,3", "1", False),       # rank differs
    ("2,1,5", "1,4,5", False), # would broadcast under numpy, not under none
    ("3", "2", False),
])
def test_seed_none_rule(a, b, ok):
    if ok:
        assert bc.none_merge(S(a), S(b)).shape == S(a)
        assert bc.eltwise(S(a), S(b), "none").shape == S(a)
    else:
        expect_error(bc.none_merge, S(a), S(b))
        expect_error(bc.eltwise, S(a), S(b), "none")


# ============================================================================================
# Seeds 000 / 001: PDPD examples
# ============================================================================================
# Every example states A = (2,3,4,5) and Result = (2,3,4,5).  The runtime agrees with every
# example that names an axis.  The two examples without an axis rely on the documented
# default -1; in IR a missing axis attribute means 0 (ov_semantics §1.1 / §2.6).

PDPD_SEED = [
    ("3,4", 1),
    ("3,1", 1),
    ("4,5", -1),    # "axis=-1(default) or axis=2"
    ("4,5", 2),
    ("1,3", 0),
    ("", -1),       # B: Shape(,), no axis -> documented default -1
    ("5", -1),      # B: Shape(5,), no axis -> documented default -1
]


@pytest.mark.parametrize("b, axis", PDPD_SEED)
def test_seed_pdpd_runtime(b, axis):
    out = bc.pdpd_merge(S("2,3,4,5"), S(b), axis)
    assert out.shape == S("2,3,4,5")
    assert lenient_cols(out) == ()
    assert bc.eltwise(S("2,3,4,5"), S(b), "pdpd", axis).shape == S("2,3,4,5")


@pytest.mark.parametrize("b, axis", PDPD_SEED)
def test_seed_pdpd_documented_reading(b, axis):
    assert bc.pdpd_spec_merge(S("2,3,4,5"), S(b), axis).shape == S("2,3,4,5")


def test_seed_pdpd_scalar_b_with_missing_axis_attribute():
    # In IR a missing axis is 0.  rank(B)=0 and 0+0 <= 4, so the §2.6 pseudocode succeeds
    # and the runtime still gives the documented result.
    assert bc.pdpd_merge(S("2,3,4,5"), (), 0).shape == S("2,3,4,5")


def test_seed_pdpd_shape5_with_missing_axis_attribute_fails_at_runtime():
    # Runtime and document disagree: the document's default is -1 (result (2,3,4,5)), but an
    # IR without the axis attribute gets axis 0, and ov_semantics §2.6 records
    # "[2,3,4,5] | [5] | missing | ERR" (B=5 would sit on A's dim 2: 5 > 2).
    expect_error(bc.pdpd_merge, S("2,3,4,5"), S("5"), 0, column=0)
    expect_error(bc.eltwise, S("2,3,4,5"), S("5"), "pdpd", 0, column=0)


def test_pdpd_trailing_ones_documented_but_not_applied_by_runtime():
    # Document rule 5: B's trailing 1s are ignored, (3,1) => (3).  With an explicit axis 2,
    # B=(4,5,1) strips to (4,5), which is exactly A's tail: the document accepts it.
    # Runtime (ov_semantics §2.6, "There is no trailing-1 stripping of B"): rB + axis =
    # 3 + 2 > 4, so it fails.  The runtime function follows the runtime.
    assert bc.pdpd_spec_merge(S("2,3,4,5"), S("4,5,1"), 2).shape == S("2,3,4,5")
    expect_error(bc.pdpd_merge, S("2,3,4,5"), S("4,5,1"), 2)


# ============================================================================================
# Seeds 000 / 001 / 002: bidirectional examples
# ============================================================================================
# Rule 2: numpy.array(input) * numpy.ones(target_shape).  A is the input, B the target values.

BIDIR_SEED = [
    ("5", "1", "5"),
    ("2,3", "3", "2,3"),
    ("3,1", "3,4", "3,4"),
    ("3,4", "", "3,4"),
    ("3,1", "2,1,6", "2,3,6"),
]


@pytest.mark.parametrize("a, b, result", BIDIR_SEED)
def test_seed_bidirectional_examples(a, b, result):
    values = ints(b)
    target = bc.target_from_values(values)
    out = bc.broadcast_bidirectional(S(a), target, len(values))
    assert out.shape == S(result)
    # the document's own formula agrees with its example
    assert (np.ones(ints(a)) * np.ones(values)).shape == ints(result)


def test_seed_bidirectional_output_may_differ_from_target():
    # Rule 4: the output is not the target when the target has 1s or a smaller rank.
    out = bc.broadcast_bidirectional(S("5"), bc.target_from_values([1]), 1)
    assert out.shape == S("5") != bc.target_from_values([1])
    out = bc.broadcast_bidirectional(S("3,4"), bc.target_from_values([]), 0)
    assert out.shape == S("3,4") != ()


def test_seed_bidirectional_rule3_mismatch_rejected():
    # Rule 3: corresponding dims must be equal or one of them 1.
    expect_error(bc.broadcast_bidirectional, S("3"), bc.target_from_values([2]), 1, column=0)


# ============================================================================================
# Seed 003: ONNX multidirectional (numpy rule) and unidirectional broadcasting
# ============================================================================================

ONNX_MULTI = [
    ("2,3,4,5", "", "2,3,4,5"),
    ("2,3,4,5", "5", "2,3,4,5"),
    ("4,5", "2,3,4,5", "2,3,4,5"),
    ("1,4,5", "2,3,1,1", "2,3,4,5"),
    ("3,4,5", "2,1,1,1", "2,3,4,5"),
]


@pytest.mark.parametrize("a, b, result", ONNX_MULTI)
def test_seed_onnx_multidirectional(a, b, result):
    assert bc.numpy_merge(S(a), S(b)).shape == S(result)
    assert bc.numpy_merge(S(b), S(a)).shape == S(result)
    assert np.broadcast_shapes(ints(a), ints(b)) == ints(result)


ONNX_UNI = ["", "5", "2,1,1,5", "1,3,1,5"]


@pytest.mark.parametrize("b", ONNX_UNI)
def test_seed_onnx_unidirectional(b):
    # B is broadcast into A = (2,3,4,5); the result is A's shape.
    a = S("2,3,4,5")
    assert bc.broadcast_numpy(S(b), a, len(a)).shape == a
    assert bc.broadcast_numpy(S(b), bc.target_from_values([2, 3, 4, 5]), 4).shape == a
    # multidirectional broadcasting of the same pair gives A too
    assert bc.numpy_merge(a, S(b)).shape == a


@pytest.mark.parametrize("a, b, column", [
    ("1,4", "3,4", 0),   # only B's length may be 1; A's 1 does not stretch to B's 3
    ("2,3", "2", 1),     # not a common length and B's length is not 1
])
def test_onnx_unidirectional_rejects_b_larger_than_a(a, b, column):
    # Derived from seed 003's definition: each dim must be a common length or B's must be 1.
    expect_error(bc.broadcast_numpy, S(b), S(a), len(S(a)), column=column)


def test_onnx_unidirectional_rejects_b_of_higher_rank():
    # B must have too few (or equal) dims, never more.
    expect_error(bc.broadcast_numpy, S("1,2,3"), S("2,3"), 2)


# ============================================================================================
# Seed 004: Broadcast-1 IR examples
# ============================================================================================

def test_seed_broadcast1_numpy_example():
    target = bc.target_from_values([1, 16, 50, 50])
    out = bc.broadcast_numpy(S("16,1,1"), target, 4)
    assert out.shape == S("1,16,50,50")


def test_seed_broadcast1_explicit_c_to_nchw():
    target = bc.target_from_values([1, 16, 50, 50])
    out = bc.broadcast_explicit(S("16"), target, 4, [1], 1)
    assert out.shape == S("1,16,50,50")


def test_seed_broadcast1_explicit_hw_to_nhwc():
    target = bc.target_from_values([1, 50, 50, 16])
    out = bc.broadcast_explicit(S("50,50"), target, 4, [1, 2], 2)
    assert out.shape == S("1,50,50,16")


@pytest.mark.parametrize("data, values, column", [
    ("16", [1, 16, 50, 50], 3),      # [C] -> [N,C,H,W]: right-aligned 16 meets W=50
    ("50,50", [1, 50, 50, 16], 3),   # [H,W] -> [N,H,W,C]: right-aligned W=50 meets C=16
])
def test_seed_broadcast1_examples_not_expressible_with_numpy(data, values, column):
    # 004: "such operations cannot be expressed with axes_mapping set to numpy"
    expect_error(bc.broadcast_numpy, S(data), bc.target_from_values(values), len(values),
                 column=column)


def test_seed_broadcast1_axes_mapping_must_be_sorted():
    # 004: "The index values in this tensor should be sorted"
    expect_error(bc.broadcast_explicit, S("50,50"), bc.target_from_values([1, 50, 50, 16]), 4,
                 [2, 1], 2)


def test_seed_broadcast1_axes_mapping_size_must_match_data_rank():
    # 004: "The size of axis_mapping should match the rank of input data tensor"
    expect_error(bc.broadcast_explicit, S("50,50"), bc.target_from_values([1, 50, 50, 16]), 4,
                 [1], 1)


# ============================================================================================
# ov_semantics §2.3: Dimension::broadcast_merge truth table (numpy) and merge (none)
# ============================================================================================
# (a, b, numpy result, none result); None = ERR, "-" = not given.  lenient marks the rows the
# table flags in bold: the merge was accepted only because an interval contains 1.

MERGE_TABLE = [
    ("3", "3", "3", "3"),
    ("3", "4", None, None),
    ("1", "4", "4", None),
    ("4", "1", "4", None),
    ("?", "1", "?", "1"),
    ("1", "?", "?", "1"),
    ("?", "5", "5", "5"),
    ("5", "?", "5", "5"),
    ("?", "?", "?", "?"),
    ("1..8", "4", "4", "4"),
    ("1..8", "1", "1..8", "1"),
    ("1..8", "10", "10", None),
    ("2..8", "4", "4", "4"),
    ("2..8", "10", None, None),
    ("2..8", "1", "2..8", None),
    ("1..8", "2..3", "2..3", "2..3"),
    ("2..8", "5..10", "5..8", "5..8"),
    ("2..4", "5..10", None, None),
    ("1..8", "?", "?", "1..8"),
    ("0..1", "5", "5", None),
    ("0..5", "1", "..5", "1"),
    ("1..8", "0..3", "..8", "1..3"),
    ("1", "0..3", "..3", "-"),
    ("0..3", "2..5", "2..5", "-"),
    ("..8", "4", "4", "4"),
    ("2..", "3", "3", "3"),
    ("3..5", "1..2", "3..5", None),
    ("0", "1", "0", "-"),
    ("0", "5", None, "-"),
    ("0", "?", "0", "-"),
    ("?", "0", "0", "-"),
]

LENIENT_ROWS = {("1..8", "10"), ("3..5", "1..2"), ("0..1", "5")}


@pytest.mark.parametrize("a, b, np_res, none_res", MERGE_TABLE)
def test_truth_table_broadcast_merge(a, b, np_res, none_res):
    got = dims.broadcast_merge(parse_dim(a), parse_dim(b))
    assert got == (None if np_res is None else parse_dim(np_res))


@pytest.mark.parametrize("a, b, np_res, none_res", [r for r in MERGE_TABLE if r[3] != "-"])
def test_truth_table_intersect(a, b, np_res, none_res):
    got = dims.intersect(parse_dim(a), parse_dim(b))
    assert got == (None if none_res is None else parse_dim(none_res))


@pytest.mark.parametrize("a, b, np_res, none_res", MERGE_TABLE)
def test_truth_table_as_add_shapes(a, b, np_res, none_res):
    # The rows were run as Add([a],[b]).
    sa, sb = (parse_dim(a),), (parse_dim(b),)
    if np_res is None:
        expect_error(bc.numpy_merge, sa, sb, column=0)
    else:
        out = bc.numpy_merge(sa, sb)
        assert out.shape == (parse_dim(np_res),)
        assert lenient_cols(out) == ((0,) if (a, b) in LENIENT_ROWS else ())
    if none_res == "-":
        return
    if none_res is None:
        expect_error(bc.none_merge, sa, sb, column=0)
    else:
        assert bc.none_merge(sa, sb).shape == (parse_dim(none_res),)


@pytest.mark.parametrize("a, b", sorted(LENIENT_ROWS))
def test_truth_table_lenient_rows(a, b):
    assert dims.relies_on_leniency(parse_dim(a), parse_dim(b))
    assert dims.relies_on_leniency(parse_dim(b), parse_dim(a))


@pytest.mark.parametrize("a, b", [("2..8", "1"), ("1..8", "4"), ("?", "5"), ("1", "4"),
                                  ("0..5", "1"), ("3", "3"), ("2..4", "5..10")])
def test_truth_table_non_lenient_rows(a, b):
    assert not dims.relies_on_leniency(parse_dim(a), parse_dim(b))


# ============================================================================================
# ov_semantics §2.4 / §2.5: shape-level none and numpy
# ============================================================================================

def test_none_dynamic_rank_gives_other_shape():
    assert bc.none_merge(None, S("2,3")).shape == S("2,3")
    assert bc.none_merge(S("2,3"), None).shape == S("2,3")
    assert bc.none_merge(None, None).shape is None


def test_none_rank0_vs_rank1_is_error():
    expect_error(bc.none_merge, S(""), S("1"))


@pytest.mark.parametrize("a, b, result", [
    ("2,3,4", "4", "2,3,4"),
    ("2,3,4", "3,1", "2,3,4"),
    ("1,?", "5,1,1", "5,1,?"),
    ("", "2,3", "2,3"),
    ("2,3", "3,2", None),
    ("...", "2,3", "..."),
    ("2,3", "...", "..."),
])
def test_numpy_shape_level(a, b, result):
    if result is None:
        expect_error(bc.numpy_merge, S(a), S(b))
    else:
        assert bc.numpy_merge(S(a), S(b)).shape == S(result)


# ============================================================================================
# ov_semantics §2.6: PDPD table (runtime); "missing" axis -> 0
# ============================================================================================

PDPD_TABLE = [
    # A, B, axis, result (None = ERR), failing column (or "any")
    ("2,3,4,5", "3,4", 0, None, 0),           # missing -> 0
    ("2,3,4,5", "3,4", 1, "2,3,4,5", None),
    ("2,3,4,5", "3,4", -1, None, 2),
    ("2,3,4,5", "3,1", 1, "2,3,4,5", None),
    ("2,3,4,5", "3,1", -1, None, 2),          # doc: trailing 1 stripped; runtime: ERR
    ("2,3,4,5", "3,4,1,1", -1, None, 0),      # doc: trailing 1s stripped; runtime: ERR
    ("2,3,4,5", "3,4,1", -1, "2,3,4,5", None),
    ("2,3,4", "4,1", -1, None, 1),
    ("2,3,4,5", "4,1", -1, "2,3,4,5", None),
    ("2,3,4,5", "5", -1, "2,3,4,5", None),
    ("2,3,4,5", "5", 0, None, 0),             # missing -> 0
    ("2,3,4,5", "3,4", 2, None, "any"),
    ("2,3,4", "3,4", -2, None, "any"),
    ("2,3", "2,3", 1, None, "any"),
    ("2,3,4,5", "2,3,4,5,6", -1, None, "any"),
    ("1,3", "5,3", -1, None, 0),
    ("2,1,4", "3,4", -1, None, 1),
    ("2,1,4,5", "3,1", 1, None, 1),
    ("2,3,4", "", -1, "2,3,4", None),
    ("2,3", "", 5, None, "any"),
    ("", "", -1, "", None),
    ("2,?,4", "5,4", -1, "2,5,4", None),
    ("?,3", "5,3", -1, "5,3", None),
    ("1..4,3", "5,3", -1, "5,3", None),
    ("2,1,4", "?,4", -1, "2,?,4", None),
    ("2,1..8,4", "10,4", -1, "2,10,4", None),
    ("2,2..8,4", "10,4", -1, None, 1),
    ("2,3,4", "1..5,4", -1, "2,3,4", None),
    ("2,3,4", "4..5,4", -1, None, 1),
    ("...", "3", -1, "...", None),
]


@pytest.mark.parametrize("a, b, axis, result, column", PDPD_TABLE)
def test_pdpd_runtime_table(a, b, axis, result, column):
    if result is None:
        expect_error(bc.pdpd_merge, S(a), S(b), axis, column=column)
        expect_error(bc.eltwise, S(a), S(b), "pdpd", axis, column=column)
    else:
        assert bc.pdpd_merge(S(a), S(b), axis).shape == S(result)
        assert bc.eltwise(S(a), S(b), "pdpd", axis).shape == S(result)


@pytest.mark.parametrize("a, b, lenient", [
    ("2,1..8,4", "10,4", (1,)),   # 1..8 never equals 10: only an exact 1 works
    ("1..4,3", "5,3", (0,)),
    ("2,1,4", "?,4", ()),
    ("2,3,4", "1..5,4", ()),
])
def test_pdpd_lenient_columns(a, b, lenient):
    assert lenient_cols(bc.pdpd_merge(S(a), S(b), -1)) == lenient


# ============================================================================================
# ov_semantics §2.8 and §6 I: Select-1
# ============================================================================================

SELECT_CASES = [
    # cond, then, else, mode, axis, result (None = ERR)
    ("2,3", "2,3", "2,3", "numpy", -1, "2,3"),
    ("3", "2,3", "1", "numpy", -1, "2,3"),
    ("2,3,4", "4", "3,1", "numpy", -1, "2,3,4"),
    ("5,3", "2,3", "3", "numpy", -1, None),
    ("?", "2,3", "3", "numpy", -1, "2,3"),
    ("...", "2,3", "3", "numpy", -1, "..."),
    ("1", "2,3", "2,3", "none", -1, None),
    ("2,3,4", "2,3,4", "4", "pdpd", -1, "2,3,4"),
    ("4", "2,3,4", "2,3,4", "pdpd", -1, "2,3,4"),
    ("2,1", "2,3", "2,3", "pdpd", -1, "2,3"),
    ("4", "2,3,4", "4", "pdpd", -1, "2,3,4"),    # §2.8 text: succeeds with axis -1
    # §6 I
    ("2,4", "2,4", "2,4", "none", -1, "2,4"),
    ("2,4", "2,4", "2,4", "numpy", -1, "2,4"),
    ("", "2,4", "2,4", "numpy", -1, "2,4"),
    ("", "4", "2,4", "numpy", -1, "2,4"),
    ("", "2,4", "4", "numpy", -1, "2,4"),
    ("4", "2,4", "4", "numpy", -1, "2,4"),
    ("4", "4", "2,4", "numpy", -1, "2,4"),
    ("2,4", "2,4", "2", "pdpd", 0, "2,4"),
    ("4", "4,2,3,8", "4,2,3,1", "pdpd", 0, "4,2,3,8"),
    ("4", "2,4", "4", "pdpd", 1, "2,4"),
    ("1", "2,4", "4", "pdpd", 1, "2,4"),
    ("2..8,3..7,1..10,1..6,1..10", "?,?,?,?,?", "1..5,1..11,5,1..8", "numpy", -1,
     "2..8,3..7,?,5,?"),
    ("2,?,?", "?,8,?", "?,?,3", "numpy", -1, "2,8,3"),
    ("2,?,?", "?,8,?", "3,?,3", "numpy", -1, None),   # intransitive incompatibility
    ("...", "2,4", "2,4", "none", -1, "2,4"),
    ("?", "?", "2,?", "numpy", -1, "2,?"),
    ("3,5", "2,4", "2,4", "numpy", -1, None),
    ("3,5", "2,4", "2,4", "none", -1, None),
]


@pytest.mark.parametrize("cond, then, else_, mode, axis, result", SELECT_CASES)
def test_select(cond, then, else_, mode, axis, result):
    if result is None:
        expect_error(bc.select, S(cond), S(then), S(else_), mode, axis)
    else:
        assert bc.select(S(cond), S(then), S(else_), mode, axis).shape == S(result)


@pytest.mark.parametrize("cond, then, else_, axis, which", [
    ("2,3,4", "4", "2,3,4", -1, "'Else'"),   # §2.8 table: else does not fit into then
    ("4", "2,3,4", "4", 0, "'Else'"),        # §2.8 text: pdpd without axis attribute (0)
    ("2,3,4,5", "2,3,4", "4", -1, "'Cond'"), # else fits, cond has a larger rank than then
])
def test_select_pdpd_names_the_failing_input(cond, then, else_, axis, which):
    err = expect_error(bc.select, S(cond), S(then), S(else_), "pdpd", axis)
    assert which in err.message


# ============================================================================================
# ov_semantics §2.9 and §6 J: FakeQuantize
# ============================================================================================

FQ_CASES = [
    # data, [il, ih, ol, oh], mode, axis, result (None = ERR)
    ("1,3,1,1", ["1,3,4,5", "", "", ""], "numpy", -1, "1,3,1,1"),  # output is input 0
    ("1,3,4,5", ["2,1,1,1", "", "", ""], "numpy", -1, "1,3,4,5"),
    ("1,3,4,5", ["4", "", "", ""], "numpy", -1, None),
    ("1,3,4,5", ["1,3,4,5,1", "", "", ""], "numpy", -1, None),
    ("1,3,4,5", ["3,1,1"] * 4, "pdpd", 0, None),          # axis missing -> 0
    ("1,3,4,5", ["3,1,1"] * 4, "pdpd", -1, "1,3,4,5"),
    ("1,3,4,5", ["3,1,1"] * 4, "pdpd", 1, "1,3,4,5"),
    ("1,2,3,4", ["", "", "", ""], "numpy", -1, "1,2,3,4"),
    ("1,2,3,4", ["3,1", "1,2,3,4", "4", ""], "numpy", -1, "1,2,3,4"),
    ("1,2,3,4", ["3", "", "", ""], "numpy", -1, None),
]


@pytest.mark.parametrize("data, ranges, mode, axis, result", FQ_CASES)
def test_fake_quantize(data, ranges, mode, axis, result):
    shapes = [S(data)] + [S(r) for r in ranges]
    if result is None:
        expect_error(bc.fake_quantize, shapes, mode, axis)
    else:
        assert bc.fake_quantize(shapes, mode, axis).shape == S(result)


def test_fake_quantize_ranges_must_be_mutually_broadcastable():
    # §2.9: the accumulator is cumulative, so il [3] and ih [4] conflict although each
    # broadcasts with data [1,1] on its own.
    for r in ("3", "4"):
        assert bc.numpy_merge(S("1,1"), S(r)).shape is not None
    expect_error(bc.fake_quantize, [S("1,1"), S("3"), S("4"), S(""), S("")], "numpy")


# ============================================================================================
# ov_semantics §3.2 / §3.3 and §6 K / L: Broadcast-1 / Broadcast-3
# ============================================================================================

def T(values):
    return bc.target_from_values(values)


def test_target_from_values_negatives():
    # §3.2: -1 becomes ?, other negatives become 0
    assert T([2, 3, -1]) == S("2,3,?")
    assert T([2, 3, -2]) == S("2,3,0")


# --- numpy mode -----------------------------------------------------------------------------

@pytest.mark.parametrize("data, target, target_len, result", [
    ("3,5", S("2,?,1..8"), 3, "2,?,1..8"),      # target = ShapeOf(x[2,?,1..8]); never refined
    ("3,1", T([2, 3, 6]), 3, "2,3,6"),          # §6 K
    ("16,1,1", T([1, 16, 50, 50]), 4, "1,16,50,50"),
    ("...", T([2, 3]), 2, "2,3"),               # dynamic data rank: output = T, no checks
    ("...", T([1]), 1, "1"),
    ("5,1", None, 3, "?,?,?"),                  # §3.2 step 4: static [N] target input
    ("5,1", None, None, "..."),                 # otherwise dynamic rank
    ("?,7", T([2, 3]), 2, None),                # 7 vs 3: both static, 7 != 1
    ("1..8,7", T([2, 7]), 2, "2,7"),            # interval dims are skipped
    ("4", T([1]), 1, None),                     # "... to 1. Allowed ... 1"
    ("4", T([0]), 1, None),                     # "... to 0. Allowed ... 1 or 0"
    ("1", T([0]), 1, "0"),
    ("1,4", T([3, 4]), 2, "3,4"),
    ("2,3,4", T([3, 4]), 2, None),              # target_shape has smaller rank
    ("5,2,3,1", T([1, 3, 6]), 3, None),         # §6 L: the default-ctor case in numpy mode
])
def test_broadcast_numpy(data, target, target_len, result):
    if result is None:
        expect_error(bc.broadcast_numpy, S(data), target, target_len)
    else:
        assert bc.broadcast_numpy(S(data), target, target_len).shape == S(result)


@pytest.mark.parametrize("data, values, column", [
    ("?,7", [2, 3], 1),
    ("4", [1], 0),
    ("4,1,1", [3, 5, 1, 1], 1),   # right-aligned: data axis 0 sits on output axis 1
])
def test_broadcast_numpy_error_column(data, values, column):
    expect_error(bc.broadcast_numpy, S(data), T(values), len(values), column=column)


# --- explicit mode --------------------------------------------------------------------------

@pytest.mark.parametrize("data, target, target_len, axes, axes_len, result", [
    ("3", T([2, 3, 4]), 3, [1], 1, "2,3,4"),
    ("1", T([2, 3, 4]), 3, [2], 1, "2,3,4"),
    ("", T([2, 3, 4]), 3, [], 0, "2,3,4"),
    ("?,4", T([2, 3, 4]), 3, [0, 2], 2, "2,3,4"),
    ("3,1", T([2, 3, 1]), 3, [1, 2], 2, "2,3,1"),            # §6 K
    ("16", T([1, 16, 50, 50]), 4, [1], 1, "1,16,50,50"),     # §6 K Concat of constants
    ("16", S("?,16,50,50"), 4, [1], 1, "?,16,50,50"),        # §6 K Concat with a Parameter
    ("5", S("?,?,?,?"), 4, [1], 1, "?,?,?,?"),               # T = ShapeOf(dyn(4))
    ("...", T([1, 2, 3]), 3, [0, 2, 1], 3, "1,2,3"),         # dyn data rank: no checks
    ("1..8", T([2, 3, 4]), 3, [1], 1, "2,3,4"),              # intervals: compatible
    ("3,4", T([2, 3, 4]), 3, [1, 1], 2, None),               # duplicates pass sort, then 4 vs 3
    ("3,2", T([2, 3, 3]), 3, [1, 2], 2, None),               # Expected 2. Got 3
    ("3,2", T([2, 3, 3]), 3, [1, 2, 3], 3, None),            # axes count != data rank
    ("3,2", T([2, 3, 3]), 3, [2, 1], 2, None),               # not sorted
    ("3,2", T([2, 3, 3]), 3, [1, 3], 2, None),               # 3 exceeds target rank 3
    ("3", None, 3, [1], 1, "?,?,?"),                         # unknown T, static [3] target input
    ("3", None, None, [1], 1, "..."),
    ("3,2", None, 3, [1], 1, None),                          # count check runs without T
])
def test_broadcast_explicit(data, target, target_len, axes, axes_len, result):
    if result is None:
        expect_error(bc.broadcast_explicit, S(data), target, target_len, axes, axes_len)
    else:
        out = bc.broadcast_explicit(S(data), target, target_len, axes, axes_len)
        assert out.shape == S(result)


@pytest.mark.parametrize("data, values, axes, column", [
    ("3,4", [2, 3, 4], [1, 1], 1),   # target[axes_mapping[1]] Expected 4. Got 3
    ("3,2", [2, 3, 3], [1, 2], 2),   # target[axes_mapping[1]] Expected 2. Got 3
])
def test_broadcast_explicit_error_column(data, values, axes, column):
    expect_error(bc.broadcast_explicit, S(data), T(values), len(values), axes, len(axes),
                 column=column)


def test_broadcast_explicit_scalar_data_counts_as_rank_one():
    # §3.3: a rank-0 data with a non-empty axes list counts as rank 1.
    out = bc.broadcast_explicit((), T([2, 1, 4]), 3, [1], 1)
    assert out.shape == S("2,1,4")
    expect_error(bc.broadcast_explicit, (), T([2, 1, 4]), 3, [0, 1], 2)


def test_broadcast_explicit_scalar_data_target_dim_must_be_compatible_with_1():
    # §3.3: "For scalar data, T[axes[0]] must be compatible with 1:
    #        Broadcast target[axes_mapping[0]]. Expected 1. Got 3"
    expect_error(bc.broadcast_explicit, (), T([2, 3, 4]), 3, [1], 1, column=1)


def test_broadcast_explicit_scalar_data_dynamic_target_dim_is_fine():
    # ? is compatible with 1
    assert bc.broadcast_explicit((), S("2,?,4"), 3, [1], 1).shape == S("2,?,4")


# --- bidirectional mode ---------------------------------------------------------------------

BIDIR_CASES = [
    # data, target, target_len, result (None = ERR), error column
    ("3,1", T([2, 1, 4]), 3, "2,3,4", None),
    ("2,3,4", T([4]), 1, "2,3,4", None),
    ("3,4", T([2, 1]), 2, None, 0),
    ("?,4", T([2, 1, 1]), 3, "2,?,4", None),
    ("1..8,1", T([10, 1]), 2, "10,1", None),
    ("2..8,1", T([10, 1]), 2, None, 0),
    ("5,1", None, 3, "?,5,?", None),                  # unknown T, static [3] target input
    ("5,1,2,3", None, 2, "5,1,2,3", None),            # rank = max(N, data rank)
    ("5,1", None, None, "...", None),
    ("1,3,1", T([3, 1, 3]), 3, "3,3,3", None),        # §6 L
    ("4,3,2", T([8, 6, 4]), 3, None, 0),              # Expecting either 1 or 4. Got 8
    ("1,1,2", T([2, 3]), 2, None, 2),                 # Expecting either 1 or 2. Got 3
    ("?,?,?,?", T([8, 6, 4]), 3, "?,8,6,4", None),
    ("?,?,?,?", T([8, 6, 1, 5, 1]), 5, "8,6,?,5,?", None),
    ("...", T([8, 6, 4]), 3, "...", None),
    ("...", None, 3, "...", None),
    ("...", None, None, "...", None),
    ("1,2,3,1", T([2, 2, 3, 2]), 4, "2,2,3,2", None),
    ("1,2,3,1", T([5, 2, 3, 7]), 4, "5,2,3,7", None),
    ("16,1,?", T([1, 1, 50, 50]), 4, "1,16,50,50", None),
    ("?,1,?", T([1, 1, 50, 50]), 4, "1,?,50,50", None),
    ("16,?,?", T([1, 1, 50, 50]), 4, "1,16,50,50", None),
    ("?,?,?", T([1, 1, 50, 50]), 4, "1,?,50,50", None),
    ("5,?", S("5,?"), 2, "5,?", None),                # T = ShapeOf(data)
    ("5,2,3,1", T([1, 3, 6]), 3, "5,2,3,6", None),
    ("?,2,1,4..8,?,4..8,?,1..8,1..10,4..18",
     S("?,2,3..9,1,3..9,?,1..9,?,3..19,1..10"), 10,
     "?,2,3..9,4..8,3..9,4..8,?,?,3..19,4..18", None),
]


@pytest.mark.parametrize("data, target, target_len, result, column", BIDIR_CASES)
def test_broadcast_bidirectional(data, target, target_len, result, column):
    if result is None:
        expect_error(bc.broadcast_bidirectional, S(data), target, target_len, column=column)
    else:
        assert bc.broadcast_bidirectional(S(data), target, target_len).shape == S(result)


# --- pdpd mode ------------------------------------------------------------------------------

PDPD_BROADCAST = [
    # data, target, target_len, axis, result (None = ERR), error column
    ("3,4,5", T([2, 3, 4]), 3, 1, "2,3,4", None),      # extra data dims silently ignored
    ("3", T([2, 3, 4]), 3, 1, None, 2),                # "Accessing out-of-range dimension"
    ("...", T([2, 3, 4]), 3, -1, "?,?,?", None),       # dynamic data rank -> dynamic(rank T)
    ("3,4", T([2, 3, 4]), 3, -1, "2,3,4", None),
    ("1,4", T([2, 3, 4]), 3, -1, "2,3,4", None),       # d == 1 -> T[i]
    ("5", T([2, 1]), 2, -1, "2,5", None),              # T[i] == 1 -> d
    ("3", T([2]), 1, -1, None, 0),                     # Expecting either 1 or 3 . Got 2
    ("2,3,4", T([3, 4]), 2, -1, None, "any"),          # start = -1 < 0
    ("?,4", T([2, 3, 4]), 3, -1, "2,3,4", None),       # merge(?, 3) = 3
    ("2..5,4", T([2, 3, 4]), 3, -1, "2,3,4", None),
    ("3", None, 4, -1, "?,?,?,?", None),
    ("3", None, None, -1, "...", None),
]


@pytest.mark.parametrize("data, target, target_len, axis, result, column", PDPD_BROADCAST)
def test_broadcast_pdpd(data, target, target_len, axis, result, column):
    if result is None:
        expect_error(bc.broadcast_pdpd, S(data), target, target_len, axis, column=column)
    else:
        assert bc.broadcast_pdpd(S(data), target, target_len, axis).shape == S(result)


# ============================================================================================
# ov_semantics §6: conformance cases A-G for elementwise ops
# ============================================================================================

ELTWISE_CONFORMANCE = [
    # A
    ("1,3,6", "3,1", "numpy", "1,3,6"),
    ("1,3,6", "2,3,6", "numpy", "2,3,6"),
    ("6", "2,3,6", "numpy", "2,3,6"),
    ("", "2,3,6", "numpy", "2,3,6"),
    ("2,3,6", "", "numpy", "2,3,6"),
    ("1,?,6", "3,1", "numpy", "1,3,6"),
    # B
    ("2,4", "4,2", "numpy", None),
    ("2,4", "4,2", "none", None),
    ("2,4", "1,2,4", "none", None),
    # C
    ("1,?,3", "1,2,?", "numpy", "1,2,3"),
    ("1,?,?", "1,2,?", "numpy", "1,2,?"),
    ("1,2,?", "1,3,3", "numpy", None),
    ("?,3,3", "1,2,?", "numpy", None),
    ("1,2,?", "1,2,3,4", "numpy", None),
    ("1,?,3,4", "1,2,?", "numpy", None),
    # D
    ("2,3..5,?,..5,6..", "2,3..4,8", "numpy", "2,3..5,2,3..4,8"),
    ("2,3..5,?,..5,6..", "2,3..4,8,2..5,10", "none", "2,3..4,8,2..5,10"),
    ("2,2..4,?,4..5,..6,1", "2,4..,5,4..", "numpy", "2,2..4,2,4..5,5,4.."),
    ("2,5,?,..5,6..", "2,4,8", "numpy", "2,5,2,4,8"),
    # E
    ("...", "...", "numpy", "..."),
    ("...", "...", "none", "..."),
    ("...", "...", "pdpd", "..."),
    ("3,4,1..5,?", "...", "numpy", "..."),
    ("...", "3,4,1..5,?", "numpy", "..."),
    ("...", "3,4,1..5,?", "none", "3,4,1..5,?"),
    ("3,4,1..5,?", "...", "none", "3,4,1..5,?"),
    # G (C++ ctor: axis -1)
    ("1,3,6", "1,1,1", "pdpd", "1,3,6"),
]


@pytest.mark.parametrize("a, b, mode, result", ELTWISE_CONFORMANCE)
def test_eltwise_conformance(a, b, mode, result):
    if result is None:
        expect_error(bc.eltwise, S(a), S(b), mode, -1)
    else:
        assert bc.eltwise(S(a), S(b), mode, -1).shape == S(result)
