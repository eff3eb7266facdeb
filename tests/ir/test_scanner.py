"""The scanner (``irvalidate/ir/scanner.py``) against the lxml parser: on every file, either it
declines (and the parser reads the file) or its document is the parser's, record for record.

Files: the samples, the wild corpus (when present), models serialized by OpenVINO, and
variants of a genuine IR that leave the subset the scanner reads (entities, CR LF, comments,
bodies, unusual attributes, truncations...), each of which must either decline or agree.
Lines are compared exactly up to 65,534; past it libxml2's are approximate (the engine finds
exact ones), so both must only be past it.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from irvalidate.ir import parser, plain, reader
from irvalidate.ir.records import Document, Graph
from irvalidate.ir.scanner import CHUNK
from support.places import CORPUS_FILES, GENUINE, ROOT, SAMPLES

BODIES = ROOT / "sample_models" / "valid" / "body-port-map.xml"


def _line(line):
    return line if line is None or line <= 65534 else "past 65534"


def _port(port):
    return (port.id, port.dims, port.precision, _line(port.line))


def _graph(graph: Graph) -> tuple:
    layers = [(l.id, l.name, l.type, l.version, _line(l.line), dict(l.data),
               tuple(map(_port, l.inputs)), tuple(map(_port, l.outputs)),
               tuple(_graph(b) for b in l.bodies),
               tuple(p._replace(line=_line(p.line)) for p in l.port_maps),
               tuple(b._replace(line=_line(b.line)) for b in l.back_edges))
              for l in graph.layers]
    edges = [e._replace(line=_line(e.line)) for e in graph.edges]
    return (graph.scope, graph.kind, graph.path, layers, edges, _problems(graph.problems))


def _problems(problems) -> list:
    return [(_line(p.line), p.message, p.kind, p.port, p.axis,
             None if p.layer is None else p.layer.id) for p in problems]


def normal(doc: Document) -> tuple:
    return (doc.version, doc.lines, _graph(doc.graph), _problems(doc.fatal), _problems(doc.schema))


def agree(path: Path) -> bool:
    """True when the scanner read the file (and agrees), False when it declined."""
    scanned = reader.scan(str(path))
    if scanned is None:
        return False
    assert normal(scanned) == normal(parser.parse(str(path))), path
    return True


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_samples(path):
    agree(path)


@pytest.mark.skipif(not CORPUS_FILES, reason="no wild corpus here")
def test_wild_corpus():
    read = [path for path in CORPUS_FILES if agree(path)]
    # the scanner is meant for serializer output: most real files are read by it
    assert len(read) >= len(CORPUS_FILES) // 2, (len(read), len(CORPUS_FILES))


def test_genuine_samples_are_read_by_the_scanner():
    assert agree(GENUINE)
    assert agree(BODIES)  # a body is handed to lxml on its own


def test_models_serialized_by_openvino(tmp_path):
    ovgen = pytest.importorskip("ovgen")
    for seed in range(12):
        model = ovgen.generate(seed, tmp_path / str(seed), verify=False)
        assert agree(model.xml), seed


def _variant(tmp_path: Path, text: str, name: str = "v.xml", raw: bytes = None) -> Path:
    path = tmp_path / name
    path.write_bytes(raw if raw is not None else text.encode("utf-8"))
    return path


TEXT = GENUINE.read_text()
FIRST_NAME = re.search(r'name="([^"]*)"', TEXT[TEXT.index("<layer "):]).group(1)
#: (id, transformation of the genuine text, whether the scanner reads it itself: a layer
#: it does not match goes to lxml on its own text; a departure at the file level, or in
#: the edges, makes it decline the file)
VARIANTS = [
    ("entity-in-a-name", lambda t: t.replace(f'name="{FIRST_NAME}"', 'name="a&amp;b"', 1), True),
    ("char-ref-in-data", lambda t: t.replace('shape="', 'shape="&#32;', 1), True),
    ("crlf", lambda t: t.replace("\n", "\r\n"), True),
    ("lone-cr", lambda t: t.replace("\n", "\r", 3), False),
    ("tab-in-value", lambda t: t.replace(f'name="{FIRST_NAME}"', 'name="a\tb"', 1), True),
    ("newline-in-value", lambda t: t.replace(f'name="{FIRST_NAME}"', 'name="a\nb"', 1), True),
    ("single-quotes", lambda t: t.replace(f'name="{FIRST_NAME}"', f"name='{FIRST_NAME}'", 1), True),
    ("attributes-over-lines", lambda t: t.replace(' type="', '\n   type="', 3), True),
    ("comment-between-layers", lambda t: t.replace("</layer>", "</layer><!-- x -->", 1), False),
    ("comment-in-a-layer", lambda t: t.replace("<output>", "<!-- x --><output>", 1), True),
    ("doctype", lambda t: t.replace("<net ", "<!DOCTYPE net><net ", 1), False),
    ("bom", lambda t: "\ufeff" + t, True),
    ("no-prolog", lambda t: t[t.index("<net"):], True),
    ("encoding-latin1", lambda t: t.replace('<?xml version="1.0"', '<?xml version="1.0" encoding="ISO-8859-1"', 1), False),
    ("duplicate-attribute", lambda t: t.replace(' type="', ' id="7" type="', 1), False),
    ("gt-in-data", lambda t: t.replace('<data ', '<data note="a>b" ', 1), True),
    ("dim-with-spaces", lambda t: t.replace("<dim>", "<dim> ", 1), True),
    ("dim-minus-zero", lambda t: t.replace("<dim>1</dim>", "<dim>-0</dim>", 1), True),
    ("dim-too-big", lambda t: t.replace("<dim>1</dim>", "<dim>99999999999999999999</dim>", 1), True),
    ("dim-not-a-number", lambda t: t.replace("<dim>1</dim>", "<dim>x</dim>", 1), True),
    ("empty-input", lambda t: re.sub(r"<input>.*?</input>", "<input/>", t, count=1, flags=re.S), True),
    ("port-rt-info", lambda t: t.replace("</dim>\n", '</dim><rt_info><attribute name="layout" version="0" value="[N,C]"/></rt_info>\n', 1), True),
    ("port-empty-rt-info", lambda t: t.replace("</dim>\n", "</dim>\n\t\t\t\t\t<rt_info/>\n", 1), True),
    ("layer-rt-info-nested", lambda t: t.replace("<output>", '<rt_info><a><b/></a></rt_info><output>', 1), True),
    ("unknown-layer-child", lambda t: t.replace("<output>", "<blobs/><output>", 1), True),
    ("unknown-layer-attribute", lambda t: t.replace(' type="', ' precision="FP32" type="', 1), True),
    ("layer-without-version", lambda t: re.sub(r' version="opset\d+"', "", t, count=1), True),
    ("edge-attribute-order", lambda t: re.sub(r'<edge from-layer="(\d+)" from-port="(\d+)"', r'<edge from-port="\2" from-layer="\1"', t, count=1), False),
    ("two-edges-a-line", lambda t: t.replace("/>\n\t\t<edge", "/><edge", 1), True),
    ("edge-extra-attribute", lambda t: t.replace("<edge ", '<edge x="1" ', 1), False),
    ("meta-data", lambda t: t.replace("</edges>", "</edges><meta_data><x value='1'/></meta_data>", 1), True),
    ("net-batch", lambda t: t.replace("<net ", '<net batch="1" ', 1), True),
    ("net-unknown-attribute", lambda t: t.replace("<net ", '<net z="1" ', 1), False),
    ("version-7", lambda t: re.sub(r'<net (.*?)version="\d+"', r'<net \1version="7"', t, count=1), False),
    ("empty-layers", lambda t: re.sub(r"<layers>.*</layers>", "<layers/>", t, flags=re.S), False),
    ("two-layers-sections", lambda t: t.replace("<edges>", "<layers></layers><edges>", 1), False),
    ("text-after-net", lambda t: t + "junk", False),
    ("pi-after-net", lambda t: t + "<?pi x?>", True),
    ("unclosed-layer", lambda t: t.replace("</layer>", "", 1), False),
    ("namespace", lambda t: t.replace("<net ", '<net xmlns="urn:x" ', 1), False),
    ("control-character", lambda t: t.replace(f'name="{FIRST_NAME}"', 'name="a\x01b"', 1), False),
    ("non-character", lambda t: t.replace(f'name="{FIRST_NAME}"', 'name="a\uffffb"', 1), False),
    ("unicode-name", lambda t: t.replace(f'name="{FIRST_NAME}"', 'name="é€𝄞"', 1), True),
    ("unicode-space-between", lambda t: t.replace("</layer>\n", "</layer>\u00a0\n", 1), False),
]


@pytest.mark.parametrize("name,change,read", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_variants_agree(name, change, read, tmp_path):
    assert change(TEXT) != TEXT, "the variant changes nothing"
    assert agree(_variant(tmp_path, change(TEXT))) is read


def test_latin1_bytes_decline(tmp_path):
    path = _variant(tmp_path, "", raw=TEXT.replace(f'name="{FIRST_NAME}"', 'name="\xe9"', 1).encode("latin-1"))
    assert reader.scan(str(path)) is None
    assert parser.parse(str(path)).fatal


def test_layers_past_a_chunk_and_line_65534(tmp_path):
    """A file longer than the scanner's chunk and line 65,534: records agree, lines past
    the limit are exact in the scanner's (counted against the text)."""
    head, rest = TEXT.split("<layers>", 1)
    body, tail = rest.split("</layers>", 1)
    copies = 2 + max((2 * CHUNK) // len(body), 65535 // body.count("\n"))
    layers = re.findall(r"<layer .*?</layer>", body, flags=re.S)
    ids = [re.search(r'id="(\d+)"', l).group(1) for l in layers]
    blocks: list[str] = []
    for n in range(copies):
        block = body
        for lid in ids:  # fresh ids per copy, and edges of each copy
            block = block.replace(f'id="{lid}"', f'id="{lid}_{n}"')
        blocks.append(block)
    edges = re.search(r"<edges>(.*?)</edges>", tail, flags=re.S).group(1)
    new_edges = "".join(re.sub(r'layer="(\d+)"', rf'layer="\1_{n}"', edges) for n in range(copies))
    text = head + "<layers>" + "".join(blocks) + "</layers>" + \
        tail.replace(edges, new_edges)
    path = _variant(tmp_path, text)
    assert text.count("\n") > 65534 and len(text) > 2 * CHUNK
    scanned = reader.scan(str(path))
    assert scanned is not None and agree(path)
    lines = text.split("\n")
    for layer in scanned.graph.layers[-3:] + scanned.graph.layers[:2]:
        assert f'id="{layer.id}"' in lines[layer.line - 1]
        for port in layer.inputs + layer.outputs:
            assert f'<port id="{port.id}"' in lines[port.line - 1]
    for edge in scanned.graph.edges[-3:]:
        assert f'to-layer="{edge.to_layer}"' in lines[edge.line - 1]


@pytest.mark.parametrize("seed", range(6))
def test_truncated_and_mutated_agree(seed, tmp_path):
    """Random cuts and byte changes of the genuine IR: declined, or read as the parser
    reads them."""
    rnd = random.Random(seed)
    data = GENUINE.read_bytes()
    for case in range(25):
        cut = bytearray(data[:rnd.randrange(len(data) + 1)]) if case % 2 else bytearray(data)
        for _ in range(rnd.randrange(1, 4)):
            if cut:
                cut[rnd.randrange(len(cut))] = rnd.choice(b'<>/"= \n\tx0-1&;\r')
        path = _variant(tmp_path, "", f"m{case}.xml", raw=bytes(cut))
        agree(path)


def test_the_shared_strings_stay_bounded(tmp_path, monkeypatch):
    """Types and versions are shared one string each (plain.SHARED); a file of thousands of
    distinct types, whose layers' other text repeats (so nothing else clears the table),
    must not grow it past its bound."""
    from irvalidate.ir import plain
    port = '\t\t\t\t<port id="{}" precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t</port>\n'
    layers = ['\t\t<layer id="0" name="x" type="Parameter" version="opset1">\n'
              '\t\t\t<data shape="2" element_type="f32" />\n'
              '\t\t\t<output>\n' + port.format(0) + '\t\t\t</output>\n\t\t</layer>\n']
    count = 3 * plain.MAX_SHARED
    for n in range(1, count + 1):
        layers.append(f'\t\t<layer id="{n}" name="l{n}" type="T{n}" version="opset1">\n'
                      '\t\t\t<input>\n' + port.format(0) + '\t\t\t</input>\n'
                      '\t\t\t<output>\n' + port.format(1) + '\t\t\t</output>\n\t\t</layer>\n')
    edges = "".join(f'\t\t<edge from-layer="{n - 1}" from-port="{0 if n == 1 else 1}" '
                    f'to-layer="{n}" to-port="0" />\n' for n in range(1, count + 1))
    path = tmp_path / "types.xml"
    path.write_text('<?xml version="1.0"?>\n<net name="m" version="11">\n\t<layers>\n' +
                    "".join(layers) + "\t</layers>\n\t<edges>\n" + edges +
                    "\t</edges>\n\t<rt_info />\n</net>\n")

    class Counted(dict):
        """The table, counting its largest size as the scanner adds to it."""
        most = 0

        def setdefault(self, key, value):
            found = super().setdefault(key, value)
            Counted.most = max(Counted.most, len(self))
            return found
    monkeypatch.setattr(plain, "SHARED", Counted())
    scanned = reader.scan(str(path))
    assert scanned is not None and len(scanned.graph.layers) == count + 1
    assert 0 < Counted.most < 2 * plain.MAX_SHARED


@pytest.mark.parametrize("info", ["<rt_info/>", "<rt_info />", '<rt_info><attribute name="a" version="0" value="b"/></rt_info>'])
def test_a_port_s_rt_info_on_its_own_line_is_plain(info):
    # the serializer writes a port's <rt_info/> on a line of its own, after the dims (four
    # quantized models of the wild corpus): such layers were left to lxml, which the
    # stream declines, and the whole file was read by lxml
    text = f'\n<output>\n<port id="1" precision="FP32">\n<dim>1</dim>\n\t{info}\n</port>\n</output>\n'
    assert plain.rest(text) == ((), (("1", (1,), "FP32", 2),), 7)


def test_port_texts_read_once_stay_bounded_and_agree(tmp_path, monkeypatch):
    """A port's attributes and dims are read once per text (plain._PORT_ATTRIBUTES,
    plain._DIMS_READ); a file of ports all distinct (names, dims, long names) must not grow
    those tables past their bound, and reads as lxml reads it across their clearing."""
    from irvalidate.ir import plain
    monkeypatch.setattr(plain, "MAX_PORT_TEXTS", 40)
    monkeypatch.setattr(plain, "_PORT_ATTRIBUTES", {})
    monkeypatch.setattr(plain, "_DIMS_READ", {})
    count = 300

    def port(pid, n, precision="FP32"):
        names = f' names="out{n}{"x" * (n % 7) * 100}"' if pid == 1 else ""
        return (f'\t\t\t\t<port id="{pid}" precision="{precision}"{names}>\n'
                f'\t\t\t\t\t<dim>{n + 1}</dim>\n\t\t\t\t\t<dim>{n % 5 + 1}</dim>\n\t\t\t\t</port>\n')
    layers = ['\t\t<layer id="0" name="x" type="Parameter" version="opset1">\n'
              '\t\t\t<data shape="1,1" element_type="f32" />\n'
              '\t\t\t<output>\n' + port(1, 0) + '\t\t\t</output>\n\t\t</layer>\n']
    for n in range(1, count + 1):
        layers.append(f'\t\t<layer id="{n}" name="l{n}" type="Relu" version="opset1">\n'
                      '\t\t\t<input>\n' + port(0, n - 1) + '\t\t\t</input>\n'
                      '\t\t\t<output>\n' + port(1, n, "FP16" if n % 3 else "FP32") +
                      '\t\t\t</output>\n\t\t</layer>\n')
    edges = "".join(f'\t\t<edge from-layer="{n - 1}" from-port="1" to-layer="{n}" to-port="0" />\n'
                    for n in range(1, count + 1))
    path = tmp_path / "ports.xml"
    path.write_text('<?xml version="1.0"?>\n<net name="m" version="11">\n\t<layers>\n' +
                    "".join(layers) + "\t</layers>\n\t<edges>\n" + edges +
                    "\t</edges>\n\t<rt_info />\n</net>\n")
    assert agree(path)
    assert 0 < len(plain._PORT_ATTRIBUTES) <= 40 and 0 < len(plain._DIMS_READ) <= 40
    assert all(len(text) <= plain.MAX_PORT_TEXT for text in plain._PORT_ATTRIBUTES)
    scanned = reader.scan(str(path))
    assert [p.dims for p in scanned.graph.layers[-1].outputs] == [(count + 1, count % 5 + 1)]
