"""The README's promises: its two set-up commands are what CI runs; every rule is documented."""
import re
from pathlib import Path

from irvalidate.rules import INTERNAL_ERROR, RULES

ROOT = Path(__file__).parent.parent


def readme_commands():
    return re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)


def test_readme_has_two_setup_commands_and_ci_runs_them():
    commands = readme_commands()
    assert len(commands) == 2
    ci = (ROOT / ".ci" / "run").read_text()
    for command in commands:
        assert command in ci


def test_every_rule_is_documented_in_readme():
    text = (ROOT / "README.md").read_text()
    for rule in RULES:
        assert f"| {rule.CODE} | {rule.SLUG} | {rule.LEVEL} |" in text
    assert f"| {INTERNAL_ERROR.CODE} | {INTERNAL_ERROR.SLUG} |" in text


def test_every_rule_module_has_metadata_and_examples():
    for rule in RULES:
        assert re.fullmatch(r"IRV\d{3}", rule.CODE) and re.fullmatch(r"[a-z-]+", rule.SLUG)
        assert rule.LEVEL in ("error", "warning", "info") and rule.SUMMARY
        doc = rule.__doc__ or ""
        assert "Passing" in doc and "Failing" in doc, rule.__name__
        assert callable(rule.check)


def test_the_readme_lists_every_inferred_op():
    from irvalidate.ops.support.registry import markdown
    text = (ROOT / "README.md").read_text()
    listed = text.split("<!-- ops:start -->\n", 1)[1].split("\n<!-- ops:end -->", 1)[0]
    assert listed == markdown(), "regenerate with python -m irvalidate.ops.support.registry"
