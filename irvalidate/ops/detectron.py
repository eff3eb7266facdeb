"""The ExperimentalDetectron ops (v6; ``version="experimental"`` reads as opset6 too):
ExperimentalDetectronDetectionOutput, ExperimentalDetectronGenerateProposalsSingleImage,
ExperimentalDetectronPriorGridGenerator, ExperimentalDetectronROIFeatureExtractor and
ExperimentalDetectronTopKROIs (experimental_detectron_*_shape_inference).

Their outputs are sized by attributes, not by the data: ``max_detections_per_image``,
``post_nms_count`` and ``max_rois`` give the box count as a dim (-1 is ``?``, below that 0,
and 0 when the attribute is missing), ``output_size`` the pooled size.  The inputs are only
checked: a rank where it is static, a dim where it could not match (``compatible``), and one
floating element type for all of them (TopKROIs: its two inputs).  The PriorGridGenerator
grid comes from the feature map (``h`` and ``w`` are read but not used), flattened into
``[H*W*priors, 4]`` when ``flatten`` (false when missing).
"""
from __future__ import annotations

from ..shapes import arith
from ..shapes.dims import DYNAMIC, Dim, Shape, format_shape, static
from .support.attributes import Field, read
from .support.checking import fits, one_floating_type, ranked
from .support.node import Node
from .support.spec import ARITY, INCOMPATIBLE, OpError, OpSpec, Result

_DETECTION = (Field("score_threshold", "float", 0.0), Field("nms_threshold", "float", 0.0),
              Field("max_delta_log_wh", "float", 0.0), Field("num_classes", "int", 0),
              Field("post_nms_count", "int", 0), Field("max_detections_per_image", "int", 0),
              Field("class_agnostic_box_regression", "bool", False),
              Field("deltas_weights", "floats", ()))
_PROPOSALS = (Field("min_size", "float", 0.0), Field("nms_threshold", "float", 0.0),
              Field("post_nms_count", "int", 0), Field("pre_nms_count", "int", 0))
_GRID = (Field("flatten", "bool", False), Field("h", "int", 0), Field("w", "int", 0),
         Field("stride_x", "float", 0.0), Field("stride_y", "float", 0.0))
_FEATURES = (Field("output_size", "int", 0), Field("sampling_ratio", "int", 0),
             Field("pyramid_scales", "ints", ()), Field("aligned", "bool", False))
_TOPK = (Field("max_rois", "int", 0),)


def _start(node: Node, labels, how: str):
    node.require_inputs((len(labels),))
    node.show(labels)
    node.how = how
    return one_floating_type(node, labels)


def _boxes(node: Node, index: int, what: str) -> Shape:
    """A 2-D input of boxes, one per row, 4 coordinates each (when its rank is static)."""
    shape = ranked(node, index, what, 2)
    if shape is not None:
        fits(shape[1], 4, f"{what} {format_shape(shape)} must have 4 columns")
    return shape


def _detection(node: Node) -> Result:
    labels = ["input_rois", "input_deltas", "input_scores", "input_im_info"]
    et = _start(node, labels, "max_detections_per_image detections")
    attrs = read(node, "ExperimentalDetectronDetectionOutput", _DETECTION)
    classes, most = attrs[3], attrs[5]
    rois = _boxes(node, 0, "input_rois")
    deltas = ranked(node, 1, "input_deltas", 2)
    if deltas is not None:
        fits(deltas[1], arith.from_int(classes * 4), f"input_deltas {format_shape(deltas)} must have "
                                                     f"num_classes ({classes}) * 4 columns")
    scores = ranked(node, 2, "input_scores", 2)
    if scores is not None:
        fits(scores[1], arith.from_int(classes), f"input_scores {format_shape(scores)} must have "
                                                 f"num_classes ({classes}) columns")
    im_info = ranked(node, 3, "input_im_info", 2)
    if im_info is not None:
        fits(im_info[0], 1, f"input_im_info {format_shape(im_info)} must be [1,3]")
        fits(im_info[1], 3, f"input_im_info {format_shape(im_info)} must be [1,3]")
    if rois is not None and deltas is not None and scores is not None:
        rows = arith.merge(rois[0], deltas[0])
        if rows is None or arith.merge(rows, scores[0]) is None:
            raise OpError(INCOMPATIBLE, f"input_rois {format_shape(rois)}, input_deltas "
                                        f"{format_shape(deltas)} and input_scores "
                                        f"{format_shape(scores)} must have the same number of rows")
    count = arith.from_int(most)
    return Result(((count, static(4)), (count,), (count,)), (et, "i32", et))


def _proposals(node: Node) -> Result:
    labels = ["input_im_info", "input_anchors", "input_deltas", "input_scores"]
    et = _start(node, labels, "post_nms_count proposals")
    count = arith.from_int(read(node, "ExperimentalDetectronGenerateProposalsSingleImage", _PROPOSALS)[2])
    im_info = ranked(node, 0, "input_im_info", 1)
    if im_info is not None:
        fits(im_info[0], 3, f"input_im_info {format_shape(im_info)} must be [3]")
    _boxes(node, 1, "input_anchors")
    deltas = ranked(node, 2, "input_deltas", 3)
    scores = ranked(node, 3, "input_scores", 3)
    if deltas is not None and scores is not None:
        for axis, what in ((1, "height"), (2, "width")):
            fits(deltas[axis], scores[axis], f"input_deltas {format_shape(deltas)} and input_scores "
                                             f"{format_shape(scores)} must have the same {what}")
    return Result(((count, static(4)), (count,)), (et, et))


def _grid(node: Node) -> Result:
    labels = ["priors", "feature_map", "im_data"]
    et = _start(node, labels, "one prior per feature map cell")
    flatten = read(node, "ExperimentalDetectronPriorGridGenerator", _GRID)[0]
    priors = _boxes(node, 0, "priors")
    grid = ranked(node, 1, "feature_map", 4)
    image = ranked(node, 2, "im_data", 4)
    if grid is not None and image is not None:
        fits(grid[0], image[0], f"feature_map {format_shape(grid)} and im_data {format_shape(image)} "
                                f"must have the same batch")
    four = static(4)
    if flatten:
        cells = DYNAMIC
        if priors is not None and grid is not None:
            cells = arith.mul(arith.mul(grid[2], grid[3]), priors[0])
        return Result(((cells, four),), (et,))
    height, width = (DYNAMIC, DYNAMIC) if grid is None else (grid[2], grid[3])
    return Result(((height, width, DYNAMIC if priors is None else priors[0], four),), (et,))


def _features(node: Node) -> Result:
    if len(node.inputs) < 2:
        raise OpError(ARITY, f"ExperimentalDetectronROIFeatureExtractor takes the rois and 1 or "
                             f"more pyramid levels, but {len(node.inputs)} input(s) are connected")
    labels = ["rois"] + [f"level {i}" for i in range(1, len(node.inputs))]
    node.show(labels)
    node.how = "output_size x output_size features per roi"
    et = one_floating_type(node, labels)
    size = arith.from_int(read(node, "ExperimentalDetectronROIFeatureExtractor", _FEATURES)[0])
    rois = _boxes(node, 0, "rois")
    count = DYNAMIC if rois is None else rois[0]
    channels = None
    for index in range(1, len(node.inputs)):
        level = ranked(node, index, labels[index], 4)
        if level is None:
            continue
        fits(level[0], 1, f"{labels[index]} (input {index}) {format_shape(level)} must have a batch of 1")
        channels = level[1] if channels is None else _channels(channels, level, labels[index], index)
    out: Shape = (count, DYNAMIC if channels is None else channels, size, size)
    return Result((out, (count, static(4))), (et, et))


def _channels(channels: Dim, level: tuple[Dim, ...], label: str, index: int) -> Dim:
    merged = arith.merge(channels, level[1])
    if merged is None:
        raise OpError(INCOMPATIBLE, f"{label} (input {index}) {format_shape(level)} has "
                                    f"{level[1]} channels where the levels before have {channels}: "
                                    f"every level must have the same channels")
    return merged


def _topk(node: Node) -> Result:
    labels = ["input_rois", "rois_probs"]
    et = _start(node, labels, "the max_rois best rois")
    count = arith.from_int(read(node, "ExperimentalDetectronTopKROIs", _TOPK)[0])
    rois = _boxes(node, 0, "input_rois")
    probs = ranked(node, 1, "rois_probs", 1)
    if rois is not None and probs is not None:
        fits(rois[0], probs[0], f"input_rois {format_shape(rois)} and rois_probs {format_shape(probs)} "
                                f"must have one probability per roi")
    return Result(((count, static(4)),), (et,))


def _spec(name: str, fields, infer, own=()) -> OpSpec:
    return OpSpec(name, (6, 16), fields=fields, infer=infer, own_types=own)


SPECS = {
    "experimentaldetectrondetectionoutput": (
        _spec("ExperimentalDetectronDetectionOutput", _DETECTION, _detection, (1,)),),
    "experimentaldetectrongenerateproposalssingleimage": (
        _spec("ExperimentalDetectronGenerateProposalsSingleImage", _PROPOSALS, _proposals),),
    "experimentaldetectronpriorgridgenerator": (
        _spec("ExperimentalDetectronPriorGridGenerator", _GRID, _grid),),
    "experimentaldetectronroifeatureextractor": (
        _spec("ExperimentalDetectronROIFeatureExtractor", _FEATURES, _features),),
    "experimentaldetectrontopkrois": (_spec("ExperimentalDetectronTopKROIs", _TOPK, _topk),),
}
