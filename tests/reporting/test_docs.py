"""reporting/docs.py: the rules' docstrings as the reports read them."""
import inspect

from hypothesis import given, strategies as st

from irvalidate.reporting.docs import cleandoc
from irvalidate.rules import ALL


def test_cleandoc_is_inspects_on_every_rule():
    for rule in ALL:
        assert cleandoc(rule.__doc__ or "") == inspect.cleandoc(rule.__doc__ or ""), rule.CODE


@given(st.text(alphabet=" \t\n\x0c\u3000ab:`", max_size=40))
def test_cleandoc_is_inspects_on_any_text(doc):
    assert cleandoc(doc) == inspect.cleandoc(doc)
