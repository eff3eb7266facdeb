"""IRV217 extension-op: the model uses operations that a runtime extension supplies.

OpenVINO's serializer writes ``version="extension"`` for every op an extension registers:
every optimum-intel export folder holds ``openvino_tokenizer.xml`` and
``openvino_detokenizer.xml``, made of openvino_tokenizers ops (RegexSplit, BPETokenizer,
VocabDecoder, ...).  ``read_model`` refuses such a file unless the extension is loaded
(``import openvino_tokenizers`` in Python).  irvalidate cannot infer these ops: their output
shapes are taken as the file declares them, as for any op it does not model.  One finding per
file says which package the model needs.

Passing (an op of OpenVINO's own opsets)::

    <layer id="5" name="split" type="VariadicSplit" version="opset1">

Failing (reported as info: the model needs openvino_tokenizers to load)::

    <layer id="5" name="RegexSplit_86" type="RegexSplit" version="extension">
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ..ir import opsets
from ._common import Context
from .findings import Problem

CODE = "IRV217"
SLUG = "extension-op"
LEVEL = "info"
SUMMARY = "The model uses operations of a runtime extension, which must be loaded to read it."

#: types named in the message; the rest are counted
_SHOWN = 6


def check(ctx: Context) -> Iterator[Problem]:
    if not ctx.is_model:
        return  # once per file, over every graph
    found = [layer for graph in ctx.doc.graphs() for layer in graph.layers
             if layer.type and layer.version and opsets.is_extension(layer.version, layer.type)]
    if not found:
        return
    types = Counter(layer.type for layer in found)
    names = ", ".join(sorted(types)[:_SHOWN]) + (f" and {len(types) - _SHOWN} more"
                                                  if len(types) > _SHOWN else "")
    packages = sorted({opsets.extension_package(t) or "" for t in types} - {""})
    unknown = [t for t in types if opsets.extension_package(t) is None]
    if packages and not unknown:
        need = (f"they come from {' and '.join(packages)}: load it before reading the model "
                f"(in Python, `import {packages[0]}`)")
    else:
        need = "OpenVINO reads the model only with the extension that registers them loaded"
    first = found[0]
    yield Problem(f"{len(found)} layer{'s' if len(found) != 1 else ''} of extension "
                  f"operation{'s' if len(types) != 1 else ''} ({names}); {need}; their output "
                  f"shapes are taken as declared", at=first, layer=first)
