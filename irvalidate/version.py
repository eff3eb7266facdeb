"""The installed version, read on demand: importlib.metadata pulls in email, zipfile and csv
(~20 ms), so it is read only when something asks for it (--version, the json/sarif reports),
never on import."""
from __future__ import annotations

from functools import cache


@cache
def read() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("irvalidate")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"
