"""DFT-7, IDFT-7, RDFT-9 and IRDFT-9: Fourier transforms over ``axes`` (one rule, four outputs).

A complex tensor is a real one with a trailing dim of 2 (real and imaginary parts): DFT, IDFT
and IRDFT take one (rank >= 2, last dim compatible with 2; their axes address the dims before
it, ``[-(r-1), r-2]``), RDFT takes a real one (rank >= 1, axes in ``[-r, r-1]``).  ``axes`` is
read const-only; without its values DFT/IDFT's output is its input when there is no
``signal_size``, and every transformed output dim is ``?`` otherwise (all but the last).

* DFT/IDFT: the output is the input, but for ``signal_size``, which is read by *bounds*
  (a ShapeOf subgraph gives intervals): element i replaces dim ``axes[i]``, except a pair
  (-1, -1), which keeps it; an unknown signal_size makes every axis ``?``.
* RDFT: the input plus a trailing 2; ``signal_size`` (const-only) replaces dims (-1 keeps
  one), then the *last listed* axis becomes ``n // 2 + 1``.
* IRDFT: the input without its trailing 2; ``signal_size`` (const-only) replaces dims, and
  the last listed axis becomes ``2 * (n - 1)`` unless its signal size is given.

A signal size below -1 is a dim of 0, as ``Dimension(-2)`` is.  The runtime reads
``axes.back()`` of an empty RDFT/IRDFT axes (a segfault, measured): refused here.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import arith
from ..shapes.dims import DYNAMIC, INF, Dim, Shape, compatible, format_dim, format_shape
from .support.input_types import INDEX_TYPES, require_type
from .support.node import Node
from .support.shaping import ints_text
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_NAMES = ("data", "axes", "signal_size")
_DATA_TYPES = ("f32", "f16", "bf16")
TWO = Dim(2, 2)


def _types(node: Node) -> None:
    et = node.inputs[0].element_type
    if elements.is_known(et) and et not in _DATA_TYPES:
        node.note(TYPE, f"data (input 0) must be f32, f16 or bf16, not {et}")
    for index in range(1, len(node.inputs)):
        require_type(node, index, _NAMES[index], INDEX_TYPES)


def _size_dim(lo: int, hi: int) -> Dim:
    """``Dimension(lo, hi)`` of a signal size's bounds: -1 as an upper bound is unbounded,
    other negative bounds are 0."""
    top = INF if hi in (-1, INF) else max(hi, 0)
    return Dim(max(lo, 0), top)


def _validate(node: Node, complex_input: bool) -> tuple[list[int] | None, Shape]:
    """The runtime's checks (fft_common_validation); the normalised axes when known."""
    data, axes_shape = node.inputs[0].shape, node.inputs[1].shape
    axes = node.exact_values(1)
    if data is not None:
        rank = len(data)
        least = 2 if complex_input else 1
        if rank < least:
            raise OpError(INCOMPATIBLE, f"data {format_shape(data)} has rank {rank}; it must "
                                        f"have rank {least} or more")
        if complex_input and not compatible(data[-1], TWO):
            raise OpError(INCOMPATIBLE, f"the last dim of data {format_shape(data)} is "
                                        f"{format_dim(data[-1])}: it must be 2 (the real and "
                                        f"imaginary parts)")
        if axes_shape is not None and all(d.is_static for d in axes_shape):
            if not axes_shape:
                # the runtime reads the first dim of the scalar's shape: "out-of-range"
                raise OpError(INCOMPATIBLE, "axes (input 1) must be a 1-D tensor, not a scalar")
            count, most = axes_shape[0].lo, rank - 1 if complex_input else rank
            if count > most:
                raise OpError(INCOMPATIBLE, f"axes holds {count} values, more than the {most} "
                                            f"transformable dims of data {format_shape(data)}")
        if axes is not None:
            axes = _normalised(axes, rank - 1 if complex_input else rank)
    if axes_shape is not None and len(axes_shape) != 1:
        raise OpError(INCOMPATIBLE, f"axes (input 1) must be a 1-D tensor, but has shape "
                                    f"{format_shape(axes_shape)}")
    if len(node.inputs) == 3:
        sizes = node.inputs[2].shape
        if sizes is not None and len(sizes) != 1:
            raise OpError(INCOMPATIBLE, f"signal_size (input 2) must be a 1-D tensor, but has "
                                        f"shape {format_shape(sizes)}")
        if sizes is not None and axes_shape is not None and sizes[0].is_static and \
                axes_shape[0].is_static and sizes[0] != axes_shape[0]:
            raise OpError(INCOMPATIBLE, f"signal_size holds {sizes[0].lo} values and axes "
                                        f"{axes_shape[0].lo}: they must be as many")
    return axes, data


def _normalised(axes: list[int], dims: int) -> list[int]:
    out = []
    for a in axes:
        b = arith.normalize_axis(a, dims)
        if b is None:
            raise OpError(INCOMPATIBLE, f"axes value {a} is out of the range [{-dims}, "
                                        f"{dims - 1}] of the {dims} transformable dims")
        out.append(b)
    if len(set(out)) != len(out):
        raise OpError(INCOMPATIBLE, f"axes {ints_text(axes)} repeat an axis")
    return out


def _apply_sizes(node: Node, axes: list[int], out: list[Dim]) -> list[int] | None:
    """RDFT/IRDFT: their last listed axis (refused when there is none), then signal_size
    (const-only) written over ``out`` (-1 keeps a dim); None when it is unknown, and the last
    axis is then ``?``."""
    if not axes:
        raise OpError(INCOMPATIBLE, "axes is empty: the runtime reads its last value past its "
                                    "end (undefined behaviour; it crashes)")
    if len(node.inputs) == 2:
        return []
    found = node.exact_values(2)
    if found is None:
        out[axes[-1]] = DYNAMIC
        return None
    if len(found) < len(axes):  # (only a computed value could)
        raise OpError(INCOMPATIBLE, f"signal_size holds {len(found)} values for {len(axes)} "
                                    f"axes: the runtime would read past its end")
    for a, size in zip(axes, found):
        if size != -1:
            out[a] = arith.from_int(size)
    return found


def _complex(node: Node) -> Result:
    """DFT and IDFT."""
    axes, data = _validate(node, True)
    et = node.inputs[0].element_type
    if data is None or len(node.inputs) == 2:
        return Result((data,), (et,))
    out = list(data)
    if axes is None:
        out[:-1] = [DYNAMIC] * (len(data) - 1)
        return Result((tuple(out),), (et,))
    bounds = node.input_bounds(2)
    if bounds is None:
        for a in axes:
            out[a] = DYNAMIC
        return Result((tuple(out),), (et,))
    if len(bounds) < len(axes):
        raise OpError(INCOMPATIBLE, f"signal_size holds {len(bounds)} values for {len(axes)} "
                                    f"axes: the runtime would read past its end")
    for a, b in zip(axes, bounds):
        if (b.lo, b.hi) != (-1, -1):
            out[a] = _size_dim(b.lo, b.hi)
    return Result((tuple(out),), (et,))


def _half(d: Dim) -> Dim:
    """RDFT's length along the last axis: ``n // 2 + 1`` on each bound (0 stays 0, an
    unbounded upper bound stays unbounded)."""
    def bound(b: int) -> int:
        return b // 2 + 1 if b > 0 else b
    return Dim(bound(d.lo), INF if d.hi == INF else bound(d.hi))


def _real(node: Node) -> Result:
    """RDFT: real input, complex output (a trailing 2)."""
    axes, data = _validate(node, False)
    et = node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    out = list(data) + [TWO]
    if axes is None:
        out[:-1] = [DYNAMIC] * len(data)
        return Result((tuple(out),), (et,))
    if _apply_sizes(node, axes, out) is not None:
        out[axes[-1]] = _half(out[axes[-1]])
    return Result((tuple(out),), (et,))


def _inverse_real(node: Node) -> Result:
    """IRDFT: complex input, real output."""
    axes, data = _validate(node, True)
    et = node.inputs[0].element_type
    if data is None:
        return Result((None,), (et,))
    out = list(data[:-1])
    if axes is None:
        return Result(((DYNAMIC,) * len(out),), (et,))
    sizes = _apply_sizes(node, axes, out)
    if sizes is not None and (not sizes or sizes[-1] == -1):  # no signal size for the last axis
        last = axes[-1]
        out[last] = arith.mul(TWO, arith.sub(data[last], Dim(1, 1)))
    return Result((tuple(out),), (et,))


_RULES = {"dft": (_complex, "discrete Fourier transform"),
          "idft": (_complex, "inverse discrete Fourier transform"),
          "rdft": (_real, "real-input Fourier transform (the last listed axis halved, "
                          "a trailing 2 added)"),
          "irdft": (_inverse_real, "inverse real Fourier transform (the trailing 2 dropped, "
                                   "the last listed axis 2 * (n - 1))")}


def _infer(node: Node) -> Result:
    rule, how = _RULES[node.layer.type.lower()]
    node.require_inputs((2, 3))
    node.show(_NAMES[:len(node.inputs)])
    node.how = how
    _types(node)
    return rule(node)


SPECS = {
    "dft": (OpSpec("DFT", (7, 16), frozenset(), dim_inputs=(2,), value_inputs=(1,), infer=_infer),),
    "idft": (OpSpec("IDFT", (7, 16), frozenset(),
                    dim_inputs=(2,), value_inputs=(1,), infer=_infer),),
    "rdft": (OpSpec("RDFT", (9, 16), frozenset(),
                    dim_inputs=(2,), value_inputs=(1,), infer=_infer),),
    "irdft": (OpSpec("IRDFT", (9, 16), frozenset(),
                     dim_inputs=(2,), value_inputs=(1,), infer=_infer),),
}
