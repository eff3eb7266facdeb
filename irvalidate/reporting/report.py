"""The JSON report: pydantic models, and the JSON Schema generated from them.

``python -m irvalidate.reporting.report`` prints the schema committed as
``schemas/report.schema.json``; a test fails when the two drift.
"""
from __future__ import annotations

import base64
import json
from typing import Dict, List, Literal, Optional, Sequence

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import GenerateJsonSchema

from ..findings import Finding
from ..names import display_path, raw_name

SCHEMA_VERSION = "1"
SCHEMA_ID = "https://irvalidate.invalid/schemas/report-1.schema.json"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LayerModel(_Model):
    id: str
    name: str
    type: str


class TableRowModel(_Model):
    label: str
    dims: Optional[List[str]] = Field(description="formatted dims; null for a dynamic rank")
    offset: Optional[int] = Field(description="first column; null means right-aligned")
    source: Optional[str] = Field(None, description="the layer the operand comes from: "
                                                    "'name' (id N)")


class TableModel(_Model):
    rows: List[TableRowModel]
    marks: List[int] = Field(description="marked columns, from the left of the widest row")


class FindingModel(_Model):
    rule: str = Field(description="rule code, e.g. IRV101")
    slug: str = Field(description="rule name, e.g. broadcast-output-mismatch")
    severity: Literal["error", "warning", "info"]
    message: str
    line: Optional[int]
    layer: Optional[LayerModel]
    port: Optional[str] = None
    scope: str = Field("", description="the nested body the layer is in; empty for the model")
    expected: Optional[str] = Field(None, description="the inferred shape or type")
    declared: Optional[str] = Field(None, description="what the file declares")
    table: Optional[TableModel] = None

    @classmethod
    def of(cls, f: Finding) -> "FindingModel":
        table = None
        if f.table is not None:
            table = TableModel(rows=[TableRowModel(label=r.label, offset=r.offset, source=r.source,
                                                   dims=None if r.dims is None else list(r.dims))
                                     for r in f.table.rows], marks=list(f.table.marks))
        layer = None if f.layer is None else LayerModel(id=f.layer.id, name=f.layer.name,
                                                        type=f.layer.type)
        return cls(rule=f.code, slug=f.slug, severity=f.level, message=f.message, line=f.line,
                   layer=layer, port=f.port, scope=f.scope, expected=f.expected,
                   declared=f.declared, table=table)


class FileModel(_Model):
    path: str = Field(description="the path as given; a name that is not UTF-8 shows U+FFFD "
                      "for its bad bytes (see path_bytes)")
    path_bytes: Optional[str] = Field(
        None, description="only when the name is not UTF-8: its exact bytes, base64 "
        "(RFC 4648), to find the file again")
    findings: List[FindingModel]

    @classmethod
    def of(cls, result) -> "FileModel":
        raw = raw_name(result.path)
        return cls(path=display_path(result.path),
                   path_bytes=None if raw is None else base64.b64encode(raw).decode("ascii"),
                   findings=[FindingModel.of(f) for f in result.findings])


class Summary(_Model):
    files: int
    errors: int
    warnings: int
    infos: int
    by_rule: Dict[str, int] = Field(description="finding count per rule code")


class Report(_Model):
    schema_version: str = SCHEMA_VERSION
    tool: Dict[str, str]
    files: List[FileModel]
    summary: Summary


def build(results: Sequence, version: str) -> Report:
    files = [FileModel.of(r) for r in results]
    every = [f for r in results for f in r.findings]
    by_rule: Dict[str, int] = {}
    for f in every:
        by_rule[f.code] = by_rule.get(f.code, 0) + 1
    summary = Summary(files=len(files), errors=sum(f.level == "error" for f in every),
                      warnings=sum(f.level == "warning" for f in every),
                      infos=sum(f.level == "info" for f in every), by_rule=dict(sorted(by_rule.items())))
    return Report(tool={"name": "irvalidate", "version": version}, files=files, summary=summary)


def dumps(report: Report) -> str:
    """The report as JSON; ``path_bytes`` is written only where it is set (names that are not
    UTF-8), so the documents of ordinary runs do not change."""
    unset = {i: {"path_bytes"} for i, f in enumerate(report.files) if f.path_bytes is None}
    return report.model_dump_json(indent=2, exclude={"files": unset} if unset else None)


class _WithDialect(GenerateJsonSchema):
    def generate(self, schema, mode="validation"):  # type: ignore[override]
        result = super().generate(schema, mode=mode)
        return {"$schema": self.schema_dialect, "$id": SCHEMA_ID, **result}


def json_schema() -> dict:
    return Report.model_json_schema(mode="serialization", schema_generator=_WithDialect)


if __name__ == "__main__":
    print(json.dumps(json_schema(), indent=2))
