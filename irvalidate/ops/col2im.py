"""Col2Im-15: sliding blocks ``data [N, C*k0*k1, L]`` (or unbatched ``[C*k0*k1, L]``) folded
back into ``[N, C, H, W]``.

``output_size`` (``[H, W]``, input 1) is read as a shape (a Const, -1 being ``?`` and other
negatives 0, or the bounds its subgraph evaluates to), ``kernel_size`` (input 2) const-only;
both must be of shape ``[2]`` when their rank is static, and share the type i32 or i64.  C is
data's channel dim divided by ``k0*k1`` when both are known (that product must be positive and
divide it), else ``?``.  When L, H and W are static and the kernel known, L must be the block
count ``prod((out + pad_begin + pad_end - dilation*(k - 1) - 1) / stride + 1)``, computed as the
runtime computes it, in wrapping unsigned 64-bit arithmetic.  The four list attributes are
required with two values: the runtime crashes without one and reads past the end of a shorter
one, so both are refused.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..ir import elements
from ..shapes.broadcasting import target_from_values
from ..shapes.dims import DYNAMIC, Dim, format_shape
from .support.attributes import Field, read
from .support.node import Node
from .support.spec import ATTRIBUTE, INCOMPATIBLE, TYPE, OpError, OpSpec, Result

_FIELDS = (Field("strides", "uints", None), Field("dilations", "uints", None),
           Field("pads_begin", "uints", None), Field("pads_end", "uints", None))
_LABELS = ("data", "output_size", "kernel_size")
_WRAP = 1 << 64


def _signed(value: int) -> int:
    value %= _WRAP
    return value - _WRAP if value >= 1 << 63 else value


def block_count(out: Sequence[int], kernel: Sequence[int], strides: Sequence[int],
                dilations: Sequence[int], pads_begin: Sequence[int], pads_end: Sequence[int]) -> int:
    """The runtime's L for static output and kernel sizes (unsigned arithmetic wrapping, the
    result read as int64); a zero stride raises ZeroDivisionError."""
    total = 1
    for d in range(2):
        span = (out[d] + pads_begin[d] + pads_end[d] - dilations[d] * (kernel[d] - 1) - 1) % _WRAP
        total = total * ((span // strides[d] + 1) % _WRAP) % _WRAP
    return _signed(total)


def _check_lists(lists: tuple[tuple[int, ...] | None, ...]) -> None:
    for field, values in zip(_FIELDS, lists):
        if values is None:
            raise OpError(ATTRIBUTE, f"attribute {field.ir} is missing: the runtime crashes "
                                     f"reading it (it needs two values)")
        if len(values) < 2:
            raise OpError(ATTRIBUTE, f"attribute {field.ir} has {len(values)} value"
                                     f"{'s' if len(values) != 1 else ''}: the runtime reads two, "
                                     f"past the end of the list")


def _size_input(node: Node, index: int) -> None:
    shape = node.inputs[index].shape
    if shape is not None and shape != (Dim(2, 2),):
        raise OpError(INCOMPATIBLE, f"{_LABELS[index]} (input {index}) must have shape [2], not "
                                    f"{format_shape(shape)}")


def _output_size(node: Node) -> tuple[Dim, ...] | None:
    values = node.const_ints(1)
    if values is not None:
        return target_from_values(values) if len(values) == 2 else None
    return node.computed_as_shape(1, "output_size")


def _infer(node: Node) -> Result:
    node.require_inputs((3,))
    lists = read(node, "Col2Im", _FIELDS)
    node.show(_LABELS)
    node.how = "folding blocks back into an image"
    _check_lists(lists)
    strides, dilations, pads_begin, pads_end = lists
    types = [node.inputs[i].element_type for i in (1, 2)]
    if all(elements.is_known(t) for t in types) and (types[0] != types[1] or types[0] not in ("i32", "i64")):
        node.note(TYPE, f"output_size and kernel_size must share the type i32 or i64, not "
                        f"{types[0]} and {types[1]}")
    data = node.inputs[0].shape
    if data is not None and len(data) not in (2, 3):
        raise OpError(INCOMPATIBLE, f"data {format_shape(data)} must be [C*k0*k1, L] or "
                                    f"[N, C*k0*k1, L] (rank 2 or 3)")
    _size_input(node, 1)
    _size_input(node, 2)
    if data is None:
        return Result((None,), (node.inputs[0].element_type,))
    batched = len(data) == 3
    channels, blocks = data[-2], data[-1]
    kernel = node.exact_values(2)
    if kernel is not None and len(kernel) != 2:
        kernel = None
    out_c = DYNAMIC
    if kernel is not None and channels.is_static:
        product = kernel[0] * kernel[1]
        if product <= 0:
            raise OpError(INCOMPATIBLE, f"kernel_size {list(kernel)} must have a positive product")
        if channels.lo % product:
            raise OpError(INCOMPATIBLE, f"data's channel dim {channels.lo} is not divisible by "
                                        f"k0*k1 = {product} (kernel_size {list(kernel)})",
                          column=len(data) - 2)
        out_c = Dim(channels.lo // product, channels.lo // product)
    size = _output_size(node)
    height, width = size if size is not None else (DYNAMIC, DYNAMIC)
    if size is not None and kernel is not None and blocks.is_static and all(d.is_static for d in size):
        if 0 in strides[:2]:
            raise OpError(ATTRIBUTE, f"attribute strides {list(strides)} holds a 0")
        expected = block_count([height.lo, width.lo], kernel, strides, dilations, pads_begin, pads_end)
        if expected != blocks.lo:
            raise OpError(INCOMPATIBLE, f"data holds L = {blocks.lo} blocks, but output_size "
                                        f"[{height.lo},{width.lo}], kernel_size {list(kernel)}, "
                                        f"the strides, dilations and pads make {expected}",
                          column=len(data) - 1)
    out = ((data[0],) if batched else ()) + (out_c, height, width)
    return Result((out,), (node.inputs[0].element_type,))


SPECS = {"col2im": (OpSpec("Col2Im", (15, 16), fields=_FIELDS, dim_inputs=(1, 2), infer=_infer),)}
