"""The convolution/pooling window maths (shapes/windows.py) against reference formulas.

Static dims must give exactly the textbook output sizes (PyTorch's for ceil_torch); interval
dims must contain the result of every static value inside them, with the bounds the
runtime's interval arithmetic gives (the per-op tests compare those with read_model)."""
import pytest
from hypothesis import given, settings, strategies as st

from irvalidate.shapes import windows as win
from irvalidate.shapes.dims import DYNAMIC, INF, Dim

small = st.integers(1, 40)
kernel = st.integers(1, 7)
stride = st.integers(1, 5)
dilation = st.integers(1, 4)
pad = st.integers(0, 6)


def S(n):
    return Dim(n, n)


def window(k, d):
    return (k - 1) * d + 1


@given(small, kernel, stride, dilation, pad, pad)
def test_conv_static_is_the_textbook_size(size, k, s, d, pb, pe):
    padded = size + pb + pe
    if window(k, d) > padded:
        with pytest.raises(win.WindowError):
            win.conv_dim(S(size), S(k), s, d, pb + pe, False, 0)
    else:
        assert win.conv_dim(S(size), S(k), s, d, pb + pe, False, 0) == S((padded - window(k, d)) // s + 1)


@given(small, small, kernel, stride, dilation, pad)
@settings(max_examples=200)
def test_conv_interval_contains_every_value_and_has_the_runtime_bounds(a, b, k, s, d, p):
    lo, hi = min(a, b), max(a, b) + 1  # an interval: only static dims are checked
    out = win.conv_dim(Dim(lo, hi), S(k), s, d, p, False, 0)
    for size in range(lo, hi + 1):
        if size + p >= window(k, d):
            assert out.contains((size + p - window(k, d)) // s + 1)
    # a window larger than the smaller sizes saturates at 0 windows, then + 1
    assert out.lo == max(0, lo + p - window(k, d)) // s + 1
    assert out.hi == max(0, hi + p - window(k, d)) // s + 1


@given(small, stride)
def test_same_padding_gives_ceil_of_size_over_stride(size, s):
    assert win.conv_dim(S(size), S(3), s, 1, 0, True, 0) == S(-(-size // s))
    assert win.conv_dim(Dim(size, INF), DYNAMIC, s, 1, 0, True, 0) == Dim(-(-size // s), INF)


@pytest.mark.parametrize("pads,out", [(-1, Dim(8, INF)), (-2, S(8)), (-7, S(8)), (0, S(8)), (2, S(10))])
def test_a_pad_sum_becomes_a_dim_first(pads, out):
    # -1 pads by `?`, anything below is 0: measured on Convolution
    assert win.conv_dim(S(10), S(3), 1, 1, pads, False, 0) == out


def test_a_dynamic_spatial_dim_gives_at_least_one_window():
    assert win.conv_dim(DYNAMIC, S(3), 2, 1, 0, False, 0) == Dim(1, INF)
    assert win.conv_dim(Dim(1, 2), S(3), 1, 1, 0, False, 0) == S(1)


def test_huge_unsigned_strides_wrap_as_the_runtime_reads_them():
    assert win.conv_dim(S(10), S(3), (1 << 64) - 1, 1, 0, False, 0) == S(1)  # 7 / -1 -> 0, + 1
    assert win.conv_dim(S(10), S(3), 1, (1 << 64) - 1, 0, False, 0) == Dim(1, 10)  # dilation `?`


def torch_pool(size, k, s, d, pb, pe):
    """PyTorch's ceil_mode output size (the last window may not start in the end padding)."""
    out = -(-(size + pb + pe - window(k, d)) // s) + 1
    if (out - 1) * s >= size + pb:
        out -= 1
    return out


@given(small, kernel, stride, dilation, pad, pad, st.sampled_from(win.ROUNDINGS))
@settings(max_examples=300)
def test_pool_static_matches_the_reference(size, k, s, d, pb, pe, rounding):
    padded = size + pb + pe
    if window(k, d) > padded:
        with pytest.raises(win.WindowError):
            win.pool_dim(S(size), k, s, d, (pb, pe), rounding, "explicit", 0)
        return
    got = win.pool_dim(S(size), k, s, d, (pb, pe), rounding, "explicit", 0)
    span = padded - window(k, d)
    want = {"floor": span // s + 1, "ceil": -(-span // s) + 1,
            "ceil_torch": torch_pool(size, k, s, d, pb, pe)}[rounding]
    assert got == S(want)


@given(small, small, kernel, stride, pad, pad, st.sampled_from(win.ROUNDINGS))
@settings(max_examples=200)
def test_pool_interval_contains_every_value(a, b, k, s, pb, pe, rounding):
    lo, hi = min(a, b), max(a, b) + 1
    out = win.pool_dim(Dim(lo, hi), k, s, 1, (pb, pe), rounding, "explicit", 0)
    for size in range(lo, hi + 1):
        if size + pb + pe >= k:
            assert out.contains(win.pool_dim(S(size), k, s, 1, (pb, pe), rounding, "explicit", 0).lo)


@given(small, kernel, stride, dilation, st.sampled_from(("same_upper", "same_lower")))
def test_pool_same_padding_splits_the_total(size, k, s, d, mode):
    small_, large = win.same_padding(size, k, d, s)
    assert 0 <= large - small_ <= 1
    total = small_ + large
    assert total == max(0, (-(-size // s) - 1) * s + window(k, d) - size)
    assert win.pool_dim(S(size), k, s, d, (0, 0), "floor", mode, 0) == S(-(-size // s))
    assert win.pool_dim(Dim(size, size + 1), k, s, d, (0, 0), "floor", mode, 0) == DYNAMIC


def test_exclude_pad_refuses_a_window_inside_the_padding():
    with pytest.raises(win.WindowError):
        win.pool_dim(S(10), 3, 1, 1, (3, 0), "floor", "explicit", 0, exclude_pad=True)
    assert win.pool_dim(S(10), 3, 1, 1, (3, 0), "floor", "explicit", 0) == S(11)
    with pytest.raises(win.WindowError):  # a negative pad is huge as size_t
        win.pool_dim(S(10), 3, 1, 1, (-5 % (1 << 64), 0), "floor", "explicit", 0, exclude_pad=True)


def test_a_pool_pad_sum_of_minus_one_is_the_runtime_error_on_a_static_dim():
    with pytest.raises(win.WindowError):
        win.pool_dim(S(10), 3, 1, 1, ((1 << 64) - 1, 0), "floor", "explicit", 0)
    assert win.pool_dim(DYNAMIC, 3, 1, 1, ((1 << 64) - 1, 0), "floor", "explicit", 0) == Dim(1, INF)


@given(small, kernel, stride, dilation, pad, pad, pad)
def test_backprop_static_is_the_transposed_size(size, k, s, d, pb, pe, op):
    want = (size - 1) * s + window(k, d) + op - pb - pe
    got = win.backprop_dim(S(size), S(k), s, d, op - pb - pe)
    assert got == (S(want) if want >= 0 else DYNAMIC)


@given(small, small, pad, st.integers(-10, 10))
def test_padded_moves_both_bounds_and_loses_a_negative_one(a, b, c, p):
    lo, hi = min(a, b), max(a, b) + c
    got = win.padded(Dim(lo, hi), p)
    if p == 0:
        assert got == Dim(lo, hi)
    elif lo == hi:
        assert got == (S(lo + p) if lo + p >= 0 else DYNAMIC)
    else:
        assert got == Dim(max(lo + p, 0), hi + p if hi + p >= 0 else INF)


def test_the_cpp_conversions():
    assert win.i64((1 << 64) - 1) == -1 and win.i64(5) == 5 and win.u64(-1) == (1 << 64) - 1
    assert win.dimension(-1, -1) == DYNAMIC and win.dimension(-5, 3) == Dim(0, 3)
    assert win.dimension(5, 3) == win.EMPTY and win.dimension(2, -1) == Dim(2, INF)
    assert win.tdiv(-7, 2) == -3 and win.tdiv(7, -2) == -3
    assert win.floor_div(Dim(3, INF), 2) == Dim(1, INF) and win.ceil_div(Dim(3, 9), 2) == Dim(2, 5)
