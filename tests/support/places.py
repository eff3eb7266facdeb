"""Where the tests find the repository's models and the wild corpus (the folder beside the
repository, or IRVALIDATE_WILD_CORPUS; absent on a clean clone, and the tests then skip)."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_models").rglob("*.xml"))
CORPUS = Path(os.environ.get("IRVALIDATE_WILD_CORPUS")
              or ROOT.parent / "shared" / "wild-corpus")
CORPUS_FILES = sorted(CORPUS.rglob("*.xml")) if CORPUS.is_dir() else []
#: a genuine IR written by openvino.save_model
GENUINE = ROOT / "sample_models" / "valid" / "output-shape-mismatch.xml"
