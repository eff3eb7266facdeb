"""GenerateProposals-9: proposals for a batch of images (generate_proposals_shape_inference).

The outputs hold up to ``post_nms_count`` proposals per image: ``rois [N, 4]``, ``scores
[N]`` and ``roi_num [B]``, where B is the batch merged from ``im_info[0]``, ``deltas[0]``
and ``scores[0]`` wherever their rank is static (a merge that fails is skipped here: the
checks below refuse what must agree), and N is ``0..B*post_nms_count`` on B's upper bound,
``?`` when B is unbounded.  Checks: ranks 2, 4, 4, 4; ``im_info[1]`` 3 or 4; anchors
``[H, W, A, 4]`` against scores ``[B, A, H, W]`` and deltas ``[B, 4A, H, W]``.  The
attributes must have ``pre_nms_count`` and ``post_nms_count`` above 0 (0 when missing, so a
missing one is refused), ``nms_eta`` 1 (as a float32) and ``roi_num_type`` i32 or i64.  The
input element types are not compared: rois and scores take input 0's.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.arith import f32
from ..shapes.dims import DYNAMIC, INF, Dim, format_dim, format_shape, static
from .support.attributes import Field, read
from .support.checking import fits, ranked
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, OpError, OpSpec, Result

_FIELDS = (Field("min_size", "float", 0.0), Field("nms_threshold", "float", 0.0),
           Field("post_nms_count", "int", 0), Field("pre_nms_count", "int", 0),
           Field("normalized", "bool", True), Field("nms_eta", "float", 1.0),
           Field("roi_num_type", "type", "i64"))


def _attributes(node: Node):
    _, _, post, pre, _, eta, roi_num = read(node, "GenerateProposals", _FIELDS)
    for name, value in (("pre_nms_count", pre), ("post_nms_count", post)):
        if value <= 0:
            raise OpError(ATTRIBUTE, f"attribute {name} is {value}: it must be above 0 (0 when "
                                     f"missing)")
    if f32(eta) != 1.0:
        raise OpError(ATTRIBUTE, f"attribute nms_eta is {eta}: the runtime takes only 1")
    if roi_num not in ("i32", "i64"):
        raise OpError(ATTRIBUTE, f"attribute roi_num_type is {roi_num}: it must be i32 or i64")
    return post, roi_num


def _infer(node: Node) -> Result:
    node.require_inputs((4,))
    node.show(["im_info", "anchors", "deltas", "scores"])
    node.how = "up to post_nms_count proposals per image"
    post, roi_num = _attributes(node)
    im_info = ranked(node, 0, "im_info", 2)
    batch = DYNAMIC
    if im_info is not None:
        if not (arith.merge(im_info[1], static(3)) or arith.merge(im_info[1], static(4))):
            raise OpError(INCOMPATIBLE, f"im_info {format_shape(im_info)} must have 3 or 4 columns "
                                        f"(it has {format_dim(im_info[1])})")
        batch = arith.merge(batch, im_info[0]) or batch
    anchors = ranked(node, 1, "anchors", 4)
    if anchors is not None:
        fits(anchors[3], 4, f"anchors {format_shape(anchors)} must have 4 values per anchor")
    deltas = ranked(node, 2, "deltas", 4)
    scores = ranked(node, 3, "scores", 4)
    for shape in (deltas, scores):
        if shape is not None:  # a batch that does not merge is left to the checks below
            batch = arith.merge(batch, shape[0]) or batch
    if deltas is not None and scores is not None:
        pair = f"deltas {format_shape(deltas)} and scores {format_shape(scores)}"
        fits(deltas[0], scores[0], f"{pair} must have the same batch")
        fits(deltas[1], arith.scale(scores[1], 4), f"{pair}: deltas must have 4 channels per anchor")
        fits(deltas[2], scores[2], f"{pair} must have the same height")
        fits(deltas[3], scores[3], f"{pair} must have the same width")
        if im_info is not None:
            fits(deltas[0], im_info[0], f"deltas {format_shape(deltas)} and im_info "
                                        f"{format_shape(im_info)} must have the same batch")
    if scores is not None and anchors is not None:
        pair = f"anchors {format_shape(anchors)} and scores {format_shape(scores)}"
        fits(anchors[0], scores[2], f"{pair} must have the same height")
        fits(anchors[1], scores[3], f"{pair} must have the same width")
        fits(anchors[2], scores[1], f"{pair} must have the same number of anchors")
    most = arith.scale(batch, post).hi
    count = Dim(0, INF if most >= INF else most)
    et = node.inputs[0].element_type
    return Result(((count, static(4)), (count,), (batch,)), (et, et, roi_num))


SPECS = {"generateproposals": (OpSpec("GenerateProposals", (9, 16), fields=_FIELDS,
                                      infer=_infer, own_types=(2,)),)}
