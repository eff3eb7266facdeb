"""The command line through main(argv): exit codes, discovery, formats."""
import subprocess
import sys

import pytest

from irvalidate.cli import main
from irbuilder import IR


def valid(tmp_path, stem="good"):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    return ir.write(tmp_path, stem)


def invalid(tmp_path, stem="bad"):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("4")
    ir.result(ir.op("Add", [x, y], [[2, 3]]))
    return ir.write(tmp_path, stem)


def test_exit_0_when_clean_and_prints_nothing(tmp_path, capsys):
    assert main([str(valid(tmp_path))]) == 0
    assert capsys.readouterr().out == ""


def test_exit_1_on_error_with_file_line_code(tmp_path, capsys):
    path = invalid(tmp_path)
    assert main([str(path)]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{path}:") and ": IRV102 " in first
    line = int(first[len(str(path)) + 1:].split(":")[0])
    assert "<layer id=\"2\"" in path.read_text().splitlines()[line - 1]


def test_text_output_draws_the_shape_table(tmp_path, capsys):
    main([str(invalid(tmp_path))])
    out = capsys.readouterr().out.splitlines()
    assert out[1].strip() == "A: (2, 3)" and out[2].strip() == "B: (   4)"
    assert out[3].strip() == "^" and out[3].index("^") == out[1].index("3")


def test_warnings_only_exit_0(tmp_path):
    ir = IR()
    x, y = ir.parameter("2,3"), ir.parameter("3")
    ir.result(ir.op("Add", [x, y], [[2, -1]]))
    assert main([str(ir.write(tmp_path))]) == 0


def test_exit_2_on_usage_errors(tmp_path, capsys):
    assert main([]) == 2
    assert main([str(tmp_path / "missing.xml")]) == 2
    assert main(["--format", "yaml", str(valid(tmp_path))]) == 2
    assert "no such file" in capsys.readouterr().err


def test_directory_scan_finds_ir_and_skips_other_xml(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    invalid(tmp_path / "sub")
    valid(tmp_path)
    (tmp_path / "pom.xml").write_text("<project/>")
    (tmp_path / "notes.txt").write_text("<net/>")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "bad.xml" in out and "pom.xml" not in out and "notes.txt" not in out


def test_bin_option(tmp_path):
    ir = IR()
    x = ir.parameter("3")
    ir.result(ir.op("Broadcast", [x, ir.const([2, 3])], [[2, 4]], {"mode": "numpy"}, version="opset3"))
    path = ir.write(tmp_path, "m")
    other = tmp_path / "weights.data"
    path.with_suffix(".bin").rename(other)
    assert main([str(path)]) == 0  # no .bin: rank only, a warning
    assert main(["--bin", str(other), str(path)]) == 1  # with it: [2,3] is not [2,4]
    assert main(["--bin", str(other), str(path), str(path)]) == 2


def test_python_dash_m_and_version():
    out = subprocess.run([sys.executable, "-m", "irvalidate", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith("irvalidate ")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_input_files_are_not_modified(tmp_path, fmt):
    path = invalid(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    main(["--format", fmt, str(path)])
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
