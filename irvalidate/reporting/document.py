"""The JSON report as plain dicts, written without pydantic (a pre-commit run pays for every
import at each start: building the report models costs ~200 ms).

The field order, the fields left out and the values are those of the pydantic models in
``report.py``, which stay the schema's source (``schemas/report.schema.json``);
``tests/reporting/test_json_document.py`` checks the two give the same text.
"""
from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from ..rules.findings import Finding
from .names import display_path, raw_name

SCHEMA_VERSION = "1"


def _layer(ref: Any) -> dict | None:
    return None if ref is None else {"id": ref.id, "name": ref.name, "type": ref.type}


def _edit(e: Any) -> dict:
    return {"line": e.line, "column": e.column, "end_line": e.end_line,
            "end_column": e.end_column, "old": e.old, "new": e.new, "rule": e.rule or None,
            "layer": e.layer}


def _table(table: Any) -> dict | None:
    if table is None:
        return None
    rows = [{"label": r.label, "dims": None if r.dims is None else list(r.dims),
             "offset": r.offset, "source": r.source} for r in table.rows]
    return {"rows": rows, "marks": list(table.marks)}


def _finding(f: Finding, with_fix: bool) -> dict:
    found = {"rule": f.code, "slug": f.slug, "severity": f.level, "message": f.message,
             "line": f.line, "column": f.column, "layer": _layer(f.layer), "port": f.port,
             "scope": f.scope, "expected": f.expected, "declared": f.declared,
             "table": _table(f.table)}
    if with_fix:  # (fix fields exist only in --diff/--fix runs)
        found["fix"] = None if f.fix is None else {
            "edits": [_edit(e) for e in f.fix.edits], "unfixable": f.fix.blocked}
    cause = f.caused_by
    if cause is not None:  # (only a consequence names its root)
        found["caused_by"] = {"rule": cause.code, "layer": _layer(cause.layer),
                              "port": cause.port, "line": cause.line}
    request = getattr(f, "request", None)
    if request is not None:  # (only with several --reshape requests)
        found["request"] = request
    return found


def _reshape(outcome: Any, named: bool = False) -> dict:
    from ..shapes.dims import format_shape

    def tensors(pairs: Any) -> list:
        return [{"name": n, "shape": format_shape(s, False)} for n, s in pairs]
    found = {"request": outcome.request} if named else {}
    found.update({"works": outcome.works, "changed": outcome.changed,
                  "smart_reshape": outcome.smart, "inputs": tensors(outcome.inputs),
                  "outputs": tensors(outcome.outputs),
                  "rewrites": [{"transformation": r.transformation, "layer": _layer(r.layer),
                                "detail": r.detail} for r in outcome.rewrites]})
    return found


def _file(result: Any) -> dict:
    found: dict = {"path": display_path(result.path)}
    raw = raw_name(result.path)
    if raw is not None:  # (only a name that is not UTF-8 carries its bytes)
        found["path_bytes"] = base64.b64encode(raw).decode("ascii")
    fix = getattr(result, "fix", None)
    found["findings"] = [_finding(f, fix is not None) for f in result.findings]
    if fix is not None:
        found["fix"] = {"written": fix.written, "edits": [_edit(e) for e in fix.edits],
                        "refused": fix.refused, "fixed": fix.fixed}
    reshape = getattr(result, "reshape", None)
    if reshape is not None:
        found["reshape"] = _reshape(reshape)
    requests = getattr(result, "requests", ())
    if len(requests) > 1:  # (several --reshape requests: each that fits the file, named)
        found["reshapes"] = [_reshape(o, True) for o in requests if hasattr(o, "works")]
    return found


def document(results: Sequence[Any], version: str) -> dict:
    """The report of ``results``, as ``report.build`` models it."""
    every = [f for r in results for f in r.findings]
    by_rule: dict[str, int] = {}
    for f in every:
        by_rule[f.code] = by_rule.get(f.code, 0) + 1
    summary = {"files": len(results), "errors": sum(f.level == "error" for f in every),
               "warnings": sum(f.level == "warning" for f in every),
               "infos": sum(f.level == "info" for f in every),
               "by_rule": dict(sorted(by_rule.items()))}
    return {"schema_version": SCHEMA_VERSION, "tool": {"name": "irvalidate", "version": version},
            "files": [_file(r) for r in results], "summary": summary}


def dumps(results: Sequence[Any], version: str) -> str:
    """The report as text, as pydantic writes it (two-space indent, UTF-8 left as is)."""
    return json.dumps(document(results, version), indent=2, ensure_ascii=False)
