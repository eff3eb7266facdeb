"""Edits touch only the text that must change, formatted like the file around it.

Each test writes a small IR by hand (spelling, quotes, indentation and line endings are the
point), asks irvalidate.fix for its edits, and compares the fixed bytes with the expected
bytes written out in full.
"""
import irvalidate

HEAD = '<?xml version="1.0"?>\n<net name="m" version="11">\n\t<layers>\n'
TAIL = ('\t</layers>\n\t<edges>\n'
        '\t\t<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>\n'
        '\t\t<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>\n'
        '\t</edges>\n</net>\n')


def relu_chain(x_port, relu_in, relu_out, result_in, shape="2,3", precision="FP32"):
    """Parameter -> ReLU -> Result, each port's text given as is."""
    return (HEAD
            + f'\t\t<layer id="0" name="x" type="Parameter" version="opset1">\n'
              f'\t\t\t<data shape="{shape}" element_type="f32"/>\n'
              f'\t\t\t<output>\n{x_port}\n\t\t\t</output>\n\t\t</layer>\n'
            + '\t\t<layer id="1" name="relu" type="ReLU" version="opset1">\n'
              f'\t\t\t<input>\n{relu_in}\n\t\t\t</input>\n'
              f'\t\t\t<output>\n{relu_out}\n\t\t\t</output>\n\t\t</layer>\n'
            + '\t\t<layer id="2" name="out" type="Result" version="opset1">\n'
              f'\t\t\t<input>\n{result_in}\n\t\t\t</input>\n\t\t</layer>\n'
            + TAIL)


def port(pid, dims, precision="FP32", indent="\t\t\t\t"):
    inner = "".join(f"{indent}\t<dim>{d}</dim>\n" for d in dims)
    return f'{indent}<port id="{pid}" precision="{precision}">\n{inner}{indent}</port>'


def fixed(tmp_path, text, newline="\n"):
    path = tmp_path / "m.xml"
    path.write_bytes(text.replace("\n", newline).encode())
    irvalidate.fix(path, write=True)
    return path.read_bytes().decode()


GOOD = [port(0, [2, 3]), port(0, [2, 3]), port(1, [2, 3]), port(0, [2, 3])]


def test_a_wrong_dim_changes_its_number_only(tmp_path):
    bad = GOOD[:2] + [port(1, [2, 4]), port(0, [2, 4])]
    assert fixed(tmp_path, relu_chain(*bad)) == relu_chain(*GOOD)


def test_line_endings_stay_crlf(tmp_path):
    bad = GOOD[:2] + [port(1, [2, 4]), port(0, [2, 4])]
    assert fixed(tmp_path, relu_chain(*bad), "\r\n") == relu_chain(*GOOD).replace("\n", "\r\n")


def test_a_missing_dim_is_added_like_its_neighbours(tmp_path):
    bad = GOOD[:2] + [port(1, [3]), port(0, [3])]
    assert fixed(tmp_path, relu_chain(*bad)) == relu_chain(*GOOD)


def test_an_extra_dim_is_removed_with_its_line(tmp_path):
    bad = GOOD[:2] + [port(1, [1, 2, 3]), port(0, [1, 2, 3])]
    assert fixed(tmp_path, relu_chain(*bad)) == relu_chain(*GOOD)


def test_dims_on_one_line_stay_on_one_line(tmp_path):
    one_line = '\t\t\t\t<port id="1" precision="FP32"><dim>2</dim><dim>3</dim></port>'
    bad = GOOD[:2] + ['\t\t\t\t<port id="1" precision="FP32"><dim>3</dim></port>', port(0, [3])]
    assert fixed(tmp_path, relu_chain(*bad)) == relu_chain(*GOOD[:2], one_line, GOOD[3])


def test_a_port_without_dims_gets_them_one_step_deeper(tmp_path):
    # a self-closing port (a scalar) where [2,3] is inferred
    bad = GOOD[:2] + ['\t\t\t\t<port id="1" precision="FP32"/>',
                      '\t\t\t\t<port id="0" precision="FP32"/>']
    assert fixed(tmp_path, relu_chain(*bad)) == relu_chain(*GOOD)


def test_a_port_written_open_and_closed_without_dims(tmp_path):
    bad = GOOD[:2] + ['\t\t\t\t<port id="1" precision="FP32">\n\t\t\t\t</port>',
                      '\t\t\t\t<port id="0" precision="FP32"></port>']
    good_out = GOOD[2]
    inline = ('\t\t\t\t<port id="0" precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n'
              '\t\t\t\t\t<dim>3</dim>\n\t\t\t\t</port>')
    assert fixed(tmp_path, relu_chain(*bad)) == relu_chain(*GOOD[:2], good_out, inline)


def test_a_precision_keeps_the_files_spelling(tmp_path):
    legacy = GOOD[:1] + [port(0, [2, 3], "FP16")] + GOOD[2:]
    assert fixed(tmp_path, relu_chain(*legacy)) == relu_chain(*GOOD)
    canonical = [port(0, [2, 3], "f32"), port(0, [2, 3], "f16"), port(1, [2, 3], "f32"),
                 port(0, [2, 3], "f32")]
    expected = [port(0, [2, 3], "f32")] * 2 + [port(1, [2, 3], "f32"), port(0, [2, 3], "f32")]
    assert fixed(tmp_path, relu_chain(*canonical)) == relu_chain(*expected)


def test_single_quotes_and_attribute_order_survive(tmp_path):
    odd = ("\t\t\t\t<port precision='FP32' id='1'>\n\t\t\t\t\t<dim>2</dim>\n"
           "\t\t\t\t\t<dim>9</dim>\n\t\t\t\t</port>")
    text = relu_chain(*GOOD[:2], odd, port(0, [2, 9]))
    assert fixed(tmp_path, text) == relu_chain(*GOOD[:2], odd.replace("9", "3"), GOOD[3])


def test_comments_and_entities_elsewhere_are_left_alone(tmp_path):
    bad = GOOD[:2] + [port(1, [2, 4]), port(0, [2, 4])]
    text = relu_chain(*bad).replace('name="relu"', 'name="r&amp;elu"').replace(
        "\t<edges>", "\t<!-- <dim>4</dim> stays -->\n\t<edges>")
    want = relu_chain(*GOOD).replace('name="relu"', 'name="r&amp;elu"').replace(
        "\t<edges>", "\t<!-- <dim>4</dim> stays -->\n\t<edges>")
    assert fixed(tmp_path, text) == want


def test_a_parameter_attribute_loses_to_its_port_and_graph(tmp_path):
    # shape="2,4" but the port and every layer after it say [2,3]: the attribute is stale
    text = relu_chain(*GOOD, shape="2,4")
    assert fixed(tmp_path, text) == relu_chain(*GOOD, shape="2,3")


def test_a_parameter_port_loses_to_its_attribute_and_graph(tmp_path):
    bad = [port(0, [2, 4]), port(0, [2, 4])] + GOOD[2:]
    assert fixed(tmp_path, relu_chain(*bad)) == relu_chain(*GOOD)


def test_edits_report_line_column_old_and_new(tmp_path):
    bad = GOOD[:2] + [port(1, [2, 4]), port(0, [2, 4])]
    path = tmp_path / "m.xml"
    path.write_text(relu_chain(*bad))
    edits = irvalidate.fix(path)
    lines = path.read_text().splitlines()
    assert [(e.old, e.new, e.rule, e.layer) for e in edits] == [("4", "3", "IRV101", "1")] * 2
    for e in edits:
        assert lines[e.line - 1][e.column - 1:e.end_column - 1] == "4"
    assert path.read_text() == relu_chain(*bad)  # write=False writes nothing


def test_a_comment_or_instruction_inside_an_edited_dim_is_kept(tmp_path):
    """Only the number's text changes: markup beside it in the ``<dim>`` stays."""
    def with_markup(dims):
        return port(1, dims).replace(f"<dim>{dims[1]}</dim>",
                                     f"<dim><!-- width -->{dims[1]}<?pi keep?></dim>")
    bad = GOOD[:2] + [with_markup([2, 4]), port(0, [2, 3])]
    assert fixed(tmp_path, relu_chain(*bad)) == relu_chain(*GOOD[:2], with_markup([2, 3]),
                                                          GOOD[3])
