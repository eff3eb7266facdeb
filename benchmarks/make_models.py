#!/usr/bin/env python3
"""Write large, genuine OpenVINO IRs for the performance benchmarks of issue 6.

Why: irvalidate's cost is driven by the size of the XML (layers, ports, dims), not by the
weights, so the models are built with openvino's own Python API and serializer
(``ov.save_model(..., compress_to_fp16=False)``) but with a tiny hidden size: the .bin stays a
few MB while the XML reaches the 50-130 MB of real language-model IRs.

Two kinds:

* ``llm`` (default): a decoder stack.  ``input_ids``/``attention_mask`` Parameters with
  dynamic batch and sequence (-1), an embedding Gather, then per block: a layer norm built from
  elementwise ops (ReduceMean, Subtract, Power, ReduceMean, Add eps, Sqrt, Divide, Multiply
  gamma, Add beta), attention (MatMul, Reshape, Transpose, scaled scores, Softmax) whose mask is
  a Broadcast-3 fed by ShapeOf -> Gather -> Concat (with Consts), residual Adds and a
  MatMul + Gelu MLP.
* ``stress`` (``--stress``): pure elementwise broadcasting on a rank-6 dynamic tensor, units of
  Add / Multiply / Select / Broadcast-3 (bidirectional) / Maximum with Consts of broadcastable
  shapes (10 layers per unit).

Op names follow the PyTorch frontend (``__module.model.layers.3.self_attn/aten::matmul/MatMul``)
because real IRs carry such names and they are part of the bytes a validator parses.  Every
model is a genuine graph built node by node (no textual replication); on 2 cores the 100k LLM
takes ~13 s and the 200k stress IR ~30 s, most of it in ``save_model``.

The block count is derived from ``--layers`` (the number of ``<layer>`` elements, Consts,
Parameters and Results included), measured on small probe models, so the result lands
within one block of the request.  Files are ``<out>/<kind>-<layers>.xml`` and are not
regenerated when they exist (``--force`` does).

    python benchmarks/make_models.py --layers 100000                 # LLM-like, 46 MB XML
    python benchmarks/make_models.py --stress --layers 200000        # elementwise, 117 MB
    python benchmarks/make_models.py --layers 1000 3000 10000 --out "$TMPDIR/irv-bench"
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import openvino as ov
from openvino import opset1, opset3, opset7, opset8, opset13

HIDDEN, HEADS, VOCAB, FFN = 8, 2, 32, 16   # tiny on purpose: the XML, not the .bin, matters
RNG = np.random.default_rng(6)


def _f32(*shape) -> ov.Node:
    return opset1.constant(RNG.standard_normal(shape).astype(np.float32))


def _i64(values) -> ov.Node:
    return opset1.constant(np.array(values, dtype=np.int64))


# --------------------------------------------------------------------------------------------
# LLM-like decoder stack


def _layer_norm(x: ov.Node, p: str) -> ov.Node:
    """Layer norm spelled out in elementwise ops, as exporters without a fused op emit it."""
    mean = opset1.reduce_mean(x, _i64([-1]), keep_dims=True, name=f"{p}/aten::mean/ReduceMean")
    centred = opset1.subtract(x, mean, name=f"{p}/aten::sub/Subtract")
    sq = opset1.power(centred, opset1.constant(np.float32(2.0)), name=f"{p}/aten::pow/Power")
    var = opset1.reduce_mean(sq, _i64([-1]), keep_dims=True, name=f"{p}/aten::mean/ReduceMean_1")
    eps = opset1.add(var, opset1.constant(np.float32(1e-5)), name=f"{p}/aten::add/Add")
    std = opset1.sqrt(eps, name=f"{p}/aten::sqrt/Sqrt")
    normed = opset1.divide(centred, std, name=f"{p}/aten::div/Divide")
    scaled = opset1.multiply(normed, _f32(HIDDEN), name=f"{p}/aten::mul/Multiply")
    return opset1.add(scaled, _f32(HIDDEN), name=f"{p}/aten::add/Add_1")


def _mask(x: ov.Node, mask_f: ov.Node, p: str) -> ov.Node:
    """Additive attention mask [B,1,S,S]: a Broadcast-3 whose target is ShapeOf->Gather->Concat."""
    shape = opset3.shape_of(x, output_type="i64", name=f"{p}/aten::size/ShapeOf")   # [B, S, H]
    batch = opset8.gather(shape, _i64([0]), _i64(0), name=f"{p}/aten::size/Gather")
    seq = opset8.gather(shape, _i64([1]), _i64(0), name=f"{p}/aten::size/Gather_1")
    target = opset1.concat([batch, _i64([1]), seq, seq], axis=0,
                           name=f"{p}/aten::expand/Concat")                       # [B, 1, S, S]
    unsq = opset1.unsqueeze(mask_f, _i64([1, 2]), name=f"{p}/aten::unsqueeze/Unsqueeze")
    full = opset3.broadcast(unsq, target, broadcast_spec="numpy",
                            name=f"{p}/aten::expand/Broadcast")
    keep = opset1.subtract(opset1.constant(np.float32(1.0)), full, name=f"{p}/aten::rsub/Subtract")
    return opset1.multiply(keep, opset1.constant(np.float32(-1e4)), name=f"{p}/aten::mul/Multiply")


def _linear(x: ov.Node, n_in: int, n_out: int, p: str, bias: bool = False) -> ov.Node:
    y = opset1.matmul(x, _f32(n_in, n_out), False, False, name=f"{p}/aten::linear/MatMul")
    return opset1.add(y, _f32(n_out), name=f"{p}/aten::linear/Add") if bias else y


def _heads(x: ov.Node, p: str) -> ov.Node:
    """[B,S,H] -> [B,heads,S,H/heads] via Reshape (special_zero) and Transpose."""
    split = opset1.reshape(x, _i64([0, 0, HEADS, HIDDEN // HEADS]), special_zero=True,
                           name=f"{p}/aten::view/Reshape")
    return opset1.transpose(split, _i64([0, 2, 1, 3]), name=f"{p}/aten::transpose/Transpose")


def _attention(x: ov.Node, mask_f: ov.Node, p: str) -> ov.Node:
    q, k, v = (_heads(_linear(x, HIDDEN, HIDDEN, f"{p}.{n}_proj"), f"{p}.{n}") for n in "qkv")
    scores = opset1.matmul(q, k, False, True, name=f"{p}/aten::matmul/MatMul")
    scores = opset1.multiply(scores, opset1.constant(np.float32((HIDDEN // HEADS) ** -0.5)),
                             name=f"{p}/aten::mul/Multiply")
    scores = opset1.add(scores, _mask(x, mask_f, f"{p}.mask"), name=f"{p}/aten::add/Add")
    probs = opset8.softmax(scores, -1, name=f"{p}/aten::softmax/Softmax")
    ctx = opset1.matmul(probs, v, False, False, name=f"{p}/aten::matmul/MatMul_1")
    ctx = opset1.transpose(ctx, _i64([0, 2, 1, 3]), name=f"{p}/aten::transpose/Transpose")
    merged = opset1.reshape(ctx, _i64([0, 0, HIDDEN]), special_zero=True,
                            name=f"{p}/aten::reshape/Reshape")
    return _linear(merged, HIDDEN, HIDDEN, f"{p}.o_proj")


def _mlp(x: ov.Node, p: str) -> ov.Node:
    up = _linear(x, HIDDEN, FFN, f"{p}.fc1", bias=True)
    act = opset7.gelu(up, "erf", name=f"{p}.act/aten::gelu/Gelu")
    return _linear(act, FFN, HIDDEN, f"{p}.fc2", bias=True)


def build_llm(blocks: int) -> ov.Model:
    ids = opset1.parameter(ov.PartialShape([-1, -1]), np.int64, name="input_ids")
    mask = opset1.parameter(ov.PartialShape([-1, -1]), np.int64, name="attention_mask")
    ids.output(0).set_names({"input_ids"})
    mask.output(0).set_names({"attention_mask"})
    x = opset8.gather(_f32(VOCAB, HIDDEN), ids, _i64(0),
                      name="__module.model.embed_tokens/aten::embedding/Gather")
    mask_f = opset1.convert(mask, "f32", name="__module.model/aten::to/Convert")
    for i in range(blocks):   # pre-norm decoder block, with names as the PyTorch frontend gives
        p = f"__module.model.layers.{i}"
        attn = _attention(_layer_norm(x, f"{p}.input_layernorm"), mask_f, f"{p}.self_attn")
        x = opset1.add(x, attn, name=f"{p}/aten::add/Add")
        mlp = _mlp(_layer_norm(x, f"{p}.post_attention_layernorm"), f"{p}.mlp")
        x = opset1.add(x, mlp, name=f"{p}/aten::add/Add_1")
    logits = _linear(_layer_norm(x, "__module.model.norm"), HIDDEN, VOCAB, "__module.lm_head")
    logits.output(0).set_names({"logits"})
    return ov.Model([opset13.result(logits, name="logits")], [ids, mask], "llm_like")


# --------------------------------------------------------------------------------------------
# stress: pure elementwise broadcasting

STRESS_SHAPE = (2, 3, 2, 3, 4, 5)   # static tail, dynamic head: [-1, -1, 2, 3, 4, 5]


def _bcast_const(axes_kept, dtype=np.float32) -> ov.Node:
    """A Const of STRESS_SHAPE with 1 on every axis not in axes_kept (broadcastable)."""
    shape = [n if i in axes_kept else 1 for i, n in enumerate(STRESS_SHAPE)]
    if dtype == np.bool_:
        return opset1.constant(RNG.random(shape) < 0.5)
    return opset1.constant(RNG.standard_normal(shape).astype(dtype))


def build_stress(units: int) -> ov.Model:
    """A chain of broadcasting units; each keeps the dynamic [-1, -1, 2, 3, 4, 5] shape."""
    x0 = opset1.parameter(ov.PartialShape([-1, -1, *STRESS_SHAPE[2:]]), np.float32, name="x")
    x0.output(0).set_names({"x"})
    x = x0
    for i in range(units):
        p = f"__module.blocks.{i}"
        a = opset1.add(x, _bcast_const({5}), name=f"{p}/aten::add/Add")          # [1,1,1,1,1,5]
        m = opset1.multiply(a, _bcast_const({2, 3}), name=f"{p}/aten::mul/Multiply")
        s = opset1.select(_bcast_const({4, 5}, np.bool_), m, x,                 # 3-way numpy
                          name=f"{p}/aten::where/Select")
        b = opset3.broadcast(s, _i64([1, 1, 2, 1, 4, 5]), broadcast_spec="bidirectional",
                             name=f"{p}/aten::expand/Broadcast")
        x = opset1.maximum(b, _bcast_const({2, 4}), name=f"{p}/aten::maximum/Maximum")
    x.output(0).set_names({"y"})
    return ov.Model([opset13.result(x)], [x0], "stress_elementwise")


# --------------------------------------------------------------------------------------------

KINDS = {"llm": build_llm, "stress": build_stress}


def units_for(kind: str, layers: int) -> int:
    """Blocks (units) needed for about `layers` layers, from two small probe models."""
    build = KINDS[kind]
    one, two = (len(build(n).get_ordered_ops()) for n in (1, 2))
    per, base = two - one, one - (two - one)
    return max(1, round((layers - base) / per))


def count_layers(xml: Path) -> int:
    """<layer> elements in a written IR (a byte count, cheap even at 130 MB)."""
    with open(xml, "rb") as f:
        return f.read().count(b"<layer ")


def make(kind: str, layers: int, out: Path, force: bool = False) -> Path:
    """Write <out>/<kind>-<layers>.xml (+ .bin) unless it exists; return the XML path."""
    xml = out / f"{kind}-{layers}.xml"
    if xml.exists() and xml.with_suffix(".bin").exists() and not force:
        return xml
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    model = KINDS[kind](units_for(kind, layers))
    t1 = time.perf_counter()
    tmp = xml.with_name(xml.stem + ".tmp.xml")      # rename at the end: no half-written model
    ov.save_model(model, str(tmp), compress_to_fp16=False)
    tmp.with_suffix(".bin").replace(xml.with_suffix(".bin"))
    tmp.replace(xml)
    t2 = time.perf_counter()
    print(f"wrote {xml}: {count_layers(xml)} layers, {xml.stat().st_size / 1e6:.1f} MB XML, "
          f"{xml.with_suffix('.bin').stat().st_size / 1e6:.2f} MB bin "
          f"(build {t1 - t0:.1f} s, save {t2 - t1:.1f} s)", file=sys.stderr)
    return xml


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--layers", type=int, nargs="+", default=[100_000],
                    help="target <layer> count(s) (default 100000)")
    ap.add_argument("--stress", action="store_true", help="elementwise stress IR, not LLM-like")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "irv-bench",
                    help="output directory (default: irv-bench in the temporary directory)")
    ap.add_argument("--force", action="store_true", help="regenerate existing files")
    args = ap.parse_args(argv)
    for n in args.layers:
        print(make("stress" if args.stress else "llm", n, args.out, args.force))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
