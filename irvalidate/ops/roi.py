"""ROIPooling-2, ROIAlign-3/-9 and PSROIPooling-1: one pooled map per region of interest,
``[R, C, h, w]`` (roi_pooling, roi_align and psroi_pooling shape inference).

R is the ROI count (rois dim 0; ROIAlign merges it with batch_indices dim 0), C the feature
channels (PSROIPooling: ``output_dim``), h and w the pooled size from the attributes; a
dynamic-rank input leaves its dim ``?``.

ROIPooling reads its pooled size from ``output_size``, then ``output_roi``, then ``pooled_h``
and ``pooled_w`` (each overwrites, in that order; the serializer writes all four) and
refuses a size under 1, a ``spatial_scale`` that is not a positive normal float32 and a
``method`` other than ``max``/``bilinear`` (case-sensitive).  ROIAlign validates no attribute
value except its enums.  PSROIPooling refuses a ``mode`` other than ``average``/``bilinear``,
a ``group_size`` under 1, bins under 1 in bilinear mode and a bad ``spatial_scale``, and
requires the channels to *equal* ``output_dim * group_size^2`` (average) or ``output_dim *
bins_x * bins_y`` (bilinear), whatever the runtime's message says ("a multiply of").
"""
from __future__ import annotations

from ..ir import elements
from ..shapes import arith
from ..shapes.dims import compatible
from .support.attributes import Field, read
from .support.infer_helpers import (
    REAL,
    dim,
    is_real,
    merge,
    positive_normal,
    require_rank,
    text,
)
from .support.input_types import require_type
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_ROI_POOLING = (Field("output_size", "uints", (0, 0)), Field("output_roi", "uints", None),
                Field("pooled_h", "uint", None), Field("pooled_w", "uint", None),
                Field("spatial_scale", "float", 0.0), Field("method", "str", "max"))
_ROI_ALIGN = (Field("pooled_h", "int", 0), Field("pooled_w", "int", 0),
              Field("sampling_ratio", "int", 0), Field("spatial_scale", "float", 0.0),
              Field("mode", "enum", "avg", ("avg", "max")))
_ROI_ALIGN9 = _ROI_ALIGN + (Field("aligned_mode", "enum", "asymmetric",
                                  ("asymmetric", "half_pixel_for_nn", "half_pixel")),)
_PSROI = (Field("output_dim", "int", 0), Field("group_size", "int", 0),
          Field("spatial_scale", "float", 0.0), Field("mode", "str", ""),
          Field("spatial_bins_x", "int", 0), Field("spatial_bins_y", "int", 0))


def _int64(value: int) -> int:
    """An unsigned attribute as the int64 a dim is made of (2^64 - 1 is -1)."""
    return value - (1 << 64) if value >= 1 << 63 else value


def _check_scale(scale: float) -> None:
    if not positive_normal(scale):
        raise OpError(ATTRIBUTE, f"attribute spatial_scale must be a positive number, not {scale}")


def _rois(node: Node, coordinates: int, label: str) -> None:
    """rois (input 1): rank 2, dim 1 ``coordinates`` (when its rank is static)."""
    rois = node.inputs[1].shape
    require_rank(rois, (2,), f"rois (input 1) must be 2-D, not {text(rois)}")
    if rois is not None and not compatible(rois[1], arith.from_int(coordinates)):
        raise OpError(INCOMPATIBLE, f"rois (input 1) dim 1 must be {coordinates} ({label}), "
                                      f"not {text(rois[1])}")


def _features(node: Node) -> None:
    feat = node.inputs[0].shape
    require_rank(feat, (4,), f"feature maps (input 0) must be 4-D, not {text(feat)}")


def _infer_roi_pooling(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(("feature maps", "rois"))
    size, roi, pooled_h, pooled_w, scale, method = read(node, "ROIPooling", _ROI_POOLING)
    pooled = list(roi if roi is not None else size)
    if len(pooled) != 2:
        # (with pooled_h/pooled_w present a shorter list is written past its end)
        raise OpError(ATTRIBUTE, f"the pooled size (output_size/output_roi) must hold 2 values, "
                                 f"not {len(pooled)}")
    if pooled_h is not None:
        pooled[0] = pooled_h
    if pooled_w is not None:
        pooled[1] = pooled_w
    _features(node)
    _rois(node, 5, "the batch id and four coordinates")
    if min(pooled) < 1:
        raise OpError(ATTRIBUTE, f"attributes pooled_h and pooled_w must be positive, not "
                                 f"{_int64(pooled[0])} and {_int64(pooled[1])}")
    _check_scale(scale)
    if method not in ("max", "bilinear"):
        raise OpError(ATTRIBUTE, f"attribute method must be max or bilinear, not {method!r}")
    feat, rois = node.inputs[0], node.inputs[1]
    ets = (feat.element_type, rois.element_type)
    if all(elements.is_known(et) for et in ets) and ets[0] != ets[1]:
        node.note(TYPE, f"feature maps and rois must have one element type, not {ets[0]} and "
                        f"{ets[1]}")
    elif any(elements.is_known(et) and not is_real(et) for et in ets):
        node.note(TYPE, f"feature maps and rois must be floating point, not {ets[0]} and {ets[1]}")
    node.how = f"{method} pooling of each ROI to {pooled[0]}x{pooled[1]}"
    out = (dim(rois.shape, 0), dim(feat.shape, 1), arith.from_int(_int64(pooled[0])),
           arith.from_int(_int64(pooled[1])))
    return Result((out,), (feat.element_type,))


def _infer_roi_align(v9: bool):
    name, fields = ("ROIAlign9", _ROI_ALIGN9) if v9 else ("ROIAlign", _ROI_ALIGN)

    def infer(node: Node) -> Result:
        node.require_inputs((3,))
        node.show(("data", "rois", "batch_indices"))
        pooled_h, pooled_w, _ratio, _scale, mode = read(node, name, fields)[:5]
        data, rois, indices = (v.shape for v in node.inputs)
        ets = [v.element_type for v in node.inputs]
        try:
            merged = elements.merge(ets[0], ets[1])
            if elements.is_known(merged) and not is_real(merged):
                raise ValueError(merged)
        except ValueError:
            node.note(TYPE, f"data and rois must have one floating-point element type, not "
                            f"{ets[0]} and {ets[1]}")
        require_type(node, 2, "batch_indices")
        require_rank(data, (4,), f"data (input 0) must be 4-D, not {text(data)}")
        require_rank(rois, (2,), f"rois (input 1) must be 2-D, not {text(rois)}")
        require_rank(indices, (1,), f"batch_indices (input 2) must be 1-D, not {text(indices)}")
        _rois(node, 4, "the four coordinates")
        count = dim(rois, 0)
        if indices is not None:
            count = merge(count, indices[0], f"rois (input 1) has {text(count)} boxes, but "
                                             f"batch_indices (input 2) {text(indices[0])} indices")
        node.how = f"{mode} pooling of each ROI to {pooled_h}x{pooled_w}"
        out = (count, dim(data, 1), arith.from_int(pooled_h), arith.from_int(pooled_w))
        return Result((out,), (ets[0],))
    return infer


def _infer_psroi(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(("feature maps", "rois"))
    output_dim, group, scale, mode, bins_x, bins_y = read(node, "PSROIPooling", _PSROI)
    if mode not in ("average", "bilinear"):
        raise OpError(ATTRIBUTE, f"attribute mode must be average or bilinear, not {mode!r}")
    if group <= 0:
        raise OpError(ATTRIBUTE, f"attribute group_size must be positive, not {group}")
    if mode == "bilinear" and (bins_x <= 0 or bins_y <= 0):
        raise OpError(ATTRIBUTE, f"attributes spatial_bins_x and spatial_bins_y must be positive "
                                 f"in bilinear mode, not {bins_x} and {bins_y}")
    _check_scale(scale)
    require_type(node, 0, "feature maps", REAL, "floating point")
    require_type(node, 1, "rois", REAL, "floating point")
    _features(node)
    feat = node.inputs[0].shape
    if feat is not None:
        area, words = ((group * group, "output_dim * group_size^2") if mode == "average" else
                       (bins_x * bins_y, "output_dim * spatial_bins_x * spatial_bins_y"))
        want = arith.from_int(area * output_dim)
        if not compatible(feat[1], want):
            raise OpError(INCOMPATIBLE, f"feature maps (input 0) have {text(feat[1])} channels, "
                                          f"but {words} is {area * output_dim}")
    _rois(node, 5, "the batch id and four coordinates")
    node.how = f"{mode} position-sensitive pooling to {output_dim} maps of {group}x{group}"
    group_dim = arith.from_int(group)
    out = (dim(node.inputs[1].shape, 0), arith.from_int(output_dim), group_dim, group_dim)
    return Result((out,), (node.inputs[0].element_type,))


SPECS = {
    "roipooling": (OpSpec("ROIPooling", (2, 16), fields=_ROI_POOLING, infer=_infer_roi_pooling),),
    "roialign": (
        OpSpec("ROIAlign", (3, 8), fields=_ROI_ALIGN, infer=_infer_roi_align(False)),
        OpSpec("ROIAlign", (9, 16), fields=_ROI_ALIGN9, infer=_infer_roi_align(True)),
    ),
    "psroipooling": (OpSpec("PSROIPooling", (1, 16), fields=_PSROI, infer=_infer_psroi),),
}
