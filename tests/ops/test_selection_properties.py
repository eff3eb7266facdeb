"""Property tests (hypothesis) of the bounds the NMS variants, the proposal and prior-grid
generators and the roi ops infer, against reference maths on concrete values.

For bounded intervals, OpenVINO's bound on a selected count is the largest count any
concrete input shape inside the intervals gives (every factor is monotone), with 0 as the
lower bound; a product of dims is the interval of the products; a merged dim holds the
values both intervals hold.  The layers are inferred through the registry, on a stub graph
(no file, no runtime).
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import given, settings, strategies as st

from irvalidate.ir.records import Layer
from irvalidate.ops.support import registry
from irvalidate.ops.support.node import Node
from irvalidate.ops.support.spec import OpError, Value
from irvalidate.shapes.dims import INF, Dim, static

SETTINGS = settings(max_examples=150, deadline=None)


class _Graph:
    """Just enough of the analysis for a layer whose value inputs are Consts."""

    def __init__(self, consts: dict[str, list[int]]) -> None:
        self.consts = consts

    def read_const(self, layer: Layer) -> list[int]:
        return self.consts[layer.id]

    def tensor_of(self, value):
        return None

    def input_values(self, layer):
        return []


def _layer(lid: str, kind: str, version: str = "opset1", data=None) -> Layer:
    return Layer(lid, f"l{lid}", kind, version, 1, data or {}, (), ())


def infer(kind: str, version: str, inputs: Sequence, data: dict[str, str]):
    """The output shapes, or None when the layer is refused.  ``inputs``: shapes (tuples of
    Dim) of f32 inputs, or ``(values, et)`` for a scalar Const."""
    consts, values = {}, []
    for i, spec in enumerate(inputs):
        if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], list):
            consts[str(100 + i)] = spec[0]
            values.append(Value((), spec[1], _layer(str(100 + i), "Const")))
        else:
            values.append(Value(spec, "f32"))
    node = Node(_layer("1", kind, version, data), values, _Graph(consts))
    try:
        return registry.lookup(kind, version).infer(node).shapes
    except OpError:
        return None


@st.composite
def bounded(draw, most=6):
    lo = draw(st.integers(0, most))
    return Dim(lo, draw(st.integers(lo, most)))


def _values(d: Dim) -> range:
    return range(d.lo, d.hi + 1)


def _count(boxes: int, classes: int, images: int, top: int, keep: int) -> int:
    """The most boxes one concrete configuration can select."""
    per_class = min(boxes, top) if top > -1 else boxes
    per_image = per_class * classes
    if keep > -1:
        per_image = min(per_image, keep)
    return per_image * images


def _most(boxes: Dim, classes: Dim, images: Dim, top: int, keep: int) -> int:
    return max(_count(m, c, b, top, keep) for m, c, b in
               itertools.product(_values(boxes), _values(classes), _values(images)))


limit = st.one_of(st.just(-1), st.integers(0, 12))


@SETTINGS
@given(boxes=bounded(), classes=bounded(), images=bounded(), top=limit, keep=limit,
       kind=st.sampled_from([("MatrixNms", "opset8"), ("MulticlassNms", "opset8"), ("MulticlassNms", "opset9")]))
def test_matrix_and_multiclass_bound_the_count_by_its_largest_case(boxes, classes, images, top, keep, kind):
    shapes = infer(kind[0], kind[1], [(images, boxes, static(4)), (images, classes, boxes)],
                   {"nms_top_k": str(top), "keep_top_k": str(keep)})
    want = Dim(0, _most(boxes, classes, images, top, keep))
    assert shapes == ((want, static(6)), (want, static(1)), (images,))


@SETTINGS
@given(boxes=bounded(), classes=bounded(), images=bounded(), top=limit, keep=limit)
def test_multiclass_with_roisnum_counts_classes_from_the_boxes(boxes, classes, images, top, keep):
    shapes = infer("MulticlassNms", "opset9", [(classes, boxes, static(4)), (classes, boxes), (images,)],
                   {"nms_top_k": str(top), "keep_top_k": str(keep)})
    want = Dim(0, _most(boxes, classes, images, top, keep))
    assert shapes == ((want, static(6)), (want, static(1)), (images,))


@SETTINGS
@given(boxes=bounded(), classes=bounded(), images=bounded(), k=st.integers(0, 12))
def test_nms_rotated_bounds_the_count_by_its_largest_case(boxes, classes, images, k):
    shapes = infer("NMSRotated", "opset13", [(images, boxes, static(5)), (images, classes, boxes), ([k], "i64"),
                                             ([0], "f32"), ([0], "f32")], {})
    want = Dim(0, _most(boxes, classes, images, k, -1))
    assert shapes == ((want, static(3)), (want, static(3)), (static(1),))


def _times(a: int, b: int) -> int:
    return 0 if 0 in (a, b) else INF if INF in (a, b) else a * b


@SETTINGS
@given(boxes=bounded(), classes=bounded(), images=bounded(), top=limit, keep=limit,
       unbounded=st.sets(st.sampled_from(["boxes", "classes", "images"]), min_size=1),
       kind=st.sampled_from([("MatrixNms", "opset8"), ("MulticlassNms", "opset9")]))
def test_an_unbounded_factor_leaves_the_count_unbounded(boxes, classes, images, top, keep, unbounded, kind):
    """With an unbounded dim the upper bounds multiply with 0 * inf = 0, and a limit applies
    only to a bounded count: an unbounded box count is not capped by nms_top_k (the runtime
    takes min(-1, k)), nor an unbounded per-image count by keep_top_k."""
    dims = {"boxes": boxes, "classes": classes, "images": images}
    for name in unbounded:
        dims[name] = Dim(dims[name].lo, INF)
    m, c, b = dims["boxes"], dims["classes"], dims["images"]
    shapes = infer(kind[0], kind[1], [(b, m, static(4)), (b, c, m)], {"nms_top_k": str(top), "keep_top_k": str(keep)})
    per_class = INF if m.hi == INF else min(m.hi, top) if top > -1 else m.hi
    per_image = _times(per_class, c.hi)
    if keep > -1 and per_image != INF:
        per_image = min(per_image, keep)
    assert shapes[0][0] == Dim(0, _times(per_image, b.hi))


@SETTINGS
@given(height=bounded(9), width=bounded(9), priors=bounded(9))
def test_the_flattened_grid_is_the_interval_of_the_products(height, width, priors):
    shapes = infer("ExperimentalDetectronPriorGridGenerator", "opset6",
                   [(priors, static(4)), (static(1), static(8), height, width), (static(1), static(3), Dim(0, INF),
                                                                                  Dim(0, INF))], {"flatten": "true"})
    products = [h * w * p for h in _values(height) for w in _values(width) for p in _values(priors)]
    assert shapes == ((Dim(min(products), max(products)), static(4)),)


@SETTINGS
@given(info=bounded(), deltas=bounded(), scores=bounded(), post=st.integers(1, 50))
def test_proposals_are_bounded_by_the_largest_batch(info, deltas, scores, post):
    shapes = infer("GenerateProposals", "opset9",
                   [(info, static(3)), (static(2), static(3), static(1), static(4)),
                    (deltas, static(4), static(2), static(3)), (scores, static(1), static(2), static(3))],
                   {"post_nms_count": str(post), "pre_nms_count": "10"})
    common = set(_values(info)) & set(_values(deltas)) & set(_values(scores))
    if set(_values(deltas)).isdisjoint(_values(scores)) or set(_values(deltas)).isdisjoint(_values(info)):
        assert shapes is None  # the runtime checks those pairs
        return
    assert shapes is not None
    batch = shapes[2][0]
    # the batch merges the inputs in order, skipping one that would empty it
    merged: set | None = None
    for d in (info, deltas, scores):
        values = set(_values(d))
        if merged is None or merged & values:
            merged = values if merged is None else merged & values
    assert set(_values(batch)) == merged and (not common or merged == common)
    assert shapes[0] == (Dim(0, max(merged) * post), static(4)) and shapes[1] == (shapes[0][0],)


@SETTINGS
@given(rois=bounded(), indices=bounded())
def test_roi_align_rotated_keeps_the_roi_counts_both_inputs_allow(rois, indices):
    shapes = infer("ROIAlignRotated", "opset15",
                   [(static(1), static(3), static(8), static(8)), (rois, static(5)), (indices,)],
                   {"pooled_h": "2", "pooled_w": "3"})
    both = set(_values(rois)) & set(_values(indices))
    if not both:
        assert shapes is None
    else:
        assert shapes == ((Dim(min(both), max(both)), static(3), static(2), static(3)),)


@SETTINGS
@given(rows=st.lists(bounded(), min_size=3, max_size=3))
def test_detection_output_refuses_rows_no_value_satisfies(rows):
    shapes = infer("ExperimentalDetectronDetectionOutput", "opset6",
                   [(rows[0], static(4)), (rows[1], static(8)), (rows[2], static(2)), (static(1), static(3))],
                   {"num_classes": "2", "max_detections_per_image": "5"})
    common = set(_values(rows[0])) & set(_values(rows[1])) & set(_values(rows[2]))
    assert (shapes is None) == (not common)
