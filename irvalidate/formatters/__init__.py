"""Report formatters, by name; each turns file results into the text it prints."""
from __future__ import annotations

from typing import Callable, Dict, Sequence

from . import github, json_format, sarif, text

FORMATTERS: Dict[str, Callable[[Sequence, str], str]] = {
    "text": text.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
}
