"""Models built with the openvino API, each with the reshape requests worth asking of it.

Every pattern of the SmartReshape note (notes/reshape/smart_reshape.md, beside the repository) is here: the
rewrites that rescue a model (ReshapeAMatMul/BMatMul, TransposeMatMul, ReshapeTo1D,
SqueezeStridedSlice/StridedSliceSqueeze, BroadcastConstRangeReplacement, LSTMStatesBroadcast,
ReshapeSinkingMatMul), the ones that defeat each other (SharedOpOptimization merges), the
constants nothing rescues (rank-3/4 Reshape targets, Slice stops, Interpolate sizes, Broadcast
targets, position embeddings, LSTMSequence states), the user reports #16177, #8612, #18724,
and models that reshape fine.

A case's ``pins`` are the names of the layers (the op or its constant) that pin a dim: when the
runtime refuses a request of the case, some IRV301 message must name one of them.

Names are given to every layer a test or a message may mention; weights are distinct
(seeded) so that SharedOpOptimization merges only what a case means it to merge.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import openvino as ov
import openvino.opset3 as op3
import openvino.opset8 as op8
import openvino.opset10 as op10
import openvino.opset11 as op11
import openvino.opset13 as ops
from openvino import PartialShape

from support.runtime_oracle import Request


@dataclass
class Case:
    name: str
    build: Callable[[], ov.Model]
    requests: list[Request]
    pins: tuple[str, ...] = ()
    note: str = ""


# ---------------------------------------------------------------------------- helpers

_RNG = [np.random.default_rng(0)]


def _rng() -> np.random.Generator:
    return _RNG[0]


def named(node, name):
    node.set_friendly_name(name)
    return node


def param(shape, name, dtype=np.float32, tensor_names=None):
    p = ops.parameter(PartialShape(shape) if not isinstance(shape, PartialShape) else shape, dtype, name=name)
    p.output(0).get_tensor().set_names(set(tensor_names) if tensor_names else {name})
    return p


def const(values, dtype=np.int64, name=None):
    c = ops.constant(np.array(values, dtype=dtype))
    if name:
        c.set_friendly_name(name)
    return c


def weights(*shape, name=None):
    c = ops.constant((_rng().standard_normal(shape) * 0.1).astype(np.float32))
    if name:
        c.set_friendly_name(name)
    return c


def conv(x, cin, cout, k=3, stride=1, pad=None, name=None):
    p = k // 2 if pad is None else pad
    out = x if isinstance(x, ov.Output) else x.output(0)
    nd = len(out.get_partial_shape()) - 2
    n = ops.convolution(x, weights(cout, cin, *([k] * nd)), [stride] * nd, [p] * nd, [p] * nd, [1] * nd)
    return named(n, name) if name else n


def pool(x, k=2, name=None):
    n = ops.max_pool(x, [k, k], [1, 1], [0, 0], [0, 0], [k, k])
    if name:
        n.set_friendly_name(name)
    return n.output(0)


def model(outputs, params, name="m"):
    outs = []
    for o in outputs:
        r = ops.result(o)
        outs.append(r)
    return ov.Model(outs, params, name)


def results_named(m: ov.Model, *names: str) -> ov.Model:
    for r, n in zip(m.get_results(), names):
        r.set_friendly_name(n)
    return m


# ---------------------------------------------------------------------------- CNN heads

def cnn_body(x, name="feat"):
    """[N,3,H,W] -> Conv 3x3 (8) -> Relu -> MaxPool 2 -> [N,8,H/2,W/2]."""
    c = conv(x, 3, 8, name=f"{name}/conv")
    r = named(ops.relu(c), f"{name}/relu")
    return pool(r, name=f"{name}/pool")


def cnn_flatten_matmul():
    x = param([1, 3, 16, 16], "image")
    f = cnn_body(x)                                                   # [1,8,8,8]
    flat = named(ops.reshape(f, const([1, 512], name="flatten/target"), False), "flatten")
    fc = named(ops.matmul(flat, weights(512, 10, name="fc/W"), False, False), "fc")
    out = named(ops.add(fc, weights(10, name="fc/b")), "fc/add")
    return results_named(model([out], [x]), "logits")


def cnn_flatten_two_consumers():
    x = param([1, 3, 16, 16], "image")
    f = cnn_body(x)
    flat = named(ops.reshape(f, const([1, 512], name="flatten/target"), False), "flatten")
    fc = named(ops.matmul(flat, weights(512, 10, name="fc/W"), False, False), "fc")
    emb = named(ops.relu(flat), "embedding")
    return results_named(model([fc, emb], [x]), "logits", "features")


def cnn_flatten_transposed_weights():
    """ONNX Linear: MatMul(flatten, Transpose(W[10,512])); TransposeMatMul folds the Transpose
    so ReshapeAMatMul applies."""
    x = param([1, 3, 16, 16], "image")
    f = cnn_body(x)
    flat = named(ops.reshape(f, const([1, 512], name="flatten/target"), False), "flatten")
    wt = named(ops.transpose(weights(10, 512, name="fc/W"), const([1, 0], name="fc/perm")), "fc/W_T")
    fc = named(ops.matmul(flat, wt, False, False), "fc")
    return results_named(model([fc], [x]), "logits")


def cnn_flatten_transpose_b():
    x = param([1, 3, 16, 16], "image")
    f = cnn_body(x)
    flat = named(ops.reshape(f, const([1, 512], name="flatten/target"), False), "flatten")
    fc = named(ops.matmul(flat, weights(10, 512, name="fc/W"), False, True), "fc")
    return results_named(model([fc], [x]), "logits")


def reshape_b_matmul():
    x = param([1, 8, 8], "x")
    col = named(ops.reshape(x, const([64, 1], name="to_col/target"), False), "to_col")
    mm = named(ops.matmul(weights(10, 64, name="W"), col, False, False), "fcB")
    return results_named(model([mm], [x]), "out")


def flatten_1d():
    x = param([1, 3, 8, 8], "image")
    c = conv(x, 3, 4, name="conv")
    flat = named(ops.reshape(c, const([256], name="flat/target"), False), "flat")
    r = named(ops.relu(flat), "scores")
    return results_named(model([r], [x]), "scores_out")


def flatten_rank3():
    """A rank-3 constant target (batch and channels baked): never rescued."""
    x = param([1, 3, 16, 16], "image")
    f = cnn_body(x)                                                   # [1,8,8,8]
    r = named(ops.reshape(f, const([1, 8, 64], name="to_seq/target"), False), "to_seq")
    s = named(ops.softmax(r, 2), "softmax")
    return results_named(model([s], [x]), "probs")


def flatten_rank4_yolo():
    """YOLO-style head [1,3*6,H,W] -> Reshape [1,3,6,H*W] (constant): never rescued."""
    x = param([1, 3, 16, 16], "image")
    c = conv(x, 3, 18, name="head/conv")                              # [1,18,16,16]
    r = named(ops.reshape(c, const([1, 3, 6, 256], name="head/target"), False), "head/reshape")
    s = named(ops.sigmoid(r), "head/sigmoid")
    return results_named(model([s], [x]), "detections")


def shapeof_flatten():
    """Dynamic-friendly flatten: target Concat(Gather(ShapeOf(x), 0), [-1]), no MatMul."""
    x = param([1, 3, 16, 16], "image")
    f = cnn_body(x)
    sh = named(ops.shape_of(f), "flatten/shape")
    b = named(ops.gather(sh, const([0], name="flatten/idx0"), const(0, name="flatten/axis0")), "flatten/batch")
    tgt = named(ops.concat([b, const([-1], name="flatten/minus1")], 0), "flatten/target")
    flat = named(ops.reshape(f, tgt, False), "flatten")
    sm = named(ops.softmax(flat, 1), "softmax")
    return results_named(model([sm], [x]), "probs")


def shapeof_flatten_matmul():
    """A computed target before a MatMul: ReshapeAMatMul replaces it anyway (exp12)."""
    x = param([1, 3, 16, 16], "image")
    f = cnn_body(x)
    sh = named(ops.shape_of(f), "flatten/shape")
    b = named(ops.gather(sh, const([0], name="flatten/idx0"), const(0, name="flatten/axis0")), "flatten/batch")
    tgt = named(ops.concat([b, const([-1], name="flatten/minus1")], 0), "flatten/target")
    flat = named(ops.reshape(f, tgt, False), "flatten")
    fc = named(ops.matmul(flat, weights(512, 10, name="fc/W"), False, False), "fc")
    return results_named(model([fc], [x]), "logits")


def plain_cnn():
    """Convs, pools, a two-branch Concat and an Add: any image size that survives the pools."""
    x = param([1, 3, 32, 32], "image")
    a = named(ops.relu(conv(x, 3, 8, name="a/conv")), "a/relu")
    b = named(ops.relu(conv(x, 3, 8, k=1, name="b/conv")), "b/relu")
    cat = named(ops.concat([a, b], 1), "cat")                          # [1,16,32,32]
    p = pool(cat, name="pool1")                                       # [1,16,16,16]
    c = conv(p, 16, 16, name="c/conv")
    s = named(ops.add(p, c), "residual")
    g = named(ops.reduce_mean(s, const([2, 3], name="gap/axes"), True), "gap")
    return results_named(model([g, s], [x]), "pooled", "features")


def fully_conv_segmentation():
    """Encoder/decoder with Interpolate by scales: follows any even size."""
    x = param([1, 3, 32, 32], "image")
    e = pool(named(ops.relu(conv(x, 3, 8, name="enc/conv")), "enc/relu"), name="enc/pool")
    up = op11.interpolate(e, const([2.0, 2.0], np.float32, name="up/scales"), "nearest", "scales",
                          axes=const([2, 3], name="up/axes"))
    up = named(up, "up")
    skip = conv(x, 3, 8, k=1, name="skip/conv")
    s = named(ops.add(up, skip), "merge")
    return results_named(model([s], [x]), "mask")


# ---------------------------------------------------------------------------- slices

def hrnet_16177():
    """#16177 (higher-hrnet): a Slice with constant stop 256 pins the width; the runtime names
    the Add downstream."""
    img = param([1, 3, 512, 512], "image")
    feat = conv(img, 3, 17, k=1, stride=2, pad=0, name="/impl/final_layers.0/Conv")
    up = named(ops.relu(feat), "/impl/deconv")
    sl = named(op8.slice(up, const([0, 0], name="/Constant_start"), const([256, 256], name="/Constant_stop"),
                         const([1, 1], name="/Constant_step"), const([2, 3], name="/Constant_axes")), "/Slice_1")
    other = conv(img, 3, 17, k=1, stride=2, pad=0, name="/impl/final_layers.1/Conv")
    add = named(ops.add(sl, other), "/Add")
    return results_named(model([add], [img], "higher_hrnet_min"), "heatmaps")


def strided_slice_crop():
    """The same crop as a StridedSlice with a constant end (TF/older ONNX exports)."""
    x = param([1, 8, 32, 32], "x")
    a = named(ops.relu(x), "branch")
    sl = named(ops.strided_slice(a, const([0, 0, 0, 0], name="crop/begin"), const([0, 0, 32, 32], name="crop/end"),
                                 const([1, 1, 1, 1], name="crop/stride"), [1, 1, 0, 0], [1, 1, 0, 0]), "crop")
    b = conv(x, 8, 8, k=1, name="other/conv")
    add = named(ops.add(sl, b), "sum")
    return results_named(model([add], [x]), "out")


def slice_to_end():
    """A Slice whose stop is INT64_MAX follows any size (the fixed #16177)."""
    x = param([1, 8, 32, 32], "x")
    sl = named(op8.slice(named(ops.relu(x), "branch"), const([0, 0]), const([2 ** 63 - 1, 2 ** 63 - 1]),
                         const([1, 1]), const([2, 3])), "slice")
    add = named(ops.add(sl, conv(x, 8, 8, k=1, name="other/conv")), "sum")
    return results_named(model([add], [x]), "out")


def ss_then_squeeze():
    """StridedSliceSqueeze: StridedSlice (1 consumer) -> Squeeze(0) -> Concat with [5,8]."""
    x = param([1, 3, 8], "x")
    s = named(ops.strided_slice(x, const([0, 0], name="s/begin"), const([0, 2], name="s/end"),
                                const([1, 1], name="s/stride"), [1, 0], [1, 0]), "slice")
    q = named(ops.squeeze(s, const([0], name="squeeze/axes")), "squeeze")
    cat = named(ops.concat([q, weights(5, 8, name="extra")], 0), "cat")
    return results_named(model([cat], [x]), "out")


def squeeze_then_ss():
    """SqueezeStridedSlice: Squeeze(0) (1 consumer) -> StridedSlice -> Concat."""
    x = param([1, 3, 8], "x")
    q = named(ops.squeeze(x, const([0], name="squeeze/axes")), "squeeze")
    s = named(ops.strided_slice(q, const([0], name="s/begin"), const([2], name="s/end"),
                                const([1], name="s/stride"), [0], [0]), "slice")
    cat = named(ops.concat([s, weights(5, 8, name="extra")], 0), "cat")
    return results_named(model([cat], [x]), "out")


def squeeze_two_consumers():
    """SqueezeStridedSlice does not apply (2 consumers): the Squeeze silently keeps the axis."""
    x = param([1, 3, 8], "x")
    q = named(ops.squeeze(x, const([0], name="squeeze/axes")), "squeeze")
    s = named(ops.strided_slice(q, const([0], name="s/begin"), const([2], name="s/end"),
                                const([1], name="s/stride"), [0], [0]), "slice")
    cat = named(ops.concat([s, weights(5, 8, name="extra")], 0), "cat")
    r = named(ops.relu(q), "side")
    return results_named(model([cat, r], [x]), "out", "side_out")


# ---------------------------------------------------------------------------- interpolate, broadcast, constants

def interpolate_sizes():
    """Interpolate-v11 with constant sizes [32,32]; the skip branch follows the input, so a
    new size fails at the Add, pinned by the sizes."""
    x = param([1, 4, 16, 16], "x")
    up = named(op11.interpolate(x, const([32, 32], name="up/sizes"), "nearest", "sizes",
                                axes=const([2, 3], name="up/axes")), "up")
    by_scale = named(op11.interpolate(x, const([2.0, 2.0], np.float32, name="up2/scales"), "nearest", "scales",
                                      axes=const([2, 3], name="up2/axes")), "up2")
    add = named(ops.add(up, by_scale), "merge")
    return results_named(model([add], [x]), "out")


def interpolate_v4_sizes():
    """Interpolate-v4 (sizes mode, constant sizes and scales) followed by a Concat with a skip."""
    x = param([1, 4, 16, 16], "x")
    small = pool(x, name="down")                                      # [1,4,8,8]
    up = named(op10.interpolate(small, const([16, 16], name="up/sizes"),
                                const([2.0, 2.0], np.float32, name="up/scales"), "nearest", "sizes",
                                coordinate_transformation_mode="asymmetric", nearest_mode="floor",
                                axes=const([2, 3], name="up/axes")), "up")
    cat = named(ops.concat([x, up], 1), "cat")
    return results_named(model([cat], [x]), "out")


def interpolate_scales():
    x = param([1, 4, 16, 16], "x")
    up = named(op11.interpolate(x, const([2.0, 2.0], np.float32, name="up/scales"), "linear", "scales",
                                axes=const([2, 3], name="up/axes")), "up")
    return results_named(model([up], [x]), "out")


def broadcast_const_target():
    """Broadcast of a learned bias to a constant target [2,16,8], added to x[2,16,8]."""
    x = param([2, 16, 8], "x")
    b = named(op3.broadcast(weights(1, 16, 8, name="bias"), const([2, 16, 8], name="bias/target")), "bias/broadcast")
    add = named(ops.add(x, b), "add")
    return results_named(model([add], [x]), "out")


def broadcast_input_const_target():
    """The input itself broadcast to a constant target: fails at the Broadcast."""
    x = param([1, 16, 1], "x")
    b = named(op3.broadcast(x, const([1, 16, 8], name="expand/target")), "expand")
    return results_named(model([named(ops.relu(b), "relu")], [x]), "out")


def vit_position_embedding():
    """ViT: patches via Conv s8 -> ShapeOf flatten [N,C,-1] -> Transpose -> + pos_embed [1,16,32]."""
    x = param([1, 3, 32, 32], "pixel_values")
    p = conv(x, 3, 32, k=8, stride=8, pad=0, name="patch_embed/proj")          # [1,32,4,4]
    flat = named(ops.reshape(p, const([0, 32, -1], name="patch_embed/target"), True), "patch_embed/flatten")
    t = named(ops.transpose(flat, const([0, 2, 1], name="patch_embed/perm")), "patch_embed/transpose")
    pos = weights(1, 16, 32, name="pos_embed")
    add = named(ops.add(t, pos), "embeddings/add")
    ln = named(ops.mvn(add, const([2], name="ln/axes"), True, 1e-5, "inside_sqrt"), "ln")
    return results_named(model([ln], [x]), "last_hidden_state")


def transformer_baked_seq():
    """Embedding lookup, then attention-head Reshapes with constant targets [1,16,4,8] and
    [1,16,32] (batch 1, sequence 16 baked in)."""
    ids = param([1, 16], "input_ids", np.int64)
    emb = named(ops.gather(weights(100, 32, name="wte"), ids, const(0, name="wte/axis")), "wte/gather")
    h = named(ops.reshape(emb, const([1, 16, 4, 8], name="heads/target"), False), "heads")
    t = named(ops.transpose(h, const([0, 2, 1, 3], name="heads/perm")), "heads/transpose")
    s = named(ops.softmax(t, 3), "attn")
    back = named(ops.transpose(s, const([0, 2, 1, 3], name="merge/perm")), "merge/transpose")
    m = named(ops.reshape(back, const([1, 16, 32], name="merge/target"), False), "merge")
    out = named(ops.matmul(m, weights(32, 8, name="out/W"), False, False), "out_proj")
    return results_named(model([out], [ids]), "logits")


def bert_position_ids(n=128, mode="BIDIRECTIONAL", dtype=np.int64):
    """BERT position_ids = arange(n) broadcast bidirectionally to ShapeOf(input_ids):
    BroadcastConstRangeReplacement when 5 < n < 500, integral, bidirectional."""
    ids = param([1, n], "input_ids", np.int64)
    pos = ops.constant(np.arange(n, dtype=dtype).reshape(1, n))
    pos.set_friendly_name("position_ids")
    b = named(op3.broadcast(pos, named(ops.shape_of(ids), "ids_shape"), broadcast_spec=mode), "pos_broadcast")
    if np.dtype(dtype).kind not in "iu":
        b = named(ops.convert(b, np.int64), "pos_convert")
    out = named(ops.add(ids, b), "ids_plus_pos")
    return results_named(model([out], [ids], "bert_pos"), "out")


def bert_position_embedding():
    """BERT embeddings: word embeddings + position embeddings gathered with arange(16) ids
    broadcast to the input (rescued), + token-type embeddings of a baked [1,16] zeros (not)."""
    ids = param([1, 16], "input_ids", np.int64)
    words = named(ops.gather(weights(50, 8, name="word_embeddings"), ids, const(0)), "words")
    pos_ids = named(op3.broadcast(ops.constant(np.arange(16, dtype=np.int64).reshape(1, 16)),
                                  named(ops.shape_of(ids), "ids_shape"), broadcast_spec="BIDIRECTIONAL"),
                    "position_ids/broadcast")
    pos = named(ops.gather(weights(64, 8, name="position_embeddings"), pos_ids, const(0)), "positions")
    add = named(ops.add(words, pos), "embeddings/add")
    return results_named(model([add], [ids]), "embeddings")


# ---------------------------------------------------------------------------- user reports

def quartznet_8612():
    x = param([1, 64, 128], "audio_signal")
    c = conv(x, 64, 29, k=1, stride=2, pad=0, name="decoder/Conv")              # [1,29,64]
    t = named(ops.transpose(c, const([0, 2, 1])), "Transpose")
    r = named(ops.reshape(t, const([-1, 29]), False), "Reshape_flat")
    ls = named(ops.log_softmax(r, 1), "LogSoftmax_266/LogSoftmax_")
    out = named(ops.reshape(ls, const([1, 64, 29], name="1288"), False), "output")
    return results_named(model([out], [x], "quartznet_min"), "output/sink_port_0")


def anomalib_18724():
    x = param([1, 100, 32, 32], "input")
    g = named(ops.relu(x), "/Gather_2")
    r = named(ops.reshape(g, const([1, 100, 1024], name="/anomaly_map_generator/Constant"), False),
              "/anomaly_map_generator/Reshape")
    return results_named(model([r], [x], "anomalib_min"), "anomaly_map")


# ---------------------------------------------------------------------------- sinking, sharing, LSTM

def reshape_sinking(add_shape=(8,)):
    x = param([1, 16, 32], "x")
    r1 = named(ops.reshape(x, const([-1, 32], name="to2d/target"), False), "to2d")
    mm = named(ops.matmul(r1, weights(32, 8, name="fc/W"), False, False), "fc")
    y = named(ops.add(mm, weights(*add_shape, name="fc/b")), "bias")
    r2 = named(ops.reshape(y, const([1, 16, 8], name="to3d/target"), False), "to3d")
    return results_named(model([r2], [x]), "out")


def reshape_sinking_row_bias():
    return reshape_sinking((16, 8))


def shared_flattens(distinct=False):
    """Two identical Reshape(x,[1,64]) for Q and K: SharedOpOptimization merges them, so the
    survivor has 2 consumers and ReshapeAMatMul does not fire (exp09)."""
    x = param([1, 8, 8], "x")
    rq = named(ops.reshape(x, const([1, 64], name="tq"), False), "flat_q")
    rk = named(ops.reshape(x, const([1, -1] if distinct else [1, 64], name="tk"), False), "flat_k")
    q = named(ops.matmul(rq, weights(64, 10, name="Wq"), False, False), "q_proj")
    k = named(ops.matmul(rk, weights(64, 10, name="Wk"), False, False), "k_proj")
    return results_named(model([q, k], [x]), "q", "k")


def shared_flattens_distinct():
    return shared_flattens(True)


IN, HID = 16, 32


def lstm_cell_const_states():
    x = param([1, IN], "x")
    h0 = ops.constant(np.zeros((1, HID), np.float32))
    h0.set_friendly_name("h0")
    c0 = ops.constant(np.zeros((1, HID), np.float32))
    c0.set_friendly_name("c0")
    cell = ops.lstm_cell(x, h0, c0, weights(4 * HID, IN), weights(4 * HID, HID), weights(4 * HID), HID)
    cell.set_friendly_name("lstm_cell")
    return results_named(model([cell.output(0), cell.output(1)], [x]), "h", "c")


def lstm_ti_const_states(T=5):
    xb = ops.parameter([1, 1, IN], np.float32, name="xb")
    hb = ops.parameter([1, HID], np.float32, name="hb")
    cb = ops.parameter([1, HID], np.float32, name="cb")
    xs = named(ops.squeeze(xb, const([1])), "body/squeeze")
    cell = ops.lstm_cell(xs, hb, cb, weights(4 * HID, IN), weights(4 * HID, HID), weights(4 * HID), HID)
    cell.set_friendly_name("lstm_cell_in_ti")
    yo = ops.unsqueeze(cell.output(0), const([1]))
    body = ov.Model([cell.output(0), cell.output(1), yo.output(0)], [xb, hb, cb], "body")
    x = param([1, T, IN], "x")
    h0 = ops.constant(np.zeros((1, HID), np.float32))
    h0.set_friendly_name("h0")
    c0 = ops.constant(np.zeros((1, HID), np.float32))
    c0.set_friendly_name("c0")
    ti = ops.tensor_iterator()
    ti.set_friendly_name("TI")
    ti.set_body(body)
    ti.set_sliced_input(xb, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hb, h0.output(0), body.get_results()[0].output(0))
    ti.set_merged_input(cb, c0.output(0), body.get_results()[1].output(0))
    out = ti.get_concatenated_slices(body.get_results()[2].output(0), 0, 1, 1, -1, 1)
    ti.validate_and_infer_types()
    return results_named(model([out], [x], "ti"), "y")


def lstm_sequence_const_states():
    x = param([1, 5, IN], "x")
    h0 = const(np.zeros((1, 1, HID)), np.float32, name="h0")
    c0 = const(np.zeros((1, 1, HID)), np.float32, name="c0")
    sl = const([5], np.int32, name="seq_len")
    seq = ops.lstm_sequence(x, h0, c0, sl, weights(1, 4 * HID, IN), weights(1, 4 * HID, HID),
                            weights(1, 4 * HID), HID, "forward")
    seq.set_friendly_name("lstm_seq")
    return results_named(model([seq.output(0)], [x], "seq"), "y")


# ---------------------------------------------------------------------------- inputs and names

def two_inputs():
    """a[1,2048], b[1,2048] -> Concat -> Reshape [1,4096] -> MatMul: both inputs change."""
    a = param([1, 2048], "a")
    b = param([1, 2048], "b")
    cat = named(ops.concat([a, b], 1), "cat")
    flat = named(ops.reshape(cat, const([1, 4096], name="flat/target"), False), "flat")
    fc = named(ops.matmul(flat, weights(4096, 4, name="W"), False, False), "fc")
    return results_named(model([fc], [a, b]), "out")


def tensor_names_differ():
    """A Parameter whose layer name differs from its tensor names (ONNX/TF style)."""
    x = param([1, 3, 8, 8], "x_param", tensor_names=["input_ids", "/model/x:0"])
    c = conv(x, 3, 4, name="conv")
    return results_named(model([named(ops.relu(c), "relu")], [x]), "y")


def dynamic_input_flatten():
    """x[?,8,8] -> Reshape [1,64] -> MatMul: reads as [1,10]; reshape to the same [?,8,8]
    runs SmartReshape anyway and gives [?,10] (exp11); plain re-inference keeps [1,10]."""
    x = param([-1, 8, 8], "x")
    r = named(ops.reshape(x, const([1, 64], name="flatten/target"), False), "flatten")
    mm = named(ops.matmul(r, weights(64, 10, name="W"), False, False), "fc")
    return results_named(model([mm], [x]), "out")


def scalar_input():
    """A scalar input: ``[]`` is its own shape (a rank change is a usage error)."""
    x = param([], "scale")
    m = named(ops.multiply(x, weights(3, name="w")), "mul")
    return results_named(model([m], [x]), "out")


# ---------------------------------------------------------------------------- the table


CASES: list[Case] = [
    Case("cnn_flatten_matmul", cnn_flatten_matmul,
         [[4, 3, 16, 16], [1, 3, 32, 32], [1, 3, 20, 20], [-1, 3, 16, 16], "1..8,3,16,16", "?,3,?,?", [1, 3, 16, 16]],
         note="ReshapeAMatMul: [1,512] -> [-1,512]; [1,3,32,32] silently gives 4 rows"),
    Case("cnn_flatten_two_consumers", cnn_flatten_two_consumers,
         [[4, 3, 16, 16], "?,3,16,16", [1, 3, 16, 16]], pins=("flatten", "flatten/target")),
    Case("cnn_flatten_transposed_weights", cnn_flatten_transposed_weights,
         [[4, 3, 16, 16], "1..8,3,16,16", [2, 3, 18, 18]]),
    Case("cnn_flatten_transpose_b", cnn_flatten_transpose_b, [[4, 3, 16, 16], "?,3,16,16"]),
    Case("reshape_b_matmul", reshape_b_matmul, [[4, 8, 8], "?,8,8", [4, 8, 9]]),
    Case("flatten_1d", flatten_1d, [[4, 3, 8, 8], "1..4,3,8,8", [1, 3, 12, 12], "?,3,?,8"]),
    Case("flatten_rank3", flatten_rank3, [[4, 3, 16, 16], [1, 3, 32, 32], "?,3,16,16"],
         pins=("to_seq", "to_seq/target")),
    Case("flatten_rank4_yolo", flatten_rank4_yolo, [[2, 3, 16, 16], [1, 3, 32, 32], "1,3,?,?"],
         pins=("head/reshape", "head/target")),
    Case("shapeof_flatten", shapeof_flatten, [[4, 3, 16, 16], [2, 3, 32, 48], "?,3,?,?", "1..4,3,16..64,16"]),
    Case("shapeof_flatten_matmul", shapeof_flatten_matmul, [[4, 3, 16, 16], [1, 3, 32, 32], [1, 3, 20, 20], "?,3,16,16"],
         note="[1,3,20,20]: Model.reshape fails at the rewritten flatten, plain re-inference at the MatMul"),
    Case("plain_cnn", plain_cnn, [[2, 3, 32, 32], [1, 3, 64, 48], [1, 3, 33, 33], "?,3,?,?", "1..4,3,32..64,32"]),
    Case("fully_conv_segmentation", fully_conv_segmentation, [[2, 3, 64, 64], [1, 3, 34, 34], "?,3,?,?", [1, 3, 33, 33]]),
    Case("hrnet_16177", hrnet_16177,
         [[1, 3, 512, 928], [1, 3, 256, 256], [1, 3, 1024, 1024], [2, 3, 512, 512], "1,3,?,?"],
         pins=("/Slice_1", "/Constant_stop")),
    Case("strided_slice_crop", strided_slice_crop, [[2, 8, 32, 32], [1, 8, 48, 48], [1, 8, 16, 16]],
         pins=("crop", "crop/end")),
    Case("slice_to_end", slice_to_end, [[1, 8, 48, 40], "?,8,?,?"]),
    Case("ss_then_squeeze", ss_then_squeeze, [[4, 3, 8], "?,3,8", [1, 5, 8]]),
    Case("squeeze_then_ss", squeeze_then_ss, [[4, 3, 8], "?,3,8", [1, 1, 8]]),
    Case("squeeze_two_consumers", squeeze_two_consumers, [[4, 3, 8], [1, 3, 8], "?,3,8"]),
    Case("interpolate_sizes", interpolate_sizes, [[2, 4, 16, 16], [1, 4, 20, 20], [1, 4, 8, 8], "1,4,?,?"],
         pins=("up", "up/sizes")),
    Case("interpolate_v4_sizes", interpolate_v4_sizes, [[2, 4, 16, 16], [1, 4, 32, 32], "?,4,16,16"],
         pins=("up", "up/sizes")),
    Case("interpolate_scales", interpolate_scales, [[2, 4, 16, 16], [1, 4, 7, 9], "?,4,?,?"]),
    Case("broadcast_const_target", broadcast_const_target, [[4, 16, 8], [2, 16, 8], [1, 16, 8], "?,16,8"],
         pins=("bias/broadcast", "bias/target")),
    Case("broadcast_input_const_target", broadcast_input_const_target, [[2, 16, 1], [1, 8, 1], [1, 16, 8], "?,16,1"],
         pins=("expand", "expand/target")),
    Case("vit_position_embedding", vit_position_embedding, [[2, 3, 32, 32], [1, 3, 64, 64], "?,3,32,32", "1,3,?,?"],
         pins=("pos_embed",)),
    Case("transformer_baked_seq", transformer_baked_seq, [[1, 32], [2, 16], "1,?", [1, 16]],
         pins=("heads", "heads/target", "merge", "merge/target")),
    Case("bert_position_ids", bert_position_ids, [[1, 256], [1, 64], [4, 128], "1,?", "1,1..512", "?,?"]),
    Case("bert_position_ids_numpy", lambda: bert_position_ids(mode="NUMPY"), [[1, 256], [4, 128]],
         pins=("pos_broadcast", "position_ids")),
    Case("bert_position_ids_512", lambda: bert_position_ids(n=512), [[1, 1024], [1, 256]],
         pins=("pos_broadcast", "position_ids")),
    Case("bert_position_ids_float", lambda: bert_position_ids(dtype=np.float32), [[1, 256]],
         pins=("pos_broadcast", "position_ids")),
    Case("bert_position_embedding", bert_position_embedding, [[1, 32], [3, 16], "1,1..64"]),
    Case("quartznet_8612", quartznet_8612, [[1, 64, 1120], [2, 64, 128], [1, 64, 128]], pins=("output", "1288")),
    Case("anomalib_18724", anomalib_18724, [[6, 100, 32, 32], [1, 100, 16, 64], [1, 100, 64, 64]],
         pins=("/anomaly_map_generator/Reshape", "/anomaly_map_generator/Constant")),
    Case("reshape_sinking", reshape_sinking, [[4, 16, 32], [1, 20, 32], "?,16,32", "1..8,16,32"],
         note="a sequence change succeeds with the wrong shape [1,16,8] (special_zero leniency)"),
    Case("reshape_sinking_row_bias", reshape_sinking_row_bias, [[4, 16, 32]], pins=("fc/b",),
         note="the bias constant [16,8] bakes the rows: the runtime names the Add, its constant pins"),
    Case("shared_flattens", shared_flattens, [[4, 8, 8], "?,8,8"], pins=("flat_q", "flat_k", "tq", "tk")),
    Case("shared_flattens_distinct", shared_flattens_distinct, [[4, 8, 8], "?,8,8"]),
    Case("lstm_cell_const_states", lstm_cell_const_states, [[4, IN], "?,16", "1..8,16"]),
    Case("lstm_ti_const_states", lstm_ti_const_states, [[4, 5, IN], [4, 9, IN], [1, 9, IN]]),
    Case("lstm_sequence_const_states", lstm_sequence_const_states, [[4, 5, IN], [1, 9, IN]], pins=("h0", "c0", "lstm_seq")),
    Case("two_inputs", two_inputs,
         [{"a": [4, 2048], "b": [4, 2048]}, {"a": [4, 2048]}, {"a": "?,2048", "b": "?,2048"},
          {"a": [1, 2048], "b": [1, 2048]}]),
    Case("tensor_names_differ", tensor_names_differ,
         [{"input_ids": [2, 3, 16, 16]}, {"/model/x:0": "?,3,?,?"}, {"x_param": [1, 3, 9, 9]}]),
    Case("dynamic_input_flatten", dynamic_input_flatten, [[-1, 8, 8], [4, 8, 8], "1..4,8,8", [3, 8, 9]]),
    Case("scalar_input", scalar_input, [[], {"scale": []}]),
]

CASE_BY_NAME = {c.name: c for c in CASES}
