"""Configuration: ``[tool.irvalidate]`` in the nearest ``pyproject.toml``, or ``--config FILE``.

Read into a pydantic model that refuses unknown keys and unknown rule selectors with a clear
message; the command line overrides what the file says.  Keys are kebab-case in TOML
(``per-file-ignores``), snake_case in Python.

The model (``Config``) is built on first use: importing pydantic and building it costs more
than validating a small IR, so a run that finds no ``[tool.irvalidate]`` table and sets
nothing on the command line gets :class:`Defaults`, which holds what ``Config()`` holds.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError
    Config = BaseModel  # the model is built by _build() on first use (see __getattr__)

Level = Literal["error", "warning", "info"]
FormatName = Literal["auto", "github", "json", "sarif", "text"]


def _tomllib() -> Any:
    # imported only once a pyproject.toml or --config file is really there to read
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    return tomllib


class ConfigError(ValueError):
    """A configuration that cannot be used; the message says where and why."""


def _known_selector(selector: str) -> str:
    from .rules import BY_SLUG, INTERNAL_ERROR, RULES
    codes = [r.CODE for r in RULES] + [INTERNAL_ERROR[0]]
    if selector.lower() in BY_SLUG or selector.lower() == INTERNAL_ERROR[1]:
        return selector.lower()
    if any(code.startswith(selector.upper()) for code in codes) and selector.strip():
        return selector.upper()
    raise ValueError(f"{selector!r} matches no rule code (prefix) or slug; "
                     f"`irvalidate rules` lists them")


def _model() -> type:
    """The pydantic model, built on first use; then also the module attribute ``Config``."""
    # setdefault: threads racing through the first use all get the one class that is kept
    return globals().get("Config") or globals().setdefault("Config", _build())


def _build() -> type:
    from pydantic import BaseModel, ConfigDict, Field, field_validator

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid", populate_by_name=True,
                                  alias_generator=lambda name: name.replace("_", "-"))

        select: List[str] = Field(
            default_factory=list,
            description="rule codes, code prefixes or slugs to run (empty: all)")
        ignore: List[str] = Field(default_factory=list, description="rules not to run")
        extend_ignore: List[str] = Field(default_factory=list,
                                         description="more rules not to run, added to ignore")
        per_file_ignores: Dict[str, List[str]] = Field(
            default_factory=dict,
            description="glob (relative to the config file) -> rules not to run")
        severity: Dict[str, Level] = Field(default_factory=dict,
                                           description="rule code, prefix or slug -> level")
        format: Optional[FormatName] = None
        exit_zero: bool = Field(False, description="exit 0 even when there are error findings")
        jobs: int = Field(1, ge=0, description="files validated in parallel (0: one per CPU)")
        #: the directory per-file-ignores globs are relative to (the config file's)
        root: Optional[str] = Field(None, exclude=True)

        @field_validator("select", "ignore", "extend_ignore")
        @classmethod
        def _selectors(cls, values: List[str]) -> List[str]:
            return [_known_selector(v) for v in values]

        @field_validator("per_file_ignores")
        @classmethod
        def _per_file(cls, table: Dict[str, List[str]]) -> Dict[str, List[str]]:
            return {glob: [_known_selector(v) for v in values] for glob, values in table.items()}

        @field_validator("severity")
        @classmethod
        def _severity(cls, table: Dict[str, Level]) -> Dict[str, Level]:
            return {_known_selector(k): v for k, v in table.items()}

        def merged(self, **overrides: object) -> "Config":
            """This configuration with command-line values on top (None means not given)."""
            data = self.model_dump(exclude={"root"})
            data.update({k: v for k, v in overrides.items() if v is not None})
            return Config(root=self.root, **data)

    Config.__qualname__ = "Config"  # pickled by name for the -j workers, like a top-level class
    return Config


def __getattr__(name: str) -> type:
    if name == "Config":
        return _model()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class Defaults:
    """What ``Config()`` holds (a test checks that they agree), without importing pydantic."""
    select: List[str] = field(default_factory=list)
    ignore: List[str] = field(default_factory=list)
    extend_ignore: List[str] = field(default_factory=list)
    per_file_ignores: Dict[str, List[str]] = field(default_factory=dict)
    severity: Dict[str, Level] = field(default_factory=dict)
    format: Optional[FormatName] = None
    exit_zero: bool = False
    jobs: int = 1
    root: Optional[str] = None

    def merged(self, **overrides: object) -> "Defaults | Config":
        """As :meth:`Config.merged`; command-line values are validated by the model."""
        given = {k: v for k, v in overrides.items() if v is not None}
        return _model()(**given) if given else self


def _describe(err: ValidationError, where: str) -> str:
    lines = []
    for item in err.errors():
        key = ".".join(str(p) for p in item["loc"]) or "(table)"
        if item["type"] == "extra_forbidden":
            lines.append(f"{where}: unknown key {key!r}")
        else:
            lines.append(f"{where}: {key}: {item['msg'].removeprefix('Value error, ')}")
    return "\n".join(lines)


def _table_of(path: Path) -> Optional[dict]:
    tomllib = _tomllib()
    try:
        with path.open("rb") as handle:
            document = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{path}: cannot read it as TOML: {err}") from None
    if path.name == "pyproject.toml" or "tool" in document:
        return document.get("tool", {}).get("irvalidate")
    return document


def load(path: Path) -> Config:
    """The configuration in one file: ``[tool.irvalidate]`` of a pyproject.toml, else the
    top-level keys of a dedicated TOML file."""
    table = _table_of(path)
    if table is None:
        raise ConfigError(f"{path}: has no [tool.irvalidate] table")
    where = f"{path} [tool.irvalidate]" if path.name == "pyproject.toml" else str(path)
    from pydantic import ValidationError
    try:
        return _model()(root=str(path.parent.resolve()), **table)
    except ValidationError as err:
        raise ConfigError(_describe(err, where)) from None
    except TypeError as err:  # a non-table value at the top
        raise ConfigError(f"{where}: {err}") from None


def discover(start: Optional[Path] = None) -> Optional[Path]:
    """The nearest pyproject.toml with a ``[tool.irvalidate]`` table, from ``start`` upward."""
    here = (start or Path(os.getcwd())).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            tomllib = _tomllib()
            try:
                with candidate.open("rb") as handle:
                    if "irvalidate" in tomllib.load(handle).get("tool", {}):
                        return candidate
            except (OSError, tomllib.TOMLDecodeError):
                continue
    return None


def resolve(config_file: Optional[str]) -> Config | Defaults:
    """``--config FILE`` when given, else the discovered pyproject.toml, else the defaults."""
    if config_file:
        path = Path(config_file)
        if not path.is_file():
            raise ConfigError(f"{config_file}: no such configuration file")
        return load(path)
    found = discover()
    return load(found) if found else Defaults()


if __name__ == "__main__":
    import json
    print(json.dumps(_model().model_json_schema(by_alias=True), indent=2))
