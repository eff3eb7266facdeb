"""Identity-16 and ErfInv-17 against the runtime: the shape and type pass through (ErfInv
takes floating-point types only); any other input count is refused."""
import pytest

ov = pytest.importorskip("openvino")
from openvino import opset1  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.shapeops import model, refusal, shape  # noqa: E402

OPSET = {"Identity": "opset16", "ErfInv": "opset17"}


def single(kind, spec, et="f32"):
    x = opset1.parameter(shape(spec), getattr(ov.Type, et), name="x")
    node = NodeFactory(OPSET[kind]).create(kind, [x], {})
    node.set_friendly_name("u")
    return model(node, [x])


@pytest.mark.parametrize("kind", ["Identity", "ErfInv"])
@pytest.mark.parametrize("spec,et", [([2, 3], "f32"), ([(1, 4), -1], "f16"), (None, "f32"), ([], "bf16"),
                                     ([0, 5], "f64"), ([2, 3], "dynamic"), ([7], "f8e4m3")])
def test_shape_and_type_pass_through(tmp_path, kind, spec, et):
    path = opcheck.compare(single(kind, spec, et), tmp_path, [kind])
    opcheck.compare_types(path, [kind])


@pytest.mark.parametrize("et", ["string", "boolean", "i32", "u8"])
def test_identity_takes_any_type(tmp_path, et):
    opcheck.compare_types(opcheck.compare(single("Identity", [2, 3], et), tmp_path, ["Identity"]), ["Identity"])


@pytest.mark.parametrize("kind,count", [("Identity", 2), ("Identity", 0), ("ErfInv", 2), ("ErfInv", 0)])
def test_other_input_counts_are_refused(tmp_path, kind, count):
    def build():
        ir = IR()
        ir.result(ir.op(kind, [ir.parameter("2,3") for _ in range(count)], [[2, 3]], {}, version=OPSET[kind]))
        return ir
    refusal(tmp_path, build, kind, "takes 1")


@pytest.mark.parametrize("et", ["i32", "u8", "boolean"])
def test_erfinv_refuses_other_types(tmp_path, et):
    def build():
        ir = IR()
        ir.result(ir.op("ErfInv", [ir.parameter("2,3", et)], [[2, 3]], {}, version="opset17"))
        return ir
    refusal(tmp_path, build, "ErfInv", "floating-point")


def test_stale_dims_name_the_layers(tmp_path):
    for kind in OPSET:
        path = opcheck.compare(single(kind, [2, 3]), tmp_path, [kind], stem=kind)
        assert opcheck.named(opcheck.mutate(path, "u", 0, 1, 4), "u")
