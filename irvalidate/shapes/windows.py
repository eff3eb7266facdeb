"""Sliding-window arithmetic of the convolution and pooling layers, as OpenVINO computes it.

One spatial dim at a time, on intervals, with the runtime's integer semantics kept where they
show in a result (measured on 2026.4.1, the op notes):

* attribute lists of ``size_t`` (strides, dilations, kernels, pooling pads) wrap: ``-1`` is
  2^64-1, which turns into -1 when it meets a signed dim (:func:`i64`);
* an integer becomes a dim as ``ov::Dimension`` makes it (:func:`dimension`): -1 is no bound,
  other negative values are 0, and an upper bound below the lower one is the empty interval,
  which the runtime keeps as the static value 2^63-1;
* ``floor_div``/``ceil_div`` divide both bounds (C++ division, which truncates), an unbounded
  upper bound stays unbounded;
* ``padded`` adds a signed amount to both bounds; a bound that would go negative becomes
  "no bound" (``10 - 15`` is ``?``; ``2..5 - 3`` is ``..2``).

Nothing here knows about layers: :class:`WindowError` carries the runtime's reason for
refusing, in plain words, for the op to report.
"""
from __future__ import annotations

from . import arith, dims as _dims
from .dims import DYNAMIC, INF, ONE, Dim, format_dim

_U64 = 1 << 64
#: a size_t of all ones: what the unsigned helpers return for "no bound"
SIZE_MAX = _U64 - 1
#: the empty interval, as the runtime stores it (a static 2^63-1)
EMPTY = Dim(INF, INF)
ROUNDINGS = ("floor", "ceil", "ceil_torch")


class WindowError(Exception):
    """The runtime refuses this window; the message says why."""


def i64(value: int) -> int:
    """An integer as C++ reads it into int64 (two's complement wrap of a size_t)."""
    value %= _U64
    return value - _U64 if value >= 1 << 63 else value


def u64(value: int) -> int:
    """An integer as C++ reads it into size_t."""
    return value % _U64


def dimension(lo: int, hi: int) -> Dim:
    """``ov::Dimension(lo, hi)`` from int64 values: -1 is no bound (0 below, unbounded above),
    other values are clipped to [0, INF], and ``hi < lo`` is the empty interval."""
    lo = 0 if lo == -1 else lo
    hi = INF if hi == -1 else hi
    if hi < lo:
        return EMPTY
    return Dim(min(max(lo, 0), INF), min(max(hi, 0), INF))


def length(bound: int) -> int:
    """A bound as ``get_min_length``/``get_max_length`` give it: unbounded is -1."""
    return -1 if bound >= INF else bound


def tdiv(a: int, b: int) -> int:
    """C++ integer division (truncates towards zero); ``b`` is not 0."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _ceil(a: int, b: int) -> int:
    """``ov::util::ceil_div``: 0 stays 0, else ``1 + (a - 1) / b`` in C++ division."""
    return 0 if a == 0 else 1 + tdiv(a - 1, b)


def _divided(d: Dim, divisor: int, op) -> Dim:
    if d.is_static:
        value = op(d.lo, divisor)
        return dimension(value, value)
    if d.hi >= INF:
        return dimension(op(d.lo, divisor), -1)
    return dimension(op(d.lo, divisor), op(d.hi, divisor))


def floor_div(d: Dim, divisor: int) -> Dim:
    """``dim::floor_div`` by a (non-zero, signed) divisor."""
    if _dims.SYMBOLIC is not None and divisor > 0:
        return arith.floor_div(d, divisor)  # the same for a positive divisor, and symbolic
    return _divided(d, divisor, tdiv)


def ceil_div(d: Dim, divisor: int) -> Dim:
    """``dim::ceil_div`` by a (non-zero, signed) divisor."""
    if _dims.SYMBOLIC is not None and divisor > 0:
        return arith.ceil_div(d, divisor)
    return _divided(d, divisor, _ceil)


def padded_bound(bound: int, pad: int) -> int:
    """One bound (-1: none) plus a signed pad in int64 arithmetic; below 0 is no bound."""
    total = i64(bound + pad)
    return -1 if bound == -1 or total < 0 else total


def padded(d: Dim, pad: int) -> Dim:
    """``dim::padded``: ``pad`` (signed) added to both bounds; a bound below 0 is no bound
    (a static dim whose result is negative becomes ``?``)."""
    if pad == 0:
        return d
    hi = padded_bound(length(d.hi), pad)
    found = dimension(hi, hi) if d.is_static else dimension(padded_bound(d.lo, pad), hi)
    if _dims.SYMBOLIC is not None:
        return _dims.SYMBOLIC.padded(d, pad, found)
    return found


def add_int(d: Dim, value: int) -> Dim:
    """``Dimension + n`` for an int64 ``n`` (-1 adds ``?``, below that adds 0)."""
    return arith.add(d, arith.from_int(i64(value)))


def dilated(kernel: Dim, dilation: int) -> Dim:
    """A filter dim after dilation, in Dimension arithmetic: ``(k - 1) * d + 1``."""
    return arith.add(arith.mul(arith.sub(kernel, ONE), arith.from_int(i64(dilation))), ONE)


def dilated_size(kernel: int, dilation: int) -> int:
    """A pooling kernel after dilation, in size_t arithmetic (a kernel of 0 is SIZE_MAX)."""
    return SIZE_MAX if kernel < 1 else u64(dilation * (kernel - 1) + 1)


def same_padding(length: int, kernel: int, dilation: int, stride: int) -> tuple[int, int]:
    """``dim::padding``: the (smaller, larger) halves of the padding that makes
    ``ceil(length / stride)`` windows (int64 arithmetic)."""
    kernel, dilation, stride = i64(kernel), i64(dilation), i64(stride)
    window = -1 if kernel < 1 else i64(dilation * (kernel - 1) + 1)
    count = tdiv(i64(length + stride - 1), stride)
    total = max(0, i64((count - 1) * stride + window - length))
    small = tdiv(total, 2)
    return small, total - small


def _larger(window: int, padded_dim: Dim, axis: int) -> WindowError:
    return WindowError(f"the window ({window} after dilation) is larger than the padded data "
                       f"({format_dim(padded_dim)}) at spatial axis {axis}")


def conv_dim(data: Dim, kernel: Dim, stride: int, dilation: int, pad_sum: int, same: bool,
             axis: int) -> Dim:
    """One spatial output dim of a forward convolution.

    ``same`` (same_upper/same_lower): ``ceil(data / stride)``, the kernel unused.  Otherwise
    the data is padded by ``pad_sum`` (an int64 sum; -1 pads by ``?``), the window must fit
    when both are static, and ``floor((padded - window) / stride) + 1`` (a ``?`` data dim
    gives ``1..``)."""
    if same:
        return ceil_div(data, i64(stride))
    dim = add_int(data, pad_sum)
    window = dilated(kernel, dilation)
    if dim.is_static and window.is_static and window.lo > dim.lo:
        raise _larger(window.lo, dim, axis)
    if _dims.SYMBOLIC is not None:
        _dims.SYMBOLIC.window(dim, window)
    return arith.add(floor_div(arith.sub(dim, window), i64(stride)), ONE)


def pool_dim(data: Dim, kernel: int, stride: int, dilation: int, pads: tuple[int, int],
             rounding: str, auto_pad: str, axis: int, exclude_pad: bool = False) -> Dim:
    """One spatial output dim of MaxPool/AvgPool.

    ``pads`` are the explicit (begin, end) pads as size_t, used when ``auto_pad`` is
    explicit; valid pads nothing; same_upper/same_lower recompute them from a static data dim
    (the larger half at the end for same_upper, at the beginning for same_lower) and make an
    interval data dim ``?``.  ``exclude_pad`` (AvgPool) refuses a window that can lie
    entirely in the padding."""
    if auto_pad in ("same_upper", "same_lower"):
        if not data.is_static:
            return DYNAMIC  # the runtime cannot keep one padding per bound
        if _dims.SYMBOLIC is not None:  # ceil(data / stride) windows, whatever the size
            return arith.ceil_div(data, stride) if stride > 0 else DYNAMIC
        small, large = same_padding(data.lo, kernel, dilation, stride)
        pads = (small, large) if auto_pad == "same_upper" else (large, small)
    elif auto_pad == "valid":
        pads = (0, 0)
    begin, end = u64(pads[0]), u64(pads[1])
    dim = add_int(data, begin + end)
    window = dilated_size(kernel, dilation)
    if data.is_static:
        if not dim.is_static:  # a pad sum of -1 on a static dim: the runtime's own error
            raise WindowError(f"the pads at spatial axis {axis} add up to -1, which makes the "
                              f"padded data dynamic and the runtime fails (\"Cannot get length "
                              f"of dynamic dimension\")")
        if window == 0 or window > dim.lo:
            raise _larger(window, dim, axis)
        if exclude_pad and not (window > begin and window > end):
            raise WindowError(f"with exclude-pad, the window ({window} after dilation) must be "
                              f"larger than both pads at spatial axis {axis} (begin {begin}, end "
                              f"{end}, compared as unsigned), else it can lie entirely in the "
                              f"padding")
    if _dims.SYMBOLIC is not None:  # (checked at every static size, whatever the witness)
        _dims.SYMBOLIC.window(dim, Dim(window, window))
    dim = arith.sub(dim, arith.from_int(i64(window)))
    if rounding == "floor":
        return arith.add(floor_div(dim, i64(stride)), ONE)
    quotient = ceil_div(dim, i64(stride))
    if rounding == "ceil":
        return arith.add(quotient, ONE)
    if _dims.SYMBOLIC is not None:  # (ceil_torch's last window is not followed symbolically)
        from .symdims import depends_of, opaque
        return opaque(_torch(quotient, stride, data, begin), depends_of((data,)),
                      _dims.SYMBOLIC.cause)
    return _torch(quotient, stride, data, begin)


def _torch(quotient: Dim, stride: int, data: Dim, begin: int) -> Dim:
    """ceil_torch: the last window may not start in the end padding, per bound."""
    def align(count: int, length: int) -> int:
        last_start = u64(count * stride)
        if not last_start > u64(length + begin - 1) and count != -1:
            count += 1
        return count
    lo = align(length(quotient.lo), data.lo)
    if data.is_static:
        return dimension(lo, lo)
    hi = -1 if data.hi >= INF else align(length(quotient.hi), data.hi)
    return dimension(lo, hi)


def backprop_dim(data: Dim, kernel: Dim, stride: int, dilation: int, pad_delta: int) -> Dim:
    """One spatial output dim of a transposed convolution: ``(data - 1) * stride`` plus the
    dilated kernel, padded by ``output_padding - pads_begin - pads_end``."""
    dim = arith.mul(arith.sub(data, ONE), arith.from_int(i64(stride)))
    dim = arith.add(dim, dilated(kernel, dilation))
    return padded(dim, i64(pad_delta))
