"""CTCGreedyDecoder-1, CTCGreedyDecoderSeqLen-6 and CTCLoss-4 (their shape inference).

CTCGreedyDecoder: logits ``[T, N, C]`` (time-major) and a mask ``[T, N]`` give ``[N, T, 1,
1]``; T and N merge across both.  No element type is checked; the output has the logits'.
CTCGreedyDecoderSeqLen: logits ``[N, T, C]`` and sequence lengths ``[N]`` give ``[N, T]`` and
``[N]`` of the types ``classes_index_type`` and ``sequence_length_type`` name (any type, i32
when missing); a fully static blank_index must be ``[]`` or ``[1]``, and an integer.
CTCLoss: logits ``[N, T, C]``, logit lengths ``[N]``, labels ``[N, T]``, label lengths ``[N]``
and an optional scalar blank index give ``[N]``; N merges across all of them, labels dim 1
must be compatible with T.  A dynamic-rank input takes no part.
"""
from __future__ import annotations

from ..shapes.dims import ONE, compatible
from .support.attributes import Field, read
from .support.infer_helpers import REAL, dim, merge, require_rank, text
from .support.input_types import require_type
from .support.node import Node
from .support.spec import INCOMPATIBLE, OpError, OpSpec, Result

_DECODER = (Field("ctc_merge_repeated", "bool", True),)
_SEQ_LEN = (Field("merge_repeated", "bool", True), Field("classes_index_type", "type", "i32"),
            Field("sequence_length_type", "type", "i32"))
_LOSS = (Field("preprocess_collapse_repeated", "bool", False),
         Field("ctc_merge_repeated", "bool", False), Field("unique", "bool", False))


def _infer_decoder(node: Node) -> Result:
    node.require_inputs((2,))
    node.show(("logits", "sequence_mask"))
    logits, mask = node.inputs[0].shape, node.inputs[1].shape
    require_rank(logits, (3,), f"logits (input 0) must be 3-D [T, N, C], not {text(logits)}")
    require_rank(mask, (2,), f"sequence_mask (input 1) must be 2-D [T, N], not {text(mask)}")
    time, batch = dim(logits, 0), dim(logits, 1)
    if mask is not None:
        time = merge(time, mask[0], f"the time steps of logits ({text(time)}) and of "
                                    f"sequence_mask ({text(mask[0])}) differ")
        batch = merge(batch, mask[1], f"the batch of logits ({text(batch)}) and of "
                                      f"sequence_mask ({text(mask[1])}) differ")
    node.how = "greedy decoding, batch first"
    return Result(((batch, time, ONE, ONE),), (node.inputs[0].element_type,))


def _infer_seq_len(node: Node) -> Result:
    node.require_inputs((2, 3))
    node.show(("logits", "sequence_length", "blank_index")[:len(node.inputs)])
    _merge, classes_type, lengths_type = read(node, "CTCGreedyDecoderSeqLen", _SEQ_LEN)
    if len(node.inputs) == 3:
        blank = node.inputs[2].shape
        if blank is not None and all(d.is_static for d in blank) and blank not in ((), (ONE,)):
            raise OpError(INCOMPATIBLE, f"blank_index (input 2) must be a scalar or hold one "
                                        f"value, not {text(blank)}")
        require_type(node, 2, "blank_index", words="an integer")
    logits, lengths = node.inputs[0].shape, node.inputs[1].shape
    require_rank(logits, (3,), f"logits (input 0) must be 3-D [N, T, C], not {text(logits)}")
    batch, time = dim(logits, 0), dim(logits, 1)
    if lengths is not None:
        require_rank(lengths, (1,), f"sequence_length (input 1) must be 1-D, not {text(lengths)}")
        batch = merge(batch, lengths[0], f"the batch of logits ({text(batch)}) and of "
                                         f"sequence_length ({text(lengths[0])}) differ")
    node.how = "greedy decoding of each sequence"
    return Result(((batch, time), (batch,)), (classes_type, lengths_type))


_LOSS_INPUTS = (("logits", 3), ("logit_length", 1), ("labels", 2), ("label_length", 1),
                ("blank_index", 0))


def _infer_loss(node: Node) -> Result:
    node.require_inputs((4, 5))
    names = [name for name, _ in _LOSS_INPUTS[:len(node.inputs)]]
    node.show(names)
    require_type(node, 0, "logits", REAL, "floating point")
    for index in range(1, len(node.inputs)):
        require_type(node, index, names[index])
    shapes = [v.shape for v in node.inputs]
    for index, (name, rank) in enumerate(_LOSS_INPUTS[:len(node.inputs)]):
        require_rank(shapes[index], (rank,), f"{name} (input {index}) must have rank {rank}, "
                                             f"not {text(shapes[index])}")
    logits, logit_len, labels, label_len = shapes[:4]
    batch, time = dim(logits, 0), dim(logits, 1)
    if logit_len is not None:
        batch = merge(batch, logit_len[0], f"the batch of logit_length ({text(logit_len[0])}) "
                                           f"differs from the logits' ({text(batch)})")
    if labels is not None:
        batch = merge(batch, labels[0], f"the batch of labels ({text(labels[0])}) differs from "
                                        f"the logits' ({text(batch)})")
        if not compatible(labels[1], time):
            raise OpError(INCOMPATIBLE, f"labels (input 2) dim 1 ({text(labels[1])}) must be the "
                                        f"logits' time steps ({text(time)})")
    if label_len is not None:
        batch = merge(batch, label_len[0], f"the batch of label_length ({text(label_len[0])}) "
                                           f"differs from the other inputs' ({text(batch)})")
    node.how = "one loss per sequence"
    return Result(((batch,),), (node.inputs[0].element_type,))


SPECS = {
    "ctcgreedydecoder": (OpSpec("CTCGreedyDecoder", (1, 16), fields=_DECODER,
                                infer=_infer_decoder),),
    "ctcgreedydecoderseqlen": (OpSpec("CTCGreedyDecoderSeqLen", (6, 16), fields=_SEQ_LEN,
                                      infer=_infer_seq_len),),
    "ctcloss": (OpSpec("CTCLoss", (4, 16), fields=_LOSS, infer=_infer_loss),),
}
