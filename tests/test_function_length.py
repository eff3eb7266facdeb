"""No function in irvalidate/ is longer than MAX_LINES (issue 25: small functions a newcomer
can read).  Counted from the ``def`` line (decorators left out) to the function's last line,
docstring and comments included; a nested function counts within its parent too."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "irvalidate"
MAX_LINES = 60


def long_functions(root: Path = PACKAGE, limit: int = MAX_LINES) -> list:
    """``path:line name (n lines)`` for each function of ``root`` longer than ``limit``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > limit:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} "
                                 f"({length} lines)")
    return found


def test_no_function_is_longer_than_60_lines():
    assert long_functions() == []


def test_the_count_finds_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n\n\ndef short():\n    pass\n")
    assert long_functions(tmp_path) == [f"{tmp_path.name}/long.py:1 long ({MAX_LINES + 1} lines)"]
