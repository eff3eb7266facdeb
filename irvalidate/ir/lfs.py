"""Git LFS pointers: what a checkout without ``git lfs pull`` leaves in place of large files.

A pointer is a small text file (well under 1 KB) that starts with the spec's version line and
names the object's size.  Model repositories keep ``.bin`` (and often ``.xml``) files in LFS,
so a CI job that checks out without LFS sees pointers, and must be told so once, in words,
rather than read the pointer's text as weights or XML.
"""
from __future__ import annotations

import re

_PREFIX = b"version https://git-lfs.github.com/spec/"
_SIZE = re.compile(rb"^size (\d+)\s*$", re.M)
#: pointers are far shorter than this; a longer file is never one
MAX_POINTER_BYTES = 1024


def lfs_pointer_size(head: bytes) -> int | None:
    """The object size a pointer names (-1 when it names none), or None when ``head`` (a
    file's first bytes, all of them for a small file) is no pointer."""
    if len(head) >= MAX_POINTER_BYTES or not head.startswith(_PREFIX):
        return None
    match = _SIZE.search(head)
    return int(match.group(1)) if match else -1


def describe_lfs_pointer(name: str, size: int) -> str:
    object_size = f" (object of {size:,} bytes)" if size >= 0 else ""
    return (f"{name} is a Git LFS pointer{object_size}, not the file itself: run `git lfs pull` "
            f"(in CI, check out with LFS enabled)")
