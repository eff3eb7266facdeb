"""Configuration: ``.irvalidate.toml``, ``irvalidate.toml`` (top-level keys) or the
``[tool.irvalidate]`` table of a ``pyproject.toml``, or ``--config FILE``.

Read into a pydantic model that refuses unknown keys and unknown rule selectors with a clear
message; the command line overrides what the file says.  Keys are kebab-case in TOML
(``per-file-ignores``), snake_case in Python.  Which file applies to which folder is
hierarchy.py's business.

The model (``Config``) is built on first use: importing pydantic and building it costs more
than validating a small IR, so a run that finds no ``[tool.irvalidate]`` table and sets
nothing on the command line gets :class:`Defaults`, which holds what ``Config()`` holds.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from ..reporting import FORMAT_NAMES

Level = Literal["error", "warning", "info"]
FormatName = Literal[FORMAT_NAMES]  # type: ignore[valid-type]  # the names, spelled once in reporting

if TYPE_CHECKING:  # pathlib (with urllib.parse and ipaddress) is imported for a file found
    from pathlib import Path

    from pydantic import BaseModel, ValidationError

    class Config(BaseModel):
        """What the checker sees of the model _build() makes on first use (__getattr__)."""
        select: list[str] = []
        ignore: list[str] = []
        extend_ignore: list[str] = []
        per_file_ignores: dict[str, list[str]] = {}
        severity: dict[str, Level] = {}
        format: FormatName | None = None
        exit_zero: bool = False
        jobs: int = 1
        exclude: list[str] = []  # (the real default: DEFAULT_EXCLUDE)
        extend_exclude: list[str] = []
        force_exclude: bool = False
        respect_gitignore: bool = True
        root: str | None = None

        def merged(self, **overrides: object) -> Config: ...


def _tomllib() -> Any:
    # imported only once a pyproject.toml or --config file is really there to read
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    return tomllib


#: the configuration files of one folder, the first that counts winning (as ruff's
#: .ruff.toml > ruff.toml > pyproject.toml); a pyproject.toml counts only with the table
CONFIG_NAMES = (".irvalidate.toml", "irvalidate.toml", "pyproject.toml")
#: what directory walks skip unless ``exclude`` says otherwise: hidden folders (.git, .venv,
#: .tox, ...), virtual environments, node_modules and caches
DEFAULT_EXCLUDE = [".*/", "venv", "node_modules", "__pycache__"]


class ConfigError(ValueError):
    """A configuration that cannot be used; the message says where and why."""


def _known_selector(selector: str) -> str:
    from ..rules import BY_CODE, BY_SLUG, canonical_slug
    codes, slugs = list(BY_CODE), list(BY_SLUG)
    if canonical_slug(selector) in slugs:  # a former slug selects the rule under its new one
        return canonical_slug(selector)
    if any(code.startswith(selector.upper()) for code in codes) and selector.strip():
        return selector.upper()
    from ..reporting.names import suggest
    close = suggest(selector, codes + slugs)
    hint = f"did you mean {close!r}?" if close else "`irvalidate rules` lists them"
    raise ValueError(f"{selector!r} matches no rule code or slug; {hint}")


def _pattern(text: str) -> str:
    from .globs import compile_pattern
    compile_pattern(text)  # ValueError for an empty pattern
    return text


def _model() -> type[Config]:
    """The pydantic model, built on first use; then also the module attribute ``Config``."""
    # setdefault: threads racing through the first use all get the one class that is kept
    return globals().get("Config") or globals().setdefault("Config", _build())


def _build() -> type[Config]:
    from pydantic import BaseModel, ConfigDict, Field, field_validator

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid", populate_by_name=True, alias_generator=_kebab)

        select: list[str] = Field(default_factory=list, description="rule codes, code "
                                  "prefixes or slugs to run (empty: all)")
        ignore: list[str] = Field(default_factory=list, description="rules not to run")
        extend_ignore: list[str] = Field(default_factory=list,
                                         description="more rules not to run, added to ignore")
        per_file_ignores: dict[str, list[str]] = Field(default_factory=dict, description=(
            "path pattern (as in exclude) -> rules not to run on matching files"))
        severity: dict[str, Level] = Field(default_factory=dict,
                                           description="rule code, prefix or slug -> level")
        format: FormatName | None = None
        exit_zero: bool = Field(False, description="exit 0 even when there are error findings")
        jobs: int = Field(1, ge=0, description="files validated in parallel (0: one per CPU)")
        exclude: list[str] = Field(
            default_factory=lambda: list(DEFAULT_EXCLUDE), description="path patterns directory "
            "walks skip (replaces the default list); a name matches at any depth, a pattern with "
            "'/' or './' is relative to this file")
        extend_exclude: list[str] = Field(default_factory=list,
                                          description="more patterns, added to exclude")
        force_exclude: bool = Field(False, description="apply exclude and .gitignore to files "
                                    "named on the command line too (for pre-commit)")
        respect_gitignore: bool = Field(True, description="in a git work tree, skip what "
                                        ".gitignore files and .git/info/exclude exclude")
        #: the directory per-file-ignores globs are relative to (the config file's)
        root: str | None = Field(None, exclude=True)

        @field_validator("select", "ignore", "extend_ignore")
        @classmethod
        def _selectors(cls, values: list[str]) -> list[str]:
            return [_known_selector(v) for v in values]

        @field_validator("per_file_ignores")
        @classmethod
        def _per_file(cls, table: dict[str, list[str]]) -> dict[str, list[str]]:
            return _checked_per_file(table)

        @field_validator("exclude", "extend_exclude")
        @classmethod
        def _patterns(cls, values: list[str]) -> list[str]:
            return [_pattern(v) for v in values]

        @field_validator("format", mode="before")  # a name in any case ("JSON"), as on the CLI
        @classmethod
        def _format(cls, value: object) -> object:
            return value.lower() if isinstance(value, str) else value

        @field_validator("severity")
        @classmethod
        def _severity(cls, table: dict[str, Level]) -> dict[str, Level]:
            return {_known_selector(k): v for k, v in table.items()}

        merged = _merged

    Config.__qualname__ = "Config"  # pickled by name for the -j workers, like a top-level class
    return Config  # type: ignore[return-value]  # this is the class the TYPE_CHECKING one describes


def _kebab(name: str) -> str:
    """A field's name as TOML spells it (``per-file-ignores``)."""
    return name.replace("_", "-")


def _checked_per_file(table: dict[str, list[str]]) -> dict[str, list[str]]:
    """per-file-ignores with each pattern and rule checked."""
    checked = {}
    for glob, values in table.items():
        try:  # the message names the pattern whose rules are wrong
            checked[_pattern(glob)] = [_known_selector(v) for v in values]
        except ValueError as err:
            raise ValueError(f"{glob}: {err}") from None
    return checked


def _merged(self: Config, **overrides: object) -> Config:
    """This configuration with command-line values on top (None means not given): the
    model's ``merged``."""
    data = self.model_dump(exclude={"root"})
    data.update({k: v for k, v in overrides.items() if v is not None})
    return type(self)(root=self.root, **data)


def __getattr__(name: str) -> type[Config]:
    if name == "Config":
        return _model()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Defaults:
    """What ``Config()`` holds (a test checks that they agree), without importing pydantic;
    and not a dataclass (importing dataclasses costs ~10 ms of each start)."""
    __slots__ = ("select", "ignore", "extend_ignore", "per_file_ignores", "severity", "format",
                 "exit_zero", "jobs", "exclude", "extend_exclude", "force_exclude",
                 "respect_gitignore", "root")

    def __init__(self) -> None:
        self.select: list[str] = []
        self.ignore: list[str] = []
        self.extend_ignore: list[str] = []
        self.per_file_ignores: dict[str, list[str]] = {}
        self.severity: dict[str, Level] = {}
        self.format: FormatName | None = None
        self.exit_zero = False
        self.jobs = 1
        self.exclude: list[str] = list(DEFAULT_EXCLUDE)
        self.extend_exclude: list[str] = []
        self.force_exclude = False
        self.respect_gitignore = True
        self.root: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other: object):
        return self.as_dict() == other.as_dict() if isinstance(other, Defaults) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a mutable record should be

    def __repr__(self) -> str:
        return "Defaults(" + ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items()) + ")"

    def merged(self, **overrides: object) -> Defaults | Config:
        """As :meth:`Config.merged`; command-line values are validated by the model, but
        for values the parser gives in their final type and range (``plain``): ``-j 2``
        alone need not build the model (~80 ms, more than a medium IR takes a worker)."""
        given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
        if not plain(given):
            return _model()(**given)
        copy = Defaults()
        for name, value in given.items():
            setattr(copy, name, value)
        return copy


if TYPE_CHECKING:  # (a Union made at run time compiles its string: ~0.5 ms of a start)
    #: what the engine checks a file with: the model, or its defaults without pydantic
    Settings = Config | Defaults

#: options whose values argparse already gives as the model would hold them (--format by
#: its choices, the flags as booleans, -j as an int: it alone can be out of range)
PLAIN = frozenset({"format", "exit_zero", "jobs", "force_exclude", "respect_gitignore"})


def plain(values: Mapping[str, object]) -> bool:
    """Whether ``values`` need no check by the model (see PLAIN)."""
    jobs = values.get("jobs", 0)
    return values.keys() <= PLAIN and type(jobs) is int and jobs >= 0


def _key_hint(loc: list[str]) -> str:
    """'; did you mean 'ignore'?' for an unknown top-level key near a known one."""
    from ..reporting.names import suggest
    keys = [name.replace("_", "-") for name in _model().model_fields if name != "root"]
    close = suggest(loc[0], keys) if len(loc) == 1 else None
    return f"; did you mean {close!r}?" if close else ""


def describe(err: ValidationError, where: str = "", options: dict[str, str] | None = None) -> str:
    """A pydantic error as lines of ``WHERE: key: what is wrong``; with ``options`` (field ->
    command-line option) as ``--option: what is wrong``, the option standing for the key."""
    lines = []
    for item in err.errors():
        loc = [str(p) for p in item["loc"]]
        message = item["msg"].removeprefix("Value error, ")
        if options is not None and loc and loc[0] in options:
            lines.append(": ".join([options[loc[0]], *loc[1:], message]))
        elif item["type"] == "extra_forbidden":
            lines.append(f"{where}: unknown key {'.'.join(loc)!r}{_key_hint(loc)}")
        else:
            lines.append(f"{where}: {'.'.join(loc) or '(table)'}: {message}")
    return "\n".join(lines)


def _table_of(path: str | Path) -> dict | None:
    tomllib = _tomllib()
    try:
        with open(path, "rb") as handle:
            document = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{path}: cannot read it as TOML: {err}") from None
    if os.path.basename(path) == "pyproject.toml" or "tool" in document:
        table = document.get("tool", {}).get("irvalidate")
        if table is not None and not isinstance(table, dict):
            raise ConfigError(f"{path}: [tool.irvalidate] must be a table")
        return table
    return document


def build(table: Mapping[str, Any], where: str, root: str | None = None) -> Config:
    """The model from a table of settings; ConfigError says what is wrong, after ``where``."""
    from pydantic import ValidationError
    try:
        return _model()(root=root, **table)
    except ValidationError as err:
        raise ConfigError(describe(err, where)) from None
    except TypeError as err:  # a non-table value at the top
        raise ConfigError(f"{where}: {err}") from None


def load(path: Path) -> Config:
    """The configuration in one file: ``[tool.irvalidate]`` of a pyproject.toml, else the
    top-level keys of a dedicated TOML file."""
    table = _table_of(path)
    if table is None:
        raise ConfigError(f"{path}: has no [tool.irvalidate] table")
    where = f"{path} [tool.irvalidate]" if path.name == "pyproject.toml" else str(path)
    return build(table, where, str(path.parent.resolve()))


def config_file_in(folder: str | Path) -> Path | None:
    """The configuration file of one folder, or None.  A file that is not valid TOML is a
    ConfigError, never skipped: a parent's configuration would silently replace it.  (Looked
    for with os.path: a run that finds none does not import pathlib.)"""
    for name in CONFIG_NAMES:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate) and (name != "pyproject.toml"
                                          or _table_of(candidate) is not None):
            from pathlib import Path
            return Path(folder) / name
    return None


if __name__ == "__main__":
    import json
    print(json.dumps(_model().model_json_schema(by_alias=True), indent=2))
