"""irvalidate: check OpenVINO IR files before they ship."""
from __future__ import annotations


def __getattr__(name: str):
    if name == "__version__":  # read on demand (version.py)
        from .version import read
        value = globals()["__version__"] = read()
        return value
    if name == "ConfigError":  # config.py is cheap, but `import irvalidate` needs nothing
        from .settings.config import ConfigError
        return ConfigError
    if name == "NoIRFilesError":
        from .api import NoIRFilesError
        return NoIRFilesError
    if name == "FixError":
        from .fixing.run import FixError
        return FixError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def validate(path, config=None):
    """Validate IR files and directories of them (one path or a list); returns a
    :class:`irvalidate.reporting.report.Report`.  FileNotFoundError for a path that does not
    exist, :class:`NoIRFilesError` when there is no IR file to check.

    See :func:`irvalidate.api.validate`.  Imported lazily so ``import irvalidate`` stays cheap.
    """
    from .api import validate as _validate
    return _validate(path, config)


def fix(path, write=False, config=None, bin_path=None):
    """The edits ``irvalidate --fix`` makes to one IR file, written when ``write`` is true.

    See :func:`irvalidate.api.fix`.
    """
    from .api import fix as _fix
    return _fix(path, write, config, bin_path)


def reshape(path, shapes, smart_reshape=True, config=None, bin_path=None):
    """Whether an IR file works with new input shapes, as ``Model.reshape`` decides; returns a
    :class:`irvalidate.reporting.report.Report` whose file has ``reshape`` (the verdict, the
    new output shapes).  See :func:`irvalidate.api.reshape`.
    """
    from .api import reshape as _reshape
    return _reshape(path, shapes, smart_reshape, config, bin_path)


__all__ = ["validate", "fix", "reshape", "ConfigError", "FixError", "NoIRFilesError",
           "__version__"]
