"""What the convolution, pooling, padding and resizing ops check of their value inputs: an
empty Const the reader gives no buffer (their element types: ``input_types``).
The values themselves are read by the node (``Node.as_shape``, ``Node.exact_values``).
"""
from __future__ import annotations

from .node import Node
from .spec import INCOMPATIBLE, OpError


def refuse_bufferless(node: Node, index: int) -> None:
    """An empty Const written with no bytes (size 0) gets no buffer from the reader; the ops
    that read a Const's buffer directly then fail ("ptr is Null": measured on Tile and
    ConvolutionBackpropData), while those that bound-evaluate it (Pad) do not."""
    size = node.const_size(index)
    shape = node.inputs[index].shape
    if size is not None and size.strip() == "0" and \
            shape is not None and any(d.hi == 0 for d in shape):
        raise OpError(INCOMPATIBLE, f"input {index} is an empty Const with no bytes (size 0): "
                                    f"the runtime fails reading its values (\"ptr is Null\")")
