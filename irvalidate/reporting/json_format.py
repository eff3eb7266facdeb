"""``--format json``: exactly one JSON document (schemas/report.schema.json)."""
from __future__ import annotations

from collections.abc import Sequence

from . import report


def render(results: Sequence, version: str) -> str:
    return report.dumps(report.build(results, version)) + "\n"
