"""Reshape-1: the input's elements in the shape the pattern (input 1) gives.

Shape (reshape_shape_inference, 2026.4): the pattern is read by bounds (a Const's values, or
one interval per element of a shape subgraph).  An element bounded (-1, -1) is the one ``-1``;
(-1, k) reads as ``..k``; a pair with one negative bound is ``?``.  With ``special_zero`` a
static 0 copies the input dim at that position.  The ``-1`` dim is what the input product
leaves once the static dims equal on both sides have cancelled, divided as intervals (upper
bound by the output's minimum, lower bound rounded up by its maximum).  The element count is
checked only when input and output are fully static and there is neither a ``-1`` nor a
special zero.  Without pattern values: ``[?]*n`` for a static length n, else dynamic rank.
Value: evaluated (special_zero copies the input's dim, one -1 takes what is left).
"""
from __future__ import annotations

import math

from ..shapes import arith, dims as shape_dims, values as vals
from ..shapes.dims import DYNAMIC, INF, Dim, Shape, format_shape
from ..shapes.values import Tensor
from .support.attributes import Field, read
from .support.evaluating import bool_attr, origin, tensors
from .support.input_types import require_type
from .support.node import Node
from .support.spec import DIVERGENCE, INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("special_zero", "bool", False),)
ONE = Dim(1, 1)


def _pattern(bounds: list[Dim]) -> tuple[list[Dim], int | None]:
    """Each pattern element as a dim, and where the -1 is."""
    out, minus_one = [], None
    for i, bound in enumerate(bounds):
        lo, hi = bound
        if (lo, hi) == (-1, -1):
            if minus_one is not None:
                raise OpError(INCOMPATIBLE, f"the pattern has more than one -1 (elements "
                                            f"{minus_one} and {i})")
            minus_one = i
        if lo >= 0 and hi >= 0:  # (the bound itself: a size read from a symbolic dim)
            out.append(bound)
        elif lo > -1 or (lo == -1 and hi >= -1):
            out.append(Dim(max(lo, 0), INF if hi < 0 else hi))
        elif (lo < 0) != (hi < 0):
            out.append(DYNAMIC)
        else:
            raise OpError(INCOMPATIBLE, f"pattern element {i} is {lo}"
                                        f"{'' if lo == hi else f'..{hi}'}: OpenVINO refuses a "
                                        f"negative size other than -1")
    return out, minus_one


class _Product:
    """The static and the dynamic parts of the input and output element counts."""

    def __init__(self) -> None:
        self.ins: list[Dim] = []
        self.outs: list[Dim] = []
        self.infinite = False

    def solve(self) -> tuple[int, int, Dim, Dim]:
        outs = list(self.outs)
        s_in, d_in, s_out, d_out = 1, ONE, 1, ONE
        for d in self.ins:
            # a static dim equal on both sides cancels (a zero never does)
            if d.is_static and d.lo != 0 and d in outs:
                outs.remove(d)
            elif d.is_static:
                s_in *= d.lo
            else:
                d_in = arith.mul(d_in, d)
        for d in outs:
            if d.is_static:
                s_out *= d.lo
            else:
                d_out = arith.mul(d_out, d)
        if self.infinite:
            d_in, d_out = DYNAMIC, DYNAMIC
        if s_in != s_out:
            d_in, d_out = arith.scale(d_in, s_in), arith.scale(d_out, s_out)
        return s_in, s_out, d_in, d_out


def _minus_one(m: Dim, q: Dim) -> Dim | None:
    """The -1 dim: ``m`` (what the input leaves) over ``q`` (the other output dims)."""
    if m.is_static and q.is_static:
        return arith.divide(m, q.lo) if q.lo else None
    hi = m.hi // q.lo if m.hi != INF and q.lo != 0 and q != DYNAMIC else INF
    lo = m.lo
    if q.hi != 0:
        lo = 0 if m.lo == 0 else (1 if q.hi == INF else 1 + (m.lo - 1) // q.hi)
    # bounds set one at a time are not checked: [2..6] over 16 is the empty "1..0", which the
    # runtime prints and passes on (only a static quotient is checked)
    return Dim(lo, hi)


def _infer(node: Node) -> Result:
    node.require_inputs((2,))
    (special_zero,) = read(node, "Reshape", _FIELDS)
    node.show(["data", "pattern"])
    node.how = "reshape to the pattern"
    data, pattern = node.inputs
    require_type(node, 1, "pattern")
    if pattern.shape is not None and len(pattern.shape) != 1:
        raise OpError(INCOMPATIBLE, f"the pattern (input 1) must be a 1-D tensor, but has shape "
                                    f"{format_shape(pattern.shape)}")
    length = node.one_d_length(1, "the pattern (input 1)")
    bounds = node.input_bounds(1)
    if bounds is None or (length is not None and len(bounds) != length):
        if length is None:
            return Result((None,), (data.element_type,))
        return Result(((DYNAMIC,) * length,), (data.element_type,))
    dims, minus_one = _pattern(bounds)
    out = _reshape(data.shape, dims, minus_one, special_zero)
    counts = [_elements(data.shape), _elements(out)]
    if None not in counts and counts[0] != counts[1]:
        # only reachable with special_zero's 0s or a -1: the runtime skips the count there
        node.note(DIVERGENCE, f"the output {format_shape(out)} holds {counts[1]} elements and "
                              f"the input {format_shape(data.shape)} {counts[0]}: OpenVINO 2026.4 "
                              f"reads the model (with special_zero's 0s it does not compare the "
                              f"counts), but every input fails at inference")
    return Result((out,), (data.element_type,))


def _elements(shape: Shape) -> int | None:
    if shape is None or not all(d.is_static for d in shape):
        return None
    return math.prod(d.lo for d in shape)


def _reshape(shape: Shape, pattern: list[Dim], minus_one: int | None,
             special_zero: bool) -> tuple[Dim, ...]:
    product = _Product()
    out: list[Dim] = []
    zero = Dim(0, 0)
    if shape is None:
        for p in pattern:
            if special_zero and p == zero:
                out.append(DYNAMIC)
                product.infinite = True
            else:
                out.append(p)  # the -1 itself is '?' here, and counted
                product.outs.append(p)
    else:
        for i, p in enumerate(pattern):
            copied = special_zero and p == zero
            if i == minus_one:
                out.append(DYNAMIC)
            elif copied:
                if i >= len(shape):
                    raise OpError(INCOMPATIBLE, f"pattern element {i} is 0 with special_zero, "
                                                f"but the input has rank {len(shape)}: there is "
                                                f"no dim {i} to copy")
                out.append(shape[i])
            else:
                out.append(p)
                product.outs.append(p)
            if i < len(shape) and not copied:
                product.ins.append(shape[i])
        product.ins.extend(shape[len(pattern):])
    s_in, s_out, d_in, d_out = product.solve()
    if minus_one is not None:
        found = _minus_one(d_in, d_out)
        if s_out == 0:
            if s_in != 0:
                raise OpError(INCOMPATIBLE, "the -1 cannot be inferred: another output dim is 0 "
                                            "and no input dim is")
            found = found if found is not None else DYNAMIC
        elif found is None:
            raise OpError(INCOMPATIBLE, f"the other output dims do not evenly divide the input "
                                        f"{format_shape(shape)}: the -1 has no size")
        out[minus_one] = found
    counted = (shape is not None and all(d.is_static for d in shape)
               and all(d.is_static for d in out) and minus_one is None
               and not (special_zero and zero in pattern))
    if counted and s_in != s_out:
        raise OpError(INCOMPATIBLE, f"the output {format_shape(tuple(out))} does not hold the "
                                    f"{s_in} elements of the input {format_shape(shape)}")
    if shape_dims.SYMBOLIC is not None and shape is not None:  # reshapeable: the count's condition
        zeros = frozenset(i for i, p in enumerate(pattern) if special_zero and p == zero)
        recording = shape_dims.SYMBOLIC
        # the runtime compares the counts once every dim is static: a dim dynamic now that
        # carries a symbol is static when that axis is set (an input [1,?,16] into [1,128,16])
        settled = all(d.is_static or recording.carries(d) for d in (*shape, *out))
        return recording.reshaped(shape, tuple(out), minus_one, zeros,
                                  counted or (settled and minus_one is None and not zeros))
    return tuple(out)


def _evaluate(node: Node) -> Tensor:
    t = tensors(node, (2,))
    shape = vals.reshape_target(t[0], t[1].static_values(),
                                bool_attr(node.layer, "special_zero", False))
    return vals.reshaped(t[0], shape, origin(node.layer, t[:1]))


SPECS = {"reshape": (OpSpec("Reshape", (1, 16), fields=_FIELDS, dim_inputs=(1,), symbolic=True, infer=_infer,
                            symbolic_values=True, symbolic_reads=True, evaluate=_evaluate),)}
