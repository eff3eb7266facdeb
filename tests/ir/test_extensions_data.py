"""The committed table of extension ops (irvalidate/data/extensions.json)."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from irvalidate.ir import opsets

JSON_PATH = Path(__file__).resolve().parents[2] / "irvalidate" / "data" / "extensions.json"


def test_table_names_the_tokenizer_ops_real_exports_use():
    types = json.loads(JSON_PATH.read_text())["packages"]["openvino_tokenizers"]["types"]
    # types seen in optimum-intel tokenizer/detokenizer exports
    for name in ("StringTensorUnpack", "RegexSplit", "BPETokenizer", "VocabDecoder",
                 "CombineSegments", "RaggedToDense", "FuzeRagged", "UTF8Validate"):
        assert name in types
    assert opsets.extension_package("RegexSplit") == "openvino_tokenizers"
    assert opsets.extension_package("Add") is None


def test_committed_table_matches_the_installed_package():
    if importlib.util.find_spec("openvino_tokenizers") is None:
        pytest.skip("openvino_tokenizers is not installed")
    # in a child: loading the extension registers its ops in openvino for the whole process,
    # which would change what the opset extraction (test_opsets_data) sees
    script = Path(__file__).resolve().parents[1] / "support" / "extract_extensions.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, f"run python tests/support/extract_extensions.py\n{done.stderr}"
