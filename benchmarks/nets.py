"""Networks that do not repeat, shaped like common exports (issue 26), for make_models.py.

Why: ``llm-N`` repeats one block, and even the decoder stacks with distinct weights repeat
one structure; the IRs people validate are mostly CNNs and audio models whose layers differ
from each other in shape.  Each builder draws its own random weights (He-scaled normal,
seeded by the net's name) and is written as the exporters write it: f32 Consts compressed to
f16 by ``ov.save_model``'s default, a batch normalization folded into the convolution's
bias (an ``Add`` of a ``[1, C, 1, 1]`` Const), a linear layer as ``MatMul(transpose_b)`` plus
an ``Add``, a dynamic batch.  Layer names follow the PyTorch frontend.

* ``resnet50``: ResNet-50 on ``[?, 3, 224, 224]`` (bottleneck stages of 3, 4, 6, 3 blocks).
* ``mobilenetv2``: MobileNetV2 on ``[?, 3, 224, 224]`` (inverted residuals, depthwise
  GroupConvolutions, ReLU6 as Clamp).
* ``yolo``: a YOLOv8n-like detector on ``[?, 3, 640, 640]``: C2f blocks (Split, Concat), an
  SPPF (MaxPool), an FPN/PAN neck (Interpolate-11 upsampling, Concat), a decoupled head over
  three scales, flattened by Reshape, Concatenated, the boxes decoded by a DFL (Reshape,
  Transpose, Softmax, MatMul): ``[?, 84, 8400]``.
* ``unet``: a UNet on ``[?, 3, 512, 512]``: four levels down (MaxPool), four up
  (ConvolutionBackpropData) with skip Concats.
* ``audio``: a wav2vec2-like speech model on ``[?, ?]`` samples (16 kHz): a Conv1d feature
  extractor with MVN and Gelu, a grouped positional convolution, four transformer blocks,
  CTC logits ``[?, ?, 32]``.
"""
from __future__ import annotations

import zlib
from collections.abc import Callable

import numpy as np
import openvino as ov
from openvino import opset1, opset4, opset6, opset7, opset8, opset11, opset13


def i64(values) -> ov.Node:
    return opset1.constant(np.array(values, dtype=np.int64))


class Net:
    """Weights and the layers every net is built of, named as the PyTorch frontend names
    them (``__module.layer1.0.conv1/aten::_convolution/Convolution``)."""

    def __init__(self, name: str):
        self.rng = np.random.default_rng(zlib.crc32(name.encode()))

    def weight(self, *shape: int, fan_in: int = 0) -> ov.Node:
        scale = np.sqrt(2.0 / (fan_in or int(np.prod(shape[1:])) or 1))
        return opset1.constant((self.rng.standard_normal(shape) * scale).astype(np.float32))

    def conv(self, x: ov.Node, c_in: int, c_out: int, k: int, p: str, stride: int = 1,
             groups: int = 1, rank: int = 2, pad: int | None = None) -> ov.Node:
        """A convolution (grouped when groups > 1) and its folded-BN bias."""
        pad = k // 2 if pad is None else pad
        window = dict(strides=[stride] * rank, pads_begin=[pad] * rank, pads_end=[pad] * rank,
                      dilations=[1] * rank)
        kernel = [k] * rank
        if groups == 1:
            y = opset1.convolution(x, self.weight(c_out, c_in, *kernel), **window,
                                   name=f"{p}/aten::_convolution/Convolution")
        else:
            filters = self.weight(groups, c_out // groups, c_in // groups, *kernel)
            y = opset1.group_convolution(x, filters, **window,
                                         name=f"{p}/aten::_convolution/GroupConvolution")
        bias = self.weight(1, c_out, *[1] * rank, fan_in=c_out)
        return opset1.add(y, bias, name=f"{p}/aten::_convolution/Add")

    def linear(self, x: ov.Node, n_in: int, n_out: int, p: str) -> ov.Node:
        y = opset1.matmul(x, self.weight(n_out, n_in), False, True,
                          name=f"{p}/aten::linear/MatMul")
        return opset1.add(y, self.weight(n_out, fan_in=n_out), name=f"{p}/aten::linear/Add")

    def layer_norm(self, x: ov.Node, n: int, p: str, axis: int = -1) -> ov.Node:
        """torch's layer_norm as the frontend writes it: MVN-6, then gamma and beta."""
        normed = opset6.mvn(x, i64([axis]), True, 1e-5, "inside_sqrt",
                            name=f"{p}/aten::layer_norm/MVN")
        shape = [n] if axis == -1 else [1, n, 1]
        scaled = opset1.multiply(normed, self.weight(*shape, fan_in=2),
                                 name=f"{p}/aten::layer_norm/Multiply")
        return opset1.add(scaled, self.weight(*shape, fan_in=2), name=f"{p}/aten::layer_norm/Add")


def relu(x: ov.Node, p: str) -> ov.Node:
    return opset1.relu(x, name=f"{p}/aten::relu_/Relu")


def batch_images(name: str, size: int) -> ov.Node:
    x = opset1.parameter(ov.PartialShape([-1, 3, size, size]), np.float32, name=name)
    x.output(0).set_names({name})
    return x


def model(out: ov.Node, inputs: list, name: str, output: str) -> ov.Model:
    out.output(0).set_names({output})
    return ov.Model([opset13.result(out, name=output)], inputs, name)


def classifier(net: Net, x: ov.Node, channels: int, p: str) -> ov.Node:
    """Global average pooling, flatten and the fully connected layer to 1,000 classes."""
    pooled = opset1.reduce_mean(x, i64([2, 3]), keep_dims=True,
                                name=f"{p}.avgpool/aten::adaptive_avg_pool2d/ReduceMean")
    flat = opset1.reshape(pooled, i64([0, -1]), special_zero=True,
                          name=f"{p}/aten::flatten/Reshape")
    return net.linear(flat, channels, 1000, f"{p}.fc")


# --------------------------------------------------------------------------------------------
# ResNet-50


def _bottleneck(net: Net, x: ov.Node, c_in: int, width: int, stride: int, p: str) -> ov.Node:
    y = relu(net.conv(x, c_in, width, 1, f"{p}.conv1"), f"{p}.relu")
    y = relu(net.conv(y, width, width, 3, f"{p}.conv2", stride), f"{p}.relu_1")
    y = net.conv(y, width, width * 4, 1, f"{p}.conv3")
    short = x if c_in == width * 4 and stride == 1 else \
        net.conv(x, c_in, width * 4, 1, f"{p}.downsample.0", stride)
    return relu(opset1.add(y, short, name=f"{p}/aten::add_/Add"), f"{p}.relu_2")


def build_resnet50() -> ov.Model:
    net, x0 = Net("resnet50"), batch_images("x", 224)
    x = relu(net.conv(x0, 3, 64, 7, "__module.conv1", 2), "__module.relu")
    x = opset8.max_pool(x, [2, 2], [1, 1], [1, 1], [1, 1], [3, 3],
                        name="__module.maxpool/aten::max_pool2d/MaxPool").output(0)
    c_in = 64
    for stage, (blocks, width) in enumerate(zip((3, 4, 6, 3), (64, 128, 256, 512)), 1):
        for b in range(blocks):
            stride = 2 if b == 0 and stage > 1 else 1
            x = _bottleneck(net, x, c_in, width, stride, f"__module.layer{stage}.{b}")
            c_in = width * 4
    return model(classifier(net, x, c_in, "__module"), [x0], "resnet50", "logits")


# --------------------------------------------------------------------------------------------
# MobileNetV2

#: (expansion, channels, repeats, first stride), torchvision's table
MOBILENET = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
             (6, 160, 3, 2), (6, 320, 1, 1))


def relu6(x: ov.Node, p: str) -> ov.Node:
    return opset1.clamp(x, 0.0, 6.0, name=f"{p}/aten::hardtanh_/Clamp")


def _inverted_residual(net: Net, x: ov.Node, c_in: int, t: int, c_out: int, stride: int,
                       p: str) -> ov.Node:
    hidden, y, i = c_in * t, x, 0
    if t != 1:
        y = relu6(net.conv(x, c_in, hidden, 1, f"{p}.conv.0.0"), f"{p}.conv.0.2")
        i = 1
    y = relu6(net.conv(y, hidden, hidden, 3, f"{p}.conv.{i}.0", stride, groups=hidden),
              f"{p}.conv.{i}.2")
    y = net.conv(y, hidden, c_out, 1, f"{p}.conv.{i + 1}")
    return opset1.add(x, y, name=f"{p}/aten::add/Add") if stride == 1 and c_in == c_out else y


def build_mobilenetv2() -> ov.Model:
    net, x0 = Net("mobilenetv2"), batch_images("x", 224)
    x = relu6(net.conv(x0, 3, 32, 3, "__module.features.0.0", 2), "__module.features.0.2")
    c_in, index = 32, 1
    for t, c, n, s in MOBILENET:
        for i in range(n):
            x = _inverted_residual(net, x, c_in, t, c, s if i == 0 else 1,
                                   f"__module.features.{index}")
            c_in, index = c, index + 1
    x = relu6(net.conv(x, c_in, 1280, 1, f"__module.features.{index}.0"),
              f"__module.features.{index}.2")
    return model(classifier(net, x, 1280, "__module.classifier"), [x0], "mobilenetv2", "logits")


# --------------------------------------------------------------------------------------------
# YOLOv8n-like detector


def _cbs(net: Net, x: ov.Node, c_in: int, c_out: int, k: int, p: str, stride: int = 1):
    """Conv + (folded) BN + SiLU, which the frontend writes as Swish."""
    return opset4.swish(net.conv(x, c_in, c_out, k, f"{p}.conv", stride),
                        name=f"{p}.act/aten::silu_/Swish")


def _c2f(net: Net, x: ov.Node, c_in: int, c_out: int, n: int, p: str, short: bool = True):
    half = c_out // 2
    parts = opset1.split(_cbs(net, x, c_in, c_out, 1, f"{p}.cv1"), i64(1), 2,
                         name=f"{p}/aten::split_with_sizes/Split")
    ys = [parts.output(0), parts.output(1)]
    for i in range(n):
        y = _cbs(net, ys[-1], half, half, 3, f"{p}.m.{i}.cv1")
        y = _cbs(net, y, half, half, 3, f"{p}.m.{i}.cv2")
        ys.append(opset1.add(ys[-1], y, name=f"{p}.m.{i}/aten::add/Add") if short else y)
    cat = opset1.concat(ys, 1, name=f"{p}/aten::cat/Concat")
    return _cbs(net, cat, half * (2 + n), c_out, 1, f"{p}.cv2")


def _sppf(net: Net, x: ov.Node, c: int, p: str) -> ov.Node:
    ys = [_cbs(net, x, c, c // 2, 1, f"{p}.cv1")]
    for i in range(3):
        ys.append(opset8.max_pool(ys[-1], [1, 1], [1, 1], [2, 2], [2, 2], [5, 5],
                                  name=f"{p}.m/aten::max_pool2d/MaxPool_{i}").output(0))
    return _cbs(net, opset1.concat(ys, 1, name=f"{p}/aten::cat/Concat"), c * 2, c, 1, f"{p}.cv2")


def _upsample(x: ov.Node, p: str) -> ov.Node:
    scales = opset1.constant(np.array([2.0, 2.0], dtype=np.float32))
    return opset11.interpolate(x, scales, "nearest", "scales", [0, 0, 0, 0], [0, 0, 0, 0],
                               "asymmetric", "floor", axes=i64([2, 3]),
                               name=f"{p}/aten::upsample_nearest2d/Interpolate")


def _yolo_backbone(net: Net, x0: ov.Node) -> tuple:
    x = _cbs(net, x0, 3, 16, 3, "__module.model.0", 2)
    x = _cbs(net, x, 16, 32, 3, "__module.model.1", 2)
    x = _c2f(net, x, 32, 32, 1, "__module.model.2")
    x = _cbs(net, x, 32, 64, 3, "__module.model.3", 2)
    p3 = _c2f(net, x, 64, 64, 2, "__module.model.4")
    x = _cbs(net, p3, 64, 128, 3, "__module.model.5", 2)
    p4 = _c2f(net, x, 128, 128, 2, "__module.model.6")
    x = _cbs(net, p4, 128, 256, 3, "__module.model.7", 2)
    x = _c2f(net, x, 256, 256, 1, "__module.model.8")
    return p3, p4, _sppf(net, x, 256, "__module.model.9")


def _yolo_neck(net: Net, p3: ov.Node, p4: ov.Node, p5: ov.Node) -> list:
    cat = lambda xs, p: opset1.concat(xs, 1, name=f"{p}/aten::cat/Concat")  # noqa: E731
    f4 = _c2f(net, cat([_upsample(p5, "__module.model.10"), p4], "__module.model.11"),
              384, 128, 1, "__module.model.12", short=False)
    out3 = _c2f(net, cat([_upsample(f4, "__module.model.13"), p3], "__module.model.14"),
                192, 64, 1, "__module.model.15", short=False)
    down = _cbs(net, out3, 64, 64, 3, "__module.model.16", 2)
    out4 = _c2f(net, cat([down, f4], "__module.model.17"), 192, 128, 1, "__module.model.18",
                short=False)
    down = _cbs(net, out4, 128, 128, 3, "__module.model.19", 2)
    out5 = _c2f(net, cat([down, p5], "__module.model.20"), 384, 256, 1, "__module.model.21",
                short=False)
    return [(out3, 64), (out4, 128), (out5, 256)]


def _yolo_head(net: Net, scales: list) -> ov.Node:
    p, flat = "__module.model.22", []
    for i, (x, c) in enumerate(scales):
        box = _cbs(net, _cbs(net, x, c, 64, 3, f"{p}.cv2.{i}.0"), 64, 64, 3, f"{p}.cv2.{i}.1")
        cls = _cbs(net, _cbs(net, x, c, 80, 3, f"{p}.cv3.{i}.0"), 80, 80, 3, f"{p}.cv3.{i}.1")
        both = opset1.concat([net.conv(box, 64, 64, 1, f"{p}.cv2.{i}.2"),
                              net.conv(cls, 80, 80, 1, f"{p}.cv3.{i}.2")], 1,
                             name=f"{p}/aten::cat/Concat_{i}")
        flat.append(opset1.reshape(both, i64([0, 144, -1]), special_zero=True,
                                   name=f"{p}/aten::view/Reshape_{i}"))
    anchors = opset1.concat(flat, 2, name=f"{p}/aten::cat/Concat_3")       # [?, 144, 8400]
    box, cls = opset1.variadic_split(anchors, i64(1), i64([64, 80]),
                                     name=f"{p}/aten::split_with_sizes/VariadicSplit").outputs()
    dfl = opset1.reshape(box, i64([0, 4, 16, -1]), special_zero=True,
                         name=f"{p}.dfl/aten::view/Reshape")
    dfl = opset1.transpose(dfl, i64([0, 3, 1, 2]), name=f"{p}.dfl/aten::transpose/Transpose")
    dfl = opset8.softmax(dfl, -1, name=f"{p}.dfl/aten::softmax/Softmax")
    bins = opset1.constant(np.arange(16, dtype=np.float32).reshape(16, 1))
    dist = opset1.matmul(dfl, bins, False, False, name=f"{p}.dfl/aten::_convolution/MatMul")
    dist = opset1.reshape(dist, i64([0, -1, 4]), special_zero=True,
                          name=f"{p}.dfl/aten::view/Reshape_1")
    dist = opset1.transpose(dist, i64([0, 2, 1]), name=f"{p}.dfl/aten::transpose/Transpose_1")
    probs = opset1.sigmoid(cls, name=f"{p}/aten::sigmoid/Sigmoid")
    return opset1.concat([dist, probs], 1, name=f"{p}/aten::cat/Concat_4")  # [?, 84, 8400]


def build_yolo() -> ov.Model:
    net, x0 = Net("yolo"), batch_images("images", 640)
    p3, p4, p5 = _yolo_backbone(net, x0)
    return model(_yolo_head(net, _yolo_neck(net, p3, p4, p5)), [x0], "yolo_like", "output0")


# --------------------------------------------------------------------------------------------
# UNet


def _double_conv(net: Net, x: ov.Node, c_in: int, c_out: int, p: str) -> ov.Node:
    x = relu(net.conv(x, c_in, c_out, 3, f"{p}.double_conv.0"), f"{p}.double_conv.2")
    return relu(net.conv(x, c_out, c_out, 3, f"{p}.double_conv.3"), f"{p}.double_conv.5")


def _up(net: Net, x: ov.Node, skip: ov.Node, c_in: int, p: str) -> ov.Node:
    up = opset1.convolution_backprop_data(x, net.weight(c_in, c_in // 2, 2, 2), [2, 2],
                                          pads_begin=[0, 0], pads_end=[0, 0],
                                          dilations=[1, 1],
                                          name=f"{p}.up/aten::_convolution/ConvolutionBackpropData")
    up = opset1.add(up, net.weight(1, c_in // 2, 1, 1, fan_in=c_in),
                    name=f"{p}.up/aten::_convolution/Add")
    cat = opset1.concat([skip, up], 1, name=f"{p}/aten::cat/Concat")
    return _double_conv(net, cat, c_in, c_in // 2, f"{p}.conv")


def build_unet() -> ov.Model:
    net, x0 = Net("unet"), batch_images("x", 512)
    widths = (32, 64, 128, 256, 512)
    skips, x = [], _double_conv(net, x0, 3, widths[0], "__module.inc")
    for i, (c_in, c_out) in enumerate(zip(widths, widths[1:]), 1):
        skips.append(x)
        pooled = opset8.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2],
                                 name=f"__module.down{i}.maxpool_conv.0/aten::max_pool2d/MaxPool"
                                 ).output(0)
        x = _double_conv(net, pooled, c_in, c_out, f"__module.down{i}.maxpool_conv.1")
    for i, c_in in enumerate(reversed(widths[1:]), 1):
        x = _up(net, x, skips.pop(), c_in, f"__module.up{i}")
    return model(net.conv(x, widths[0], 2, 1, "__module.outc.conv"), [x0], "unet", "mask")


# --------------------------------------------------------------------------------------------
# wav2vec2-like audio model

#: the feature extractor's (kernel, stride) per Conv1d, wav2vec2's: 20 ms frames at 16 kHz
FEATURE_CONVS = ((10, 5), (3, 2), (3, 2), (3, 2), (3, 2), (2, 2), (2, 2))
AUDIO_HIDDEN, AUDIO_HEADS, AUDIO_FFN, AUDIO_BLOCKS, AUDIO_VOCAB = 256, 4, 1024, 4, 32


def _features(net: Net, x: ov.Node) -> ov.Node:
    """[?, ?] samples -> [?, frames, 512]: Conv1d, MVN (a group norm of one channel each)."""
    x = opset1.unsqueeze(x, i64([1]), name="__module.feature_extractor/aten::unsqueeze/Unsqueeze")
    c_in = 1
    for i, (k, stride) in enumerate(FEATURE_CONVS):
        p = f"__module.feature_extractor.conv_layers.{i}"
        x = net.conv(x, c_in, 512, k, f"{p}.conv", stride, rank=1, pad=0)
        if i == 0:
            x = net.layer_norm(x, 512, f"{p}.layer_norm", axis=2)
        x, c_in = opset7.gelu(x, "erf", name=f"{p}/aten::gelu/Gelu"), 512
    return opset1.transpose(x, i64([0, 2, 1]),
                            name="__module.feature_extractor/aten::transpose/Transpose")


def _positional(net: Net, x: ov.Node, p: str) -> ov.Node:
    """The grouped positional convolution (kernel 128, padding 64, the last frame cut)."""
    h = AUDIO_HIDDEN
    y = opset1.transpose(x, i64([0, 2, 1]), name=f"{p}/aten::transpose/Transpose")
    y = net.conv(y, h, h, 128, f"{p}.conv", groups=16, rank=1, pad=64)
    y = opset8.slice(y, i64([0]), i64([-1]), i64([1]), i64([2]), name=f"{p}/aten::slice/Slice")
    y = opset7.gelu(y, "erf", name=f"{p}/aten::gelu/Gelu")
    y = opset1.transpose(y, i64([0, 2, 1]), name=f"{p}/aten::transpose/Transpose_1")
    return opset1.add(x, y, name=f"{p}/aten::add/Add")


def _audio_block(net: Net, x: ov.Node, p: str) -> ov.Node:
    h, heads = AUDIO_HIDDEN, AUDIO_HEADS

    def split(n: str) -> ov.Node:
        y = net.linear(x, h, h, f"{p}.attention.{n}_proj")
        y = opset1.reshape(y, i64([0, 0, heads, h // heads]), special_zero=True,
                           name=f"{p}.attention.{n}_proj/aten::view/Reshape")
        return opset1.transpose(y, i64([0, 2, 1, 3]),
                                name=f"{p}.attention.{n}_proj/aten::transpose/Transpose")
    q, k, v = split("q"), split("k"), split("v")
    scores = opset1.matmul(q, k, False, True, name=f"{p}.attention/aten::matmul/MatMul")
    scores = opset1.multiply(scores, opset1.constant(np.float32((h // heads) ** -0.5)),
                             name=f"{p}.attention/aten::mul/Multiply")
    probs = opset8.softmax(scores, -1, name=f"{p}.attention/aten::softmax/Softmax")
    ctx = opset1.matmul(probs, v, False, False, name=f"{p}.attention/aten::matmul/MatMul_1")
    ctx = opset1.transpose(ctx, i64([0, 2, 1, 3]), name=f"{p}.attention/aten::transpose/Transpose")
    ctx = opset1.reshape(ctx, i64([0, 0, h]), special_zero=True,
                         name=f"{p}.attention/aten::reshape/Reshape")
    x = opset1.add(x, net.linear(ctx, h, h, f"{p}.attention.out_proj"), name=f"{p}/aten::add/Add")
    x = net.layer_norm(x, h, f"{p}.layer_norm")
    up = opset7.gelu(net.linear(x, h, AUDIO_FFN, f"{p}.feed_forward.intermediate_dense"), "erf",
                     name=f"{p}.feed_forward/aten::gelu/Gelu")
    y = net.linear(up, AUDIO_FFN, h, f"{p}.feed_forward.output_dense")
    return net.layer_norm(opset1.add(x, y, name=f"{p}/aten::add/Add_1"), h, f"{p}.final_layer_norm")


def build_audio() -> ov.Model:
    net = Net("audio")
    x0 = opset1.parameter(ov.PartialShape([-1, -1]), np.float32, name="input_values")
    x0.output(0).set_names({"input_values"})
    x = net.layer_norm(_features(net, x0), 512, "__module.feature_projection.layer_norm")
    x = net.linear(x, 512, AUDIO_HIDDEN, "__module.feature_projection.projection")
    x = _positional(net, x, "__module.encoder.pos_conv_embed")
    x = net.layer_norm(x, AUDIO_HIDDEN, "__module.encoder.layer_norm")
    for i in range(AUDIO_BLOCKS):
        x = _audio_block(net, x, f"__module.encoder.layers.{i}")
    logits = net.linear(x, AUDIO_HIDDEN, AUDIO_VOCAB, "__module.lm_head")
    return model(logits, [x0], "wav2vec2_like", "logits")


#: the non-repeating set, each written as ``<out>/<name>.xml``
NETS: dict[str, Callable[[], ov.Model]] = {
    "resnet50": build_resnet50, "mobilenetv2": build_mobilenetv2, "yolo": build_yolo,
    "unet": build_unet, "audio": build_audio}

#: a shape each net is reshaped to in make_models.py's check (the runtime must accept it)
RESHAPES = {"resnet50": [1, 3, 224, 224], "mobilenetv2": [2, 3, 224, 224],
            "yolo": [1, 3, 640, 640], "unet": [1, 3, 256, 256], "audio": [1, 16000]}
