"""Development-time extraction of ``irvalidate/data/extensions.json``: the operations that
runtime extension packages add (today openvino_tokenizers), so a finding can name the
package a model needs.

The validator never imports the package; it reads the committed JSON::

    python tests/support/extract_extensions.py            # rewrite irvalidate/data/extensions.json
    python tests/support/extract_extensions.py --check    # exit 1 if the committed file is stale

How: each op of openvino_tokenizers is registered in its shared library as an
``ov::OpExtension<Name>``; the mangled symbol ``OpExtensionI<length><Name>EE`` spells the
type name exactly.  Each name is then confirmed with the package's own node factory (a name
it does not know raises "Couldn't create operation").
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

JSON_PATH = Path(__file__).resolve().parents[2] / "irvalidate" / "data" / "extensions.json"
_SYMBOL = re.compile(rb"OpExtensionI(\d+)([A-Za-z0-9_]+)")


def tokenizer_ops() -> dict:
    from importlib.metadata import version

    import openvino_tokenizers
    names = set()
    for lib in (Path(openvino_tokenizers.__file__).parent / "lib").glob("*.so*"):
        for length, rest in _SYMBOL.findall(lib.read_bytes()):
            names.add(rest[:int(length)].decode())
    factory = openvino_tokenizers._get_factory()
    confirmed = []
    for name in sorted(names):
        try:
            factory.create(name, [], {})
        except Exception as err:  # noqa: BLE001 - the factory raises many kinds
            if "Couldn't create operation" in str(err):
                continue
        confirmed.append(name)
    return {"version": version("openvino-tokenizers"), "types": confirmed}


def extract() -> dict:
    return {"packages": {"openvino_tokenizers": tokenizer_ops()},
            "notes": ["Type names each extension package registers, read from the mangled "
                      "OpExtension symbols of its library and confirmed with its node factory "
                      "(tests/support/extract_extensions.py)."]}


def render(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    text = render(extract())
    if parser.parse_args().check:
        return 0 if JSON_PATH.read_text(encoding="utf-8") == text else 1
    JSON_PATH.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
