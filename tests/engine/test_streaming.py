"""The streaming check (``irvalidate/streaming.py``) against the whole-graph check: on every
file the same findings, lines included; the stream reads serializer output itself, and
declines (leaving the file to the whole-graph check) wherever its batches could differ.

Batches are made tiny here (``BATCH``), so that producers and consumers, and the layers a
finding is about, fall into different batches even in small files.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from irvalidate.engine import streaming
from irvalidate.engine.validation import validate_file, weights_of
from irvalidate.rules import RULES
from support.places import CORPUS_FILES, GENUINE, ROOT, SAMPLES


@pytest.fixture(autouse=True)
def small_batches(monkeypatch):
    monkeypatch.setattr(streaming, "BATCH", 3)


def _findings(path: Path, stream: bool, monkeypatch) -> list:
    monkeypatch.setattr(streaming, "MIN_BYTES", 0 if stream else 1 << 62)
    return [(f.line, f.code, f.message, f.level, f.layer, f.port, f.expected, f.declared,
             f.table, f.scope) for f in validate_file(str(path)).findings]


def streamed(path: Path) -> bool:
    """Whether the stream reads the file itself (rather than declining it)."""
    return streaming.check(str(path), weights_of(str(path), None),
                           [(r, r.LEVEL) for r in RULES]) is not None


def agree(path: Path, monkeypatch) -> bool:
    """The stream's findings are the whole-graph check's; whether it read the file."""
    whole = _findings(path, False, monkeypatch)
    assert _findings(path, True, monkeypatch) == whole, path
    return streamed(path)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_samples(path, monkeypatch):
    agree(path, monkeypatch)


def test_most_samples_stream(monkeypatch):
    """The samples are written by the serializer (or like it): the broken ones the stream
    must leave alone are named by what breaks them."""
    declined = sorted(p.stem for p in SAMPLES if not streamed(p))
    must_decline = {"IRV001-unreadable-xml", "IRV202-dangling-edge", "IRV205-duplicate-layer-id",
                    "IRV210-graph-cycle", "IRV211-unreachable-layer", "IRV217-extension-op",
                    "IRV208-multiple-edges-into-port", "IRV204-missing-weights",
                    "IRV204-lfs-pointer"}
    assert must_decline <= set(declined), must_decline - set(declined)
    assert len(declined) <= len(SAMPLES) // 3, declined


@pytest.mark.skipif(not CORPUS_FILES, reason="no wild corpus here")
def test_wild_corpus(monkeypatch):
    read = sum(agree(path, monkeypatch) for path in CORPUS_FILES)
    assert read >= 20, read  # those with a .bin, and neither extension ops nor bodies


def test_models_serialized_by_openvino(tmp_path, monkeypatch):
    """Random valid models written by ov.save_model: read by the stream, no finding; then
    broken ones (a declared dim changed): the same findings both ways."""
    ovgen = pytest.importorskip("ovgen")
    read = broken_read = 0
    for seed in range(10):
        model = ovgen.generate(seed, tmp_path / str(seed), verify=False)
        assert _findings(model.xml, True, monkeypatch) == [] == _findings(model.xml, False, monkeypatch)
        read += streamed(model.xml)
        broken = ovgen.mutate_output_dims(model, tmp_path / f"{seed}-broken", seed=seed)
        if broken is not None:
            assert _findings(broken.xml, False, monkeypatch)
            broken_read += agree(broken.xml, monkeypatch)
    assert read >= 5 and broken_read >= 5, (read, broken_read)  # (If and Loop bodies decline)


TEXT = GENUINE.read_text()
LAYERS = re.findall(r"\n\t\t<layer .*?</layer>", TEXT, flags=re.S)


#: (id, change to the genuine sample, whether the stream still reads it)
VARIANTS = [
    ("as-is", lambda t: t, True),
    ("crlf", lambda t: t.replace("\n", "\r\n"), True),
    ("layers-out-of-order", lambda t: t.replace(LAYERS[0], "").replace(LAYERS[2], LAYERS[2] + LAYERS[0]), False),
    ("duplicate-id", lambda t: t.replace('<layer id="1"', '<layer id="0"', 1), False),
    ("edge-into-nothing", lambda t: t.replace("</edges>", '\t<edge from-layer="0" from-port="0" to-layer="9" to-port="0" />\n\t</edges>'), False),
    ("unreachable-layer", lambda t: t.replace("</layers>", LAYERS[0].replace('id="0"', 'id="7"').replace('name="a"', 'name="z"').replace("Parameter", "Relu") + "\n\t</layers>"), False),
    ("extension-op", lambda t: t.replace('version="opset1">', 'version="extension">', 1), False),
    ("two-layers-a-line", lambda t: t.replace("</layer>\n\t\t<layer", "</layer><layer", 1), False),
    ("entity-in-a-name", lambda t: t.replace('name="a"', 'name="a&amp;b"', 1), False),
    ("edges-two-a-line", lambda t: t.replace("/>\n\t\t<edge", "/><edge", 1), False),
    ("wrong-input-dim", lambda t: re.sub(r"(<input>\s*<port id=\"0\"[^>]*>\s*<dim>)2<", r"\g<1>7<", t, count=1), True),
    ("wrong-precision", lambda t: t.replace('<port id="1" precision="FP32"', '<port id="1" precision="FP16"', 1), True),
    # (not ASCII: the edges read first are passed over by reading, not by seeking)
    ("unicode-name", lambda t: t.replace('name="a"', 'name="é€"', 1), True),
    ("unicode-name-and-a-wrong-dim", lambda t: re.sub(r"(<input>\s*<port id=\"0\"[^>]*>\s*<dim>)2<", r"\g<1>7<", t.replace('name="a"', 'name="é"', 1), count=1), True),
]


@pytest.mark.parametrize("name,change,read", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_variants(name, change, read, tmp_path, monkeypatch):
    path = tmp_path / "model.xml"
    path.write_text(change(TEXT))
    (tmp_path / "model.bin").write_bytes(GENUINE.with_suffix(".bin").read_bytes())
    assert change(TEXT) != TEXT or name == "as-is"
    assert agree(path, monkeypatch) is read


@pytest.mark.parametrize("chunk", [97, 1009, 4096])
def test_small_chunks(chunk, tmp_path, monkeypatch):
    """The scanner reads the file in chunks: layers, edges and the end tag straddle them."""
    from irvalidate.ir import scanner
    ovgen = pytest.importorskip("ovgen")
    monkeypatch.setattr(scanner, "CHUNK", chunk)
    read = 0
    for seed in range(4):
        model = ovgen.generate(seed, tmp_path / str(seed), verify=False)
        broken = ovgen.mutate_output_dims(model, tmp_path / f"{seed}-broken", seed=seed)
        for path in [model.xml] + ([broken.xml] if broken is not None else []):
            read += agree(Path(path), monkeypatch)
    assert read >= 4, read


def test_remembered_inference_is_one_files(tmp_path):
    """ops.memo names a Const's values by its payload, an offset into one .bin: two files
    with their own values at the same offset, analysed one after the other in one process
    without the engine (which also clears the memo), keep their own results."""
    from irvalidate.analysis import analyse
    from irvalidate.engine.validation import default_bin
    from irvalidate.ir.reader import parse
    from irvalidate.ir.weights import BinFile
    from irvalidate.shapes.dims import format_shape
    from support.irbuilder import IR
    shapes = []
    for repeats in ([1, 2], [3, 1]):  # (Tile has no <data>: both layers share the reader's)
        ir = IR()
        data = ir.parameter("6,4")
        ir.result(ir.op("Tile", [data, ir.const(repeats, "i64", shape=[2])],
                        [[6 * repeats[0], 4 * repeats[1]]]))
        path = ir.write(tmp_path, f"m{repeats[0]}")
        doc = parse(str(path))
        found = analyse(doc.graphs(), BinFile(default_bin(str(path))))[0]
        shapes += [format_shape(i.outputs[0]) for i in found.inferences.values()
                   if i.layer.type == "Tile"]
    assert shapes == ["[6,8]", "[18,4]"], shapes


@pytest.mark.parametrize("stream", [False, True])
def test_consts_of_one_payload_name_themselves(stream, tmp_path, monkeypatch):
    """Two Consts with one payload (one offset in the .bin) make one value, computed once;
    the message that shows how a Broadcast target was computed names each its own Const."""
    from support.irbuilder import IR
    ir = IR()
    data = ir.parameter("1,3")
    shape = ir.op("ShapeOf", [data], [[2]], version="opset3", out_precision="I64")
    for name, declared in (("first", [2, 4]), ("second", [2, 5])):
        head = ir.const([2], "i64", shape=[1], offset=0)
        ir.layers[-1].name = name
        tail = ir.op("Gather", [shape, ir.const([1], "i64", shape=[1]), ir.const([0], "i64", shape=[])],
                     [[1]], {"batch_dims": "0"}, version="opset8")
        target = ir.op("Concat", [head, tail], [[2]], {"axis": "0"})
        ir.result(ir.op("Broadcast", [data, target], [declared], {"mode": "numpy"}, version="opset3"))
    path = ir.write(tmp_path)
    monkeypatch.setattr(streaming, "MIN_BYTES", 0 if stream else 1 << 62)
    found = [f.message for f in validate_file(str(path)).findings if f.code == "IRV101"]
    assert len(found) == 2, found
    assert "Const 'first' [2]" in found[0] and "Const 'second' [2]" in found[1], found


def test_alike_layers_compute_their_own_values(tmp_path, monkeypatch):
    """A shape subgraph repeated block after block (ShapeOf, Gather, Concat into a Broadcast's
    target) is alike the first one found clean; each repeat still computes its own values:
    an index of other numbers (block 3) gives another target, and the messages name each
    block's own layers."""
    from irvalidate.analysis import likeness
    from support.irbuilder import IR
    ir = IR()
    data, one = ir.parameter("2,3"), ir.parameter("1")
    axis = ir.const([0], "i64", shape=[])
    #: (index into the shape, declared Broadcast output): blocks 2 and 3 are wrong
    blocks = [(1, [4, 3]), (1, [4, 3]), (1, [4, 5]), (0, [4, 3]), (0, [4, 2]), (1, [4, 3])]
    offsets: dict = {}  # (equal Consts share their bytes, as the serializer writes them)
    for number, (index, declared) in enumerate(blocks):
        picked = ir.const([index], "i64", shape=[1], offset=offsets.get(index))
        offsets.setdefault(index, int(ir.layers[-1].data["offset"]))
        ir.layers[-1].name = f"index{number}"
        head = ir.const([4], "i64", shape=[1], offset=offsets.get("head"))
        offsets.setdefault("head", int(ir.layers[-1].data["offset"]))
        ir.layers[-1].name = f"head{number}"
        own = ir.op("Relu", [data], [[2, 3]], name=f"relu{number}")
        shape = ir.op("ShapeOf", [own], [[2]], {"output_type": "i64"}, version="opset3",
                      out_precision="I64", name=f"shape{number}")
        tail = ir.op("Gather", [shape, picked, axis], [[1]], {"batch_dims": "0"},
                     version="opset8", name=f"gather{number}")
        target = ir.op("Concat", [head, tail], [[2]], {"axis": "0"}, name=f"concat{number}")
        ir.result(ir.op("Broadcast", [one, target], [declared], {"mode": "numpy"},
                        version="opset3"))
    path = ir.write(tmp_path)
    evaluated, shown = [], []
    computed, origin = likeness.Likeness._computed, likeness._origin
    monkeypatch.setattr(likeness.Likeness, "_computed",
                        lambda self, spec, layer, *rest: evaluated.append(layer.type) or
                        computed(self, spec, layer, *rest))
    monkeypatch.setattr(likeness, "_origin", lambda spec, layer, *rest: shown.append(
        layer.name) or origin(spec, layer, *rest))
    assert agree(path, monkeypatch)
    assert {"ShapeOf", "Gather", "Concat"} <= set(evaluated), evaluated
    # the origins of the values of blocks 2 and 3 (alike blocks 0 and 1, Const payloads
    # included, so not evaluated) are made for their messages, and no other
    assert {"shape2", "shape3"} <= set(shown) <= {f"{op}{block}" for op in ("shape", "gather", "concat")
                                                  for block in (2, 3)}, shown
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    found = validate_file(str(path)).findings
    assert [(f.code, f.expected, f.declared) for f in found] == [
        ("IRV101", "[4,3]", "[4,5]"), ("IRV101", "[4,2]", "[4,3]")], found
    for block, finding in zip((2, 3), found):
        index = blocks[block][0]
        assert f"'relu{block}' [2,3]) → Gather(axis 0, indices [{index}]) → " \
               f"Concat(Const 'head{block}' [4])" in finding.message, finding.message


def test_a_value_one_layer_could_not_compute_another_alike_may(tmp_path, monkeypatch):
    """A shape divided by a Const: by 0 in block 0 (no value: the runtime's bound evaluation
    fails there too, and the Broadcast after it claims nothing), by 2 in block 1.  Block 1's
    Divide is alike block 0's in all its inference reads, yet its value exists: it is
    evaluated, and its Broadcast's wrong dim is found."""
    from support.irbuilder import IR
    ir = IR()
    data, one = ir.parameter("2,6"), ir.parameter("1")
    for number, (divisor, declared) in enumerate([(0, [1, 3]), (0, [1, 3]), (2, [1, 4])]):
        own = ir.op("Relu", [data], [[2, 6]], name=f"relu{number}")
        shape = ir.op("ShapeOf", [own], [[2]], {"output_type": "i64"}, version="opset3",
                      out_precision="I64")
        half = ir.op("Divide", [shape, ir.const([divisor], "i64", shape=[1])], [[2]],
                     {"auto_broadcast": "numpy", "m_pythondiv": "true"})
        ir.result(ir.op("Broadcast", [one, half], [declared], {"mode": "numpy"},
                        version="opset3"))
    path = ir.write(tmp_path)
    agree(path, monkeypatch)
    monkeypatch.setattr(streaming, "MIN_BYTES", 0)
    found = [(f.code, f.expected, f.declared) for f in validate_file(str(path)).findings]
    assert ("IRV101", "[1,3]", "[1,4]") in found, found


def test_an_op_reading_the_inputs_of_another_layer_declines(tmp_path, monkeypatch):
    """A Broadcast whose computed target (a Concat) has no value falls back on the Concat's
    own inputs (each Const gives its first value), read through the Concat's edges: which
    the stream has forgotten once the Concat's batch is checked.  The stream declines such
    a file, and the findings are the whole check's (found in review)."""
    from support.irbuilder import IR
    ir = IR()
    part = ir.parameter("1", "i64")
    head = ir.const([5], "i64", shape=[1])
    target = ir.op("Concat", [head, part], [[2]], {"axis": "0"})
    one = ir.parameter("1")  # (a batch is 3 layers: the Broadcast is in the next one)
    ir.result(ir.op("Broadcast", [one, target], [[4, -1]], {"mode": "numpy"}, version="opset3"))
    path = ir.write(tmp_path)
    assert agree(path, monkeypatch) is False
    found = [(f.code, f.expected, f.declared) for f in validate_file(str(path)).findings]
    assert found == [("IRV101", "[5,?]", "[4,?]")], found
