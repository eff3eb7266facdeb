"""irvalidate: check OpenVINO IR files before they ship."""
from __future__ import annotations

try:
    from importlib.metadata import PackageNotFoundError, version as _version
    __version__ = _version("irvalidate")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
