"""Seeded random small models for the reshape differential tests, and random requests.

``random_model(seed)`` gives (ov.Model, [requests]) for a CNN-ish (convs, pools, Concat of
branches, Adds of constants broadcast or of a baked full shape, then a head: flatten via a
constant or ShapeOf-computed Reshape target, GAP, a rank-1 or rank-3 flatten, a MatMul, a
second consumer...) or MLP-ish model (MatMuls, biases, a constant Concat, a flatten of a
sequence, Softmax).  The same seed gives the same model and requests.
"""
from __future__ import annotations

import random

import numpy as np
import openvino as ov
import openvino.opset13 as ops
from openvino import PartialShape

from support.runtime_oracle import Request


def _const(values, dtype=np.int64, name=None):
    c = ops.constant(np.array(values, dtype=dtype))
    if name:
        c.set_friendly_name(name)
    return c


class _Builder:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.np = np.random.default_rng(seed)
        self.n = 0

    def name(self, kind: str) -> str:
        self.n += 1
        return f"{kind}_{self.n}"

    def named(self, node, kind):
        node.set_friendly_name(self.name(kind))
        return node

    def w(self, *shape):
        c = ops.constant((self.np.standard_normal(shape) * 0.1).astype(np.float32))
        c.set_friendly_name(self.name("w"))
        return c

    @staticmethod
    def shape(x):
        out = x if isinstance(x, ov.Output) else x.output(0)
        return [d.get_length() for d in out.get_partial_shape()]

    # ------------------------------------------------------------------ CNN

    def conv(self, x):
        c = self.shape(x)[1]
        cout = self.r.choice([2, 4, 6, 8])
        k = self.r.choice([1, 3])
        s = self.r.choice([1, 1, 2])
        p = k // 2
        y = ops.convolution(x, self.w(cout, c, k, k), [s, s], [p, p], [p, p], [1, 1])
        return self.named(y, "conv")

    def block(self, x):
        kind = self.r.choice(["conv", "conv", "relu", "pool", "add_bcast", "add_baked", "concat", "shapeof_reshape"])
        shp = self.shape(x)
        if kind == "conv":
            return self.conv(x)
        if kind == "relu":
            return self.named(ops.relu(x), "relu")
        if kind == "pool":
            if min(shp[2:]) < 2:
                return x
            p = ops.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2],
                             rounding_type=self.r.choice(["floor", "ceil"]))
            p.set_friendly_name(self.name("pool"))
            return p.output(0)
        if kind == "add_bcast":
            return self.named(ops.add(x, self.w(1, shp[1], 1, 1)), "add")
        if kind == "add_baked":  # pins batch and spatial size
            return self.named(ops.add(x, self.w(*shp)), "add_baked")
        if kind == "concat":
            a, b = self.conv(x), self.conv(x)
            if self.shape(a)[2:] != self.shape(b)[2:]:
                return a
            return self.named(ops.concat([a, b], 1), "concat")
        # a dynamic-friendly reshape round trip: [N,C,H,W] -> [N,C,H*W] -> [N,C,H,W] via ShapeOf
        sh = self.named(ops.shape_of(x), "shapeof")
        nc = self.named(ops.gather(sh, _const([0, 1]), _const(0)), "gather")
        flat = self.named(ops.reshape(x, self.named(ops.concat([nc, _const([-1])], 0), "target"), False), "reshape_dyn")
        return self.named(ops.reshape(flat, sh, False), "reshape_back")

    def head(self, x):
        n, c, h, w = self.shape(x)
        kind = self.r.choice(["flatten_mm", "flatten_mm", "flatten_two", "shapeof_mm", "gap_mm",
                              "flatten_1d", "flatten_rank3", "none", "flatten_minus1_mm"])
        outs = []
        if kind == "none":
            return [x]
        if kind == "gap_mm":
            g = self.named(ops.reduce_mean(x, _const([2, 3]), False), "gap")            # [N,C]
            return [self.named(ops.matmul(g, self.w(c, 5), False, False), "fc")]
        if kind == "flatten_1d":
            t = _const([n * c * h * w], name=self.name("target"))
            return [self.named(ops.relu(self.named(ops.reshape(x, t, False), "flatten")), "relu")]
        if kind == "flatten_rank3":
            t = _const([n, c, h * w], name=self.name("target"))
            return [self.named(ops.softmax(self.named(ops.reshape(x, t, False), "flatten"), 2), "softmax")]
        if kind == "shapeof_mm":
            sh = self.named(ops.shape_of(x), "shapeof")
            b = self.named(ops.gather(sh, _const([0]), _const(0)), "gather")
            t = self.named(ops.concat([b, _const([-1])], 0), "target")
        elif kind == "flatten_minus1_mm":
            t = _const([-1, c * h * w], name=self.name("target"))
        else:
            t = _const([n, c * h * w], name=self.name("target"))
        flat = self.named(ops.reshape(x, t, False), "flatten")
        wt = self.w(c * h * w, 5) if self.r.random() < 0.7 else \
            self.named(ops.transpose(self.w(5, c * h * w), _const([1, 0])), "transpose")
        outs.append(self.named(ops.matmul(flat, wt, False, False), "fc"))
        if kind == "flatten_two":
            outs.append(self.named(ops.relu(flat), "features"))
        return outs

    def cnn(self):
        n = 1
        c = self.r.choice([1, 3])
        h = self.r.choice([8, 12, 16])
        w = self.r.choice([8, 12, 16])
        x = ops.parameter(PartialShape([n, c, h, w]), np.float32, name="x")
        x.output(0).get_tensor().set_names({"x"})
        y = self.conv(x)
        for _ in range(self.r.randint(1, 4)):
            y = self.block(y)
        outs = self.head(y)
        requests: list[Request] = [[self.r.choice([2, 3, 4]), c, h, w],
                                   [1, c, h + self.r.choice([2, 4, 8]), w * 2],
                                   [self.r.choice(["?", "1..4"]), c, h, w]]
        requests.append(self.r.choice([[1, c, "?", "?"], [2, c, h * 2, w * 2], [1, c, h // 2, w]]))
        return ov.Model(outs, [x], "random_cnn"), [",".join(map(str, q)) for q in requests]

    # ------------------------------------------------------------------ MLP

    def mlp(self):
        seq = self.r.random() < 0.5
        f = self.r.choice([4, 8, 16])
        s = self.r.choice([3, 5])
        shape = [1, s, f] if seq else [1, f]
        x = ops.parameter(PartialShape(shape), np.float32, name="x")
        x.output(0).get_tensor().set_names({"x"})
        y = x.output(0)
        if seq:
            if self.r.random() < 0.5:   # flatten the sequence (constant target) before the first MatMul
                y = self.named(ops.reshape(y, _const([1, s * f], name=self.name("target")), False), "flatten").output(0)
            else:                        # Dense on 3D, then back
                y = self.named(ops.reshape(y, _const([-1, f], name=self.name("target")), False), "to2d").output(0)
        for i in range(self.r.randint(1, 3)):
            d = self.shape(y)
            kind = self.r.choice(["mm", "mm", "bias", "bias_baked", "relu", "concat_const", "softmax"])
            if i == 0 and seq and self.r.random() < 0.7:
                kind = "mm"  # the flatten feeds the MatMul directly (ReshapeAMatMul / ReshapeSinkingMatMul)
            if kind == "mm":
                o = self.r.choice([4, 6, 8])
                y = self.named(ops.matmul(y, self.w(d[-1], o), False, False), "fc").output(0)
            elif kind == "bias":
                y = self.named(ops.add(y, self.w(d[-1])), "bias").output(0)
            elif kind == "bias_baked":
                y = self.named(ops.add(y, self.w(*d)), "bias_baked").output(0)
            elif kind == "relu":
                y = self.named(ops.relu(y), "relu").output(0)
            elif kind == "concat_const":
                y = self.named(ops.concat([y, self.w(d[0], 2)], 1), "concat").output(0)
            else:
                y = self.named(ops.softmax(y, 1), "softmax").output(0)
        if seq and self.r.random() < 0.5:
            d = self.shape(y)
            if d[0] % s == 0:
                y = self.named(ops.reshape(y, _const([1, s, d[0] * d[1] // s], name=self.name("target")), False),
                               "to3d").output(0)
        b = self.r.choice([2, 3, 4])
        requests = [[b] + shape[1:], ["?"] + shape[1:], ["1..8"] + shape[1:]]
        if seq:
            requests.append([1, s + self.r.choice([1, 2, 5]), f])
        return ov.Model([y], [x], "random_mlp"), [",".join(map(str, q)) for q in requests]


def random_model(seed: int) -> tuple[ov.Model, list[Request]]:
    """A seeded random model and its requests (a CNN for even seeds, an MLP for odd)."""
    b = _Builder(seed)
    return b.cnn() if seed % 2 == 0 else b.mlp()
