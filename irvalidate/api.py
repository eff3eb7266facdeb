"""The Python API: ``irvalidate.validate(path, config=None) -> Report``, no CLI needed."""
from __future__ import annotations

import errno
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Union

from .engine.validation import FileResult, validate_file

if TYPE_CHECKING:  # imported by validate(): the CLI's text path needs neither (nor pydantic)
    from .interface.inspect import Reshapeable
    from .interface.model import InterfaceModel
    from .reporting.report import Report
    from .rules.findings import Edit
    from .settings.config import Config

PathLike = Union[str, "os.PathLike[str]"]
if TYPE_CHECKING:  # types for the checker only: made at run time, they cost ~2 ms of a start
    #: a dim as reshape() takes it: an int (-1 dynamic), '?', 'a..b', or a (lo, hi) pair
    ApiDim = int | str | tuple[int, int]
    #: a shape as reshape() takes it: a list of dims, or a string such as "1,3..5,?"
    ApiShape = str | Sequence[ApiDim]
    #: reshape()'s shapes: {input name: shape}, or one shape for a model with one input
    Shapes = ApiShape | dict[str, ApiShape]
    #: what validate(), fix() and reshape() take as a configuration
    ConfigLike = Config | Mapping[str, object] | None


def discover_files(path: str, skip_non_ir: bool = False,
                   config: Config | None = None) -> list[str]:
    """The IR files a run over ``path`` checks with ``config`` (its ``exclude`` and
    ``respect-gitignore``; see discovery.py), reading no configuration file."""
    from .files.discovery import find
    from .files.hierarchy import Resolver
    from .settings.config import Defaults
    settings = Defaults() if config is None else config
    return find([path], Resolver(lambda _: settings, isolated=True), skip_non_ir)


def validate_files(paths: list[str], config: Config | list[Config] | tuple[Config, ...],
                   bin_path: str | None = None, jobs: int | None = None,
                   work: Callable[..., FileResult] | None = None) -> list[FileResult]:
    """Validate files, ``jobs`` (default: ``config.jobs``; 0: one per CPU) at a time; results
    come back in the order given.  ``config`` is one for every file, or a list with one per
    file (each file's nearest configuration).  ``work(path, bin_path, config)`` is what is
    done to each file (--fix passes fixing.fix_file)."""
    work = work or validate_file  # looked up now: tests replace it
    if isinstance(config, (list, tuple)):
        configs, default_jobs = list(config), 1
    else:
        configs, default_jobs = [config] * len(paths), config.jobs
    wanted = jobs if jobs is not None else default_jobs
    wanted = wanted or os.cpu_count() or 1
    if wanted <= 1 or len(paths) <= 1:
        from .engine.collector import paused
        return paused(lambda: _in_turn(paths, configs, bin_path, work))
    from .engine import workers
    return workers.run(paths, bin_path, configs, work, min(wanted, len(paths)))


def _in_turn(paths: list[str], configs: list[Config], bin_path: str | None,
             work: Callable[..., FileResult]) -> list[FileResult]:
    """Each file in turn; before the next, the garbage the last left is collected when it is
    large (``engine.collector.collect_if_large``; not after the last)."""
    from .engine.collector import collect_if_large
    results: list[FileResult] = []
    for path, config in zip(paths, configs):
        if results:
            collect_if_large()
        results.append(work(path, bin_path, config))
    return results


class NoIRFilesError(ValueError):
    """The paths given hold no IR file to check (the CLI exits 2: a mistyped models folder
    must not pass)."""


def _paths(path: PathLike | Sequence[PathLike]) -> list[str]:
    """One path or a list of them, as strings; FileNotFoundError for one that does not exist."""
    given = [path] if isinstance(path, (str, bytes, os.PathLike)) else list(path)
    paths = [os.fsdecode(p) for p in given]
    for name in paths:
        if not os.path.exists(name):
            raise FileNotFoundError(errno.ENOENT, "no such file or directory", name)
    return paths


def _config(config: ConfigLike) -> Config:
    """The configuration a caller gave: a Config, a mapping (checked: ConfigError, not a
    raw pydantic error) or None (the defaults)."""
    from .settings.config import Config, build as build_config
    if config is None:
        return Config()
    return config if isinstance(config, Config) else build_config(dict(config), "config")


def validate(path: PathLike | Sequence[PathLike],
             config: ConfigLike = None) -> Report:
    """Validate IR files and every IR file under directories, and return the report.

    ``path`` is one path (a file or a directory) or a list of them, checked as the CLI checks
    its ``PATH...``.  ``config`` is a :class:`~irvalidate.settings.config.Config`, a mapping of the
    same keys (as in ``[tool.irvalidate]``), or None for the defaults; no configuration file
    is read.  A mapping that is not a valid configuration raises
    :class:`irvalidate.ConfigError`; a path that does not exist, FileNotFoundError; paths
    that hold no IR file at all (an empty directory), :class:`irvalidate.NoIRFilesError`,
    where the CLI exits 2; a ``.bin`` with no ``.xml`` beside it, ValueError.
    """
    from .files.discovery import find
    from .files.hierarchy import Resolver
    from .reporting.report import build
    paths = _paths(path)
    settings = _config(config)
    files = find(paths, Resolver(lambda _: settings, isolated=True))
    if not files:
        raise NoIRFilesError(f"no IR files found under {', '.join(paths)}")
    from .version import read
    return build(validate_files(files, settings), read())


def fix(path: PathLike, write: bool = False, config: ConfigLike = None,
        bin_path: str | None = None) -> list[Edit]:
    """The edits ``--fix`` makes to one IR file (each with its line, column, old and new
    text, rule and layer id), written in place when ``write`` is true.

    Raises :class:`irvalidate.FixError` when ``write`` is asked and the file is left alone
    while it has errors (they forbid editing it, none of them can be fixed, it is read-only,
    ...; the message says why) or whenever the file cannot be worked on (its private copy
    cannot be written: a full $TMPDIR), and ValueError for a path that is not a file.  A file with
    nothing to fix gives ``[]``.
    """
    from .fixing.run import FixError, fix_file
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"not a file: {path}")
    result = fix_file(path, bin_path, None if config is None else _config(config), write=write)
    outcome = result.fix
    if outcome is None:
        return []
    if outcome.failed or (write and not outcome.written and (outcome.refused or outcome.remain)):
        raise FixError(f"{path}: {_left_alone(result)}")
    return list(outcome.edits)


def _left_alone(result: FileResult) -> str:
    """Why --fix wrote nothing to a file that has errors."""
    from .fixing.report import unfixed
    if result.fix is not None and result.fix.refused:
        return result.fix.refused
    left = unfixed(result)
    more = f" (and {len(left) - 1} more)" if len(left) > 1 else ""
    finding, why = left[0]
    return f"not edited: no error can be fixed; {finding.code} at line {finding.line}: {why}{more}"


def reshape(path: PathLike, shapes: Shapes, smart_reshape: bool = True,
            config: ConfigLike = None, bin_path: str | None = None) -> Report:
    """What ``irvalidate --reshape`` says of one IR file with new input shapes:
    ``shapes`` is ``{input name: shape}`` (a Parameter's name or one of its tensor names; a
    shape is a list of ints, -1 for a dynamic dim, ``(lo, hi)`` pairs or ``"a..b"`` for
    intervals, or a string such as ``"1,3..5,?"``), or one shape for a model with one input.
    The report's file has ``reshape`` (works, the new input and output shapes, the rewrites)
    and the findings (IRV301 names the constant that pins a dim).  ValueError for shapes
    that do not parse or do not fit the model's inputs (the message lists them)."""
    from .reporting.report import build
    from .reshaping.run import reshape_file
    from .reshaping.spec import from_api
    from .version import read
    settings = _config(config)
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"{path}: not a file")
    result = reshape_file(path, from_api(shapes), smart_reshape, settings, bin_path)
    return build([result], read())


def inspect(path: PathLike, bin_path: str | None = None,
            reshapeable: Reshapeable = "auto") -> InterfaceModel:
    """The interface of one IR file, as ``irvalidate inspect`` reads it: its inputs and
    outputs (every tensor name, element type, declared shape, layout, and with
    ``reshapeable`` the sizes each input axis takes), layers, weights, compression,
    producer and rt_info (:class:`irvalidate.interface.model.InterfaceModel`).

    ``reshapeable``: "auto" states the axes of files up to 3,000 layers, "always" of any,
    "never" of none (``axes`` is then null).  FileNotFoundError for a path that does not
    exist; IsADirectoryError for a folder (``irvalidate inspect`` takes folders);
    :class:`irvalidate.InspectError` (a ValueError) for a file that is not a readable IR.
    """
    from .interface.inspect import interface_of
    name = _paths(path)[0]
    if os.path.isdir(name):
        raise IsADirectoryError(errno.EISDIR, "a folder: inspect takes one IR file", name)
    return interface_of(name, bin_path, reshapeable=reshapeable)


def compat(old: PathLike, new: PathLike, config: ConfigLike = None) -> Report:
    """What ``irvalidate compat OLD NEW`` says of a change to a model's interface: the
    report of the new file, its findings IRV401-IRV416 at the levels ``config`` gives them
    (the issue's table by default), each located in the new file with the old file's line
    in its message.  FileNotFoundError for a path that does not exist; ValueError
    (``irvalidate.interface.compat.CompatError``) for a file that is not a readable IR."""
    from .interface.compat import compat_files
    from .reporting.report import build
    from .version import read
    old_path, new_path = _paths([old, new])
    return build([compat_files(old_path, new_path, _config(config))], read())
