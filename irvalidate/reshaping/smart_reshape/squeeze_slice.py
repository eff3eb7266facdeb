"""SqueezeStridedSlice and StridedSliceSqueeze: a Squeeze-0 with Const axes next to a
StridedSlice-1 with Const begin/end/strides (strides all 1, no new-axis, shrink or ellipsis
mask) becomes one StridedSlice that takes one element of each squeezed axis and drops it,
so that axis may take any size after the reshape.  The layer that disappears passes nothing
on; the StridedSliceSqueeze result keeps the Squeeze's name, as the runtime's does.
"""
from __future__ import annotations

from ...ir.records import Layer
from ...ops.support.spec import Value
from .graph import GraphView, exact, is_type

_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


def _ints(text: str | None) -> list[int] | None:
    try:
        return [int(t) for t in (text or "").replace(" ", "").split(",") if t]
    except ValueError:
        return None


class _Slice:
    """A StridedSlice's Const vectors and masks, when the fusions may use them."""

    def __init__(self, view: GraphView, layer: Layer) -> None:
        self.ok = False
        vectors = [view.const_values(layer, i) for i in (1, 2, 3)]
        masks = {m: _ints(layer.data.get(m)) for m in _MASKS}
        if any(v is None for v in vectors) or any(m is None for m in masks.values()):
            return
        self.begin, self.end, self.strides = (list(v) for v in vectors)  # type: ignore[arg-type]  # no None (above)
        self.masks: dict[str, list[int]] = masks  # type: ignore[assignment]  # no None (above)
        size = len(self.masks["begin_mask"])
        for name in ("new_axis_mask", "shrink_axis_mask", "ellipsis_mask"):
            self.masks[name] = self.masks[name] or [0] * size
        self.ok = all(not any(self.masks[n]) for n in ("new_axis_mask", "shrink_axis_mask",
                                                        "ellipsis_mask")) \
            and all(s == 1 for s in self.strides)

    def rewritten(self, layer: Layer, source: Layer) -> Layer:
        data = dict(source.data)
        data.update({m: ",".join(map(str, v)) for m, v in self.masks.items()})
        return layer._replace(type=source.type, version=source.version, data=data)

    def values(self) -> list[Value]:
        return [exact(self.begin, "begin"), exact(self.end, "end"), exact(self.strides, "strides")]


def _axes(view: GraphView, squeeze: Layer, rank: int | None) -> list[int] | None:
    axes = view.const_values(squeeze, 1)
    if axes is None or rank is None or any(not -rank <= a < rank for a in axes):
        return None
    return sorted({a + rank if a < 0 else a for a in axes})


def _resize(values: list[int], size: int, fill: int) -> list[int]:
    return (values + [fill] * size)[:size]


def _drop(lay: Layer, inputs: list[Value], _prop) -> tuple[Layer | None, list[Value]]:
    return None, inputs


def squeeze_then_slice(view: GraphView, slice_: Layer) -> None:
    """SqueezeStridedSlice: Squeeze (one consumer) -> StridedSlice."""
    found = view.producer(slice_, 0)
    if found is None or not is_type(found[0], "squeeze", opset1_only=True) or \
            slice_.id in view.rewrites or found[0].id in view.rewrites:
        return
    squeeze = found[0]
    if len(squeeze.inputs) != 2 or view.consumers(squeeze) != 1:
        return
    data_shape = view.shape_in(squeeze, 0)
    axes = _axes(view, squeeze, None if data_shape is None else len(data_shape))
    info = _Slice(view, slice_)
    if axes is None or not info.ok:
        return
    for axis in axes:
        if axis > len(info.begin) or any(axis > len(m) for m in info.masks.values()):
            return  # the runtime would insert past the end of its vectors
        for vector, value in ((info.begin, 0), (info.end, 1), (info.strides, 1)):
            vector.insert(axis, value)
        for name in _MASKS:
            info.masks[name].insert(axis, 1 if name == "shrink_axis_mask" else 0)

    def apply(lay: Layer, inputs: list[Value], prop) -> tuple[Layer, list[Value]]:
        below = prop.input_values(squeeze)
        return info.rewritten(lay, slice_), below[:1] + info.values()
    view.add(slice_, "SqueezeStridedSlice", f"the Squeeze {squeeze.name} of axes {axes} is "
                                            f"fused into it: one element of each is taken", apply)
    view.add(squeeze, "SqueezeStridedSlice", f"fused into StridedSlice {slice_.name}", _drop,
             shown=False)


def slice_then_squeeze(view: GraphView, squeeze: Layer) -> None:
    """StridedSliceSqueeze: StridedSlice (one consumer) -> Squeeze."""
    found = view.producer(squeeze, 0)
    if found is None or not is_type(found[0], "stridedslice") or len(squeeze.inputs) != 2 or \
            squeeze.id in view.rewrites or found[0].id in view.rewrites:
        return
    slice_ = found[0]
    if view.consumers(slice_) != 1:
        return
    shape = view.shape_out(slice_)
    axes = _axes(view, squeeze, None if shape is None else len(shape))
    info = _Slice(view, slice_)
    if axes is None or not info.ok:
        return
    rank = len(shape)  # type: ignore[arg-type]  # ranked (the caller's)
    # every vector and mask resized to the rank, as the runtime does (appended axes whole)
    info.begin, info.end = _resize(info.begin, rank, 0), _resize(info.end, rank, 0)
    info.strides = _resize(info.strides, rank, 1)
    for name in _MASKS:
        info.masks[name] = _resize(info.masks[name], rank, 1 if name in ("begin_mask", "end_mask")
                                   else 0)
    for axis in axes:
        if info.masks["begin_mask"][axis]:
            info.begin[axis], info.end[axis] = 0, 1
            info.masks["begin_mask"][axis] = info.masks["end_mask"][axis] = 0
        elif info.begin[axis] == -1:
            info.masks["end_mask"][axis] = 1
        else:
            info.end[axis] = info.begin[axis] + 1
            info.masks["end_mask"][axis] = 0
        info.masks["shrink_axis_mask"][axis] = 1

    def apply(lay: Layer, inputs: list[Value], prop) -> tuple[Layer, list[Value]]:
        below = prop.input_values(slice_)
        return info.rewritten(lay, slice_), below[:1] + info.values()
    view.add(squeeze, "StridedSliceSqueeze", f"becomes one StridedSlice with the slice "
                                             f"{slice_.name}, taking one element of axes {axes}",
             apply)
    view.add(slice_, "StridedSliceSqueeze", f"fused into the Squeeze {squeeze.name}", _drop,
             shown=False)
