"""How the stream runs each rule is one table in engine/streaming.py, keyed by rule code: each
rule is in it (``HOW``) or deliberately left to run once at the end (``AT_END``)."""
from __future__ import annotations

from pathlib import Path

from irvalidate import rules
from irvalidate.engine import streaming


def test_every_rule_is_placed_once():
    codes = {rule.CODE for rule in rules.ALL}
    assert set(streaming.HOW) | streaming.AT_END == codes
    assert set(streaming.HOW) & streaming.AT_END == set()


def test_each_way_is_one_the_stream_knows():
    assert set(streaming.HOW.values()) <= {"batch", "clean"}


def test_no_rule_module_says_it_elsewhere():
    # the table replaced a STREAMING constant in each rule module: one left there would
    # say something the engine no longer reads
    folder = Path(rules.__file__).parent
    assert [p.name for p in sorted(folder.glob("*.py")) if "STREAMING" in p.read_text()] == []
