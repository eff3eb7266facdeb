"""irvalidate: check OpenVINO IR files before they ship."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations only: `import irvalidate` imports nothing else
    from collections.abc import Sequence

    from .api import ConfigLike, PathLike, Shapes
    from .interface.inspect import Reshapeable
    from .interface.model import InterfaceModel
    from .reporting.report import Report
    from .rules.findings import Edit


def __getattr__(name: str) -> object:
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
    if name == "InspectError":
        from .interface.inspect import InspectError
        return InspectError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def validate(path: PathLike | Sequence[PathLike],
             config: ConfigLike = None) -> Report:
    """Validate IR files and directories of them (one path or a list); returns a
    :class:`irvalidate.reporting.report.Report`.  FileNotFoundError for a path that does not
    exist, :class:`NoIRFilesError` when there is no IR file to check.

    See :func:`irvalidate.api.validate`.  Imported lazily so ``import irvalidate`` stays cheap.
    """
    from .api import validate as _validate
    return _validate(path, config)


def fix(path: PathLike, write: bool = False, config: ConfigLike = None,
        bin_path: str | None = None) -> list[Edit]:
    """The edits ``irvalidate --fix`` makes to one IR file, written when ``write`` is true.

    See :func:`irvalidate.api.fix`.
    """
    from .api import fix as _fix
    return _fix(path, write, config, bin_path)


def reshape(path: PathLike, shapes: Shapes, smart_reshape: bool = True,
            config: ConfigLike = None,
            bin_path: str | None = None) -> Report:
    """Whether an IR file works with new input shapes, as ``Model.reshape`` decides; returns a
    :class:`irvalidate.reporting.report.Report` whose file has ``reshape`` (the verdict, the
    new output shapes).  See :func:`irvalidate.api.reshape`.
    """
    from .api import reshape as _reshape
    return _reshape(path, shapes, smart_reshape, config, bin_path)


def compat(old: PathLike, new: PathLike, config: ConfigLike = None) -> Report:
    """What a change to a model's interface breaks, ``old`` against ``new`` (two IR files);
    returns a :class:`irvalidate.reporting.report.Report` of the new file whose findings are
    the compat rules' (IRV401-IRV416).  See :func:`irvalidate.api.compat`.
    """
    from .api import compat as _compat
    return _compat(old, new, config)


def inspect(path: PathLike, bin_path: str | None = None,
            reshapeable: Reshapeable = "auto") -> InterfaceModel:
    """The interface of one IR file (its inputs and outputs with every tensor name, type and
    declared shape; layers, weights, compression, producer, rt_info); returns a
    :class:`irvalidate.interface.model.InterfaceModel`.  See :func:`irvalidate.api.inspect`.
    """
    from .api import inspect as _inspect
    return _inspect(path, bin_path, reshapeable)


__all__ = ["validate", "fix", "reshape", "inspect", "compat", "ConfigError", "FixError",
           "InspectError", "NoIRFilesError", "__version__"]
