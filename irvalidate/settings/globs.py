"""Path patterns as ruff matches them: ``exclude``, ``extend-exclude`` and ``per-file-ignores``.

* A pattern without ``/`` matches the name of a file or folder at any depth (``legacy``,
  ``*.tmp.xml``).
* Any other pattern is anchored at its base folder: the folder of the configuration file that
  gives it, or the working directory for the command line.  A leading ``./`` is allowed.  An
  absolute pattern is matched against the absolute path.
* ``*``, ``?`` and ``[...]`` never match ``/``; ``**`` as a whole component matches any
  number of folders.  A trailing ``/`` matches folders only.
* A path matches when it, or a folder it lies in below the base, matches: excluding a folder
  excludes what is in it.

Hand-written rather than ``fnmatch`` (whose ``*`` crosses ``/``) and cheap to import, since
per-file-ignores are matched for every file; .gitignore files use ``pathspec`` (gitignore.py).
"""
from __future__ import annotations

import glob as _glob
import os
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple


class Pattern(NamedTuple):
    # (not a frozen dataclass: importing dataclasses, and inspect with it, costs ~8 ms of
    # the start of every run given --force-exclude, as the pre-commit hooks are)
    text: str
    regex: re.Pattern[str]
    #: no "/": tried on each name of the path
    basename: bool
    absolute: bool
    dirs_only: bool


def _component(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        char = text[i]
        i += 1
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            start = i + 1 if text[i:i + 1] == "!" else i
            end = text.find("]", start + 1 if text[start:start + 1] == "]" else start)
            if end < 0:  # no closing bracket: a literal "["
                out.append(re.escape(char))
                continue
            negate, body = start > i, text[start:end]
            i = end + 1
            body = body.replace("\\", "\\\\").replace("[", "\\[").replace("^", "\\^")
            out.append(f"[^/{body}]" if negate else f"[{body}]")
        else:
            out.append(re.escape(char))
    return "".join(out)


def _translate(glob: str) -> str:
    parts = glob.split("/")
    out = []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]*/)*")
        else:
            out.append(_component(part) + ("" if last else "/"))
    return "".join(out)


@lru_cache(maxsize=4096)
def compile_pattern(text: str) -> Pattern:
    """One pattern; ValueError for an empty one."""
    glob = text.strip().replace(os.sep, "/")
    dot = glob.startswith("./")  # anchored, even with no other "/"
    while glob.startswith("./"):
        glob = glob[2:]
    dirs_only = glob.endswith("/") and glob.strip("/") != ""
    glob = glob.rstrip("/") if dirs_only else glob
    if not glob:
        raise ValueError(f"{text!r} is an empty pattern")
    absolute = glob.startswith("/")
    return Pattern(text, re.compile(_translate(glob.lstrip("/") if absolute else glob)),
                   basename=not dot and "/" not in glob, absolute=absolute, dirs_only=dirs_only)


def anchored(text: str, base: str) -> str:
    """``text`` as an absolute pattern anchored at ``base`` (a name pattern stays as it is):
    command-line patterns keep meaning the working directory wherever a file's configuration
    lives."""
    pattern = compile_pattern(text)
    if pattern.basename or pattern.absolute:
        return text
    glob = text.strip()
    while glob.startswith("./"):
        glob = glob[2:]
    prefix = _glob.escape(os.path.abspath(base).replace(os.sep, "/")).rstrip("/")
    return f"{prefix}/{glob}"


def _parts(path: str) -> list[str]:
    return [p for p in path.replace(os.sep, "/").split("/") if p]


def _hit(pattern: Pattern, parts: list[str], is_dir: bool, ancestors: bool) -> bool:
    """Whether ``parts`` (or, with ``ancestors``, one of its leading folders) matches."""
    first = 1 if ancestors else len(parts)
    for end in range(first, len(parts) + 1):
        folder = end < len(parts) or is_dir
        if pattern.dirs_only and not folder:
            continue
        subject = parts[end - 1] if pattern.basename else "/".join(parts[:end])
        if pattern.regex.fullmatch(subject):
            return True
    return False


def match(patterns: Iterable[str], path: str, base: str | None, is_dir: bool = False,
          ancestors: bool = True) -> str | None:
    """The first pattern that matches ``path``, else None.  ``base`` is the folder relative
    patterns are anchored at (None: the working directory); a path outside it is matched
    by name and absolute patterns only."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, os.path.abspath(base or os.getcwd()))
    inside = relative != ".." and not relative.startswith(".." + os.sep)
    rel_parts = _parts(relative) if inside and relative != "." else None
    for text in patterns:
        pattern = compile_pattern(text)
        if pattern.absolute:
            parts = _parts(absolute)
        elif rel_parts is not None:
            parts = rel_parts
        elif pattern.basename:
            parts = [os.path.basename(absolute)]
        else:
            continue
        if parts and _hit(pattern, parts, is_dir, ancestors):
            return text
    return None
