"""GridSample-9: ``data [N, C, H, W]`` sampled at ``grid [N, H_out, W_out, 2]``.

Output ``[N, C, H_out, W_out]``, always of rank 4: N is data's and grid's batch dims merged
(refused when they cannot be equal), the others come from data and grid, ``?`` where their
rank is dynamic.  Both ranks must be 4 when static, grid's last dim must be able to be 2, and
grid must be floating point (data may be any type).  The attributes (``align_corners``,
``mode``, ``padding_mode``) do not change the shape.
"""
from __future__ import annotations

from ..ir import elements
from ..shapes.dims import DYNAMIC, Dim, compatible, format_dim, format_shape, intersect
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_FIELDS = (Field("align_corners", "bool", False),
           Field("mode", "enum", "bilinear", ("bilinear", "bicubic", "nearest")),
           Field("padding_mode", "enum", "zeros", ("zeros", "border", "reflection")))


def _infer(node: Node) -> Result:
    node.require_inputs((2,))
    read(node, "GridSample", _FIELDS)
    node.show(("data", "grid"))
    node.how = "grid sampling ([N, C] of data, [H_out, W_out] of grid)"
    data, grid = node.inputs[0].shape, node.inputs[1].shape
    grid_type = node.inputs[1].element_type
    if elements.is_known(grid_type) and not (
            grid_type in ("f16", "f32", "f64", "bf16") or grid_type.startswith("f8")):
        node.note(TYPE, f"grid (input 1) must be floating point, not {grid_type}")
    for what, shape in (("data", data), ("grid", grid)):
        if shape is not None and len(shape) != 4:
            raise OpError(INCOMPATIBLE, f"{what} {format_shape(shape)} must have rank 4")
    if grid is not None and not compatible(grid[3], Dim(2, 2)):
        raise OpError(INCOMPATIBLE, f"grid {format_shape(grid)} must end in 2 (x, y), not "
                                    f"{format_dim(grid[3])}", column=3)
    d = data if data is not None else (DYNAMIC,) * 4
    g = grid if grid is not None else (DYNAMIC,) * 4
    batch = intersect(d[0], g[0])
    if batch is None:
        raise OpError(INCOMPATIBLE, f"the batch dims differ: data's {format_dim(d[0])}, grid's "
                                    f"{format_dim(g[0])}", column=0)
    return Result(((batch, d[1], g[1], g[2]),), (node.inputs[0].element_type,))


SPECS = {"gridsample": (OpSpec("GridSample", (9, 16), fields=_FIELDS,
                               infer=_infer),)}
