"""Which rules run on a file, and at which level: select/ignore by code prefix or slug.

As in flake8, the most specific selector wins: ``select = ["IRV1"]`` with
``ignore = ["IRV10"]`` runs IRV110 but not IRV101; ``select = ["IRV101"]`` beats
``ignore = ["IRV1"]``.  A slug is as specific as a full code.  On a tie, ignore wins.
IRV000-IRV005 are selected whatever ``select`` says (see ``enabled``).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a Config or config.Defaults; importing the model would import pydantic
    from .config import Settings


def _specificity(selectors: Iterable[str], code: str, slug: str) -> int:
    """Length of the longest selector that matches the rule; -1 when none does."""
    best = -1
    for selector in selectors:
        if selector == slug:
            best = max(best, len(code))
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def ignores_for(config: Settings, path: str) -> list[str]:
    """ignore + extend-ignore + every per-file-ignores entry whose pattern matches ``path``
    (globs.py: ruff's patterns, anchored at the configuration file's folder)."""
    found = list(config.ignore) + list(config.extend_ignore)
    for glob, selectors in config.per_file_ignores.items():
        from .globs import match  # only with per-file-ignores: most runs have none
        if match([glob], path, config.root):
            found.extend(selectors)
    return found


def enabled(config: Settings, rule: ModuleType, ignores: list[str]) -> bool:
    """Whether a rule runs.  internal-error and the rules that say a file cannot be read as
    an IR at all (``ALWAYS_SELECTED``) run whatever ``select`` says: a ``select`` that left
    them out would pass a truncated or garbage model (an ``ignore`` naming them still wins)."""
    code, slug = rule.CODE, rule.SLUG
    chosen = _specificity(config.select, code, slug) if config.select else 0
    if getattr(rule, "ALWAYS_SELECTED", False):
        chosen = max(chosen, 0)
    return chosen >= 0 and chosen > _specificity(ignores, code, slug)


def level(config: Settings, code: str, slug: str, default: str) -> str:
    """The level of the most specific ``severity`` entry that names the rule; between
    entries as specific (a code and the rule's slug), the last one set."""
    best, chosen = -1, default
    for selector, value in config.severity.items():
        score = _specificity([selector], code, slug)
        if score >= best and score >= 0:
            best, chosen = score, value
    return chosen


def _as_prefix(selector: str) -> str:
    """A severity key as a code prefix: a slug is its rule's code."""
    from ..rules import BY_CODE, BY_SLUG, canonical_slug
    rule = BY_SLUG.get(canonical_slug(selector))
    return rule.CODE if rule is not None and selector.upper() not in BY_CODE else selector.upper()


def severity_over(files: Mapping[str, str], command_line: Mapping[str, str]) -> dict[str, str]:
    """A file's ``severity`` with the command line's on top: the command line wins over the
    files for every rule it names, however either spells it (a code, a prefix, a slug), so a
    file's entry for a rule a command-line entry covers is dropped; the command line's own
    entries come last, in the order given."""
    given = [_as_prefix(key) for key in command_line]
    kept = {key: value for key, value in files.items()
            if not any(_as_prefix(key).startswith(prefix) for prefix in given)}
    return {**kept, **command_line}


def plan(config: Settings, path: str, rules: Iterable[ModuleType]) -> list[tuple[ModuleType, str]]:
    """The rules to run on ``path``, each with the level its findings get."""
    ignores = ignores_for(config, path)
    return [(rule, level(config, rule.CODE, rule.SLUG, rule.LEVEL)) for rule in rules
            if enabled(config, rule, ignores)]
