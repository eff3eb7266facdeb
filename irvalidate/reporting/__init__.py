"""Report formatters, by name; each turns file results into the text it prints."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module


def _lazy(module: str) -> Callable[[Sequence, str], str]:
    # a formatter module is imported when it renders: json pulls in pydantic, sarif and github
    # hashlib, pathlib and urllib, none of which the text report of a small file needs
    def render(results: Sequence, version: str) -> str:
        return import_module(f"{__name__}.{module}").render(results, version)
    return render


FORMATTERS: dict[str, Callable[[Sequence, str], str]] = {
    "text": _lazy("text"),
    "concise": _lazy("concise"),
    "json": _lazy("json_format"),
    "sarif": _lazy("sarif"),
    "github": _lazy("github"),
}
#: every name ``--format`` and ``format`` accept: the formatters, and ``auto`` (github under
#: GitHub Actions, else text)
FORMAT_NAMES = ("auto", *sorted(FORMATTERS))
