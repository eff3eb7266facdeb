"""What ``irvalidate inspect`` says of one IR file, as pydantic models: its inputs and
outputs (the contract its callers rely on), its layers, its weights and where it came from.
``compat`` compares two of these; nothing here infers anything.

Dims are kept as the file declares them, as intervals: ``hi`` None is unbounded, and a
static dim has ``lo == hi``.
"""
from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import GenerateJsonSchema

#: the version of the ``inspect --format json`` document (``InspectReport``); a change that
#: removes or renames a field makes it 2
SCHEMA_VERSION = "1"
SCHEMA_ID = "https://irvalidate.invalid/schemas/inspect-1.schema.json"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DimModel(_Model):
    lo: int = Field(description="the least size the dim takes")
    hi: int | None = Field(description="the largest; null: unbounded")


class AxisSizesModel(_Model):
    """The sizes an input axis takes, as ``reshapeable`` states them (its JSON contract)."""
    axis: int
    exact: bool
    min: int
    max: int | None
    multiple_of: int
    offset: int
    values: list[int] | None
    residues: dict[str, int | list[int]] | None = Field(
        None, description="{modulo, classes}: the sizes exactly, where they form several "
                          "residue classes (exact is then false)")


class TensorModel(_Model):
    """One input (a Parameter) or output (a Result's input) of the model."""
    index: int = Field(description="its position among the inputs, or among the outputs")
    layer: str = Field(description="the Parameter's or Result's layer name")
    layer_id: str
    line: int = Field(description="the line of that layer in the file")
    names: list[str] = Field(description="its tensor names, in the file's order")
    element_type: str = Field(description="as OpenVINO names it: f32, i64, ...")
    shape: list[DimModel] | None = Field(description="as declared; null: a dynamic rank")
    shape_text: str = Field(description="the shape as irvalidate prints it: [?,3,224,224]")
    layout: str | None = Field(None, description="the layout rt_info gives it, if any")
    rt_info: dict[str, str] = Field(
        default_factory=dict, description="its own rt_info, name -> value: the Parameter's or "
        "Result's and its port's (layout, old_api_map_element_type, preprocessing...; "
        "fused_names, which every export rewrites, left out)")
    axes: list[AxisSizesModel] | None = Field(
        None, description="inputs: the sizes each axis takes (reshapeable); null: not computed")


class LayerCountModel(_Model):
    type: str
    opset: str
    count: int


class WeightsModel(_Model):
    """The Consts of one element type."""
    element_type: str
    constants: int
    elements: int
    bytes: int


class CompressionModel(_Model):
    """Weights of a low-precision type decompressed by Convert (-> Subtract) -> Multiply."""
    element_type: str
    elements: int
    share: float = Field(description="of all weight elements, 0..1")


class InterfaceModel(_Model):
    file: str
    ir_version: int | None
    producer: dict[str, str] = Field(
        description="what wrote the file: framework, MO/ovc/optimum/NNCF versions, ...")
    inputs: list[TensorModel]
    outputs: list[TensorModel]
    layers: list[LayerCountModel]
    weights: list[WeightsModel]
    compression: list[CompressionModel]
    rt_info: dict[str, str] = Field(
        description="the model's rt_info as path -> value (layout and preprocessing among it)")
    extensions: list[str] = Field(description="op types no opset of OpenVINO defines")
    bin_bytes: int | None = Field(description="the .bin's size; null: no .bin")
    reshapeable: bool = Field(description="whether the inputs' axes were computed")


class InspectFailureModel(_Model):
    """A file ``inspect`` could not read as an IR (the command then exits 2)."""
    file: str
    message: str


class InspectReport(_Model):
    """What ``irvalidate inspect --format json`` prints: one document for every file."""
    schema_version: Literal["1"] = "1"
    tool: Literal["irvalidate"] = "irvalidate"
    version: str = Field(description="irvalidate's version")
    files: list[InterfaceModel] = Field(description="the files read, in the order given")
    errors: list[InspectFailureModel] = Field(
        description="the files that could not be read as an IR, and why")


class _WithDialect(GenerateJsonSchema):
    def generate(self, schema, mode="validation"):
        result = super().generate(schema, mode=mode)
        return {"$schema": self.schema_dialect, "$id": SCHEMA_ID, **result}


def json_schema() -> dict:
    """The JSON Schema of ``inspect --format json`` (schemas/inspect.schema.json)."""
    return InspectReport.model_json_schema(mode="serialization", schema_generator=_WithDialect)


if __name__ == "__main__":
    print(json.dumps(json_schema(), indent=2))
