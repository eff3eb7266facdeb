"""irvalidate: check OpenVINO IR files before they ship."""
from __future__ import annotations


def _read_version() -> str:
    # importlib.metadata pulls in email, zipfile and csv (~20 ms), so it is read only when
    # something asks for __version__ (--version, the json/sarif reports), never on import
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("irvalidate")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


def __getattr__(name: str):
    if name == "__version__":
        value = globals()["__version__"] = _read_version()
        return value
    if name == "ConfigError":  # config.py is cheap, but `import irvalidate` needs nothing
        from .config import ConfigError
        return ConfigError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def validate(path, config=None):
    """Validate an IR file or a directory of them; returns a :class:`irvalidate.reporting.report.Report`.

    See :func:`irvalidate.api.validate`.  Imported lazily so ``import irvalidate`` stays cheap.
    """
    from .api import validate as _validate
    return _validate(path, config)


__all__ = ["validate", "ConfigError", "__version__"]
