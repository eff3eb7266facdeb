"""Interval arithmetic as OpenVINO's Dimension does it (the rules measured in the op notes),
and the attribute reader every op uses."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from irvalidate.ops.support.attributes import Field, read
from irvalidate.ops.support.spec import OpError
from irvalidate.shapes import arith
from irvalidate.shapes.dims import DYNAMIC, INF, Dim

D = lambda lo, hi=None: Dim(lo, lo if hi is None else hi)  # noqa: E731


@pytest.mark.parametrize("a,b,out", [
    (D(10, 20), D(3), D(7, 17)), (DYNAMIC, D(3), DYNAMIC), (D(1, 2), D(3), D(0)),
    (D(5, INF), D(2, 3), D(2, INF)),
])
def test_sub_saturates_at_zero_and_keeps_inf(a, b, out):
    assert arith.sub(a, b) == out


@pytest.mark.parametrize("n,out", [(3, D(3)), (0, D(0)), (-1, DYNAMIC), (-2, D(0)), (-9, D(0))])
def test_an_integer_becomes_a_dim_as_the_runtime_makes_it(n, out):
    assert arith.from_int(n) == out


@pytest.mark.parametrize("a,n,out", [(D(7), 2, None), (D(8), 2, D(4)), (DYNAMIC, 3, DYNAMIC),
                                     (D(3, 9), 2, D(2, 4)), (D(5, INF), 2, D(3, 1 << 62)),
                                     (D(5, INF), 1, D(5, INF)), (D(7), 1, D(7)), (D(4, 8), 3, D(2)),
                                     (D(3, INF), 2, D(2, 4611686018427387904)),
                                     (D(6, INF), 3, D(2, 3074457345618258432))])
def test_divide_keeps_the_multiples(a, n, out):
    """Also measured through NV12toRGB/BGRtoNV12: an unbounded upper bound is divided as a
    double."""
    assert arith.divide(a, n) == out


bounds = st.integers(0, 50)


@given(bounds, bounds, bounds, bounds)
def test_add_and_mul_contain_every_pointwise_result(a, b, c, d):
    x, y = Dim(min(a, b), max(a, b)), Dim(min(c, d), max(c, d))
    for p in range(x.lo, x.hi + 1):
        for q in range(y.lo, y.hi + 1):
            assert arith.add(x, y).contains(p + q) and arith.mul(x, y).contains(p * q)


@given(bounds, bounds, st.integers(1, 7))
def test_floor_and_ceil_div_bound_every_quotient(a, b, n):
    x = Dim(min(a, b), max(a, b))
    for p in range(x.lo, x.hi + 1):
        assert arith.floor_div(x, n).contains(p // n) and arith.ceil_div(x, n).contains(-(-p // n))


def test_axes_normalise_or_refuse():
    assert arith.normalize_axis(-1, 3) == 2 and arith.normalize_axis(2, 3) == 2
    assert arith.normalize_axis(3, 3) is None and arith.normalize_axis(-4, 3) is None


FIELDS = (Field("strides", "uints", ()), Field("auto_pad", "enum", "explicit",
                                                ("explicit", "same_upper", "same_lower", "valid")),
          Field("keep_dims", "bool", False), Field("alpha", "float", 0.0), Field("axis", "int", 0))


def test_attributes_parse_as_the_reader_parses_them():
    values = read({"strides": " 2, 2 ", "auto_pad": "SAME_UPPER", "keep_dims": "yes",
                   "alpha": "0.5x", "axis": "1.5"}, "Test", FIELDS)
    # unsigned -1 wraps, "yes" keeps the bool's default, floats and ints parse a prefix
    assert values == ((2, 2), "same_upper", False, 0.5, 1)
    assert read({"strides": "-1"}, "Test", FIELDS)[0] == ((1 << 64) - 1,)
    assert read({}, "Test", FIELDS) == ((), "explicit", False, 0.0, 0)
    assert read({"auto_pad": "explicit"}, "Test", FIELDS)[1] == "explicit"  # not read as none


def test_bad_attributes_are_one_error_naming_each():
    with pytest.raises(OpError) as err:
        read({"auto_pad": "bogus", "strides": "a"}, "Test", FIELDS)
    assert err.value.problem.kind == "attribute"
    assert "attribute strides: cannot parse 'a' as an integer" in str(err.value)
    assert "attribute auto_pad: 'bogus' is not one of: explicit, same_upper" in str(err.value)


@given(st.floats(allow_nan=False, width=64))
def test_f32_rounds_as_a_cpp_float_does(x):
    # numpy's float32 conversion is C's (round to nearest even, past the largest float32 inf)
    with np.errstate(over="ignore"):
        assert arith.f32(x) == float(np.float32(x))


@pytest.mark.parametrize("x", [1e39, -1e39, 3.4028236e38])
def test_f32_past_the_largest_float32_is_infinite_not_an_error(x):
    assert arith.f32(x) == (float("inf") if x > 0 else float("-inf"))
