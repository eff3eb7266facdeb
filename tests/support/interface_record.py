"""``read_model``'s answer for each wild-corpus file's inputs and outputs, recorded as data,
for ``inspect``'s tests to compare with where openvino is not installed.

    python tests/support/interface_record.py     # needs openvino (and openvino_tokenizers)

For every file: the sha256 of its XML (a changed file shows), and either why ``read_model``
refuses it or, for each input (``Model.inputs``) and output (``Model.outputs``) in order, its
tensor names (sorted), element type (``get_type_name``: f32, i64) and partial shape as the
runtime prints it.  The answers are made in a child process with openvino_tokenizers'
ops registered, as a user of the tokenizer files would read them; the corpus itself never
enters the repository (its files are keyed by their path inside it).
"""
from __future__ import annotations

import hashlib
import json
import lzma
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
DATA = TESTS / "snapshots" / "interface_answers" / "corpus.json.xz"

#: run in a child: the paths on the command line, the answers as JSON on stdout
ORACLE = r"""
import json, os, sys
import openvino as ov
try:
    import openvino_tokenizers  # noqa: F401 - registers the extension ops
except ImportError:
    pass

def ports(outputs):
    return [{"names": sorted(o.get_names()), "element_type": o.get_element_type().get_type_name(),
             "shape": str(o.get_partial_shape())} for o in outputs]

core, out = ov.Core(), {}
for xml in sys.argv[1:]:
    weights = xml[:-4] + ".bin"
    try:
        model = core.read_model(xml, weights) if os.path.exists(weights) else core.read_model(xml)
    except Exception as err:
        lines = [line.strip() for line in str(err).replace(xml, os.path.basename(xml)).splitlines()]
        out[xml] = {"readable": False, "error": ([l for l in lines if l] or ["refused"])[-1][:200]}
        continue
    out[xml] = {"readable": True, "inputs": ports(model.inputs), "outputs": ports(model.outputs)}
print(json.dumps(out))
"""


def sha256_of(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def answers(paths: list[Path]) -> dict[str, dict]:
    """The runtime's answers for ``paths`` (by their text), from a child process."""
    done = subprocess.run([sys.executable, "-c", ORACLE, *map(str, paths)], check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout)


def load() -> dict[str, dict]:
    """corpus-relative path -> record (``xml_sha256`` and the answer)."""
    with lzma.open(DATA, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def record() -> None:
    from support import places
    found = answers(places.CORPUS_FILES)
    records = {path.relative_to(places.CORPUS).as_posix():
               {"xml_sha256": sha256_of(path), **found[str(path)]}
               for path in places.CORPUS_FILES}
    DATA.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(DATA, "wt", encoding="utf-8", preset=9) as handle:
        json.dump(records, handle, indent=0, sort_keys=True)
    print(f"{len(records)} files recorded in {DATA.relative_to(TESTS.parent)}")


if __name__ == "__main__":
    sys.path.insert(0, str(TESTS))  # (run as a script: `support` as pytest finds it)
    record()
