"""File names as reports print them, and as programs find them again.

The engine and the formatters carry the path exactly as the operating system gave it (a name
that is not UTF-8 holds its bad bytes as surrogate escapes, see ``os.fsdecode``); only the
text a person reads is made displayable, here.
"""
from __future__ import annotations

import os
from typing import Optional


def display_path(path: str) -> str:
    """The path as reports print it: a name that is not UTF-8 gets U+FFFD for its bad bytes."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def raw_name(path: str) -> Optional[bytes]:
    """The path's bytes when :func:`display_path` loses them (a name that is not UTF-8),
    else None."""
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:  # a lone surrogate that no file name can hold
        return None
    return None if display_path(path) == path else raw
