"""The installed version, read on demand: importlib.metadata pulls in email, zipfile and csv
(~20 ms, a fifth of a json/sarif/github report's start), so the version is read from the
installed METADATA file directly when that is plainly where importlib.metadata would read
it, and by importlib.metadata otherwise; never on import."""
from __future__ import annotations

import os
import sys
from functools import cache

NAME = "irvalidate"


@cache
def read() -> str:
    found = _from_metadata_file()
    if found is not None:
        return found
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(NAME)
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


def _from_metadata_file() -> str | None:
    """The ``Version`` of the first ``irvalidate-*.dist-info`` or ``.egg-info`` directory on
    ``sys.path``, found in the order importlib.metadata searches; None where its search could
    go otherwise (a finder of its own on sys.meta_path, an entry that is a zip or an egg, an
    unusual METADATA), and importlib.metadata is asked."""
    from importlib.machinery import PathFinder
    if any(getattr(finder, "find_distributions", None) is not None and finder is not PathFinder
           for finder in sys.meta_path):
        return None
    for entry in sys.path:
        root = entry or "."
        if not isinstance(root, str) or root.lower().endswith(".egg"):
            return None
        try:
            children = os.listdir(root)
        except OSError:
            if os.path.exists(root):  # a zip, or a directory it may not list
                return None
            continue
        for child in children:  # in listdir's order, as importlib.metadata takes them
            low = child.lower()
            # its name of the folder is PEP 503's with underscores; "irvalidate" has no
            # separator to normalise, so only the name itself matches
            if low.endswith((".dist-info", ".egg-info")) and \
                    low.rpartition(".")[0].partition("-")[0] == NAME:
                return _version_header(os.path.join(root, child))
    return None


def _version_header(info: str) -> str | None:
    """The plain ``Version: X`` header of METADATA (else PKG-INFO), or None when it is not
    plain (folded, empty, missing): importlib.metadata's email parser then decides."""
    for file in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(info, file), encoding="utf-8") as text:
                headers = []
                for line in text:
                    if not line.strip():
                        break
                    headers.append(line.rstrip("\r\n"))
        except OSError:
            continue
        for i, line in enumerate(headers):
            key, colon, value = line.partition(":")
            if colon and key.lower() == "version":
                folded = i + 1 < len(headers) and headers[i + 1][:1] in (" ", "\t")
                value = value.lstrip(" \t")  # (the email parser keeps a trailing blank)
                plain = value and not folded and all(c.isalnum() or c in ".+-_!" for c in value)
                return value if plain else None
        return None
    return None
