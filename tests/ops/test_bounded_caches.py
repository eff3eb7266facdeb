"""The process-wide caches keyed on attribute text from the file are bounded as the memo is:
a hostile file writing a new text on each of a million layers must not grow them."""
from __future__ import annotations

from types import SimpleNamespace

from irvalidate.ops import broadcast
from irvalidate.ops.support import attributes, autobroadcast, memo
from irvalidate.ops.support.attributes import Field

#: more distinct texts than any cache may hold
TEXTS = 2 * memo.SIZE + 1


def _node(data: dict, inputs: int = 2) -> SimpleNamespace:
    return SimpleNamespace(layer=SimpleNamespace(data=data), inputs=[None] * inputs)


def test_attribute_reads_are_bounded():
    fields = (Field("axis", "int", 0),)
    for i in range(TEXTS):
        assert attributes.read({"axis": str(i)}, "Test", fields) == (i,)
    assert 0 < len(attributes._READ) <= memo.SIZE


def test_auto_broadcast_reads_are_bounded():
    for i in range(TEXTS):
        found = autobroadcast.read(_node({"auto_broadcast": "pdpd",
                                          "auto_broadcast.auto_broadcast_axis": str(i)}))
        assert (found.mode, found.axis) == ("pdpd", i)
    assert 0 < len(autobroadcast._READ) <= memo.SIZE


def test_broadcast_modes_are_bounded():
    for i in range(TEXTS):
        found = broadcast._mode(_node({"mode": "pdpd", "mode.mode.axis": str(i)}), True)
        assert (found.mode, found.axis) == ("pdpd", i)
    assert 0 < len(broadcast._MODES) <= memo.SIZE


def test_keep_forgets_all_when_full():
    cache: dict = {}
    for i in range(memo.SIZE):
        assert memo.keep(cache, i, str(i)) == str(i)
    assert len(cache) == memo.SIZE
    memo.keep(cache, "one more", 0)
    assert cache == {"one more": 0}
