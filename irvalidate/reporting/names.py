"""File names as reports print them, and as programs find them again.

The engine and the formatters carry the path exactly as the operating system gave it (a name
that is not UTF-8 holds its bad bytes as surrogate escapes, see ``os.fsdecode``); only the
text a person reads is made displayable, here.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence


def display_path(path: str) -> str:
    """The path as reports print it: a name that is not UTF-8 gets U+FFFD for its bad bytes."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


#: characters a terminal or a CI log acts on: C0 controls (line breaks, ESC), DEL, C1
#: controls (CSI, OSC) and Unicode's line and paragraph separators
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printed(text: str, keep: str = "") -> str:
    """Text taken from a file or its name, as a human-readable report prints it: every
    control character as a visible escape (a line break as ``\\x0a``), so that a name can
    neither start a line of its own (a CI log runs a ``::error`` line as a workflow
    command) nor drive the terminal (ESC and OSC sequences).  ``keep``: characters a format
    escapes its own way (the github format's line breaks)."""
    return _CONTROLS.sub(lambda m: m.group() if m.group() in keep else _escaped(m), text)


def _commands(text: str) -> bool:
    # GitHub's runner strips leading white space before it looks for a command's "::"
    return text.lstrip().startswith("::")


def line_start(text: str) -> str:
    """Text from a file that a printed line starts with (after spaces): :func:`printed`,
    and its first ``:`` escaped when it would start a ``::`` workflow command."""
    shown = printed(text)
    return shown.replace(":", "\\x3a", 1) if _commands(shown) else shown


def printed_lines(text: str) -> str:
    """A message of several lines, some from the file: each line as :func:`line_start`
    prints it (a name's own line break makes a line, but not a command)."""
    return "\n".join(line_start(line) for line in text.split("\n"))


def shown_path(path: str) -> str:
    """The path as a human-readable report prints it at the start of a line: displayable
    (:func:`display_path`), its control characters escaped (:func:`printed`), and ``./``
    before a relative name that would start a ``::`` workflow command."""
    shown = printed(display_path(path))
    return "./" + shown if _commands(shown) else shown


def raw_name(path: str) -> bytes | None:
    """The path's bytes when :func:`display_path` loses them (a name that is not UTF-8),
    else None."""
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:  # a lone surrogate that no file name can hold
        return None
    return None if display_path(path) == path else raw


def _as_code(word: str) -> str:
    """A rule code as typed, read the way a person meant it: upper case, and the letters that
    look like digits (O, l, I) read as 0 and 1 after the ``IRV``."""
    upper = word.upper()
    return "IRV" + upper[3:].translate(str.maketrans("OLI", "011"))


def suggest(word: str, names: Sequence[str]) -> str | None:
    """The name in ``names`` nearest to ``word``, or None when none is close.  A word that
    starts like a rule code is compared with the codes, its O read as 0 and l as 1
    (``IRV2O1`` is IRV201, not IRV217); anything else without regard to case."""
    import difflib
    if word.upper().startswith("IRV"):
        codes = [n for n in names if n.upper().startswith("IRV")]
        close = difflib.get_close_matches(_as_code(word), codes, n=1)
    else:
        folded = {n.lower(): n for n in names}
        close = [folded[c] for c in difflib.get_close_matches(word.lower(), list(folded), n=1)]
    return close[0] if close else None
