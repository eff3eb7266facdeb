"""The axis helpers every op shares (ops/support/axes): an axis normalised as
``ov::util::normalize_axis`` does it, and the scalar-or-1-D check of an axes input, with the
words their refusals carry (the runtime's own refusals are tested per op: test_reduce,
test_squeeze, test_gather...)."""
import pytest

from irvalidate.ir.records import Layer
from irvalidate.ops.support.axes import normalize, require_rank_at_most_one
from irvalidate.ops.support.node import Node
from irvalidate.ops.support.spec import INCOMPATIBLE, OpError, Value
from irvalidate.shapes.dims import static


@pytest.mark.parametrize("axis, rank, out", [(0, 3, 0), (2, 3, 2), (-1, 3, 2), (-3, 3, 0),
                                             (0, 0, 0), (-1, 0, 0)])  # a scalar counts as 1-D
def test_an_axis_in_range_counts_from_zero(axis, rank, out):
    assert normalize(axis, rank) == out


@pytest.mark.parametrize("axis, rank, scalar_as_1d, words", [
    (3, 3, True, "axis 3 is out of the range [-3, 2] of a tensor of rank 3"),
    (-4, 3, True, "axis -4 is out of the range [-3, 2] of a tensor of rank 3"),
    (1, 0, True, "axis 1 is out of the range [-1, 0] of a tensor of rank 0"),
    (0, 0, False, "axis 0 is out of the range [0, -1] of a tensor of rank 0"),
])
def test_an_axis_out_of_range_stops_inference(axis, rank, scalar_as_1d, words):
    with pytest.raises(OpError) as caught:
        normalize(axis, rank, scalar_as_1d=scalar_as_1d)
    assert (caught.value.problem.kind, caught.value.problem.message) == (INCOMPATIBLE, words)


def _node(*shapes):
    layer = Layer("1", "op", "Op", "opset1", 1, {}, (), ())
    return Node(layer, [Value(s, "i64") for s in shapes], graph=None)  # type: ignore[arg-type]


@pytest.mark.parametrize("shape, rank", [((), 0), ((static(3),), 1), (None, None)])
def test_an_axes_input_may_be_a_scalar_or_1d(shape, rank):
    assert require_rank_at_most_one(_node((static(2),), shape), 1, "axes") == rank


def test_an_axes_input_of_rank_two_stops_inference():
    with pytest.raises(OpError) as caught:
        require_rank_at_most_one(_node((static(2),), (static(1), static(2))), 1, "axes")
    assert caught.value.problem.message == "axes (input 1) must be a scalar or 1-D, but has rank 2 ([1,2])"
