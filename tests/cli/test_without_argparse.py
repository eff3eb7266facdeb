"""options.only_paths: a command line of paths alone is parsed without argparse, exactly as
the parser parses it (cli.py builds the parser for anything else)."""
import pytest

from irvalidate.cli.options import DEFAULTS, only_paths, parser

PATHS_ONLY = [
    ["m.xml"],
    ["a.xml", "models", "b.bin"],
    ["with space.xml", "", "x-y.xml", "=", "@args.txt"],  # "" and "@..." are paths to argparse too
    ["rules.xml", "explain"],
    ["m.xml", "m.xml"],
]
WITH_OPTIONS = [
    [],
    ["-"],
    ["-q", "m.xml"],
    ["m.xml", "--format", "json"],
    ["m.xml", "--"],
    ["--", "m.xml"],
    ["m.xml", "-j2"],
    ["-1.xml"],
]


def parse(argv):
    return vars(parser(lambda: "0").parse_args(argv))


@pytest.mark.parametrize("argv", PATHS_ONLY)
def test_paths_alone_parse_as_the_parser_parses_them(argv):
    fast = only_paths(argv)
    assert fast is not None and vars(fast) == parse(argv)
    assert fast.paths is not argv  # a list of its own, as argparse makes


@pytest.mark.parametrize("argv", WITH_OPTIONS)
def test_anything_else_goes_to_the_parser(argv):
    assert only_paths(argv) is None


def test_every_option_has_its_default():
    # a new option must be added to DEFAULTS, or paths alone would not see it
    assert {k: v for k, v in parse(["m.xml"]).items() if k != "paths"} == DEFAULTS
