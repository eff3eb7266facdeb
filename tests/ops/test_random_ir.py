"""Random hand-written IRs of the ops of ops-c against read_model, refusals included.

Each case is one layer over Parameters and Consts, with shapes, attributes and input types
drawn at random (many of them refused by the runtime).  read_model decides: when it refuses
the file, irvalidate must give an error naming the layer; when it reads it, irvalidate must
infer the same output shapes and give no error once the file declares them
(``partial_shapes.against_the_runtime``).  These cases found several defaults and checks the
notes missed (Softmax-8's axis 1, LRN's default axis, Einsum's early dynamic rank...).
"""
import random

import pytest

ov = pytest.importorskip("openvino")

from support.partial_shapes import against_the_runtime, one_layer  # noqa: E402

CASES = 40
POOL = (1, 2, 3, 4, -1, (1, 3), (2, 5), (0, 2), (3, -1), 0)


def rdim(rng, pool=POOL):
    return rng.choice(pool)


def rshape(rng, lo=0, hi=4, dyn=0.08, pool=POOL):
    return None if rng.random() < dyn else [rdim(rng, pool) for _ in range(rng.randint(lo, hi))]


def axes_input(rng, rank, n=None):
    n = rng.randint(0, 3) if n is None else n
    values = [rng.randint(-rank - 1, rank) for _ in range(n)]
    return rng.choice([("c", values, rng.choice(["i64", "i32"]), [n]),
                       ("c", values[:1] or [0], "i64", []),
                       ("p", rng.choice([[1], [], [2], [-1], None, [1, 1], [(1, 5)]]), "i64")])


def matmul(rng):
    a, b = rshape(rng), rshape(rng)
    if a and b and rng.random() < 0.6:
        b[-2 if len(b) > 1 else -1] = a[-1]
    attrs = {k: rng.choice(["true", "false"]) for k in ("transpose_a", "transpose_b")
             if rng.random() < 0.7}
    ets = ("f32", "f32") if rng.random() < 0.9 else ("f16", "f32")
    return one_layer("MatMul", "opset1", [("p", a, ets[0]), ("p", b, ets[1])], attrs)


def reduce(rng):
    kind = rng.choice(["ReduceMean", "ReduceMax", "ReduceSum", "ReduceL2", "ReduceLogicalOr",
                       "ReduceProd"])
    data = rshape(rng)
    et = "boolean" if "Logical" in kind else "f32"
    if rng.random() < 0.05:
        et = "f32" if et == "boolean" else "boolean"
    attrs = {} if rng.random() < 0.2 else {"keep_dims": rng.choice(["true", "false", "1", "0"])}
    return one_layer(kind, "opset4" if kind == "ReduceL2" else "opset1",
                     [("p", data, et), axes_input(rng, 3 if data is None else len(data))], attrs)


def softmax(rng):
    kind, version = rng.choice([("Softmax", "opset1"), ("SoftMax", "opset1"),
                                ("Softmax", "opset8"), ("LogSoftmax", "opset5")])
    attrs = {} if rng.random() < 0.35 else {"axis": str(rng.randint(-4, 4))}
    return one_layer(kind, version, [("p", rshape(rng, 0, 3), "f32")], attrs)


def normalization(rng):
    kind = rng.choice(["MVN1", "MVN6", "NormalizeL2", "LRN", "GRN", "BN1", "BN5"])
    data = rshape(rng, 0, 5)
    rank = len(data) if data is not None else 4
    axes = axes_input(rng, rank, rng.randint(0, 5))
    if kind == "MVN1":
        return one_layer("MVN", rng.choice(["opset1", "opset2"]), [("p", data, "f32")], {})
    if kind == "GRN":
        return one_layer("GRN", "opset1", [("p", data, "f32")], {})
    if kind in ("MVN6", "NormalizeL2", "LRN"):
        name, version = {"MVN6": ("MVN", "opset6")}.get(kind, (kind, "opset1"))
        return one_layer(name, version, [("p", data, "f32"), axes], {})
    channel = data[1] if data and len(data) > 1 else rdim(rng)
    params = [("p", rng.choice([[channel], [channel], [-1], None, [rdim(rng)], [3, 1]]), "f32")
              for _ in range(4)]
    inputs = ([("p", data, "f32")] + params if kind == "BN5" else
              params[:2] + [("p", data, "f32")] + params[2:])
    epsilon = rng.choice(["1e-5", "0", "-1"]) if rng.random() < 0.2 else "1e-5"
    return one_layer("BatchNormInference", "opset5" if kind == "BN5" else "opset1", inputs,
                     {"epsilon": epsilon})


def reorder(rng):
    kind = rng.choice(["CumSum", "Roll", "Reverse", "ReverseSequence", "ShuffleChannels",
                       "HardSigmoid"])
    data = rshape(rng)
    rank = len(data) if data is not None else 3
    n = rng.randint(0, 3)
    values = [rng.randint(-rank - 2, rank) for _ in range(n)]
    x = ("p", data, "f32")
    if kind == "CumSum":
        axis = ("c", [abs(v) for v in values[:1]] or [0], rng.choice(["i64", "i32", "u8"]),
                rng.choice([[], [1]]))
        return one_layer(kind, "opset3", [x, axis], {})
    if kind == "Roll":
        shift = rng.choice([("c", [1], "i64", []), ("c", [1] * n, "i64", [n]),
                            ("p", rng.choice([[-1], [n], None, [1, 1]]), "i32")])
        axes = rng.choice([("c", values, "i64", [n]), ("c", values[:1] or [0], "i64", []),
                           ("p", rng.choice([[-1], [n], None]), "i64")])
        return one_layer(kind, "opset7", [x, shift, axes], {})
    if kind == "Reverse":
        mode = rng.choice(["index", "mask", None])
        if mode == "mask":
            axes = ("p", rng.choice([[rank], [-1], [n], None]), rng.choice(["boolean", "i64"]))
        else:
            axes = rng.choice([("c", values, "i64", [n]), ("p", rng.choice([[-1], [n], None]), "i64")])
        return one_layer(kind, "opset1", [x, axes], {} if mode is None else {"mode": mode})
    if kind == "ReverseSequence":
        batch, seq = rng.randint(-rank - 1, rank), rng.randint(-rank - 1, rank)
        count = data[batch] if data is not None and -rank <= batch < rank else rdim(rng)
        lengths = ("p", rng.choice([[count], [count], [-1], None, [rdim(rng)], [2, 1]]),
                   rng.choice(["i32", "i32", "f32", "boolean"]))
        attrs = {k: str(v) for k, v in (("batch_axis", batch), ("seq_axis", seq)) if rng.random() < 0.8}
        return one_layer(kind, "opset1", [x, lengths], attrs)
    if kind == "ShuffleChannels":
        attrs = {k: str(v) for k, v in (("axis", rng.randint(-rank - 1, rank)),
                                        ("group", rng.randint(-1, 4))) if rng.random() < 0.8}
        return one_layer(kind, rng.choice(["opset1", "opset3"]), [x], attrs)
    alpha = ("p", rng.choice([[], [], [1], [-1], None]), rng.choice(["f32", "f32", "f16"]))
    beta = ("p", rng.choice([[], [], [2], None]), "f32")
    return one_layer(kind, "opset1", [x, alpha, beta], {})


def attention(rng):
    rank = rng.randint(2, 5)

    def vary(dims):
        return [d if rng.random() < 0.8 else rdim(rng) for d in dims] if rng.random() > 0.06 else None
    batch = [rdim(rng, (1, 2, 3, -1, (1, 3))) for _ in range(rank - 2)]
    length, e, s, ev = (rdim(rng, (1, 4, 6, -1, (2, 9))) for _ in range(4))
    q = vary(batch + [length, e])
    inputs = [("p", q, "f32"), ("p", vary(batch[rng.randint(0, len(batch)):] + [s, e]), "f32"),
              ("p", vary(batch + [s, ev]), "f32")]
    extra = rng.randint(0, 4)
    if extra >= 1:
        inputs.append(("p", rng.choice([[length, s], [1, s], [], None, [s], batch + [length, s]]),
                       rng.choice(["f32", "f32", "boolean", "f16", "u8"])))
    if extra >= 2:
        inputs.append(("p", rng.choice([[], [1], [2], [-1], [1, 1], None]), "f32"))
    if extra >= 3:
        inputs.append(("p", rng.choice([[1] * rank, (q or [1] * rank)[:-1] + [1], [2] * rank,
                                         None]), "f32"))
    if extra >= 4:
        inputs.append(("p", [1], rng.choice(["f32", "f16"])))
    attrs = {} if rng.random() < 0.3 else {"causal": rng.choice(["true", "false"])}
    return one_layer("ScaledDotProductAttention", "opset13", inputs, attrs)


def yolo(rng):
    data = rshape(rng, 3, 5, dyn=0.1)
    if rng.random() < 0.5:
        attrs = {} if rng.random() < 0.1 else {"stride": rng.choice(["1", "2", "3", "2,3", "4"])}
        return one_layer("ReorgYolo", rng.choice(["opset1", "opset2"]), [("p", data, "f32")], attrs)
    attrs = {"coords": str(rng.randint(-3, 4)), "classes": str(rng.randint(0, 20)),
             "do_softmax": rng.choice(["true", "false", "maybe"]),
             "mask": ",".join(map(str, range(rng.randint(0, 3)))),
             "axis": str(rng.randint(-5, 4)), "end_axis": str(rng.randint(-5, 4))}
    attrs = {k: v for k, v in attrs.items() if rng.random() < 0.9}
    et = rng.choice(["f32", "f32", "f16", "i32"])
    return one_layer("RegionYolo", "opset1", [("p", data, et)], attrs)


def image(rng):
    if rng.random() < 0.5:
        grid = rshape(rng, 3, 5, dyn=0.1, pool=(1, 2, 2, 2, -1, (1, 3), (2, 5), 3))
        return one_layer("GridSample", "opset9", [("p", rshape(rng, 3, 5, dyn=0.1), "f32"),
                                                  ("p", grid, rng.choice(["f32", "i32"]))], {})
    kernel, size = [rng.randint(-1, 3), rng.randint(1, 3)], [rng.randint(-2, 6), rng.randint(1, 6)]
    data = rshape(rng, 1, 4, dyn=0.05, pool=(1, 2, 3, 4, 6, 8, 9, 12, 16, -1, (4, 12)))
    attrs = {"strides": rng.choice(["1,1", "2,1", "0,1", "1,2,3"]),
             "dilations": rng.choice(["1,1", "2,1", "0,0"]), "pads_begin": rng.choice(["0,0", "1,0"]),
             "pads_end": rng.choice(["0,0", "1,1"])}
    size_input = rng.choice([("c", size, "i64", [2]), ("p", [2], "i64"), ("p", None, "i64"),
                             ("c", size + [1], "i64", [3])])
    kernel_input = rng.choice([("c", kernel, "i64", [2]), ("p", [2], "i64"), ("c", kernel, "i32", [2])])
    return one_layer("Col2Im", "opset15", [("p", data, "f32"), size_input, kernel_input], attrs)


def eye(rng):
    def size():
        return rng.choice([("c", [rng.randint(-1, 4)], "i64", []), ("c", [3], "i64", [1]),
                           ("p", [], "i64"), ("p", [-1], "i32"), ("c", [2, 3], "i64", [2]),
                           ("p", None, "i64")])
    inputs = [size(), size(), size()]
    if rng.random() < 0.5:
        inputs.append(rng.choice([("c", [2, -1], "i64", [2]), ("c", [3], "i64", []),
                                  ("p", [2], "i64"), ("p", [-1], "i64"), ("p", None, "i64"),
                                  ("c", [2, -3], "i32", [2])]))
    attrs = {} if rng.random() < 0.2 else {"output_type": rng.choice(["f32", "i32", "boolean"])}
    return one_layer("Eye", "opset9", inputs, attrs)


def searching(rng):
    values = rshape(rng)
    if rng.random() < 0.5:
        attrs = {} if rng.random() < 0.1 else {"output_type": rng.choice(["i32", "i64", "u8"])}
        buckets = ("p", rng.choice([[4], [-1], None, [2, 2], []]), rng.choice(["f32", "boolean"]))
        data = ("p", values, rng.choice(["f32", "f32", "boolean", "i32"]))
        return one_layer("Bucketize", "opset3", [data, buckets], attrs)
    if values and rng.random() < 0.6:
        ordered = [d if rng.random() < 0.7 else rdim(rng) for d in values[:-1]] + [rng.randint(1, 5)]
    else:
        ordered = rng.choice([[4], [-1], None, [], [2, 3, 4]])
    attrs = {} if rng.random() < 0.5 else {"output_type": rng.choice(["i32", "i64", "u8"])}
    return one_layer("SearchSorted", "opset15", [("p", ordered, "f32"),
                                                 ("p", values, rng.choice(["f32", "f32", "i32"]))], attrs)


def einsum(rng):
    letters = rng.sample("abcAB", rng.randint(1, 4))
    subscripts, shapes = [], []
    for _ in range(rng.randint(1, 3)):
        mine = [rng.choice(letters) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.3:
            mine.insert(rng.randint(0, len(mine)), "...")
        subscripts.append("".join(mine))
        rank = len([m for m in mine if m != "..."]) + (rng.randint(0, 2) if "..." in mine else 0)
        rank += 1 if rng.random() < 0.05 else 0
        shapes.append(None if rng.random() < 0.08 else
                      [rdim(rng, (1, 2, 3, -1, (1, 3), (2, 4))) for _ in range(rank)])
    equation = ",".join(subscripts)
    if rng.random() < 0.5:
        used = sorted({c for s in subscripts for c in s if c != "."})
        out = "".join(rng.sample(used, rng.randint(0, len(used))))
        equation += "->" + ("..." if rng.random() < 0.3 else "") + out
    return one_layer("Einsum", "opset7", [("p", s, "f32") for s in shapes], {"equation": equation})


@pytest.mark.parametrize("make", [matmul, reduce, softmax, normalization, reorder, attention,
                                  yolo, image, eye, searching, einsum], ids=lambda f: f.__name__)
def test_random_layers_against_the_runtime(tmp_path, make):
    rng = random.Random(make.__name__)
    outcomes = [against_the_runtime(make(rng), tmp_path) for _ in range(CASES)]
    assert "read" in outcomes and "refused" in outcomes
