"""NonMaxSuppression-1, -3, -4, -5 and -9: ``[S, 3]`` selected indices (nms shape inference);
-5 and -9 add ``[S, 3]`` selected scores (always f32) and ``[1]`` valid outputs.

boxes are ``[B, N, 4]`` and scores ``[B, C, N]``.  ``max_output_boxes_per_class`` (input 2)
is read only when it is exact (a Const, or a subgraph whose bounds meet); each version counts
S its own way from M, N, B and C:

* v1, v3: ``min(N, M * C)`` when N and ``M * C`` are static, else ``?`` (the batch is not used);
* v4: ``min(N, M) * max(B) * max(C)`` when N is static and M known;
* v5, v9: ``0..min(max(N), M)`` (``?`` when M is unknown) times ``max(B) * max(C)``.

An unbounded dim's "max" is -1, which as a dim is ``?``.  v1-v4 want scalars for inputs 2-4
and check no element type; v5/v9 also take a one-element 1-D tensor and want floating-point
boxes, scores and thresholds.  ``output_type`` (v3 and later) must be i32 or i64.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC, INF, Dim, Shape, compatible, static
from .support.attributes import Field, read
from .support.infer_helpers import require_rank, text
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_V1 = (Field("box_encoding", "enum", "corner", ("corner", "center")),
       Field("sort_result_descending", "bool", True))
_V3 = _V1 + (Field("output_type", "type", "i64"),)
_LABELS = ("boxes", "scores", "max_output_boxes_per_class", "iou_threshold", "score_threshold",
           "soft_nms_sigma")
_THRESHOLD_TYPES = frozenset({"bf16", "f16", "f32"})


def _max(d: Dim) -> Dim:
    """``Dimension(d.get_max_length())``: an unbounded dim's -1 is ``?``."""
    return DYNAMIC if d.hi == INF else static(d.hi)


def _check_shapes(node: Node, v5: bool) -> None:
    boxes, scores = node.inputs[0].shape, node.inputs[1].shape
    require_rank(boxes, (3,), f"boxes (input 0) must be 3-D, not {text(boxes)}")
    require_rank(scores, (3,), f"scores (input 1) must be 3-D, not {text(scores)}")
    for index in range(2, len(node.inputs)):
        shape = node.inputs[index].shape
        ok = shape is None or shape == () or (v5 and len(shape) == 1 and compatible(shape[0], static(1)))
        if not ok:
            want = "a scalar or a 1-D tensor of one value" if v5 else "a scalar"
            raise OpError(INCOMPATIBLE, f"{_LABELS[index]} (input {index}) must be {want}, not "
                                        f"{text(shape)}")
    if boxes is None:
        return
    if scores is not None:
        if not compatible(boxes[0], scores[0]):
            raise OpError(INCOMPATIBLE, f"the batch of boxes ({text(boxes[0])}) and of scores "
                                        f"({text(scores[0])}) differ")
        if not compatible(boxes[1], scores[2]):
            raise OpError(INCOMPATIBLE, f"boxes dim 1 ({text(boxes[1])}) and scores dim 2 "
                                        f"({text(scores[2])}) must both be the box count")
    if not compatible(boxes[2], static(4)):
        raise OpError(INCOMPATIBLE, f"boxes dim 2 must be 4 (one box), not {text(boxes[2])}")


def _limit(node: Node):
    """M, when exact (the first value), else None."""
    if len(node.inputs) < 3:
        return None
    values = node.exact_values(2, None)
    return values[0] if values else None


def _selected_v1(boxes: Shape, scores: Shape, limit) -> Dim:
    if boxes is None:
        return DYNAMIC
    per_class = DYNAMIC if limit is None else arith.from_int(limit)
    if scores is not None:
        per_class = arith.mul(per_class, scores[1])
    if boxes[1].is_static and per_class.is_static:
        return static(min(boxes[1].lo, per_class.lo))
    return DYNAMIC


def _selected_v4(boxes: Shape, scores: Shape, limit) -> Dim:
    if boxes is None or scores is None or not boxes[1].is_static or limit is None:
        return DYNAMIC
    count = arith.from_int(min(boxes[1].lo, limit))
    return arith.mul(arith.mul(count, _max(scores[0])), _max(scores[1]))


def _selected_v5(boxes: Shape, scores: Shape, limit) -> Dim:
    if boxes is None or scores is None:
        return DYNAMIC
    count = DYNAMIC
    if limit is not None:
        most = min(-1 if boxes[1].hi == INF else boxes[1].hi, limit)
        if most < -1:
            # Dimension{0, most} is an empty interval, which stays empty whatever multiplies
            # it and prints as "?" (measured); "?" stands for it here
            return DYNAMIC
        count = DYNAMIC if most == -1 else Dim(0, most)
    return arith.mul(arith.mul(count, _max(scores[0])), _max(scores[1]))


_RULES = {1: _selected_v1, 3: _selected_v1, 4: _selected_v4, 5: _selected_v5, 9: _selected_v5}


def _infer_version(version: int):
    v5 = version >= 5
    fields = _V1 if version == 1 else _V3
    name = f"NonMaxSuppression{version}"

    def infer(node: Node) -> Result:
        node.require_inputs(tuple(range(2, 7 if v5 else 6)))
        node.show(_LABELS[:len(node.inputs)])
        values = read(node, name, fields)
        et = "i64" if version == 1 else values[2]
        if et not in ("i32", "i64"):
            raise OpError(ATTRIBUTE, f"attribute output_type must be i32 or i64, not {et}")
        if v5:
            for index in (0, 1, 3, 4, 5):
                got = node.inputs[index].element_type if index < len(node.inputs) else None
                if got not in (None, "dynamic") and got not in _THRESHOLD_TYPES:
                    node.note(TYPE, f"{_LABELS[index]} (input {index}) must be bf16, f16 or f32, "
                                    f"not {got}")
        _check_shapes(node, v5)
        limit = _limit(node)
        boxes, scores = node.inputs[0].shape, node.inputs[1].shape
        selected = _RULES[version](boxes, scores, limit)
        node.how = (f"at most {limit if limit is not None else 'an unknown number of'} boxes "
                    f"per class (NonMaxSuppression-{version})")
        if not v5:
            return Result(((selected, static(3)),), (et,))
        return Result(((selected, static(3)), (selected, static(3)), (static(1),)),
                      (et, "f32", et))
    return infer


SPECS = {"nonmaxsuppression": (
    OpSpec("NonMaxSuppression", (1, 2), fields=_V1, dim_inputs=(2,), infer=_infer_version(1)),
    OpSpec("NonMaxSuppression", (3, 3), fields=_V3, dim_inputs=(2,), infer=_infer_version(3)),
    OpSpec("NonMaxSuppression", (4, 4), fields=_V3, dim_inputs=(2,), infer=_infer_version(4)),
    OpSpec("NonMaxSuppression", (5, 8), fields=_V3, dim_inputs=(2,), infer=_infer_version(5)),
    OpSpec("NonMaxSuppression", (9, 16), fields=_V3, dim_inputs=(2,), infer=_infer_version(9)),
)}
