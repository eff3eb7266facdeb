"""The runtime side of the reshape tests, on its own: the oracle gives the verdicts the
SmartReshape note records (these pass without irvalidate's reshape; if one fails, the
runtime changed or the oracle is wrong, and the differential tests cannot be trusted)."""
from __future__ import annotations

import pytest

pytest.importorskip("openvino")  # the helpers below build and read models with it
from support.cases import CASE_BY_NAME
from support.runtime_oracle import (
    case_files,
    cli_spec,
    named_node,
    partial_shape,
    runtime_reinfer,
    runtime_reshape,
    shape_text,
)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return case_files(tmp_path_factory.mktemp("oracle"),
                      {name: case.build for name, case in CASE_BY_NAME.items()})


# (case, request, Model.reshape verdict: Result shapes or the node named, plain re-inference's)
EXPECTED = [
    ("cnn_flatten_matmul", [4, 3, 16, 16], {"logits": "[4,10]"}, "flatten"),
    ("cnn_flatten_matmul", "1..8,3,16,16", {"logits": "[1..8,10]"}, {"logits": "[1,10]"}),
    ("cnn_flatten_matmul", [1, 3, 32, 32], {"logits": "[4,10]"}, "flatten"),
    ("cnn_flatten_two_consumers", [4, 3, 16, 16], "flatten", "flatten"),
    ("cnn_flatten_transposed_weights", [4, 3, 16, 16], {"logits": "[4,10]"}, "flatten"),
    ("reshape_b_matmul", [4, 8, 8], {"out": "[10,4]"}, "to_col"),
    ("flatten_1d", "1..4,3,8,8", {"scores_out": "[256..1024]"}, {"scores_out": "[256]"}),
    ("flatten_rank3", [4, 3, 16, 16], "to_seq", "to_seq"),
    ("hrnet_16177", [1, 3, 512, 928], "/Add", "/Add"),
    ("hrnet_16177", [1, 3, 256, 256], {"heatmaps": "[1,17,128,128]"}, {"heatmaps": "[1,17,128,128]"}),
    ("ss_then_squeeze", [4, 3, 8], {"out": "[7,8]"}, "cat"),
    ("squeeze_then_ss", [4, 3, 8], {"out": "[7,8]"}, "cat"),
    ("squeeze_two_consumers", [4, 3, 8], "cat", "cat"),
    ("interpolate_sizes", [1, 4, 20, 20], "merge", "merge"),
    ("broadcast_const_target", [4, 16, 8], "add", "add"),
    ("vit_position_embedding", [1, 3, 64, 64], "embeddings/add", "embeddings/add"),
    ("bert_position_ids", [1, 256], {"out": "[1,256]"}, "pos_broadcast"),
    ("bert_position_ids", "1,1..512", {"out": "[1,?]"}, {"out": "[1,128]"}),
    ("bert_position_ids_512", [1, 1024], "pos_broadcast", "pos_broadcast"),
    ("quartznet_8612", [1, 64, 1120], "output", "output"),
    ("anomalib_18724", [6, 100, 32, 32], "/anomaly_map_generator/Reshape", "/anomaly_map_generator/Reshape"),
    ("reshape_sinking", [1, 20, 32], {"out": "[1,16,8]"}, "to3d"),
    ("reshape_sinking_row_bias", [4, 16, 32], "bias", "bias"),
    ("shared_flattens", [4, 8, 8], "flat_k", "flat_k"),
    ("shared_flattens_distinct", [4, 8, 8], {"q": "[4,10]", "k": "[4,10]"}, "k_proj"),
    ("lstm_cell_const_states", "1..8,16", {"h": "[1..8,32]", "c": "[1..8,32]"}, {"h": "[1,32]", "c": "[1,32]"}),
    ("lstm_ti_const_states", [4, 5, 16], {"y": "[4,5,32]"}, "lstm_cell_in_ti"),
    ("lstm_sequence_const_states", [4, 5, 16], "lstm_seq", "lstm_seq"),
    ("dynamic_input_flatten", "?,8,8", {"out": "[?,10]"}, {"out": "[1,10]"}),
    ("two_inputs", {"a": [4, 2048]}, "cat", "cat"),
    ("tensor_names_differ", {"x_param": [1, 3, 9, 9]}, {"y": "[1,4,9,9]"}, {"y": "[1,4,9,9]"}),
    ("tensor_names_differ", {"/model/x:0": "?,3,?,?"}, {"y": "[?,4,1..,1..]"}, {"y": "[?,4,1..,1..]"}),
]


@pytest.mark.parametrize("name,request_,smart_expected,plain_expected", EXPECTED,
                         ids=[f"{e[0]}-{cli_spec(e[1])}" for e in EXPECTED])
def test_runtime_verdicts(files, name, request_, smart_expected, plain_expected):
    path = files(name)
    for fn, expected in ((runtime_reshape, smart_expected), (runtime_reinfer, plain_expected)):
        v = fn(path, request_)
        if isinstance(expected, dict):
            assert v.works and v.outputs == expected, (fn.__name__, v)
        else:
            assert not v.works and v.node == expected, (fn.__name__, v.node, v.message)


def test_a_failed_reshape_leaves_the_file_alone(files):
    """Each verdict reads the file afresh: a refused request does not change the next one."""
    path = files("cnn_flatten_two_consumers")
    assert not runtime_reshape(path, [4, 3, 16, 16]).works
    assert runtime_reshape(path, [1, 3, 16, 16]).outputs == {"logits": "[1,10]", "features": "[1,512]"}


def test_layer_names_are_not_tensor_names_for_model_reshape(files):
    """Why the oracle maps names itself: Model.reshape refuses a Parameter's layer name."""
    from support.runtime_oracle import read
    model = read(files("tensor_names_differ"))
    with pytest.raises(RuntimeError, match="Input for tensor name 'x_param' is not found"):
        model.reshape({"x_param": [1, 3, 9, 9]})


def test_named_node_parses_the_innermost_name():
    msg = ("Check 'x' failed at a.hpp:1:\nWhile validating node 'opset1::Add a (b) -> (c)' with "
           "friendly_name 'a/b c':\nShape inference input shapes {[1]}\nboom")
    assert named_node(msg) == "a/b c"
    assert named_node("Check 'compatible_shape' failed at read_value.cpp:80:\nno node") is None


@pytest.mark.parametrize("given,printed", [
    ([4, (1, 8), -1], "[4,1..8,?]"), ("1,3..5,?", "[1,3..5,?]"), ("[..8,2..]", "[..8,2..]"),
    ([], "[]"), ([(None, 8), (2, None)], "[..8,2..]"), ("-1,4", "[?,4]")])
def test_shape_forms(given, printed):
    assert shape_text(given) == printed
    assert str(partial_shape(given)) == printed


def test_cli_spec_forms():
    assert cli_spec({"a": [1, 2048], "b": "?,2048"}) == "a[1,2048],b[?,2048]"
    assert cli_spec([4, (1, 8), -1]) == "[4,1..8,?]"
    assert cli_spec([]) == "[]"


def test_the_named_node_type_is_found_inside_bodies(files):
    v = runtime_reinfer(files("lstm_ti_const_states"), [4, 5, 16])
    assert (v.node, v.node_type) == ("lstm_cell_in_ti", "LSTMCell")


def test_a_name_read_model_makes_up_is_not_a_file_layer():
    """read_model renames the CTCGreedyDecoder layer 'decode' of an IR v10 file (it reads as
    'CTCGreedyDecoder_N', N changing with every read), so the runtime can name a node the file
    does not have; the oracle then compares by the node's type."""
    from test_wild_corpus_reshape import CORPUS

    from support.runtime_oracle import file_layer_names
    found = sorted(CORPUS.glob("*/license-plate-recognition-barrier-0001__FP16__*.xml"))
    if not found:
        pytest.skip(f"no license-plate-recognition-barrier-0001 in {CORPUS}")
    path = found[0]
    v = runtime_reshape(path, {"seq_ind": [2, 1], "data": [2, 3, 24, 94]})
    assert not v.works and v.node_type == "CTCGreedyDecoder"
    assert v.node.startswith("CTCGreedyDecoder_") and v.node not in file_layer_names(path)
    assert "decode" in file_layer_names(path)


def test_the_runtime_changes_ranks(files):
    """Model.reshape takes a request of another rank (the contract refuses it as a usage
    error, so no differential case asks one)."""
    v = runtime_reshape(files("cnn_flatten_matmul"), [3, 16, 16])
    assert not v.works and v.node == "feat/conv"  # Convolution refuses rank 3, not the request
    v = runtime_reshape(files("scalar_input"), [1])
    assert v.works and v.outputs == {"out": "[3]"}
