#!/usr/bin/env python3
"""Write large, genuine OpenVINO IRs for the performance benchmarks (issues 6 and 26).

Why: irvalidate's cost is driven by the size of the XML (layers, ports, dims), and, once the
weights differ from block to block, by how many layers are new to it.  The models are built
node by node with openvino's own Python API and written by its serializer.

Stacks, sized by ``--layers``:

* ``llm`` (default): a decoder stack, the repeated-block case.  ``input_ids``/
  ``attention_mask`` Parameters with dynamic batch and sequence (-1), an embedding Gather, then
  per block: a layer norm built from elementwise ops (ReduceMean, Subtract, Power, ReduceMean,
  Add eps, Sqrt, Divide, Multiply gamma, Add beta), attention (MatMul, Reshape, Transpose,
  scaled scores, Softmax) whose mask is a Broadcast-3 fed by ShapeOf -> Gather -> Concat (with
  Consts), residual Adds and a MatMul + Gelu MLP.  Hidden size 8 and
  ``compress_to_fp16=False``: the .bin stays a few MB while the XML reaches the 50-130 MB of
  real language-model IRs.  Unchanged since issue 6, byte for byte, so runs stay comparable.
* ``llm-fp16``: the same blocks written as real exports are: hidden 64, 4 heads, MLP 256,
  a vocabulary of 1,000 (every weight more than 64 elements), distinct random weights and
  layer-norm gammas/betas in every block, saved with ``save_model``'s default
  ``compress_to_fp16=True`` (ovc, optimum-intel): each f32 Const becomes an f16 Const and a
  Convert.  100k layers: ~100 MB of .bin.
* ``llm-int8``: the same sizes with NNCF's int8 weight compression: a u8 weight, per-output-
  channel u8 zero points and f16 scales, Convert -> Subtract -> Multiply -> Convert before
  each MatMul (``transpose_b``) and the embedding Gather.  Saved with the default, which then
  leaves the other f32 Consts (gammas, biases) as they are.  100k layers: ~45 MB of .bin.
* ``stress`` (``--stress``): pure elementwise broadcasting on a rank-6 dynamic tensor, units of
  Add / Multiply / Select / Broadcast-3 (bidirectional) / Maximum with Consts of broadcastable
  shapes (10 layers per unit).

Networks that do not repeat (``--nets``, benchmarks/nets.py): ``resnet50``, ``mobilenetv2``,
``yolo``, ``unet`` and ``audio`` (wav2vec2-like), each with its own random weights,
f16-compressed, written as ``<out>/<net>.xml``.

Op names follow the PyTorch frontend (``__module.model.layers.3.self_attn/aten::matmul/MatMul``)
because real IRs carry such names and they are part of the bytes a validator parses.  No model
is textual replication; on 2 cores the 100k LLM takes ~13 s and the 200k stress IR ~30 s, most
of it in ``save_model``.

A stack's block count is derived from ``--layers`` (the number of ``<layer>`` elements, Consts,
Parameters and Results included, as written), measured on small probe models, so the result
lands within one block of the request.  Files are ``<out>/<kind>-<layers>.xml`` and are not
regenerated when they exist (``--force`` does).  ``--check`` then reads each with
``read_model``, reshapes it and validates it: a benchmark model must be one the runtime loads
and irvalidate finds no error in.

    python benchmarks/make_models.py --layers 100000                 # LLM-like, 46 MB XML
    python benchmarks/make_models.py --kind llm-fp16 --layers 100000 --check
    python benchmarks/make_models.py --stress --layers 200000        # elementwise, 117 MB
    python benchmarks/make_models.py --nets --check                  # the non-repeating set
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
from nets import NETS, RESHAPES
from openvino import opset1, opset3, opset7, opset8, opset13

HIDDEN, HEADS, VOCAB, FFN = 8, 2, 32, 16   # tiny on purpose: the XML, not the .bin, matters
RNG = np.random.default_rng(6)


def _i64(values) -> ov.Node:
    return opset1.constant(np.array(values, dtype=np.int64))


class Weights:
    """The sizes of a decoder stack and how its weights are written.  The default is
    ``llm``'s: tiny, f32, drawn from the module's RNG in the order they always were."""

    def __init__(self, hidden: int = HIDDEN, heads: int = HEADS, vocab: int = VOCAB,
                 ffn: int = FFN, rng: np.random.Generator = RNG):
        self.hidden, self.heads, self.vocab, self.ffn, self.rng = hidden, heads, vocab, ffn, rng

    def f32(self, *shape: int) -> ov.Node:
        return opset1.constant(self.rng.standard_normal(shape).astype(np.float32))

    def matrix(self, n_in: int, n_out: int, p: str) -> tuple:
        """A linear layer's weight and whether MatMul transposes it."""
        return self.f32(n_in, n_out), False

    def table(self, rows: int, cols: int, p: str) -> ov.Node:
        return self.f32(rows, cols)


class Int8Weights(Weights):
    """NNCF's int8 weight compression (asymmetric, per output channel), as optimum-intel
    writes it: a u8 Const [out, in], Convert to f16, Subtract its u8 zero points [out, 1],
    Multiply by its f16 scales [out, 1], Convert to f32, then ``MatMul(transpose_b)``."""

    def matrix(self, n_in: int, n_out: int, p: str) -> tuple:
        return self.table(n_out, n_in, p), True

    def table(self, rows: int, cols: int, p: str) -> ov.Node:
        weight = opset1.constant(self.rng.integers(0, 256, (rows, cols), dtype=np.uint8),
                                 name=f"{p}.weight")
        zero = opset1.constant(self.rng.integers(96, 160, (rows, 1), dtype=np.uint8),
                               name=f"{p}.weight/zero_point")
        scale = opset1.constant((self.rng.random((rows, 1)) * 0.01 + 1e-3).astype(np.float16),
                                name=f"{p}.weight/scale")
        centred = opset1.subtract(opset1.convert(weight, "f16", name=f"{p}.weight/convert"),
                                  opset1.convert(zero, "f16", name=f"{p}.weight/zero_point/convert"),
                                  name=f"{p}.weight/zero_point/subtract")
        scaled = opset1.multiply(centred, scale, name=f"{p}.weight/scale/multiply")
        return opset1.convert(scaled, "f32", name=f"{p}.weight/fq_weights_1/convert")


#: the sizes of the stacks written as real exports are (hidden >= 64: a weight is more than
#: 64 elements; a 100k-layer llm-fp16 keeps its .bin near 100 MB)
REAL = dict(hidden=64, heads=4, vocab=1000, ffn=256)


# --------------------------------------------------------------------------------------------
# LLM-like decoder stack


def _layer_norm(x: ov.Node, p: str, w: Weights) -> ov.Node:
    """Layer norm spelled out in elementwise ops, as exporters without a fused op emit it."""
    mean = opset1.reduce_mean(x, _i64([-1]), keep_dims=True, name=f"{p}/aten::mean/ReduceMean")
    centred = opset1.subtract(x, mean, name=f"{p}/aten::sub/Subtract")
    sq = opset1.power(centred, opset1.constant(np.float32(2.0)), name=f"{p}/aten::pow/Power")
    var = opset1.reduce_mean(sq, _i64([-1]), keep_dims=True, name=f"{p}/aten::mean/ReduceMean_1")
    eps = opset1.add(var, opset1.constant(np.float32(1e-5)), name=f"{p}/aten::add/Add")
    std = opset1.sqrt(eps, name=f"{p}/aten::sqrt/Sqrt")
    normed = opset1.divide(centred, std, name=f"{p}/aten::div/Divide")
    scaled = opset1.multiply(normed, w.f32(w.hidden), name=f"{p}/aten::mul/Multiply")
    return opset1.add(scaled, w.f32(w.hidden), name=f"{p}/aten::add/Add_1")


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


def _linear(x: ov.Node, n_in: int, n_out: int, p: str, w: Weights, bias: bool = False) -> ov.Node:
    weight, transposed = w.matrix(n_in, n_out, p)
    y = opset1.matmul(x, weight, False, transposed, name=f"{p}/aten::linear/MatMul")
    return opset1.add(y, w.f32(n_out), name=f"{p}/aten::linear/Add") if bias else y


def _heads(x: ov.Node, p: str, w: Weights) -> ov.Node:
    """[B,S,H] -> [B,heads,S,H/heads] via Reshape (special_zero) and Transpose."""
    split = opset1.reshape(x, _i64([0, 0, w.heads, w.hidden // w.heads]), special_zero=True,
                           name=f"{p}/aten::view/Reshape")
    return opset1.transpose(split, _i64([0, 2, 1, 3]), name=f"{p}/aten::transpose/Transpose")


def _attention(x: ov.Node, mask_f: ov.Node, p: str, w: Weights) -> ov.Node:
    q, k, v = (_heads(_linear(x, w.hidden, w.hidden, f"{p}.{n}_proj", w), f"{p}.{n}", w)
               for n in "qkv")
    scores = opset1.matmul(q, k, False, True, name=f"{p}/aten::matmul/MatMul")
    scores = opset1.multiply(scores, opset1.constant(np.float32((w.hidden // w.heads) ** -0.5)),
                             name=f"{p}/aten::mul/Multiply")
    scores = opset1.add(scores, _mask(x, mask_f, f"{p}.mask"), name=f"{p}/aten::add/Add")
    probs = opset8.softmax(scores, -1, name=f"{p}/aten::softmax/Softmax")
    ctx = opset1.matmul(probs, v, False, False, name=f"{p}/aten::matmul/MatMul_1")
    ctx = opset1.transpose(ctx, _i64([0, 2, 1, 3]), name=f"{p}/aten::transpose/Transpose")
    merged = opset1.reshape(ctx, _i64([0, 0, w.hidden]), special_zero=True,
                            name=f"{p}/aten::reshape/Reshape")
    return _linear(merged, w.hidden, w.hidden, f"{p}.o_proj", w)


def _mlp(x: ov.Node, p: str, w: Weights) -> ov.Node:
    up = _linear(x, w.hidden, w.ffn, f"{p}.fc1", w, bias=True)
    act = opset7.gelu(up, "erf", name=f"{p}.act/aten::gelu/Gelu")
    return _linear(act, w.ffn, w.hidden, f"{p}.fc2", w, bias=True)


def build_llm(blocks: int, w: Weights | None = None) -> ov.Model:
    w = w or Weights()
    ids = opset1.parameter(ov.PartialShape([-1, -1]), np.int64, name="input_ids")
    mask = opset1.parameter(ov.PartialShape([-1, -1]), np.int64, name="attention_mask")
    ids.output(0).set_names({"input_ids"})
    mask.output(0).set_names({"attention_mask"})
    x = opset8.gather(w.table(w.vocab, w.hidden, "__module.model.embed_tokens"), ids, _i64(0),
                      name="__module.model.embed_tokens/aten::embedding/Gather")
    mask_f = opset1.convert(mask, "f32", name="__module.model/aten::to/Convert")
    for i in range(blocks):   # pre-norm decoder block, with names as the PyTorch frontend gives
        p = f"__module.model.layers.{i}"
        attn = _attention(_layer_norm(x, f"{p}.input_layernorm", w), mask_f, f"{p}.self_attn", w)
        x = opset1.add(x, attn, name=f"{p}/aten::add/Add")
        mlp = _mlp(_layer_norm(x, f"{p}.post_attention_layernorm", w), f"{p}.mlp", w)
        x = opset1.add(x, mlp, name=f"{p}/aten::add/Add_1")
    logits = _linear(_layer_norm(x, "__module.model.norm", w), w.hidden, w.vocab,
                     "__module.lm_head", w)
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

def build_llm_fp16(blocks: int) -> ov.Model:
    """The decoder stack with realistic sizes and its own random weights in every block,
    written with f16-compressed weights (``save_model``'s default, as ovc and optimum-intel)."""
    return build_llm(blocks, Weights(**REAL, rng=np.random.default_rng(26)))


def build_llm_int8(blocks: int) -> ov.Model:
    """The same stack with NNCF-style int8 weights (Int8Weights), the rest f16-compressed."""
    return build_llm(blocks, Int8Weights(**REAL, rng=np.random.default_rng(28)))


KINDS = {"llm": build_llm, "stress": build_stress, "llm-fp16": build_llm_fp16,
         "llm-int8": build_llm_int8}
#: written as exporters write them: f32 Consts compressed to f16 (save_model's default)
COMPRESSED = {"llm-fp16", "llm-int8", *NETS}


def save(model: ov.Model, xml: Path, compress: bool) -> None:
    """Write xml (+ .bin), renamed at the end: no half-written model."""
    tmp = xml.with_name(xml.stem + ".tmp.xml")
    ov.save_model(model, str(tmp), compress_to_fp16=compress)
    tmp.with_suffix(".bin").replace(xml.with_suffix(".bin"))
    tmp.replace(xml)


def _layers(model: ov.Model, compress: bool) -> int:
    """The <layer> count of the model as written (compression adds a Convert per weight)."""
    if not compress:
        return len(model.get_ordered_ops())
    with tempfile.TemporaryDirectory() as folder:
        xml = Path(folder) / "probe.xml"
        save(model, xml, compress)
        return count_layers(xml)


def units_for(kind: str, layers: int) -> int:
    """Blocks (units) needed for about `layers` layers, from two small probe models."""
    build = KINDS[kind]
    one, two = (_layers(build(n), kind in COMPRESSED) for n in (1, 2))
    per, base = two - one, one - (two - one)
    return max(1, round((layers - base) / per))


def count_layers(xml: Path) -> int:
    """<layer> elements in a written IR (a byte count, cheap even at 130 MB)."""
    with open(xml, "rb") as f:
        return f.read().count(b"<layer ")


def path_of(kind: str, layers: int, out: Path) -> Path:
    """<out>/<kind>-<layers>.xml; a net of the non-repeating set is <out>/<kind>.xml."""
    return out / (f"{kind}.xml" if kind in NETS else f"{kind}-{layers}.xml")


def make(kind: str, layers: int, out: Path, force: bool = False) -> Path:
    """Write the model (see path_of) unless it exists; return the XML path.  A net of the
    non-repeating set has the size it has: ``layers`` is not read."""
    xml = path_of(kind, layers, out)
    if xml.exists() and xml.with_suffix(".bin").exists() and not force:
        return xml
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    model = NETS[kind]() if kind in NETS else KINDS[kind](units_for(kind, layers))
    t1 = time.perf_counter()
    save(model, xml, kind in COMPRESSED)
    t2 = time.perf_counter()
    print(f"wrote {xml}: {count_layers(xml)} layers, {xml.stat().st_size / 1e6:.1f} MB XML, "
          f"{xml.with_suffix('.bin').stat().st_size / 1e6:.2f} MB bin "
          f"(build {t1 - t0:.1f} s, save {t2 - t1:.1f} s)", file=sys.stderr)
    return xml


def check(xml: Path) -> list:
    """What is wrong with a written model, as words (none: it is fit to benchmark): the
    runtime must read it and reshape it (a net to its RESHAPES shape, a stack to [1, 16]),
    and irvalidate must find no error in it."""
    import irvalidate
    wrong, model = [], ov.Core().read_model(str(xml))
    name = xml.stem
    shape = RESHAPES.get(name, [1, 16])
    try:
        model.reshape({p.get_any_name(): ov.PartialShape(shape) for p in model.inputs})
    except RuntimeError as err:
        wrong.append(f"reshape to {shape}: {str(err).splitlines()[0]}")
    report = irvalidate.validate(xml)
    wrong += [f"{f.rule} line {f.line}: {f.message}" for r in report.files for f in r.findings
              if f.severity == "error"]
    return wrong


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--layers", type=int, nargs="+", default=[100_000],
                    help="target <layer> count(s) (default 100000)")
    ap.add_argument("--kind", choices=sorted(KINDS), default="llm",
                    help="the stack to write (default llm, the repeated-block case)")
    ap.add_argument("--stress", action="store_true", help="elementwise stress IR (--kind stress)")
    ap.add_argument("--nets", nargs="*", choices=sorted(NETS), metavar="NET",
                    help="write the non-repeating set (or these of it: "
                    + ", ".join(NETS) + ") instead of a stack")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "irv-bench",
                    help="output directory (default: irv-bench in the temporary directory)")
    ap.add_argument("--force", action="store_true", help="regenerate existing files")
    ap.add_argument("--check", action="store_true", help="then read each with read_model, "
                    "reshape it and validate it; exit 1 if any is unfit")
    args = ap.parse_args(argv)
    if args.nets is not None:
        jobs = [(name, 0) for name in args.nets or NETS]
    else:
        jobs = [("stress" if args.stress else args.kind, n) for n in args.layers]
    unfit = 0
    for kind, n in jobs:
        xml = make(kind, n, args.out, args.force)
        wrong = check(xml) if args.check else []
        print(xml, *(f"\n  {w}" for w in wrong))
        unfit += bool(wrong)
    return 1 if unfit else 0


if __name__ == "__main__":
    raise SystemExit(main())
