"""Real IR files from public repositories (../shared/wild-corpus, provenance in its README):
no error finding on any file that OpenVINO's ``read_model`` loads, and at least one on every
file it refuses.  Skipped when the folder is absent (IRVALIDATE_WILD_CORPUS points elsewhere).

The oracle runs in a child process with openvino_tokenizers imported, as a user of the
tokenizer files would run it; importing it here would register its ops for the whole test
session.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from irvalidate.cli.main import main
from support.places import CORPUS

FILES = sorted(CORPUS.glob("*/*.xml")) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason=f"no wild corpus at {CORPUS}")

ORACLE = r"""
import json, os, sys
import openvino as ov
try:
    import openvino_tokenizers  # noqa: F401 - registers the extension ops
except ImportError:
    pass
core, out = ov.Core(), {}
for xml in sys.argv[1:]:
    weights = xml[:-4] + ".bin"
    try:
        core.read_model(xml, weights) if os.path.exists(weights) else core.read_model(xml)
        out[xml] = None
    except Exception as err:
        out[xml] = " ".join(str(err).split())[-300:]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def oracle():
    pytest.importorskip("openvino")
    done = subprocess.run([sys.executable, "-c", ORACLE, *map(str, FILES)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def report():
    from contextlib import redirect_stdout
    from io import StringIO
    buffer = StringIO()
    with redirect_stdout(buffer):
        main(["--format", "json", *map(str, FILES)])
    return {f["path"]: f["findings"] for f in json.loads(buffer.getvalue())["files"]}


def errors(findings):
    return [f"{f['rule']} line {f['line']}: {f['message'][:160]}" for f in findings
            if f["severity"] == "error"]


def test_no_error_on_any_file_the_runtime_loads(oracle, report):
    loaded = [path for path, failure in oracle.items() if failure is None]
    assert len(loaded) >= 40  # the corpus README: most files load
    false = {path: errors(report[path]) for path in loaded if errors(report[path])}
    assert not false, json.dumps(false, indent=1)


def test_every_file_the_runtime_refuses_gets_an_error(oracle, report):
    missed = {path: failure for path, failure in oracle.items()
              if failure is not None and not errors(report[path])}
    assert not missed, json.dumps(missed, indent=1)


def test_the_lfs_pointer_file_gives_exactly_one_error(report):
    [path] = [p for p in report if p.endswith("gh-CHJCHJCH-sentiment-analysis/openvino_model.xml")]
    found = errors(report[path])
    assert len(found) == 1 and found[0].startswith("IRV204") and "Git LFS pointer" in found[0]


def test_tokenizer_files_get_no_error_and_name_their_package(report):
    tokenizers = [p for p in report if "tokenizer" in Path(p).name]
    assert len(tokenizers) >= 3
    for path in tokenizers:
        # some ship without their .bin (IRV204, rightly); nothing else may be an error
        assert not [e for e in errors(report[path]) if not e.startswith("IRV204")], path
        assert any(f["rule"] == "IRV217" and "openvino_tokenizers" in f["message"]
                   for f in report[path]), path
