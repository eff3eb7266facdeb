"""ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1: transposed convolutions
(convolution_backprop_shape_inference).

The optional input 2 (output_shape) gives the output's spatial dims: a Const's values (a
negative one is refused, like a computed one: the runtime bound-evaluates even a Const
here), the bounds a shape subgraph evaluates to, ``?`` x its length when only that is known,
or nothing at all when even its length is unknown (the output then has rank 2: measured).
Without it, each spatial dim is ``(D - 1) * stride + (K - 1) * dilation + 1 +
output_padding - pads_begin - pads_end`` (pads are 0 unless auto_pad is explicit), a
negative result losing that bound (:func:`~irvalidate.shapes.windows.backprop_dim`).

``k`` (the spatial axes) comes from the data rank - 2, the filters rank - 2 (- 3 grouped),
the length of a known output_shape, then the attribute lists, as in
:mod:`~irvalidate.ops.convolution`; output_padding must also hold ``k`` values (0s when
empty).  Channels: the data's dim 1 against the filters' dim 0 (grouped: groups x filters
dim 1); the output's dim 1 is the filters' dim 1 (grouped: groups x filters dim 2).
"""
from __future__ import annotations

from ..shapes import windows as win
from ..shapes.dims import DYNAMIC, Dim, Shape, format_shape
from .convolution import (
    CONV_FIELDS,
    check_channels,
    check_ranks,
    dim_at,
    group_channels,
    lead,
    merged_type,
    require_rank,
    spatial_count,
    tail,
    window,
)
from .support.attributes import Field, read
from .support.input_types import INTEGER_LIKE, require_type
from .support.node import Node
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result
from .support.value_inputs import refuse_bufferless

_FIELDS = CONV_FIELDS + (Field("output_padding", "ints", ()),)
_OUTPUT_SHAPE = "output_shape (input 2)"


def _output_spatial(node: Node) -> tuple[bool, Shape, bool]:
    """(whether input 2 is there, the spatial dims it gives: None for a dynamic rank, and
    whether its values are known)."""
    if len(node.inputs) < 3:
        return False, (), False
    require_type(node, 2, "output_shape", INTEGER_LIKE)
    length = node.one_d_length(2, _OUTPUT_SHAPE)
    refuse_bufferless(node, 2)
    numbers = node.const_numbers(2)
    if numbers is not None:
        negative = [v for v in numbers if v < 0]
        if negative:
            raise OpError(INCOMPATIBLE, f"{_OUTPUT_SHAPE} holds {negative[0]}: the runtime "
                                        f"refuses a negative spatial size (\"Value for partial "
                                        f"shape evaluation can't be lower than zero\")")
        return True, tuple(Dim(v, v) for v in numbers), True
    computed = node.computed_as_shape(2, "output_shape")
    if computed is not None:
        return True, computed, True
    return True, None if length is None else (DYNAMIC,) * length, False


def _unsized(data: Shape, filters: Shape) -> None:
    """Without output_shape values, the runtime first sizes a list of ``rank - 2`` spatial
    dims from the data (else the filters) rank, in unsigned arithmetic: a rank below 2 fails."""
    for label, shape in (("data", data), ("filters", filters)):
        if shape is not None:
            if len(shape) < 2:
                raise OpError(INCOMPATIBLE, f"{label} {format_shape(shape)} has rank "
                                            f"{len(shape)}: the runtime sizes {len(shape) - 2} "
                                            f"spatial dims in unsigned arithmetic and fails")
            return


def _infer_backprop(node: Node, grouped: bool) -> Result:
    node.require_inputs((2, 3))
    labels = ("data", "filters", "output_shape")
    node.show(labels[:len(node.inputs)])
    node.how = "transposed group convolution" if grouped else "transposed convolution"
    strides, dilations, pads_begin, pads_end, auto_pad, output_padding = read(
        node, node.layer.type, _FIELDS)
    et = merged_type(node, ("data", "filters"))
    given, spatial, known = _output_spatial(node)
    data, filters = node.inputs[0].shape, node.inputs[1].shape
    if not known:
        _unsized(data, filters)
    count = spatial_count(data, filters, 3 if grouped else 2,
                          (strides, dilations, pads_begin, pads_end),
                          more=len(spatial) if spatial else None)
    if count is None:
        return Result((None,), (et,))
    if given and spatial is not None and len(spatial) != count:
        raise OpError(INCOMPATIBLE, f"{_OUTPUT_SHAPE} gives {len(spatial)} spatial dims "
                                    f"({format_shape(spatial)}) for {count} spatial axes")
    if grouped:
        require_rank(data, "data", (3, 4, 5))
        check_ranks(data, filters, 1)
    else:
        check_ranks(data, filters, 0)
        check_channels(data, filters, 0)
        require_rank(data, "data", (3, 4, 5))
    output_padding = output_padding or (0,) * count
    win_ = window(count, strides, dilations, pads_begin, pads_end, auto_pad,
                  (("output_padding", output_padding),))
    channels = group_channels(data, filters, 1, 2) if grouped else dim_at(filters, 1, "filters")
    head = (lead(data, 0), channels)
    if given:
        return Result((head + (spatial or ()),), (et,))
    explicit = auto_pad == "explicit"
    dims = []
    for axis, (d, k) in enumerate(zip(tail(data, count, "data"), tail(filters, count))):
        pads = win_.pads_begin[axis] + win_.pads_end[axis] if explicit else 0
        dims.append(win.backprop_dim(d, k, win_.strides[axis], win_.dilations[axis],
                                     output_padding[axis] - pads))
    return Result((head + tuple(dims),), (et,))


SPECS = {
    "convolutionbackpropdata": (OpSpec("ConvolutionBackpropData", (1, 16), fields=_FIELDS,
                                       dim_inputs=(2,), symbolic=True,
                                       infer=lambda node: _infer_backprop(node, False)),),
    "groupconvolutionbackpropdata": (OpSpec("GroupConvolutionBackpropData", (1, 16), fields=_FIELDS,
                                            dim_inputs=(2,), symbolic=True,
                                            infer=lambda node: _infer_backprop(node, True)),),
}
