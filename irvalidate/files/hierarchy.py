"""Which configuration applies to which file: ruff's hierarchical model.

Each file uses the nearest configuration file above it (in one folder ``.irvalidate.toml``
beats ``irvalidate.toml``, which beats a ``pyproject.toml`` with a ``[tool.irvalidate]``
table); the closest file wins and its parents are not merged into it.  Run-wide settings
(format, jobs, exit-zero) come from the configuration of the working directory.
``--config FILE`` applies to every file and ``--isolated`` reads none.  The command line is
applied on top of each file's settings.  Each folder is looked up once per run.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..settings import config as _config

if TYPE_CHECKING:  # a run without configuration files does not import pathlib
    from pathlib import Path


class Resolver:
    def __init__(self, apply: Callable = lambda settings: settings,
                 config_file: str | None = None, isolated: bool = False):
        if config_file and isolated:
            raise _config.ConfigError("--isolated reads no configuration file: leave out "
                                      "--config, or --isolated")
        if config_file and not os.path.isfile(config_file):
            raise _config.ConfigError(f"{config_file}: no such configuration file")
        self._apply = apply
        self._fixed: Path | None = None
        if config_file:
            from pathlib import Path
            self._fixed = Path(config_file)
        self.isolated = isolated
        self._nearest: dict[str, Path | None] = {}
        self._settings: dict[Path | None, object] = {}

    def file_for(self, path: str) -> Path | None:
        """The configuration file that governs ``path``: a folder's own, else the nearest
        above it; a file's is its folder's."""
        if self.isolated or self._fixed:
            return self._fixed
        folder = path if os.path.isdir(path) else os.path.dirname(path) or os.curdir
        return self._nearest_from(os.path.abspath(folder))

    def _nearest_from(self, folder: str) -> Path | None:
        walked: list[str] = []
        found: Path | None = None
        current = folder
        while current not in self._nearest:
            walked.append(current)
            found = _config.config_file_in(current)
            parent = os.path.dirname(current)
            if found is not None or parent == current:
                break
            current = parent
        else:
            found = self._nearest[current]
        for seen in walked:
            self._nearest[seen] = found
        return found

    def settings_for(self, path: str):
        """The settings for a file or folder (a Config, or config.Defaults), command line
        included."""
        source = self.file_for(path)
        if source not in self._settings:
            base = _config.Defaults() if source is None else _config.load(source)
            self._settings[source] = self._apply(base)
        return self._settings[source]

    def run_wide(self):
        return self.settings_for(os.getcwd())


def _toml(value: object) -> str:
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


def show_settings(resolver: Resolver, path: str, given: Iterable[str]) -> str:
    """The settings that apply to ``path``, as TOML, each with where it comes from."""
    source = resolver.file_for(path)
    settings = resolver.settings_for(path)
    in_file = set() if source is None else set(_config.load(source).model_fields_set)
    where = "none (--isolated)" if resolver.isolated else (source or "none (defaults)")
    lines = [f"# settings for {os.path.abspath(path)}", f"# configuration file: {where}"]
    for name, field in _config._model().model_fields.items():
        if field.exclude:
            continue
        origins = [str(source)] if name in in_file else []
        origins += ["command line"] if name in given else []
        value = getattr(settings, name)
        shown = _toml(value) if value is not None else '"text"' if name == "format" else "none"
        lines.append(f"{field.alias or name} = {shown}  # {', '.join(origins) or 'default'}")
    return "\n".join(lines) + "\n"
