"""Split-1 and VariadicSplit-1: the input cut along ``axis`` into pieces, one output each.

Split (split_shape_inference): ``num_splits`` equal pieces (missing: 0, refused).  The axis is
a scalar, const-only.  A static dim must divide evenly; an interval is divided in float32 (the
runtime multiplies each bound by ``1.0f / n`` and truncates, so ``3..9 / 2`` is ``1..4`` and
some divisors lose one), and its maximum must reach ``n``.
VariadicSplit: as many outputs as ``split_lengths`` has values (a length the runtime cannot
count gives no outputs at all); the axis (scalar or [1]) and the lengths are const-only, one
-1 takes what is left of a static dim (``?`` otherwise), and the sum is checked only against a
static dim.  Unknown axis: every output ``[?]*r``; unknown lengths: ``?`` along the axis.
Values: evaluated along the axis of a shape value, each output its own piece.
"""
from __future__ import annotations

from ..shapes import dims as shape_dims
from ..shapes.arith import divide, f32, from_int
from ..shapes.dims import DYNAMIC, INF, Dim, Shape, format_dim, format_shape, static
from ..shapes.layout import split_values
from ..shapes.values import Tensor, Unresolved
from .support.attributes import Field, read
from .support.axes import normalize
from .support.evaluating import origin, scalar, short, tensors
from .support.input_types import require_type
from .support.node import Node
from .support.shaping import ints_text
from .support.spec import ATTRIBUTE, DIVERGENCE, INCOMPATIBLE, OpError, OpSpec, Result

_SPLITS = (Field("num_splits", "uint", 0),)


def _f32_part(bound: int, n: int) -> int:
    """``(int)(float(bound) * (1.0f / n))``, as the runtime splits an interval bound."""
    return int(f32(f32(float(bound)) * f32(1.0 / f32(float(n)))))


def _piece(d: Dim, n: int) -> Dim:
    if d.is_static:
        if d.lo % n:
            raise OpError(INCOMPATIBLE, f"the dim {d.lo} along the axis does not divide into "
                                        f"num_splits {n} equal parts")
        if shape_dims.SYMBOLIC is not None:  # (reshapeable: the shape maths' exact division)
            return divide(d, n) or static(d.lo // n)
        return static(d.lo // n)
    if d.hi != INF and d.hi < n:
        raise OpError(INCOMPATIBLE, f"the dim {d} along the axis is below num_splits {n} at "
                                    f"most")
    return Dim(_f32_part(d.lo, n), INF if d.hi == INF else _f32_part(d.hi, n))


def _axis(node: Node) -> int | None:
    found = node.exact_values(1)
    return found[0] if found is not None and len(found) == 1 else None


def _split(node: Node) -> Result:
    node.require_inputs((2,))
    (n,) = read(node, "Split", _SPLITS)
    node.show(["data", "axis"])
    node.how = f"split into {n}"
    if n <= 0:
        raise OpError(ATTRIBUTE, "num_splits must be greater than zero (a missing num_splits "
                                 "reads as 0)")
    if n > len(node.layer.outputs) + 4096:
        raise OpError(ATTRIBUTE, f"num_splits {n} is not a plausible number of outputs")
    data, axis_shape = node.inputs[0].shape, node.inputs[1].shape
    et = node.inputs[0].element_type
    require_type(node, 1, "axis")
    if axis_shape is not None and axis_shape != ():
        raise OpError(INCOMPATIBLE, f"axis (input 1) must be a scalar, not "
                                    f"{format_shape(axis_shape)}")
    axis = _axis(node)
    if data is not None and not data:
        raise OpError(INCOMPATIBLE, "data (input 0) is a scalar: it has no axis to split")
    if data is None or axis is None:
        out: Shape = None if data is None else (DYNAMIC,) * len(data)
        return Result((out,) * n, (et,) * n)
    a = normalize(axis, len(data))
    piece = data[:a] + (_piece(data[a], n),) + data[a + 1:]
    return Result((piece,) * n, (et,) * n)


def _variadic(node: Node) -> Result:
    node.require_inputs((3,))
    node.show(["data", "axis", "split_lengths"])
    node.how = "variadic split"
    data, axis_shape, lengths_shape = (v.shape for v in node.inputs)
    et = node.inputs[0].element_type
    if axis_shape is not None and axis_shape not in ((), (Dim(1, 1),)):
        raise OpError(INCOMPATIBLE, f"axis (input 1) must be a scalar or hold one value, not "
                                    f"{format_shape(axis_shape)}")
    if lengths_shape is not None and len(lengths_shape) != 1:
        raise OpError(INCOMPATIBLE, f"split_lengths (input 2) must be a 1-D tensor, not "
                                    f"{format_shape(lengths_shape)}")
    if lengths_shape is None or not lengths_shape[0].is_static:
        if node.layer.outputs:
            raise OpError(INCOMPATIBLE, "split_lengths has no static length: the runtime gives "
                                        "the layer no outputs, so its output ports cannot be read")
        return Result((), ())
    n = lengths_shape[0].lo
    axis = _axis(node)
    if data is None or axis is None:
        out: Shape = None if data is None else (DYNAMIC,) * len(data)
        return Result((out,) * n, (et,) * n)
    a = normalize(axis, len(data), scalar_as_1d=False)
    lengths = node.exact_values(2)
    if lengths is None or len(lengths) != n:
        unknown = data[:a] + (DYNAMIC,) + data[a + 1:]
        return Result((unknown,) * n, (et,) * n)
    dims = _lengths(node, lengths, data[a])
    node.how = f"variadic split {ints_text(lengths)}"
    return Result(tuple(data[:a] + (d,) + data[a + 1:] for d in dims), (et,) * n)


def _lengths(node: Node, lengths: list[int], d: Dim) -> list[Dim]:
    bad = [v for v in lengths if v < -1]
    if bad:
        raise OpError(INCOMPATIBLE, f"split_lengths holds {bad[0]}: a length must be -1 or more")
    if lengths.count(-1) > 1:
        raise OpError(INCOMPATIBLE, "split_lengths holds more than one -1")
    total = sum(v for v in lengths if v != -1)
    out = [DYNAMIC if v == -1 else static(v) for v in lengths]
    if -1 in lengths and d.hi != INF and total > d.hi:
        node.note(DIVERGENCE, f"split_lengths {ints_text(lengths)} take {total} of a dim of "
                              f"{format_dim(d)} along the axis, leaving less than nothing for "
                              f"the -1: OpenVINO 2026.4 reads the model (it gives ?), but every "
                              f"input fails at inference")
    if d.is_static:
        if -1 in lengths:
            rest = d.lo - total
            # a negative rest passes: -1 reads as '?', anything lower as 0 (Dimension's rule)
            out[lengths.index(-1)] = from_int(rest)
            if shape_dims.SYMBOLIC is not None and rest >= 0:  # (what is left, followed)
                out[lengths.index(-1)] = shape_dims.SYMBOLIC.left(d, total, out[lengths.index(-1)])
        elif total != d.lo:
            raise OpError(INCOMPATIBLE, f"split_lengths {ints_text(lengths)} add up to {total}, "
                                        f"but the dim along the axis is {d.lo}")
        elif shape_dims.SYMBOLIC is not None:  # (the lengths must add up to the size)
            shape_dims.SYMBOLIC.merged(d, static(total), static(total))
    return out


def _split_value(node: Node) -> tuple[Tensor, ...]:
    t = tensors(node, (2,))
    n = len(node.layer.outputs)
    axis = scalar(t[1], "the Split axis")
    if t[0].rank == 0 or n == 0 or t[0].shape[axis % t[0].rank] % n:
        raise Unresolved("a Split that does not divide")
    size = t[0].shape[axis % t[0].rank] // n
    return tuple(split_values(t[0], axis, [size] * n, i, origin(node.layer, t[:1], f"part {i}"))
                 for i in range(n))


def _variadic_value(node: Node) -> tuple[Tensor, ...]:
    t = tensors(node, (3,))
    axis = scalar(t[1], "the VariadicSplit axis")
    lengths = t[2].static_values()
    if t[0].rank == 0:
        raise Unresolved("a split of a scalar")
    a = axis % t[0].rank if -t[0].rank <= axis < t[0].rank else None
    if a is None or lengths.count(-1) > 1:
        raise Unresolved("a VariadicSplit the runtime refuses")
    if -1 in lengths:
        lengths = list(lengths)
        lengths[lengths.index(-1)] = t[0].shape[a] - sum(v for v in lengths if v != -1)
    return tuple(split_values(t[0], axis, lengths, i,
                              origin(node.layer, t[:1], f"part {i} of {short(lengths)}"))
                 for i in range(len(lengths)))


SPECS = {"split": (OpSpec("Split", (1, 16), fields=_SPLITS, value_inputs=(1,), symbolic=True, symbolic_values=True, infer=_split,
                          evaluate=_split_value),),
         "variadicsplit": (OpSpec("VariadicSplit", (1, 16), frozenset(),
                                  dim_inputs=(2,), value_inputs=(1,), symbolic=True, symbolic_values=True, infer=_variadic,
                                  evaluate=_variadic_value),)}
