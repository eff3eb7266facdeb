"""``compat``: what a change to a model's interface breaks.  Two interfaces (``model.py``)
are compared by the compat rules (``rules.COMPAT_RULES``, IRV401-IRV416), each run at the
level the configuration gives it, as a check runs its rules; the findings are located in
the new file, the old file's line in their messages.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

# (the engine's own wording of a rule that failed, IRV000, as a check words it)
from ..engine.validation import FileResult, _finding, _internal
from ..rules import COMPAT_RULES, input_axis_pinned
from ..rules._compat import compat_context
from ..rules.findings import Finding
from ..settings.config import Defaults
from ..settings.selection import plan

if TYPE_CHECKING:
    from ..settings.config import Settings
    from .model import InterfaceModel


class CompatError(ValueError):
    """A file that cannot be compared: it cannot be read, or it is not an IR (exit 2)."""


def compare(old: InterfaceModel | None, new: InterfaceModel | None, path: str,
            config: Settings | None = None, old_name: str = "the old file",
            rules: Sequence = COMPAT_RULES) -> FileResult:
    """The findings of the compat rules the configuration selects for ``path`` (the new
    file's name; the old one's when it is gone), in line order."""
    config = config or Defaults()
    ctx = compat_context(old, new, old_name)
    findings: list[Finding] = []
    for rule, rule_level in plan(config, path, rules):
        try:
            findings += [_finding(path, rule, rule_level, p, p.line) for p in rule.check(ctx)]
        except Exception as err:  # noqa: BLE001 - a rule that fails is an IRV000 finding
            findings += _internal(path, f"rule {rule.CODE} {rule.SLUG}", err, config)
    findings.sort(key=lambda f: (f.line or 0, f.code))
    return FileResult(path, findings)


def axes_asked(config: Settings, path: str) -> bool:
    """Whether the rules ``path`` gets read the inputs' axes (IRV413): reshapeable's analysis
    of both files is made only then."""
    return any(rule is input_axis_pinned for rule, _ in plan(config, path, COMPAT_RULES))


def interface(path: str, bin_path: str | None = None, axes: bool = True) -> InterfaceModel:
    """The interface of one IR file (``inspect``'s; its inputs' axes only if ``axes``), or
    CompatError saying why there is none."""
    from .inspect import interface_of
    try:
        return interface_of(path, bin_path, reshapeable="auto" if axes else "never")
    except (OSError, ValueError) as err:
        raise CompatError(f"{path}: {getattr(err, 'strerror', None) or err}") from None


def compat_files(old: str, new: str, config: Settings | None = None) -> FileResult:
    """``compat OLD NEW``: the new file's findings against the old; CompatError when either
    cannot be read as an IR."""
    for path in (old, new):
        if not os.path.isfile(path):
            raise CompatError(f"{path}: " + ("not a file" if os.path.exists(path) else
                                             "no such file"))
    axes = axes_asked(config or Defaults(), new)
    return compare(interface(old, axes=axes), interface(new, axes=axes), new, config,
                   old_name=old)
