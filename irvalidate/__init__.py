"""irvalidate: check OpenVINO IR files before they ship."""
from __future__ import annotations

try:
    from importlib.metadata import PackageNotFoundError, version as _version
    __version__ = _version("irvalidate")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"


def validate(path, config=None):
    """Validate an IR file or a directory of them; returns a :class:`irvalidate.report.Report`.

    See :func:`irvalidate.api.validate`.  Imported lazily so ``import irvalidate`` stays cheap.
    """
    from .api import validate as _validate
    return _validate(path, config)


__all__ = ["validate", "__version__"]
