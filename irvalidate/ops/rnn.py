"""The recurrent cells and sequences: LSTMCell-1/-4, GRUCell-3, RNNCell-1 and LSTMSequence-5,
GRUSequence-5, RNNSequence-5 (rnn_base shape inference; ``gates`` is 4, 3 and 1).

Cells: X ``[batch, input]``, the states H (and LSTM's C) ``[batch, hidden]``, W and R
``[gates*hidden, input|hidden]``, B ``[gates*hidden]`` (GRU with ``linear_before_reset``:
``(gates+1)*hidden``) give ``[batch, hidden]`` per state.  Sequences add a directions axis
(1, or 2 when ``bidirectional``) and the time axis: X ``[batch, time, input]``, states
``[batch, dirs, hidden]``, sequence lengths ``[batch]``, W/R ``[dirs, gates*hidden, ...]``,
B ``[dirs, gates*hidden]`` give Y ``[batch, dirs, time, hidden]`` and the states.

batch merges across X, the states (and the sequence lengths); hidden across H, C and R's
last dim.  A static hidden is checked against W, R and B; otherwise W and R, when their
first dim is static, give it (a cell divides that dim by ``gates``; a sequence divides dim 1,
though it tests dim 0, and divides as the runtime does, in doubles: ``5..`` / 4 is
``2..2^61``).  LSTMCell alone falls back to its ``hidden_size`` attribute when hidden is not
static; LSTMCell-1 also synthesises a missing B (``[4*hidden_size]``) and P (``[3*hidden_size]``)
from that attribute, and checks P dim 0 against ``3*hidden``.  The cells' reader refuses
activation names other than sigmoid, tanh, relu and hardsigmoid (and too few of them); the
sequences' reader checks none.
"""
from __future__ import annotations

import math

from ..shapes import arith
from ..shapes.dims import DYNAMIC, Dim, compatible, format_dim, intersect, static
from .support.attributes import Field, read
from .support.autobroadcast import merge_types
from .support.infer_helpers import dim, merge, text
from .support.node import Node
from .support.spec import ATTRIBUTE, DIVERGENCE, INCOMPATIBLE, OpError, OpSpec, Result

_COMMON = (Field("hidden_size", "int", 0), Field("activations_alpha", "floats", ()),
           Field("activations_beta", "floats", ()), Field("clip", "float", 0.0))
_DIRECTION = Field("direction", "enum", "forward", ("forward", "reverse", "bidirectional"))
_LBR = Field("linear_before_reset", "bool", False)
_ACTIVATIONS = ("sigmoid", "tanh", "relu", "hardsigmoid")


def _fields(default_activations: str, *extra) -> tuple:
    return (Field("activations", "str", default_activations),) + _COMMON + extra


_LSTM_CELL0 = _fields("sigmoid,tanh,tanh", Field("input_forget", "bool", False),
                      Field("weights_format", "enum", "ifco", ("fico", "icof", "ifco", "ifoc", "iofc")))
_LSTM_CELL4 = _fields("sigmoid,tanh,tanh")
_GRU_CELL = _fields("sigmoid,tanh", _LBR)
_RNN_CELL = _fields("tanh")
_LSTM_SEQ = _fields("", _DIRECTION)
_GRU_SEQ = _fields("", _DIRECTION, _LBR)
_RNN_SEQ = _fields("", _DIRECTION)

#: (name, gates, states) per family
_KINDS = {"lstm": ("LSTM", 4, 2), "gru": ("GRU", 3, 1), "rnn": ("RNN", 1, 1)}


def _divide(d: Dim, n: int) -> Dim | None:
    """``Dimension / n`` as the runtime computes it: ``?`` stays ``?``, else both bounds
    divided in doubles (ceil, floor), so an unbounded one becomes ``2^63 / n``; None when no
    multiple of n is left (static 17 / 4).  Dividing by 1 changes nothing."""
    if d == DYNAMIC or n == 1:
        return d
    lo = math.ceil(float(d.lo) / n)
    hi = math.floor(float(d.hi) / n)
    return Dim(lo, hi) if lo <= hi else None


def _check_activations(node: Node, text_value: str, count: int) -> None:
    names = [a.strip().lower() for a in text_value.split(",")] if text_value.strip() else []
    if len(names) < count:
        raise OpError(ATTRIBUTE, f"attribute activations must name {count} functions, not "
                                 f"{len(names)} ({text_value!r})")
    for name in names[:count]:
        if name not in _ACTIVATIONS:
            raise OpError(ATTRIBUTE, f"attribute activations: unknown function {name!r} (the "
                                     f"reader knows {', '.join(_ACTIVATIONS)})")


def _ranks(shapes, labels, ranks) -> None:
    for index, (label, shape, rank) in enumerate(zip(labels, shapes, ranks)):
        if shape is not None and len(shape) != rank:
            raise OpError(INCOMPATIBLE, f"{label} (input {index}) must have rank {rank}, not "
                                        f"{text(shape)}")


def _out_type(node: Node, labels, indices) -> str | None:
    return merge_types(node, [labels[i] for i in indices],
                       [node.inputs[i].element_type for i in indices])


def _hidden_mismatch(what: str) -> str:
    return f"the hidden size differs between inputs ({what})"


def _batch(shapes, labels, indices) -> Dim:
    """X's dim 0 merged with the others' (a dynamic rank takes no part)."""
    batch = dim(shapes[0], 0)
    for index in indices:
        batch = merge(batch, dim(shapes[index], 0),
                      f"the batch differs between inputs ({labels[index]} has "
                      f"{text(dim(shapes[index], 0))}, the others {text(batch)})")
    return batch


def _hidden(shapes, labels, states: int, r, axis: int) -> Dim:
    """H's hidden dim merged with C's and R's (``axis``: where the states hold it)."""
    hidden = dim(shapes[1], axis)
    for index in range(2, 1 + states):
        hidden = merge(hidden, dim(shapes[index], axis),
                       _hidden_mismatch(f"{labels[index]} dim {axis}"))
    return merge(hidden, dim(r, axis), _hidden_mismatch(f"R dim {axis}"))


def _weights(hidden: Dim, w, r, b, gates: int, lbr: bool, axis: int) -> Dim:
    """A static hidden checked against W, R and B (their ``axis`` holds ``gates * hidden``);
    else W and R, when their dim 0 is static, give it (``axis`` divided by the gates)."""
    if hidden.is_static:
        for label, shape, times in (("W", w, gates), ("R", r, gates),
                                    ("B", b, gates + 1 if lbr else gates)):
            if shape is not None and not compatible(shape[axis], static(hidden.lo * times)):
                raise OpError(INCOMPATIBLE, f"{label} dim {axis} is {text(shape[axis])}, but "
                                            f"hidden size {hidden.lo} gives {hidden.lo * times}")
        return hidden
    for label, shape in (("W", w), ("R", r)):
        if shape is not None and shape[0].is_static:  # (a sequence tests dim 0, divides dim 1)
            part = _divide(shape[axis], gates)
            if part is None:
                raise OpError(INCOMPATIBLE, f"{label} dim {axis} ({text(shape[axis])}) holds no "
                                            f"multiple of the {gates} gates")
            hidden = merge(hidden, part, _hidden_mismatch(f"{label} dim {axis} / {gates}"))
    return hidden


def _input_size(node: Node, x, w) -> None:
    """X's input size against W's: the runtime never compares them (it reads a model whose
    two can never agree), but no input can run it."""
    if x and w and intersect(x[-1], w[-1]) is None:
        node.note(DIVERGENCE, f"X's input size {format_dim(x[-1])} and W's {format_dim(w[-1])} "
                              f"cannot be equal: OpenVINO 2026.4 reads the model (it does not "
                              f"compare them), but every input fails at inference")


def _infer_cell(kind: str, version: int, fields):
    name, gates, states = _KINDS[kind]
    peepholes = kind == "lstm" and version == 0
    labels = ("X", "H") + (("C",) if states == 2 else ()) + ("W", "R", "B") + (
        ("P",) if peepholes else ())

    def infer(node: Node) -> Result:
        allowed = (5, 6, 7) if peepholes else (4 + states,)
        node.require_inputs(allowed)
        values = read(node, f"{name}Cell{version}", fields)
        activations, hidden_size = values[0], values[1]
        _check_activations(node, activations, 3 if kind == "lstm" else 2 if kind == "gru" else 1)
        lbr = kind == "gru" and values[-1]
        node.show(labels[:len(node.inputs)])
        shapes = [v.shape for v in node.inputs]
        attr_hidden = arith.from_int(hidden_size)
        if peepholes:
            # LSTMCell-1 fills a missing B and P with zeros sized by the attribute
            shapes += [(arith.scale(attr_hidden, 4),), (arith.scale(attr_hidden, 3),)][len(shapes) - 5:]
        _ranks(shapes, labels, [2] * (1 + states) + [2, 2, 1])
        w_at = 1 + states
        w, r, b = shapes[w_at], shapes[w_at + 1], shapes[w_at + 2]
        batch = _batch(shapes, labels, range(1, 1 + states))
        hidden = _weights(_hidden(shapes, labels, states, r, 1), w, r, b, gates, lbr, 0)
        _input_size(node, shapes[0], w)
        node.how = f"{name}Cell: batch and hidden merged across the inputs"
        if kind == "lstm" and not hidden.is_static:
            hidden = attr_hidden  # the runtime falls back to the attribute, unchecked
            node.how += f", hidden from the hidden_size attribute ({hidden_size})"
        if peepholes:
            peephole = shapes[6]
            if peephole is None or len(peephole) == 0:
                raise OpError(INCOMPATIBLE, f"P (input 6) must have a dim 0, not {text(peephole)} "
                                            f"(the runtime reads it unchecked)")
            if peephole[0].is_static and hidden.is_static and \
                    not compatible(peephole[0], static(3 * hidden.lo)):
                raise OpError(INCOMPATIBLE, f"P dim 0 is {peephole[0].lo}, but hidden size "
                                            f"{hidden.lo} gives {3 * hidden.lo}")
        et = _out_type(node, labels, [i for i in range(min(len(node.inputs), w_at + 3))])
        return Result(((batch, hidden),) * states, (et,) * states)
    return infer


def _infer_sequence(kind: str, fields):
    name, gates, states = _KINDS[kind]
    labels = ("X", "H") + (("C",) if states == 2 else ()) + ("sequence_lengths", "W", "R", "B")

    def infer(node: Node) -> Result:
        node.require_inputs((len(labels),))
        values = read(node, f"{name}Sequence", fields)
        direction = values[5]
        lbr = kind == "gru" and values[6]
        node.show(labels)
        shapes = [v.shape for v in node.inputs]
        _ranks(shapes, labels, [3] * (1 + states) + [1, 3, 3, 2])
        w_at = 2 + states
        w, r, b = shapes[w_at], shapes[w_at + 1], shapes[w_at + 2]
        batch = _batch(shapes, labels, range(1, 2 + states))
        hidden = _hidden(shapes, labels, states, r, 2)
        dirs = static(2 if direction == "bidirectional" else 1)
        for index, axis in [(i, 1) for i in range(1, 1 + states)] + [(w_at, 0), (w_at + 1, 0),
                                                                     (w_at + 2, 0)]:
            found = dim(shapes[index], axis)
            if arith.merge(dirs, found) is None:
                raise OpError(INCOMPATIBLE, f"{labels[index]} dim {axis} is {text(found)}, but "
                                            f"direction {direction} has {dirs.lo} direction(s)")
        hidden = _weights(hidden, w, r, b, gates, lbr, 1)
        _input_size(node, shapes[0], w)
        node.how = f"{name}Sequence ({direction}): batch and hidden merged across the inputs"
        y = (batch, dirs, dim(shapes[0], 1), hidden)
        state = (batch, dirs, hidden)
        et = _out_type(node, labels, [i for i in range(len(labels)) if i != 1 + states])
        return Result((y,) + (state,) * states, (et,) * (1 + states))
    return infer


def _cell(name: str, versions, kind: str, version: int, fields) -> OpSpec:
    return OpSpec(name, versions, fields=fields, infer=_infer_cell(kind, version, fields))


SPECS = {
    "lstmcell": (_cell("LSTMCell", (1, 3), "lstm", 0, _LSTM_CELL0),
                 _cell("LSTMCell", (4, 16), "lstm", 4, _LSTM_CELL4)),
    "grucell": (_cell("GRUCell", (3, 16), "gru", 3, _GRU_CELL),),
    "rnncell": (_cell("RNNCell", (1, 16), "rnn", 0, _RNN_CELL),),
    "lstmsequence": (OpSpec("LSTMSequence", (5, 16), fields=_LSTM_SEQ,
                            infer=_infer_sequence("lstm", _LSTM_SEQ)),),
    "grusequence": (OpSpec("GRUSequence", (5, 16), fields=_GRU_SEQ,
                           infer=_infer_sequence("gru", _GRU_SEQ)),),
    "rnnsequence": (OpSpec("RNNSequence", (5, 16), fields=_RNN_SEQ,
                           infer=_infer_sequence("rnn", _RNN_SEQ)),),
}
