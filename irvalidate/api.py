"""The Python API: ``irvalidate.validate(path, config=None) -> Report``, no CLI needed."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, List, Mapping, Optional, Union

from .engine import FileResult, validate_file

if TYPE_CHECKING:  # imported by validate(): the CLI's text path needs neither (nor pydantic)
    from .config import Config
    from .report import Report

PathLike = Union[str, "os.PathLike[str]"]


def discover_files(path: str, skip_non_ir: bool = False) -> List[str]:
    """A file as given (unless ``skip_non_ir`` and its root is not ``<net>``); a directory's
    ``*.xml`` files whose root is ``<net>`` or that are not well-formed, in a stable order."""
    from .parser import sniff_root
    if not os.path.isdir(path):
        # a well-formed file whose root is not <net> (pom.xml, an .svg) is skipped; a broken
        # one is not, so the hook still reports a truncated IR
        if skip_non_ir and sniff_root(path) not in ("net", None):
            return []
        return [path]
    found = []
    for folder, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith(".xml"):
                candidate = os.path.join(folder, name)
                # other well-formed XML is skipped; an .xml that does not even parse to its
                # root is reported, or a broken model would pass a CI scan silently
                if sniff_root(candidate) in ("net", None):
                    found.append(candidate)
    return found


def validate_files(paths: List[str], config: Config, bin_path: Optional[str] = None) -> List[FileResult]:
    """Validate files, ``config.jobs`` at a time; results come back in the order given."""
    jobs = config.jobs or os.cpu_count() or 1
    if jobs <= 1 or len(paths) <= 1:
        return _without_cycle_collector(lambda: [validate_file(p, bin_path, config) for p in paths])
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=min(jobs, len(paths))) as pool:
        return list(pool.map(validate_file, paths, [bin_path] * len(paths), [config] * len(paths),
                             chunksize=max(1, len(paths) // (jobs * 4))))


def _without_cycle_collector(work):
    """Run ``work`` with the cyclic garbage collector paused: the records of a large IR hold
    no reference cycles, and collections triggered by their allocation cost 20-40% of the
    time on 100k-layer files (reference counting still frees everything)."""
    import gc
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return work()
    finally:
        if was_enabled:
            gc.enable()


def validate(path: PathLike, config: Union[Config, Mapping, None] = None) -> Report:
    """Validate one IR file, or every IR file under a directory, and return the report.

    ``config`` is a :class:`~irvalidate.config.Config`, a mapping of the same keys (as in
    ``[tool.irvalidate]``), or None for the defaults; no configuration file is read.
    """
    from . import __version__
    from .config import Config
    from .report import build
    if config is None:
        config = Config()
    elif not isinstance(config, Config):
        config = Config(**dict(config))
    files = discover_files(os.fspath(path))
    return build(validate_files(files, config), __version__)
