"""How the tests call the runtime, where a slip costs the whole session's time rather than a
failure: every ``convert_model`` goes through ``support.opcheck.convert``, with CI=true.
The converter's telemetry is a process-wide singleton that the first call makes; one call
outside CI makes it send from threads on every later call, and the tests after it ran 10-25
times slower (tests/reshaping/test_onnx_models.py's conversions: 19 s alone, 285 s after
one bare ``ov.convert_model`` in tests/ops/test_if_bodies.py)."""
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
HELPER = TESTS / "support" / "opcheck.py"


def bare_conversions(text: str) -> list[str]:
    """The lines of a module that call the converter itself (not through the helper)."""
    return [line.strip() for line in text.splitlines()
            if re.search(r"\bconvert_model\s*\(", line) and not line.lstrip().startswith("#")]


def test_the_helper_is_found_calling_the_converter():
    assert bare_conversions(HELPER.read_text()) == ["return ov.convert_model(str(source))"]
    assert bare_conversions("model = ov.convert_model(path)") == ["model = ov.convert_model(path)"]
    assert bare_conversions("model = convert(path)  # not convert_model") == []


def test_every_conversion_goes_through_the_helper():
    found = {str(path.relative_to(TESTS)): lines for path in sorted(TESTS.rglob("*.py"))
             if path not in (HELPER, Path(__file__).resolve())
             and (lines := bare_conversions(path.read_text()))}
    assert not found, f"call support.opcheck.convert instead: {found}"
