"""--reshape SPEC (ovc --input syntax) and the API's shapes, parsed without a model."""
import re

import pytest
from hypothesis import given, strategies as st

from irvalidate.reshaping.spec import SpecError, api_shape, from_api, parse, parse_all
from irvalidate.shapes.dims import DYNAMIC, INF, Dim, format_shape


def D(lo, hi=None):
    return Dim(lo, lo if hi is None else hi)


@pytest.mark.parametrize("spec,expected", [
    ("x[1,3,512,928]", [("x", (D(1), D(3), D(512), D(928)))]),
    ("input_ids[1,2048],attention_mask[1,2048]",
     [("input_ids", (D(1), D(2048))), ("attention_mask", (D(1), D(2048)))]),
    ("[4,3,224,224]", [(None, (D(4), D(3), D(224), D(224)))]),
    ("x[?,-1, 1..8 ,..8,2..]", [("x", (DYNAMIC, DYNAMIC, D(1, 8), D(0, 8), D(2, INF)))]),
    ("s[]", [("s", ())]),
    ("/model/x:0[2, 3]", [("/model/x:0", (D(2), D(3)))]),
    ("a.b[1] , c[2]", [("a.b", (D(1),)), ("c", (D(2),))]),
])
def test_good_specs(spec, expected):
    assert parse(spec) == expected


@pytest.mark.parametrize("spec,words", [
    ("x[1,3", "not closed"), ("x[1,,3]", "not a dim"), ("x[5..2]", "empty"),
    ("x[a]", "not a dim"), ("x[1]y[2]", "expected ','"), ("", "expected NAME[dims]"),
    ("x", "expected NAME[dims]"), ("x[1],[2]", "one input"), ("x[1]]", "expected ','"),
    ("x[[1]]", "not a dim"), ("x[-2]", "not a dim"), ("x[1],", "no [dims]"),
    ("x[99999999999999999999]", "too large"),
])
def test_bad_specs_say_why(spec, words):
    with pytest.raises(SpecError, match=re.escape(words)):
        parse(spec)


def test_a_bare_shape_goes_alone():
    with pytest.raises(SpecError, match="one input"):
        parse_all(["[1,2]", "x[3]"])
    assert parse_all(["x[1]", "y[2]"]) == [("x", (D(1),)), ("y", (D(2),))]


dims = st.one_of(st.integers(0, 10**6).map(D), st.just(DYNAMIC),
                 st.tuples(st.integers(0, 100), st.integers(0, 100)).map(
                     lambda p: D(min(p), max(p))),
                 st.integers(0, 100).map(lambda lo: D(lo, INF)))


@given(st.lists(st.tuples(st.from_regex(r"[A-Za-z_/.:][A-Za-z0-9_/.:]{0,12}", fullmatch=True),
                          st.lists(dims, max_size=6).map(tuple)), min_size=1, max_size=4))
def test_what_format_shape_writes_parses_back(inputs):
    """A spec written the way OpenVINO prints shapes reads back as the same shapes."""
    spec = ",".join(f"{name}{format_shape(shape, False)}" for name, shape in inputs)
    assert parse(spec) == [(name, shape) for name, shape in inputs]


def test_api_shapes():
    assert api_shape([1, -1, (2, 8), "3..", "?"]) == (D(1), DYNAMIC, D(2, 8), D(3, INF), DYNAMIC)
    assert api_shape("[1,3..5,?]") == (D(1), D(3, 5), DYNAMIC)
    assert api_shape((4, (1, None))) == (D(4), D(1, INF))
    assert from_api({"x": [1, 2]}) == [("x", (D(1), D(2)))]
    assert from_api([1, 2]) == [(None, (D(1), D(2)))]
    for bad in ([-3], [True], [(5, 2)], [1.5], 7, [[1, 2, 3]]):
        with pytest.raises(SpecError):
            api_shape(bad)
