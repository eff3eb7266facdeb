"""The JSON report: pydantic models, and the JSON Schema generated from them.

``python -m irvalidate.reporting.report`` prints the schema committed as
``schemas/report.schema.json``; a test fails when the two drift.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import GenerateJsonSchema

from .document import SCHEMA_VERSION, document

SCHEMA_ID = "https://irvalidate.invalid/schemas/report-1.schema.json"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LayerModel(_Model):
    id: str
    name: str
    type: str


class TableRowModel(_Model):
    label: str
    dims: list[str] | None = Field(description="formatted dims; null for a dynamic rank")
    offset: int | None = Field(description="first column; null means right-aligned")
    source: str | None = Field(None, description="the layer the operand comes from: "
                                                    "'name' (id N)")


class TableModel(_Model):
    rows: list[TableRowModel]
    marks: list[int] = Field(description="marked columns, from the left of the widest row")


class EditModel(_Model):
    line: int = Field(description="where the replaced text starts (1-based)")
    column: int = Field(description="1-based, in characters")
    end_line: int
    end_column: int = Field(description="just after the replaced text")
    old: str = Field(description="the text replaced")
    new: str = Field(description="the text written instead")
    rule: str | None = Field(None, description="the rule whose finding the edit fixes")
    layer: str | None = Field(None, description="the id of the layer the finding is about")



class FindingFixModel(_Model):
    edits: list[EditModel] = Field(description="what --fix writes for this finding")
    unfixable: str | None = Field(None, description="why --fix writes nothing for it")


class FileFixModel(_Model):
    written: bool = Field(description="the edits were written to the file (--fix)")
    edits: list[EditModel] = Field(description="every edit, in the file as it was")
    refused: str | None = Field(None, description="why the edits were not written")
    fixed: int = Field(description="findings the edits fix")


class CauseModel(_Model):
    rule: str = Field(description="the root finding's rule code")
    layer: LayerModel | None = Field(description="the root finding's layer")
    port: str | None = None
    line: int | None = Field(description="the root finding's line")





class FindingModel(_Model):
    rule: str = Field(description="rule code, e.g. IRV101")
    slug: str = Field(description="rule name, e.g. broadcast-output-mismatch")
    severity: Literal["error", "warning", "info"]
    message: str
    line: int | None
    column: int | None = Field(None, description="1-based, in characters: where the "
                                  "element the finding names starts on its line")
    layer: LayerModel | None
    port: str | None = None
    scope: str = Field("", description="the nested body the layer is in; empty for the model")
    expected: str | None = Field(None, description="the inferred shape or type")
    declared: str | None = Field(None, description="what the file declares")
    table: TableModel | None = None
    fix: FindingFixModel | None = Field(None, description="only with --diff or --fix")
    caused_by: CauseModel | None = Field(
        None, description="only for a consequence: the root finding it follows from (a "
        "declared dim contradicted because what reaches its layer already contradicts upstream)")
    request: str | None = Field(
        None, description="only with several --reshape requests, on a finding that belongs "
        "to one of them: that request, as x[1,3,8,8] (its message starts with it too)")



class TensorShapeModel(_Model):
    name: str = Field(description="the Parameter's or Result's layer name")
    shape: str | None = Field(description="as OpenVINO writes a PartialShape ([1,3..5,?]); "
                                 "null when irvalidate cannot tell (a dynamic rank is [...])")


class RewriteModel(_Model):
    transformation: str = Field(description="the SmartReshape pass, e.g. ReshapeAMatMul")
    layer: LayerModel
    detail: str


class ReshapeModel(_Model):
    request: str | None = Field(None, description="only in reshapes (several --reshape "
                                "requests): the request, as x[1,3,8,8]")
    works: bool = Field(description="Model.reshape succeeds with these shapes")
    changed: bool = Field(description="false when every input asked for already has that "
                          "shape: Model.reshape then does nothing")
    smart_reshape: bool = Field(description="SmartReshape's rewrites were applied "
                                "(--no-smart-reshape: plain re-inference)")
    inputs: list[TensorShapeModel]
    outputs: list[TensorShapeModel] = Field(description="what reaches each Result")
    rewrites: list[RewriteModel]



class FileModel(_Model):
    path: str = Field(description="the path as given; a name that is not UTF-8 shows U+FFFD "
                      "for its bad bytes (see path_bytes)")
    path_bytes: str | None = Field(
        None, description="only when the name is not UTF-8: its exact bytes, base64 "
        "(RFC 4648), to find the file again")
    findings: list[FindingModel]
    fix: FileFixModel | None = Field(None, description="only with --diff or --fix: the "
                                        "file's edits")
    reshape: ReshapeModel | None = Field(None, description="only with --reshape: the "
                                            "what-if's outcome")
    reshapes: list[ReshapeModel] | None = Field(
        None, description="only with several --reshape requests, in place of reshape: the "
        "outcome of each request that fits the file, in the order given (IRV303 tells the "
        "others)")



class Summary(_Model):
    files: int
    errors: int
    warnings: int
    infos: int
    by_rule: dict[str, int] = Field(description="finding count per rule code")


class Report(_Model):
    schema_version: str = SCHEMA_VERSION
    tool: dict[str, str]
    files: list[FileModel]
    summary: Summary


def build(results: Sequence, version: str) -> Report:
    """The report model of ``results``: the document ``--format json`` writes
    (``document.py``), validated by the models."""
    return Report.model_validate(document(results, version))


def _findings_left_out(f: FileModel) -> dict[object, object] | None:
    """The fields of a file's findings left out: fix outside --diff/--fix runs, caused_by on
    the roots, request outside runs of several --reshape requests (and on findings about
    the file)."""
    fields = {"fix"} if f.fix is None else set()
    if all(finding.caused_by is None and finding.request is None for finding in f.findings):
        return {"__all__": fields | {"caused_by", "request"}}
    left = {j: fields | ({"caused_by"} if finding.caused_by is None else set()) |
            ({"request"} if finding.request is None else set())
            for j, finding in enumerate(f.findings)}
    return {j: names for j, names in left.items() if names} or None


def dumps(report: Report) -> str:
    """The report as JSON; ``path_bytes`` is written only where it is set (names that are not
    UTF-8), so the documents of ordinary runs do not change."""
    unset: dict[int, Any] = {}  # (pydantic's exclude: fields by name, or items by index)
    for i, f in enumerate(report.files):
        # fix fields exist only in --diff/--fix runs, caused_by only on consequences: ordinary
        # documents stay as they were
        left_out: dict[str, object] = {}
        if f.path_bytes is None:
            left_out["path_bytes"] = True
        if f.fix is None:
            left_out["fix"] = True
        findings = _findings_left_out(f)
        if findings:
            left_out["findings"] = findings
        if f.reshape is None:
            left_out["reshape"] = True
        elif f.reshape.request is None:
            left_out["reshape"] = {"request": True}
        if f.reshapes is None:
            left_out["reshapes"] = True
        if left_out:
            unset[i] = left_out
    return report.model_dump_json(indent=2, exclude={"files": unset} if unset else None)


class _WithDialect(GenerateJsonSchema):
    def generate(self, schema, mode="validation"):
        result = super().generate(schema, mode=mode)
        return {"$schema": self.schema_dialect, "$id": SCHEMA_ID, **result}


def json_schema() -> dict:
    return Report.model_json_schema(mode="serialization", schema_generator=_WithDialect)


if __name__ == "__main__":
    print(json.dumps(json_schema(), indent=2))
