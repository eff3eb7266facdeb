"""DetectionOutput-1 and -8: ``[1, 1, K, 7]`` (detection_output shape inference).

Inputs: box_logits ``[N, P*L*4]``, class_preds ``[N, P*C]``, proposals ``[1 or N, 1 or 2,
P*S]`` (S = 4 when ``normalized``, else 5), and optionally aux_class_preds ``[N, P*2]`` and
aux_box_preds (box_logits' shape).  L is 1 with ``share_location``, else C.

The runtime derives the prior count P (and, in v8, the class count C, which v1 takes from
``num_classes``) from the first static dim that gives it, then checks the others against it,
in a fixed order this module follows step by step: a check that runs only once P is known
must run exactly where the runtime runs it.  The batch N is box_logits[0], replaced (not
merged) by a static class_preds[0] when it is not static.  K is ``N * keep_top_k[0]`` when
positive, ``N * top_k * C`` when keep_top_k[0] is -1 and top_k positive, else ``N * P * C``
(an unknown P or C is ``?``).  A missing or empty ``keep_top_k`` crashes the runtime's reader.
The output has box_logits' element type, which is not given on: the Model Optimizer wrote FP32
on it in FP16 models, which the runtime loads (the precision of a port is not read).
"""
from __future__ import annotations

from typing import TypeGuard

from ..shapes import arith
from ..shapes.dims import DYNAMIC, Dim, Shape, compatible, static
from .support.attributes import Field, read
from .support.infer_helpers import REAL, text
from .support.input_types import require_type
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_BASE = (Field("background_label_id", "int", 0), Field("top_k", "int", -1),
         Field("variance_encoded_in_target", "bool", False), Field("keep_top_k", "ints", None),
         Field("code_type", "str", "caffe.PriorBoxParameter.CORNER"),
         Field("share_location", "bool", True), Field("nms_threshold", "float", 0.0),
         Field("confidence_threshold", "float", 0.0), Field("clip_after_nms", "bool", False),
         Field("clip_before_nms", "bool", False), Field("decrease_label_id", "bool", False),
         Field("normalized", "bool", False), Field("input_height", "uint", 1),
         Field("input_width", "uint", 1), Field("objectness_score", "float", 0.0))
_V1 = (Field("num_classes", "int", 0),) + _BASE
_CODE_TYPES = ("caffe.PriorBoxParameter.CORNER", "caffe.PriorBoxParameter.CENTER_SIZE")
_LABELS = ("box_logits", "class_preds", "proposals", "aux_class_preds", "aux_box_preds")


def _fail(message: str) -> OpError:
    return OpError(INCOMPATIBLE, message)


def _static(shape: Shape, index: int) -> TypeGuard[tuple[Dim, ...]]:
    return shape is not None and shape[index].is_static


def _classes_from_shapes(shapes, five: bool, share_location: bool, box_size: int):
    """v8: the prior and class counts the shapes give (0 where none does)."""
    logits, classes, proposals = shapes[:3]
    aux_classes, aux_boxes = (shapes[3], shapes[4]) if five else (None, None)
    for label, shape in zip(_LABELS, shapes):
        want = 3 if label == "proposals" else 2
        if shape is not None and len(shape) != want:
            raise _fail(f"{label} must have rank {want}, but has rank {len(shape)}")
    priors = classes_count = 0
    if _static(proposals, 2):
        if proposals[2].lo % box_size or proposals[2].lo == 0:
            raise _fail(f"proposals dim 2 ({proposals[2].lo}) must be a positive multiple of "
                        f"the prior box size {box_size}")
        priors = proposals[2].lo // box_size
    if not priors and five and _static(aux_classes, 1):
        if aux_classes[1].lo % 2 or aux_classes[1].lo == 0:
            raise _fail(f"aux_class_preds dim 1 ({aux_classes[1].lo}) must be a positive "
                        f"multiple of 2")
        priors = aux_classes[1].lo // 2
    sources = [("class_preds", classes, 1)]
    if not share_location:
        sources += [("box_logits", logits, 4), ("aux_box_preds", aux_boxes, 4)]
    for label, shape, per in sources:
        if classes_count or not priors or not _static(shape, 1):
            continue
        if shape[1].lo % (priors * per):
            raise _fail(f"{label} dim 1 ({shape[1].lo}) must be a multiple of "
                        f"{priors * per} ({priors} priors{' * 4' if per == 4 else ''})")
        classes_count = shape[1].lo // (priors * per)
    return priors, classes_count


def _infer_version(v8: bool):
    name, fields = ("DetectionOutput8", _BASE) if v8 else ("DetectionOutput", _V1)

    def infer(node: Node) -> Result:
        node.require_inputs((3, 5))
        values = read(node, name, fields)
        if not v8:
            num_classes, values = values[0], values[1:]
        (_label, top_k, variance_in_target, keep_top_k, code_type, share_location, _nms,
         _confidence, _clip_after, _clip_before, _decrease, normalized, *_) = values
        if not keep_top_k:
            raise OpError(ATTRIBUTE, "attribute keep_top_k is missing or empty: OpenVINO's reader "
                                     "crashes (segmentation fault) on such a layer")
        if not v8 and num_classes <= 0:
            raise OpError(ATTRIBUTE, f"attribute num_classes must be positive, not {num_classes}")
        if code_type not in _CODE_TYPES:
            raise OpError(ATTRIBUTE, f"attribute code_type must be {_CODE_TYPES[0]} or "
                                     f"{_CODE_TYPES[1]}, not {code_type!r}")
        five = len(node.inputs) == 5
        labels = _LABELS[:len(node.inputs)]
        node.show(labels)
        _types(node, five)
        shapes = [v.shape for v in node.inputs]
        box_size = 4 if normalized else 5
        priors, classes = (_classes_from_shapes(shapes, five, share_location, box_size) if v8
                           else (0, num_classes))
        batch, priors = _check(shapes, five, priors, classes, share_location, box_size,
                               variance_in_target)
        p_dim = static(priors) if priors else DYNAMIC
        c_dim = static(classes) if classes else DYNAMIC
        if keep_top_k[0] > 0:
            count = arith.mul(batch, arith.from_int(keep_top_k[0]))
            node.how = f"keep_top_k {keep_top_k[0]} per image"
        elif keep_top_k[0] == -1 and top_k > 0:
            count = arith.mul(arith.mul(batch, arith.from_int(top_k)), c_dim)
            node.how = f"top_k {top_k} per class and image ({text(c_dim)} classes)"
        else:
            count = arith.mul(arith.mul(batch, p_dim), c_dim)
            node.how = f"every prior ({text(p_dim)}) of every class ({text(c_dim)}) and image"
        # the runtime's output has box_logits' type, but the Model Optimizer wrote FP32 on
        # this port of FP16 models (real files loaded by read_model do): not judged
        return Result(((static(1), static(1), count, static(7)),), (None,))
    return infer


def _types(node: Node, five: bool) -> None:
    require_type(node, 0, "box_logits", REAL, "floating point")
    require_type(node, 2, "proposals", REAL, "floating point")
    pairs = [(1, 0)] + ([(3, 1), (4, 0)] if five else [])
    for index, like in pairs:
        et, want = node.inputs[index].element_type, node.inputs[like].element_type
        if et and want and et != want:
            node.note(TYPE, f"{_LABELS[index]} (input {index}) must have the element type of "
                            f"{_LABELS[like]} ({want}), not {et}")


def _priors(priors: int, value: int, per: int, label: str, unit: str) -> int:
    """The prior count a static dim of ``priors * per`` gives (when none is known yet) or
    must agree with."""
    if not priors:
        if value % per:
            raise _fail(f"{label} ({value}) must be a multiple of {unit}")
        return value // per
    if value != priors * per:
        raise _fail(f"{label} is {value}, but {priors} priors of {unit} give {priors * per}")
    return priors


def _check(shapes: list[Shape], five: bool, priors: int, classes: int, share_location: bool,
           box_size: int, variance_in_target: bool) -> tuple[Dim, int]:
    """The runtime's checks in its order; gives (N, P)."""
    logits, class_preds, proposals = shapes[:3]
    loc_classes = 1 if share_location else classes
    batch: Dim = DYNAMIC
    known = False
    if logits is not None:
        if len(logits) != 2:
            raise _fail(f"box_logits must have rank 2, but has rank {len(logits)}")
        batch, known = logits[0], True
        if not priors and logits[1].is_static:
            if loc_classes == 0 or logits[1].lo % (loc_classes * 4):
                raise _fail(f"box_logits dim 1 ({logits[1].lo}) must be a multiple of "
                            f"{loc_classes * 4} (4 per location class)")
            priors = logits[1].lo // (loc_classes * 4)
        expected = static(priors * loc_classes * 4)
        if priors > 0 and loc_classes > 0 and not compatible(logits[1], expected):
            raise _fail(f"box_logits dim 1 is {text(logits[1])}, but {priors} priors give "
                        f"{priors * loc_classes * 4}")
    if class_preds is not None:
        if len(class_preds) != 2:
            raise _fail(f"class_preds must have rank 2, but has rank {len(class_preds)}")
        if (not known or not batch.is_static) and class_preds[0].is_static:
            batch, known = class_preds[0], True
        elif not compatible(class_preds[0], batch):
            raise _fail(f"class_preds dim 0 ({text(class_preds[0])}) differs from the batch "
                        f"{text(batch)} of box_logits")
        if class_preds[1].is_static and classes:
            priors = _priors(priors, class_preds[1].lo, classes, "class_preds dim 1",
                             f"{classes} classes")
    if proposals is not None:
        if len(proposals) != 3:
            raise _fail(f"proposals must have rank 3, but has rank {len(proposals)}")
        if not compatible(proposals[0], static(1)) and not compatible(proposals[0], batch):
            raise _fail(f"proposals dim 0 ({text(proposals[0])}) must be 1 or the batch "
                        f"{text(batch)}")
        second = 1 if variance_in_target else 2
        if not compatible(proposals[1], static(second)):
            raise _fail(f"proposals dim 1 must be {second} (variance_encoded_in_target is "
                        f"{str(variance_in_target).lower()}), not {text(proposals[1])}")
        if proposals[2].is_static:
            priors = _priors(priors, proposals[2].lo, box_size, "proposals dim 2",
                             f"the prior box size {box_size}")
    if five:
        priors = _check_aux(shapes, batch, priors)
    return batch, priors


def _check_aux(shapes: list[Shape], batch: Dim, priors: int) -> int:
    """The checks of the two auxiliary inputs (DetectionOutput-8 with five); gives P."""
    logits, aux_classes, aux_boxes = shapes[0], shapes[3], shapes[4]
    if aux_classes is not None:
        if len(aux_classes) != 2:
            raise _fail(f"aux_class_preds must have rank 2, but has rank {len(aux_classes)}")
        if not compatible(aux_classes[0], batch):
            raise _fail(f"aux_class_preds dim 0 ({text(aux_classes[0])}) differs from the "
                        f"batch {text(batch)}")
        if priors and not compatible(aux_classes[1], static(priors * 2)):
            raise _fail(f"aux_class_preds dim 1 is {text(aux_classes[1])}, but {priors} "
                        f"priors give {priors * 2}")
        if aux_classes[1].is_static:
            priors = aux_classes[1].lo // 2
    if not arith.compatible_shapes(aux_boxes, logits):
        raise _fail(f"aux_box_preds {text(aux_boxes)} must have the shape of box_logits "
                    f"{text(logits)}")
    return priors


SPECS = {"detectionoutput": (
    OpSpec("DetectionOutput", (1, 7), fields=_V1, infer=_infer_version(False)),
    OpSpec("DetectionOutput", (8, 16), fields=_BASE, infer=_infer_version(True)),
)}
