"""``--format json``: exactly one JSON document (schemas/report.schema.json), written from
plain dicts (``document.py``) so the pydantic report model is not imported."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import document


def render(results: Sequence[Any], version: str) -> str:
    return document.dumps(results, version) + "\n"
