"""Extension ops (version="extension", custom opsets) are opaque; IRV212 helps with near misses."""
import pytest
from conftest import codes

from support.irbuilder import IR


def tokenizer_like():
    ir = IR()
    text = ir.parameter("?", "string")
    unpacked = ir.op("StringTensorUnpack", [text], [[-1], [-1], [-1]], version="extension",
                     out_precision="I32")
    split = ir.op("RegexSplit", [unpacked], [[-1]], {"behaviour": "remove"}, version="extension")
    ir.result(split)
    return ir


def test_extension_layers_get_no_error_and_one_info_naming_the_package(run):
    found = run(tokenizer_like())
    assert [f.code for f in found if f.level == "error"] == []
    [info] = [f for f in found if f.code == "IRV217"]
    assert info.level == "info"
    assert "2 layers" in info.message and "openvino_tokenizers" in info.message
    assert "RegexSplit" in info.message and "StringTensorUnpack" in info.message
    assert "case-sensitive" not in info.message


def test_an_unknown_extension_type_is_not_attributed_to_a_package(run):
    ir = IR()
    x = ir.parameter("2")
    ir.result(ir.op("MyCustomOp", [x], [[2]], version="my_opset"))
    found = run(ir)
    assert "IRV212" not in codes(found)
    [info] = [f for f in found if f.code == "IRV217"]
    assert "openvino_tokenizers" not in info.message and "MyCustomOp" in info.message


def test_an_extension_op_named_like_a_core_op_is_not_inferred(run):
    # an extension may register its own "Add"; its declared output is trusted
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[7]], version="extension"))
    found = run(ir)
    assert not {"IRV101", "IRV102", "IRV212"} & set(codes(found))


def test_a_dimless_extension_output_may_be_any_rank(run):
    # tokenizer outputs often write no <dim>: read as "unknown", not as a scalar
    ir = IR()
    text = ir.parameter("2", "string")
    opaque = ir.op("VocabDecoder", [text], [[]], version="extension", out_precision="FP32")
    y = ir.parameter("2,3")
    ir.result(ir.op("Add", [opaque, y], [[4, 2, 3]]))  # the opaque output may be [4,1,1]
    found = codes(run(ir))
    assert "IRV101" not in found and "IRV102" not in found


def test_experimental_version_of_a_legacy_op_is_still_checked(run):
    # 'experimental'/'extension' with a legacy type maps to opset6; an unknown type there is
    # an extension op, but Proposal with version="experimental" is OpenVINO's own
    ir = IR()
    x = ir.parameter("2")
    ir.result(ir.op("Proposal", [x], [[2]], version="experimental"))
    assert "IRV217" not in codes(run(ir))


@pytest.mark.parametrize("type_,version,needle", [
    ("Addd", "opset1", "did you mean 'Add'?"),
    ("Sigmod", "opset1", "did you mean 'Sigmoid'?"),
    ("BitwiseAnd", "opset12", "set version to one of those opsets"),
    ("Add", "OPSET1", 'opset names are case-sensitive: write version="opset1"'),
    ("Add", "opset99", "set version to an opset that has the operation"),
])
def test_unknown_op_type_says_what_to_do(run, type_, version, needle):
    ir = IR()
    x, y = ir.parameter("2", "i32"), ir.parameter("2", "i32")
    ir.result(ir.op(type_, [x, y], [[2]], version=version))
    [f] = [f for f in run(ir) if f.code == "IRV212"]
    assert needle in f.message, f.message
    if version != "OPSET1":
        assert "case-sensitive" not in f.message
