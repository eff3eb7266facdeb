"""Every finding says what to do, in one short clause, where a fix is known: checked on the
broken samples (one realistic breakage per rule)."""
from pathlib import Path

import pytest

from irvalidate.engine.validation import validate_file
from support.irbuilder import IR

BROKEN = Path(__file__).resolve().parents[2] / "sample_models" / "broken"

ADVICE = {
    "IRV003-unsupported-ir-version": "convert the original model again with a current OpenVINO",
    "IRV101-output-shape-mismatch": "set this <dim> to 5, or re-export the model",
    "IRV103-dynamic-dim-declared": "set this <dim> to 4",
    "IRV201-edge-shape-mismatch": "inference proves the producer's, so make the input port say "
                                  "[2,3]",
    "IRV202-dangling-edge": "delete the edge or restore what it names",
    "IRV203-invalid-constant": "fix offset/size or re-export the model",
    "IRV204-missing-weights": "put IRV204-missing-weights.bin beside IRV204-missing-weights.xml "
                              "or pass --bin",
    "IRV204-lfs-pointer": "run `git lfs pull`",
    "IRV205-duplicate-layer-id": "give it an id of its own",
    "IRV206-duplicate-port-id": "renumber it",
    "IRV207-reversed-edge": "swap its ends or delete it",
    "IRV208-multiple-edges-into-port": "keep the one you mean",
    "IRV209-unconnected-input": "connect it with an <edge> or remove the port",
    "IRV210-graph-cycle": "remove an edge of it",
    "IRV211-unreachable-layer": "connect it to a Result or delete it",
    "IRV212-unknown-op-type": "set version to one of those opsets",
    "IRV213-precision-mismatch": "make the input port say FP32",
    "IRV214-parameter-port-mismatch": "set this <dim> to 2, or fix the attribute",
    "IRV215-const-port-mismatch": "declare [3] on this port, or fix the attribute",
    "IRV217-extension-op": "import openvino_tokenizers",
}


@pytest.mark.parametrize("stem,advice", sorted(ADVICE.items()))
def test_the_finding_says_what_to_do(stem, advice):
    code = stem[:6]
    # a sample may break one rule and so make others speak; the rule's own finding is the one
    [finding] = [f for f in validate_file(str(BROKEN / f"{stem}.xml")).findings if f.code == code]
    assert advice in finding.message, finding.message


def test_one_input_is_connected_in_the_singular(run):
    ir = IR()
    x = ir.parameter("2")
    ir.result(ir.op("Add", [x], [[2]]))
    [f] = [f for f in run(ir) if f.code == "IRV105"]
    assert f.message.endswith("but 1 is connected"), f.message
