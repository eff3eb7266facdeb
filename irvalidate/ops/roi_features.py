"""Pooled features per region: ROIAlignRotated-15 and DeformablePSROIPooling-1
(roi_align_shape_inference's rotated variant, deformable_psroi_pooling_shape_inference).

ROIAlignRotated: ``[R, C, pooled_h, pooled_w]`` from data ``[N, C, H, W]``, rois ``[R, 5]``
and batch_indices ``[R]`` (R merged from both); the pooled sizes are attributes, 0 when
missing, -1 is ``?`` and below that 0 (nothing checks them).  data and rois share one
floating type; batch_indices is any integer.
DeformablePSROIPooling: ``[R, output_dim, group_size, group_size]`` from rois ``[R, ...]``;
only the ranks are checked (4, 2 and 4 for the optional offsets), and the attributes:
``output_dim`` (0 when missing) and ``group_size`` (1) must be above 0; ``mode`` is any
string.  No element type is checked; the output takes the data's.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import arith
from ..shapes.dims import DYNAMIC, format_shape, static
from .support.attributes import Field, read
from .support.checking import REAL, fits, ranked
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_ROTATED = (Field("pooled_h", "int", 0), Field("pooled_w", "int", 0), Field("sampling_ratio", "int", 0),
            Field("spatial_scale", "float", 0.0), Field("clockwise_mode", "bool", False))
_DEFORMABLE = (Field("output_dim", "int", 0), Field("spatial_scale", "float", 0.0),
               Field("group_size", "int", 1), Field("mode", "str", "bilinear_deformable"),
               Field("spatial_bins_x", "int", 1), Field("spatial_bins_y", "int", 1),
               Field("trans_std", "float", 1.0), Field("part_size", "int", 1))


def _rotated(node: Node) -> Result:
    node.require_inputs((3,))
    node.show(["data", "rois", "batch_indices"])
    node.how = "pooled_h x pooled_w features per rotated roi"
    height, width = read(node, "ROIAlignRotated", _ROTATED)[:2]
    data_et, rois_et, index_et = (v.element_type for v in node.inputs)
    known = [t for t in (data_et, rois_et) if elements.is_known(t)]
    et = known[0] if known else None
    if len(set(known)) > 1 or (et is not None and et not in REAL):
        node.note(TYPE, f"data ({data_et}) and rois ({rois_et}) must have one floating element type")
        et = None
    if index_et in REAL or index_et == "boolean":
        node.note(TYPE, f"batch_indices (input 2) must be an integer tensor, not {index_et}")
    data = ranked(node, 0, "data", 4)
    rois = ranked(node, 1, "rois", 2)
    indices = ranked(node, 2, "batch_indices", 1)
    count = DYNAMIC
    if rois is not None:
        fits(rois[1], 5, f"rois {format_shape(rois)} must have 5 values per box")
        count = rois[0]
    if indices is not None:
        merged = arith.merge(count, indices[0])
        if merged is None:
            raise OpError(INCOMPATIBLE, f"rois {format_shape(rois)} and batch_indices "
                                        f"{format_shape(indices)} must have one index per roi")
        count = merged
    channels = DYNAMIC if data is None else data[1]
    return Result(((count, channels, arith.from_int(height), arith.from_int(width)),), (et,))


def _deformable(node: Node) -> Result:
    node.require_inputs((2, 3))
    labels = ["data", "rois", "offsets"]
    node.show(labels[:len(node.inputs)])
    node.how = "output_dim x group_size x group_size features per roi"
    output_dim, _, group_size = read(node, "DeformablePSROIPooling", _DEFORMABLE)[:3]
    for index, rank in enumerate((4, 2, 4)[:len(node.inputs)]):
        ranked(node, index, labels[index], rank)
    for name, value, default in (("output_dim", output_dim, 0), ("group_size", group_size, 1)):
        if value <= 0:
            raise OpError(ATTRIBUTE, f"attribute {name} is {value}: it must be above 0 ({default} "
                                     f"when missing)")
    rois = node.inputs[1].shape
    size = static(group_size)
    out = (DYNAMIC if rois is None else rois[0], static(output_dim), size, size)
    return Result((out,), (node.inputs[0].element_type,))


SPECS = {
    "roialignrotated": (OpSpec("ROIAlignRotated", (15, 16), fields=_ROTATED,
                               infer=_rotated),),
    "deformablepsroipooling": (OpSpec("DeformablePSROIPooling", (1, 16), fields=_DEFORMABLE,
                                      infer=_deformable),),
}
