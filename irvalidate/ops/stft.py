"""STFT-15 and ISTFT-16: short-time Fourier transforms by frames of ``frame_size`` samples,
``frame_step`` apart (both scalars, read const-only).

* STFT: ``signal [S]`` or ``[B, S]`` gives ``[frames, fs // 2 + 1, 2]`` (``transpose_frames``
  swaps the two), B first for a 2-D signal; ``frames = (S - fs) // step + 1`` on intervals
  (``S - fs`` clipped at 0, each bound floored).  Unknown frame values give ``?`` for both.
  The frame size must lie in ``[1, S]``, against S's upper bound when S is not static.
* ISTFT: ``data [F, T, 2]`` or ``[B, F, T, 2]`` gives ``[L]`` or ``[B, L]``: the optional
  ``signal_length`` (a scalar or one element, read as a shape: a ShapeOf subgraph gives
  an interval, -1 is ``?``, other negative values 0), else ``(T - 1) * step + fs``, minus
  ``fs`` with its lowest bit cleared when ``center``; ``?`` without the frame values.  When
  every data dim is static, F must be ``fs // 2 + 1``.  The trailing 2 is not checked.

A window whose length is static must lie in ``[1, fs]``; the window type must be the
signal's (a dynamic one passes).
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import arith
from ..shapes.broadcasting import target_from_values
from ..shapes.dims import DYNAMIC, Dim, compatible, format_dim, format_shape, static
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_STFT = (Field("transpose_frames", "bool", False),)
_ISTFT = (Field("center", "bool", False), Field("normalized", "bool", False))


def _types(node: Node, data: str) -> str | None:
    """The data/signal type (floating-point), the window's (the same), the others' (i32, i64);
    the output type, which a dynamic data type takes from the window."""
    et, window = node.inputs[0].element_type, node.inputs[1].element_type
    if elements.is_known(et) and et not in elements.REAL:
        node.note(TYPE, f"{data} (input 0) must be floating-point, not {et}")
    if elements.is_known(window):
        if window not in elements.REAL or (elements.is_known(et) and window != et):
            node.note(TYPE, f"window (input 1) is {window}: it must be floating-point, the type "
                            f"of {data} ({et})")
        elif not elements.is_known(et):
            et = window
    for index in range(2, len(node.inputs)):
        found = node.inputs[index].element_type
        if elements.is_known(found) and found not in ("i32", "i64"):
            node.note(TYPE, f"input {index} must be i32 or i64, not {found}")
    return et


def _ranks(node: Node, data: str, ranks: tuple) -> None:
    """The rank checks every version makes, in the runtime's order."""
    checks = ((0, ranks, f"{data} must have rank {' or '.join(map(str, ranks))}"),
              (1, (1,), "window must be 1-D [window_size]"),
              (2, (0,), "frame_size must be a scalar"), (3, (0,), "frame_step must be a scalar"))
    for index, allowed, words in checks:
        shape = node.inputs[index].shape
        if shape is not None and len(shape) not in allowed:
            raise OpError(INCOMPATIBLE, f"{words}, but has shape {format_shape(shape)}")


def _scalar(node: Node, index: int) -> int | None:
    found = node.exact_values(index)
    return found[0] if found else None


def _window(node: Node, size: int) -> None:
    window = node.inputs[1].shape
    if window is not None and window[0].is_static and not 0 < window[0].lo <= size:
        raise OpError(INCOMPATIBLE, f"the window length {window[0].lo} must lie in [1, {size}] "
                                    f"(frame_size)")


def _stft(node: Node) -> Result:
    node.require_inputs((4,))
    node.show(("signal", "window", "frame_size", "frame_step"))
    (transpose,) = read(node, "STFT", _STFT)
    node.how = "short-time Fourier transform" + (" (frames transposed)" if transpose else "")
    et = _types(node, "signal")
    _ranks(node, "signal", (1, 2))
    signal = node.inputs[0].shape
    if signal is None:
        return Result((None,), (et,))
    batch = signal[:-1]
    size, step = _scalar(node, 2), _scalar(node, 3)
    if size is None or step is None:
        return Result((batch + (DYNAMIC, DYNAMIC, static(2)),), (et,))
    length = signal[-1]
    if not 0 < size <= length.hi:
        raise OpError(INCOMPATIBLE, f"frame_size {size} must lie in [1, {format_dim(length)}] "
                                    f"(the signal length)")
    if step <= 0:
        raise OpError(INCOMPATIBLE, f"frame_step {step} must be greater than zero")
    _window(node, size)
    frames = arith.add(arith.floor_div(arith.sub(length, static(size)), step), static(1))
    samples = static(size // 2 + 1)
    pair = (samples, frames) if transpose else (frames, samples)
    return Result((batch + pair + (static(2),),), (et,))


def _signal_length(node: Node) -> Dim:
    """The 5th input, read as a shape: a Const's first value, or what a subgraph bounds."""
    shape = node.inputs[4].shape
    if shape is not None and not (len(shape) == 0 or (len(shape) == 1 and compatible(shape[0], static(1)))):
        raise OpError(INCOMPATIBLE, f"signal_length (input 4) must be a scalar or hold one value, "
                                    f"but has shape {format_shape(shape)}")
    values = node.const_ints(4)
    if values is not None:
        return target_from_values(values[:1])[0] if values else DYNAMIC
    computed = node.computed_as_shape(4, "signal_length", rank=(0, 1))
    return computed[0] if computed else DYNAMIC


def _istft(node: Node) -> Result:
    node.require_inputs((4, 5))
    node.show(("data", "window", "frame_size", "frame_step", "signal_length")[:len(node.inputs)])
    center, _ = read(node, "ISTFT", _ISTFT)
    node.how = "inverse short-time Fourier transform" + (" (centred)" if center else "")
    et = _types(node, "data")
    _ranks(node, "data", (3, 4))
    data = node.inputs[0].shape
    size, step = _scalar(node, 2), _scalar(node, 3)
    if size is not None:
        if size <= 0:
            raise OpError(INCOMPATIBLE, f"frame_size {size} must be greater than zero")
        _window(node, size)
        if data is not None and all(d.is_static for d in data) and data[-3].lo != size // 2 + 1:
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has {data[-3].lo} frequency "
                                        f"bins (dim -3) where frame_size {size} gives "
                                        f"{size // 2 + 1} (frame_size // 2 + 1)")
    if step is not None and step <= 0:
        raise OpError(INCOMPATIBLE, f"frame_step {step} must be greater than zero")
    if data is None:
        return Result((None,), (et,))
    out: list[Dim] = list(data[:-3])  # the batch of 4-D data
    if len(node.inputs) == 5:
        out.append(_signal_length(node))
    elif size is not None and step is not None:
        frames = data[-2]
        length = arith.add(arith.mul(arith.sub(frames, static(1)), static(step)), static(size))
        out.append(arith.sub(length, static(size & ~1)) if center else length)
    else:
        out.append(DYNAMIC)
    return Result((tuple(out),), (et,))


SPECS = {
    "stft": (OpSpec("STFT", (15, 16), fields=_STFT, dim_inputs=(2, 3), infer=_stft),),
    "istft": (OpSpec("ISTFT", (16, 16), fields=_ISTFT, dim_inputs=(2, 3, 4), infer=_istft),),
}
