"""``irvalidate rules`` and ``irvalidate explain CODE``: the rules, from their own modules."""
from __future__ import annotations

import inspect
from typing import List

from .rules import INTERNAL_ERROR, RULES, get


def rules_table() -> str:
    lines = [f"{'code':<7} {'slug':<28} {'level':<8} summary"]
    lines.append(f"{INTERNAL_ERROR[0]:<7} {INTERNAL_ERROR[1]:<28} {'error':<8} "
                 f"irvalidate itself failed on a file (a bug; please report it)")
    for rule in RULES:
        lines.append(f"{rule.CODE:<7} {rule.SLUG:<28} {rule.LEVEL:<8} {rule.SUMMARY}")
    return "\n".join(lines) + "\n"


def explain(key: str) -> str:
    """The rule's documentation: its docstring, with the passing and failing examples."""
    rule = get(key)
    doc = inspect.cleandoc(rule.__doc__ or "")
    header: List[str] = [f"{rule.CODE} {rule.SLUG} (default level: {rule.LEVEL})", ""]
    body = doc.split("\n", 1)[1].lstrip("\n") if doc.startswith(rule.CODE) else doc
    return "\n".join(header) + body + "\n"
