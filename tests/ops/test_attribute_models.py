"""The attribute readers' direct path against their pydantic models.

A layer's attributes are read by running each field's own parser (``direct``); only when one
does not parse is the pydantic-core model run, to word every failure.  That is exact only
if, whatever the text, the direct path either gives what the model gives or declines where
the model fails: checked here on generated and hand-picked attribute texts, for every kind
of field and for the two hand-written models (auto_broadcast, Broadcast's mode).
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from irvalidate.ops import broadcast
from irvalidate.ops.support import attributes, autobroadcast
from irvalidate.ops.support.attributes import Field
from irvalidate.ops.support.spec import OpError

FIELDS = [
    Field("n", "int", 7), Field("n", "uint", 0), Field("n", "ints", ()), Field("n", "uints", ()),
    Field("x", "float", 0.5), Field("x", "floats", ()), Field("b", "bool", False),
    Field("b", "bool", True), Field("m", "enum", "same_upper", ("same_upper", "same_lower", "valid")),
    Field("s", "str", ""), Field("t", "type", "f32"),
]
TEXTS = ["", " ", "0", "-1", "+3", "1.5", "1e3", "-0", "0x10", "007", "9" * 25, "-9223372036854775809",
         "18446744073709551615", "true", "FALSE", "1", "yes", "Same_Upper", "valid ", "f16", "I64",
         "u1", "1,2, 3", "1,,2", ",", " 4 , 5 ", "nan", "inf", "-.5", "٣", "1_000", "a,b", "é"]
TEXT = st.one_of(st.sampled_from(TEXTS), st.text(max_size=12),
                 st.text(alphabet="0123456789+-., eE_x", max_size=10))


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b)


def check_field(field: Field, text) -> None:
    found = attributes.direct((field,), (text,))
    try:
        model = attributes._validated("test", (field,), (text,))
    except OpError:
        assert found is None, (field, text, found)
        return
    assert found is not None and same(found, model), (field, text, found, model)


@pytest.mark.parametrize("field", FIELDS, ids=lambda f: f"{f.kind}-{f.default}")
@pytest.mark.parametrize("text", TEXTS + [None])
def test_fields_hand_picked(field, text):
    check_field(field, text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FIELDS), TEXT)
def test_fields_generated(field, text):
    check_field(field, text)


def check_auto_broadcast(mode, axis) -> None:
    found = autobroadcast.direct((mode, axis))
    try:
        model = autobroadcast._validated((mode, axis))
    except OpError:
        assert found is None, (mode, axis, found)
        return
    assert found == model and type(found.axis) is int, (mode, axis, found, model)


MODES = [None, "numpy", "NumPy", "none", "explicit", "pdpd", "PDPD", "bidirectional", " numpy", ""]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("axis", [None, "0", "-1", "2", "1.9", "x", "", "+4", "99999999999999999999"])
def test_auto_broadcast_hand_picked(mode, axis):
    check_auto_broadcast(mode, axis)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.none(), st.sampled_from(MODES), st.text(max_size=8)),
       st.one_of(st.none(), TEXT))
def test_auto_broadcast_generated(mode, axis):
    check_auto_broadcast(mode, axis)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["none", "numpy", "pdpd", "bidirectional"]), st.one_of(st.none(), TEXT))
def test_broadcast_mode(mode, axis):
    raw = {"mode": mode} if axis is None else {"mode": mode, "axis": axis, "axis_given": True}
    found = broadcast.direct(raw)
    try:
        model = attributes.validate(broadcast.BroadcastMode, raw, {"mode": "mode", "axis": "axis"})
    except OpError:
        assert found is None, (raw, found)
        return
    assert found == model and type(found["axis"]) is int, (raw, found, model)
