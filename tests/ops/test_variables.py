"""ReadValue-3/-6 and Assign-3/-6 against the runtime: the notes' cases (variables declared
by the builders, then their attributes edited as a hand-written IR would have them), random
variable declarations, refusals and stale dims."""
import random

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

import openvino.opset6 as o6  # noqa: E402
from openvino.op.util import Variable, VariableInfo  # noqa: E402

from irvalidate.engine.validation import validate_file  # noqa: E402
from support import opcheck  # noqa: E402
from support.irbuilder import IR  # noqa: E402
from support.ovmodels import compare_file, edit_data, make, param, shape  # noqa: E402

TYPES = ["ReadValue", "Assign"]


def variable(spec, et, name="v"):
    info = VariableInfo()
    info.data_shape, info.data_type, info.variable_id = shape(spec), et, name
    return Variable(info)


def state_model(init_spec, init_et, var_spec, var_et, assign_value=None, with_init=True):
    """Parameter -> ReadValue-6 (rv) -> Result, and Assign-6 (asg) of the ReadValue (or of
    ``assign_value(rv)``)."""
    var = variable(var_spec, var_et)
    x = param(init_spec, init_et, name="x")
    rv = o6.read_value(x, var) if with_init else o6.read_value(var)
    rv.set_friendly_name("rv")
    value = rv if assign_value is None else assign_value(rv)
    asg = o6.assign(value, var)
    asg.set_friendly_name("asg")
    return ov.Model([o6.result(rv)], [asg], [x] if with_init else [], "m")


def saved(tmp_path, m, stem="model"):
    return opcheck.save(m, tmp_path, stem)


F32, DYN = ov.Type.f32, ov.Type.dynamic


@pytest.mark.parametrize("init,var,et,edits", [
    ([2, 3], [2, 3], F32, {}),
    ([2, 3], [-1, 3], F32, {}),
    ([2, 3], [(1, 4), 3], F32, {}),
    ([(1, 4), 3], [(0, 8), 3], F32, {}),
    ([2, 3], None, DYN, {}),                                     # the init's shape and type
    ([2, 3], None, DYN, dict(variable_type=None, variable_shape=None)),
    ([2, 3], None, F32, {}),
    ([2, 3], None, F32, dict(variable_shape=None)),
    ([2, 3], [2, 3], DYN, dict(variable_type=None)),
    ([2, 3], [2, 3], DYN, dict(variable_type="undefined", variable_shape="[2,3]")),
    ([2, 3], [-1, 3], F32, dict(variable_shape="-1,3")),
    (None, None, F32, {}),
])
def test_read_value6_cases(tmp_path, init, var, et, edits):
    """Built with the variable's shape and type, then attributes written as a hand-written
    IR may write them (a missing one reads as dynamic: the same variable)."""
    path = edit_data(saved(tmp_path, state_model(init, np.float32, var, et)), "rv", "edited",
                     **edits)
    compare_file(path, TYPES)


def test_read_value6_without_init(tmp_path):
    path = saved(tmp_path, state_model(None, np.float32, [-1, 3], ov.Type.f32, with_init=False))
    compare_file(path, TYPES)
    compare_file(edit_data(path, "rv", "bare", variable_type=None, variable_shape=None), TYPES)


def test_an_integer_init_under_a_dynamic_type(tmp_path):
    path = saved(tmp_path, state_model([2, 3], np.int32, [2, 3], ov.Type.dynamic))
    compare_file(path, TYPES)


@pytest.mark.parametrize("var,value", [
    ([-1, 3], lambda rv: param([(1, 5), 3], name="y")),
    ([(1, 4), 3], lambda rv: param([(3, 9), 3], name="y")),
    ([2, 3], lambda rv: param(None, name="y")),
    (None, lambda rv: param([5, 5], name="y")),
])
def test_assign6_needs_only_compatible_shapes(tmp_path, var, value):
    var_ = variable(var, ov.Type.f32)
    x = param([2, 3], name="x")
    rv = o6.read_value(x, var_)
    rv.set_friendly_name("rv")
    y = value(rv)
    asg = o6.assign(y, var_)
    asg.set_friendly_name("asg")
    m = ov.Model([o6.result(rv)], [asg], [x, y], "m")
    compare_file(saved(tmp_path, m), TYPES)


def test_v3_variables(tmp_path):
    x = param([(1, 4), -1], name="x")
    rv = make("opset3", "ReadValue", [x], {"variable_id": "v"}, "rv")
    relu = o6.relu(rv)
    asg = make("opset3", "Assign", [relu], {"variable_id": "v"}, "asg")
    m = ov.Model([o6.result(rv)], [asg], [x], "m")
    compare_file(saved(tmp_path, m), TYPES)


def test_a_v3_read_value_feeds_a_v6_assign(tmp_path):
    x = param([2, 3], name="x")
    rv = make("opset3", "ReadValue", [x], {"variable_id": "v"}, "rv")
    asg = o6.assign(rv, variable(None, ov.Type.dynamic))
    asg.set_friendly_name("asg")
    m = ov.Model([o6.result(rv)], [asg], [x], "m")
    compare_file(saved(tmp_path, m), TYPES)


def test_random_declarations(tmp_path):
    rng = random.Random(9)
    dims = [2, 3, -1, (1, 4), (0, 8), (3, 9), 7]
    for n in range(40):
        rank = rng.randint(0, 3)
        init = None if rng.random() < 0.1 else [rng.choice(dims) for _ in range(rank)]
        var = None if rng.random() < 0.2 else [rng.choice(dims) for _ in range(rank)]
        var_et = rng.choice([ov.Type.f32, ov.Type.dynamic])
        try:
            m = state_model(init, np.float32, var, var_et)
        except RuntimeError:
            continue
        path = saved(tmp_path, m, f"m{n}")
        try:
            ov.Core().read_model(str(path))
        except RuntimeError:
            assert [f for f in validate_file(str(path)).findings if f.level == "error"]
            continue
        compare_file(path, TYPES)


@pytest.mark.parametrize("init,var,edits,words", [
    ([2, 3], [2, 3], dict(variable_shape="2,4"), "cannot hold"),
    ([(1, 4), 3], [5, 3], {}, "cannot hold"),
    ([2, 3], [2, 3], dict(variable_shape=""), "cannot hold"),
    ([2, 3], [2, 3], dict(variable_type="f16"), "has type f16"),
])
def test_read_value6_refusals(tmp_path, init, var, edits, words):
    path = saved(tmp_path, state_model(init, np.float32, None, ov.Type.dynamic))
    edits = dict({"variable_shape": ",".join(str(d) for d in var), "variable_type": "f32"}, **edits)
    path = edit_data(path, "rv", "edited", **edits)
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV102"]
    assert found and words in found[0].message and found[0].layer.name == "rv", found


@pytest.mark.parametrize("tail,words", [
    (lambda rv: o6.concat([rv, rv], 1), "does not fit"),
    (lambda rv: o6.relu(make("opset1", "Convert", [rv], {"destination_type": "f16"}, "cvt")),
     "is f32"),
])
def test_assign6_refusals(tmp_path, tail, words):
    """The Assign downstream of the ReadValue: the reader creates the ReadValue first, so the
    Assign is checked against the variable it declares."""
    var = variable(None, ov.Type.dynamic)
    x = param([2, 3], name="x")
    rv = o6.read_value(x, var)
    rv.set_friendly_name("rv")
    asg = o6.assign(tail(rv), var)
    asg.set_friendly_name("asg")
    path = saved(tmp_path, ov.Model([o6.result(rv)], [asg], [x], "m"))
    path = edit_data(path, "rv", "edited", variable_shape="2,3", variable_type="f32")
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV102"]
    assert found and words in found[0].message and found[0].layer.name == "asg", found


@pytest.mark.parametrize("init,var", [([(1, 4), 3], "2,3"), (None, "2,3")])
def test_what_may_be_known_better_upstream_is_not_refused(tmp_path, init, var):
    """The runtime refuses a variable [2,3] for an init [1..4,3] (or of dynamic rank); but
    irvalidate's init dims are wider than the runtime's wherever it knows less (a producer it
    does not model, a missing .bin), so it only refuses what cannot fit at all: here the
    file is refused by the runtime and irvalidate misses it, deliberately."""
    path = saved(tmp_path, state_model(init, np.float32, None, ov.Type.dynamic))
    path = edit_data(path, "rv", "edited", variable_shape=var, variable_type="f32")
    with pytest.raises(RuntimeError, match="relax"):
        ov.Core().read_model(str(path))
    assert not [f for f in validate_file(str(path)).findings
                if f.code == "IRV102" and f.layer.name == "rv"]


def test_an_assign_created_before_its_read_value_is_not_checked(tmp_path):
    """An Assign fed by a Parameter is created (after the Parameters) before the ReadValue
    that declares its variable: it sees a dynamic variable and any value passes."""
    var = variable(None, ov.Type.dynamic)
    x, y = param([2, 3], name="x"), param([2, 4], np.float16, name="y")
    rv = o6.read_value(x, var)
    rv.set_friendly_name("rv")
    asg = o6.assign(y, var)
    asg.set_friendly_name("asg")
    path = saved(tmp_path, ov.Model([o6.result(rv)], [asg], [x, y], "m"))
    compare_file(edit_data(path, "rv", "edited", variable_shape="2,3", variable_type="f32"), TYPES)


def test_read_values_of_one_variable_see_what_the_earlier_ones_declared(tmp_path):
    """rv1 declares f32 [?,3]; rv2 (created after it) declares only the id, so it outputs
    the variable rv1 left: [?,3], not its init's [2,3]."""
    var = variable([-1, 3], ov.Type.f32)
    x = param([2, 3], name="x")
    rv1 = o6.read_value(x, var)
    rv1.set_friendly_name("rv1")
    rv2 = o6.read_value(o6.relu(rv1), var)
    rv2.set_friendly_name("rv2")
    asg = o6.assign(rv2, var)
    path = saved(tmp_path, ov.Model([o6.result(rv2)], [asg], [x], "m"))
    path = edit_data(path, "rv2", "bare", variable_shape=None, variable_type=None)
    assert opcheck.runtime_shapes(path)["rv2"] == ["[?,3]"]
    compare_file(path, TYPES)
    # what rv2 declares itself wins: a dynamic rank written out is not left out
    path = edit_data(path, "rv2", "own", variable_shape="...")
    assert opcheck.runtime_shapes(path)["rv2"] == ["[...]"]
    assert opcheck.irvalidate_shapes(path)["rv2"]["outputs"][0]["inferred"] == "[...]"


def test_assign_without_a_read_value_of_its_id(tmp_path):
    path = saved(tmp_path, state_model([2, 3], np.float32, [2, 3], ov.Type.f32))
    path = edit_data(path, "asg", "other", variable_id="other")
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV102"]
    assert found and found[0].layer.name == "asg"


@pytest.mark.parametrize("layer", ["rv", "asg"])
def test_a_missing_variable_id_is_refused_not_tried(tmp_path, layer):
    """The reader crashes (segmentation fault) on these: irvalidate refuses them."""
    path = saved(tmp_path, state_model([2, 3], np.float32, [2, 3], ov.Type.f32))
    path = edit_data(path, layer, "noid", variable_id=None)
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV104"]
    assert found and "crashes" in found[0].message and found[0].layer.name == layer


@pytest.mark.parametrize("tail,words", [
    ("convert", "holds f32"), ("reshape", "does not have"), ("unrelated", "upstream"),
])
def test_assign3_refusals(tmp_path, tail, words):
    """Written by hand: the builders refuse these Assign-3 layers themselves."""
    ir = IR()
    x = ir.parameter("2,3")
    rv = ir.op("ReadValue", [x], [[2, 3]], {"variable_id": "v"}, version="opset3", name="rv")
    ir.result(rv)
    if tail == "convert":
        value = ir.op("Convert", [rv], [[2, 3]], {"destination_type": "f16"}, out_precision="FP16")
    elif tail == "reshape":
        value = ir.op("Reshape", [rv, ir.const([6])], [[6]], {"special_zero": "false"})
    else:
        value = ir.parameter("2,3")
    ir.op("Assign", [value], [[6] if tail == "reshape" else [2, 3]], {"variable_id": "v"},
          version="opset3", name="asg")
    path = ir.write(tmp_path)
    with pytest.raises(RuntimeError):
        ov.Core().read_model(str(path))
    found = [f for f in validate_file(str(path)).findings if f.code == "IRV102"]
    assert found and words in found[0].message and found[0].layer.name == "asg", found


def test_a_stale_declared_dim_names_the_layer(tmp_path):
    path = saved(tmp_path, state_model([2, 3], np.float32, [2, 3], ov.Type.f32))
    compare_file(path, TYPES)
    assert opcheck.named(opcheck.mutate(path, "rv", 0, 0, 5), "rv")


def test_a_key_value_cache_as_transformer_exports_write_it(tmp_path):
    """init = Broadcast(0, [batch, 8, 0, 128]) computed from input_ids' shape; the cache is
    read, extended along axis 2 and assigned back (as optimum-intel exports do)."""
    ids = param([-1, -1], np.int64, name="input_ids")
    new = param([-1, 8, -1, 128], name="new_kv")
    batch = o6.gather(o6.shape_of(ids), o6.constant(np.array([0], np.int64)),
                      o6.constant(np.array(0, np.int64)))
    target = o6.concat([batch] + [o6.constant(np.array([v], np.int64)) for v in (8, 0, 128)], 0)
    init = o6.broadcast(o6.constant(np.array(0, np.float32)), target)
    var = variable([-1, 8, -1, 128], ov.Type.f32, "past_key_values.0.key")
    rv = o6.read_value(init, var)
    rv.set_friendly_name("rv")
    joined = o6.concat([rv, new], 2)
    asg = o6.assign(joined, var)
    asg.set_friendly_name("asg")
    m = ov.Model([o6.result(joined)], [asg], [ids, new], "m")
    compare_file(saved(tmp_path, m), TYPES)
