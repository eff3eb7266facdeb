"""MatrixNms-8, MulticlassNms-8/-9 and NMSRotated-13 (matrix_nms_, multiclass_nms_ and
nms_shape_inference): how many boxes they may select, as OpenVINO bounds it.

The selected count depends on the data, so the runtime gives a dim ``0..K``: K is the most
boxes per class (``nms_top_k`` or the NMSRotated ``max_output_boxes_per_class`` input, capped
by the box count's upper bound) times the classes, capped by ``keep_top_k`` per image, times
the images, on upper bounds; ``?`` when one of them is unbounded.  The shared quirks: an
unbounded box count makes a positive ``nms_top_k`` give ``?``; a ``-1`` limit means none.
MatrixNms and MulticlassNms give ``[K, 6]`` (boxes' type), ``[K, 1]`` and ``[images]``
(``output_type``); NMSRotated gives ``[K, 3]`` (``output_type``), ``[K, 3]`` (always f32)
and ``[1]``, reading ``max_output_boxes_per_class`` only when it is constant.
MulticlassNms-9 also takes ``[C, M, 4]`` boxes with ``[C, M]`` scores and a ``roisnum``
input (images = ``roisnum[0]``); version 8 refuses that third input.
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.arith import f32
from ..shapes.dims import DYNAMIC, INF, Dim, format_shape, static
from .support.attributes import Field, read
from .support.checking import REAL, fits, ranked, same_type
from .support.input_types import INDEX_TYPES, require_type
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_SORT = Field("sort_result_type", "enum", "none", ("score", "classid", "none"))
_OUTPUT = Field("output_type", "type", "i64")
_MATRIX = (_SORT, _OUTPUT, Field("nms_top_k", "int", -1), Field("keep_top_k", "int", -1),
           Field("sort_result_across_batch", "bool", False), Field("score_threshold", "float", 0.0),
           Field("background_class", "int", -1),
           Field("decay_function", "enum", "linear", ("gaussian", "linear")),
           Field("gaussian_sigma", "float", 2.0), Field("post_threshold", "float", 0.0),
           Field("normalized", "bool", True))
_MULTICLASS = (_SORT, _OUTPUT, Field("nms_top_k", "int", -1), Field("keep_top_k", "int", -1),
               Field("sort_result_across_batch", "bool", False), Field("iou_threshold", "float", 0.0),
               Field("score_threshold", "float", 0.0), Field("background_class", "int", -1),
               Field("nms_eta", "float", 1.0), Field("normalized", "bool", True))
_ROTATED = (Field("sort_result_descending", "bool", True), _OUTPUT, Field("clockwise", "bool", True))
#: the box types MatrixNms and MulticlassNms take
_BOX_TYPES = ("f32", "f16", "bf16")


def _most(d: Dim) -> int:
    """``Dimension::get_max_length``: the upper bound, -1 when there is none."""
    return -1 if d.hi >= INF else d.hi


def _up_to(d: Dim) -> Dim:
    """``Dimension(0, max_length)``: anything from none up to ``d``'s upper bound."""
    return Dim(0, d.hi)


def _output_type(value: str) -> str:
    if value not in ("i32", "i64"):
        raise OpError(ATTRIBUTE, f"attribute output_type is {value}: it must be i32 or i64")
    return value


def _limits(top: int, keep: int, background: int) -> None:
    for name, value in (("nms_top_k", top), ("keep_top_k", keep), ("background_class", background)):
        if value < -1:
            raise OpError(ATTRIBUTE, f"attribute {name} is {value}: it must be -1 or more")


def _box_types(node: Node, inputs: int) -> None:
    """boxes and scores: f32, f16 or bf16, one of them (and roisnum i32 or i64)."""
    for index, what in ((0, "boxes"), (1, "scores")):
        require_type(node, index, what, _BOX_TYPES)
    same_type(node, 1, "scores", 0, "boxes")
    if inputs == 3:
        require_type(node, 2, "roisnum", INDEX_TYPES)


def _start(node: Node, labels) -> None:
    node.show(labels[:len(node.inputs)])
    node.how = "up to the boxes the attributes let through"


def _matrix(node: Node) -> Result:
    node.require_inputs((2,))
    _start(node, ["boxes", "scores"])
    _, output, top, keep, _, _, background = read(node, "MatrixNms", _MATRIX)[:7]
    out_et = _output_type(output)
    _box_types(node, 2)
    boxes = ranked(node, 0, "boxes", 3)
    scores = ranked(node, 1, "scores", 3)
    selected, images = DYNAMIC, DYNAMIC
    if boxes is not None:
        _limits(top, keep, background)  # checked only here, with the boxes' rank known
        count = arith.from_int(min(_most(boxes[1]), top)) if top > -1 else boxes[1]
        if scores is not None:
            _batches(boxes, scores)
            fits(boxes[1], scores[2], f"boxes {format_shape(boxes)} and scores {format_shape(scores)} "
                                      f"must have as many boxes")
            count = arith.mul(count, scores[1])
            if keep > -1:
                count = arith.from_int(min(_most(count), keep))
            selected = _up_to(arith.mul(count, scores[0]))
        fits(boxes[2], 4, f"boxes {format_shape(boxes)} must have 4 coordinates per box")
        images = boxes[0]
    return _selected(node, selected, images, out_et)


def _batches(boxes: tuple[Dim, ...], scores: tuple[Dim, ...]) -> None:
    fits(boxes[0], scores[0], f"boxes {format_shape(boxes)} and scores {format_shape(scores)} "
                              f"must have the same first dim")


def _selected(node: Node, selected: Dim, images: Dim, out_et: str) -> Result:
    return Result(((selected, static(6)), (selected, static(1)), (images,)),
                  (node.inputs[0].element_type, out_et, out_et))


def _multiclass(version: int):
    def infer(node: Node) -> Result:
        node.require_inputs((2, 3) if version == 9 else (2,))
        rois = len(node.inputs) == 3
        _start(node, ["boxes", "scores", "roisnum"])
        _, output, top, keep, _, _, _, background, eta = read(node, "MulticlassNms", _MULTICLASS)[:9]
        out_et = _output_type(output)
        _box_types(node, len(node.inputs))
        _limits(top, keep, background)
        if not 0.0 <= f32(eta) <= 1.0:
            raise OpError(ATTRIBUTE, f"attribute nms_eta is {eta}: it must be within [0, 1]")
        boxes = ranked(node, 0, "boxes", 3)
        scores = ranked(node, 1, "scores", 2 if rois else 3)
        roisnum = ranked(node, 2, "roisnum", 1) if rois else None
        selected, images = DYNAMIC, DYNAMIC
        if boxes is not None:
            if scores is None:
                raise OpError(INCOMPATIBLE, f"boxes {format_shape(boxes)} have a static rank but scores "
                                            f"a dynamic one: OpenVINO's shape inference then reads a dim "
                                            f"the scores do not have and fails (\"Accessing "
                                            f"out-of-range dimension\")")
            _batches(boxes, scores)
            fits(boxes[2], 4, f"boxes {format_shape(boxes)} must have 4 coordinates per box")
            fits(boxes[1], scores[1 if rois else 2], f"boxes {format_shape(boxes)} and scores "
                                                     f"{format_shape(scores)} must have as many boxes")
            if not rois or roisnum is not None:
                classes, per = (boxes[0], roisnum[0]) if roisnum is not None else (scores[1], scores[0])
                selected = _multiclass_count(boxes[1], classes, per, top, keep)
                images = roisnum[0] if roisnum is not None else boxes[0]
        return _selected(node, selected, images, out_et)
    return infer


def _multiclass_count(boxes: Dim, classes: Dim, images: Dim, top: int, keep: int) -> Dim:
    count = arith.from_int(min(_most(boxes), top)) if top > -1 else boxes
    count = arith.mul(count, classes)  # background_class does not lower it here
    if -1 < keep < _most(count):
        count = static(keep)
    return _up_to(arith.mul(count, images))


def _rotated(node: Node) -> Result:
    node.require_inputs((5,))
    labels = ["boxes", "scores", "max_output_boxes_per_class", "iou_threshold", "score_threshold"]
    node.show(labels)
    node.how = "up to max_output_boxes_per_class boxes per class and image"
    for index in range(2, 5):
        shape = node.inputs[index].shape  # compatible with [] or [1]
        if shape is not None and shape != () and not (len(shape) == 1 and shape[0].contains(1)):
            raise OpError(INCOMPATIBLE, f"{labels[index]} (input {index}) must be a scalar or hold one "
                                        f"value, not {format_shape(shape)}")
    boxes = ranked(node, 0, "boxes", 3)
    scores = ranked(node, 1, "scores", 3)
    selected = DYNAMIC
    if boxes is not None:
        if scores is not None:
            _batches(boxes, scores)
            fits(boxes[1], scores[2], f"boxes {format_shape(boxes)} and scores {format_shape(scores)} "
                                      f"must have as many boxes")
            selected = _rotated_count(node, boxes[1], scores)
        fits(boxes[2], 5, f"boxes {format_shape(boxes)} must have 5 values per box")
    for index in (0, 1, 3, 4):
        require_type(node, index, labels[index], REAL, "a floating type")
    et = node.inputs[2].element_type
    if et in REAL or et == "boolean":
        node.note(TYPE, f"max_output_boxes_per_class (input 2) must be an integer, not {et}")
    out_et = _output_type(read(node, "NMSRotated", _ROTATED)[1])
    return Result(((selected, static(3)), (selected, static(3)), (static(1),)), (out_et, "f32", out_et))


def _rotated_count(node: Node, boxes: Dim, scores: tuple[Dim, ...]) -> Dim:
    selected = DYNAMIC
    limit = _first(node)
    if limit is not None:
        most = min(_most(boxes), limit)
        if most < -1:  # the runtime builds an empty interval: it prints, and stays, '?'
            return DYNAMIC
        selected = arith.from_int(most) if most == -1 else Dim(0, most)
    for d in (scores[0], scores[1]):
        selected = arith.mul(selected, arith.from_int(_most(d)))
    return selected


def _first(node: Node) -> int | None:
    """max_output_boxes_per_class when it is constant (as the runtime's int64)."""
    values = node.exact_values(2)
    if not values:
        return None
    value = values[0]
    return value - (1 << 64) if value >= 1 << 63 else value


SPECS = {
    "matrixnms": (OpSpec("MatrixNms", (8, 16), fields=_MATRIX, infer=_matrix, own_types=(1, 2)),),
    "multiclassnms": (
        OpSpec("MulticlassNms", (8, 8), fields=_MULTICLASS, infer=_multiclass(8), own_types=(1, 2)),
        OpSpec("MulticlassNms", (9, 16), fields=_MULTICLASS, infer=_multiclass(9), own_types=(1, 2))),
    "nmsrotated": (OpSpec("NMSRotated", (13, 16), fields=_ROTATED,
                          dim_inputs=(2,), infer=_rotated, own_types=(0, 1, 2)),),
}
