"""``irvalidate rules`` and ``irvalidate explain CODE...``: the rules, from their own modules."""
from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence

from ..rules import ALL, BY_CODE, BY_SLUG, canonical_slug
from .options import one_line_parser


def rules_table() -> str:
    lines = [f"{'code':<7} {'slug':<28} {'level':<8} summary"]
    for rule in ALL:
        lines.append(f"{rule.CODE:<7} {rule.SLUG:<28} {rule.LEVEL:<8} {rule.SUMMARY}")
    return "\n".join(lines) + "\n"


def _documents() -> dict:
    """code -> (slug, level, docstring), IRV000 first."""
    return {r.CODE: (r.SLUG, r.LEVEL, r.__doc__ or "") for r in ALL}


def codes_of(key: str) -> list[str]:
    """The codes a code, code prefix (``IRV1``, as ``--select`` takes it), slug or former slug
    names; ValueError with a suggestion when it names none."""
    if canonical_slug(key) in BY_SLUG:
        return [BY_SLUG[canonical_slug(key)].CODE]
    prefix = key.strip().upper()
    codes = [code for code in BY_CODE if prefix and code.startswith(prefix)]
    if codes:
        return codes
    from ..reporting.names import suggest
    close = suggest(key, [*BY_CODE, *BY_SLUG])
    raise ValueError(f"no such rule: {key}" + (f"; did you mean {close!r}?" if close else
                                                "; `irvalidate rules` lists them"))


def explain(code: str) -> str:
    """A rule's documentation as plain text: heading, summary, then the docstring's body
    with its passing and failing examples."""
    from ..reporting.docs import plain_text, split
    slug, level, doc = _documents()[code]
    summary, body = split(doc)
    return (f"{code} {slug} (default level: {level})\n\n{textwrap.fill(summary, 92)}\n\n"
            + plain_text(body))


def _parser(command: str) -> argparse.ArgumentParser:
    if command == "rules":
        return one_line_parser(prog="irvalidate rules", description="List every rule: "
                                       "code, slug, default level and summary.")
    parser = one_line_parser(prog="irvalidate explain", description="Show rules' "
                                     "documentation, with a passing and a failing example.")
    parser.add_argument("rules", nargs="*", metavar="CODE|SLUG", help="rule codes or slugs")
    parser.add_argument("--all", action="store_true", help="every rule, in code order")
    return parser


def run(argv: Sequence[str]) -> int:
    """``argv`` starts with ``rules`` or ``explain``."""
    parser = _parser(argv[0])
    try:
        args = parser.parse_args(argv[1:])
        if argv[0] == "explain" and not args.rules and not args.all:
            parser.error("name at least one rule, or --all")
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    from .output import write_stdout
    if argv[0] == "rules":
        write_stdout(rules_table())
        return 0
    try:
        codes = list(_documents()) if args.all else [c for key in args.rules for c in codes_of(key)]
    except ValueError as err:
        print(f"irvalidate: error: {err}", file=sys.stderr)
        return 2
    texts = [explain(code) for code in dict.fromkeys(codes)]  # each rule once, as named first
    write_stdout(f"\n{'-' * 72}\n\n".join(texts))
    return 0
