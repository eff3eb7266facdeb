"""Proposal-1 and -4: ``[N * post_nms_topn, 5]`` boxes (and Proposal-4's ``[N *
post_nms_topn]`` scores) (proposal shape inference).

class_probs ``[N, 2A, H, W]`` and bbox_deltas ``[N, 4A, H, W]`` are 4-D; their batches merge
and bbox_deltas dim 1 must be compatible with twice class_probs dim 1 (checked only when both
ranks are static); H and W are never compared.  image_shape is 1-D with 3 or 4 elements.
``post_nms_topn`` is unsigned and 0 when missing (no proposals at all); -1 reads as 2^64 - 1,
which as a dim is ``?``.  Only class_probs must be floating point.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC, compatible, static
from .support.attributes import Field, read
from .support.infer_helpers import REAL, merge, require_rank, text
from .support.input_types import require_type
from .support.node import Node
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("base_size", "uint", 0), Field("pre_nms_topn", "uint", 0),
           Field("post_nms_topn", "uint", 0), Field("nms_thresh", "float", 0.0),
           Field("feat_stride", "uint", 0), Field("min_size", "uint", 0),
           Field("ratio", "floats", ()), Field("scale", "floats", ()),
           Field("clip_before_nms", "bool", True), Field("clip_after_nms", "bool", False),
           Field("normalize", "bool", False), Field("box_size_scale", "float", 1.0),
           Field("box_coordinate_scale", "float", 1.0), Field("framework", "str", ""))


def _boxes(node: Node):
    node.require_inputs((3,))
    node.show(("class_probs", "bbox_deltas", "image_shape"))
    require_type(node, 0, "class_probs", REAL, "floating point")
    probs, deltas, image = (v.shape for v in node.inputs)
    require_rank(probs, (4,), f"class_probs (input 0) must be 4-D, not {text(probs)}")
    require_rank(deltas, (4,), f"bbox_deltas (input 1) must be 4-D, not {text(deltas)}")
    if image is not None and (len(image) != 1 or not (
            compatible(image[0], static(3)) or compatible(image[0], static(4)))):
        raise OpError(INCOMPATIBLE, f"image_shape (input 2) must be 1-D with 3 or 4 elements, "
                                    f"not {text(image)}")
    batch = DYNAMIC
    if probs is not None:
        batch = probs[0]
        anchors = arith.scale(probs[1], 2)
        if deltas is not None and not compatible(deltas[1], anchors):
            raise OpError(INCOMPATIBLE, f"bbox_deltas (input 1) dim 1 is {text(deltas[1])}, but "
                                        f"class_probs dim 1 {text(probs[1])} gives "
                                        f"{text(anchors)} (4 per anchor)")
    if deltas is not None:
        batch = merge(batch, deltas[0], f"the batch of class_probs ({text(batch)}) and of "
                                        f"bbox_deltas ({text(deltas[0])}) differ")
    top = read(node, "Proposal", _FIELDS)[2]
    # an unsigned count as the int64 the dim is made of: 2^64 - 1 is -1, which is "?"
    signed = top - (1 << 64) if top >= 1 << 63 else top
    node.how = f"post_nms_topn {signed} boxes per image"
    return arith.mul(batch, arith.from_int(signed)), node.inputs[0].element_type


def _infer_v1(node: Node) -> Result:
    count, et = _boxes(node)
    return Result(((count, static(5)),), (et,))


def _infer_v4(node: Node) -> Result:
    count, et = _boxes(node)
    return Result(((count, static(5)), (count,)), (et, et))


SPECS = {"proposal": (OpSpec("Proposal", (1, 3), fields=_FIELDS, infer=_infer_v1),
                      OpSpec("Proposal", (4, 16), fields=_FIELDS, infer=_infer_v4))}
