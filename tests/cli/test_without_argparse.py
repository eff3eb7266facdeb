"""options.without_argparse: a command line of paths after a few plain options is parsed
without argparse, exactly as the parser parses it (cli.py builds the parser for anything
else)."""
import pytest

from irvalidate.cli.options import CHOICES, DEFAULTS, FLAGS, parser, without_argparse

PATHS_ONLY = [
    ["m.xml"],
    ["a.xml", "models", "b.bin"],
    ["with space.xml", "", "x-y.xml", "=", "@args.txt"],  # "" and "@..." are paths to argparse too
    ["rules.xml", "explain"],
    ["m.xml", "m.xml"],
]
PLAIN_OPTIONS = [
    *([flag, "m.xml"] for flag in FLAGS),
    *([option, choice.upper(), "m.xml"] for option, (_, choices) in CHOICES.items()
      for choice in choices),
    *([f"{option}={choice}", "m.xml"] for option, (_, choices) in CHOICES.items()
      for choice in choices),
    ["--skip-non-ir", "--force-exclude", "a.xml", "b.bin"],  # the hooks' entries
    ["--fix", "--exit-non-zero-on-fix", "--skip-non-ir", "--force-exclude", "a.xml"],
    ["--format", "json", "--format", "Sarif", "--color=never", "-v", "models"],  # last wins
    ["--respect-gitignore", "--no-respect-gitignore", "--diff", "--skip-non-ir", "rules"],
    ["--format", "github", "=", ""],  # "=" and "" are paths
    ["m.xml", "--format", "json"],  # options after the paths (benchmarks/run.py's order)
    ["a.xml", "b.xml", "--skip-non-ir", "--format=SARIF", "-v"],
    ["--skip-non-ir", "m.xml", "--force-exclude"],
]
WITH_OPTIONS = [
    [],
    ["-"],
    ["-q", "m.xml"],
    ["m.xml", "--"],
    ["a.xml", "--format", "json", "b.xml"],  # paths again after an option: the parser refuses
    ["--skip-non-ir", "a.xml", "-v", "b.xml"],
    ["--", "m.xml"],
    ["m.xml", "-j2"],
    ["-1.xml"],
    ["--skip-non-ir"],
    ["--format", "json"],
    ["--format"],
    ["--format", "bogus", "m.xml"],
    ["--format=", "m.xml"],
    ["--format", "--skip-non-ir", "m.xml"],
    ["--format", "json", "--", "m.xml"],
    ["--form", "json", "m.xml"],  # argparse takes the abbreviation: it parses this one
    ["--skip-non-ir=1", "m.xml"],
    ["--skip-non-ir", "m.xml", "-"],
    ["-vq", "m.xml"],
]


def parse(argv):
    return vars(parser(lambda: "0").parse_args(argv))


@pytest.mark.parametrize("argv", PATHS_ONLY + PLAIN_OPTIONS)
def test_plain_command_lines_parse_as_the_parser_parses_them(argv):
    fast = without_argparse(argv)
    assert fast is not None and vars(fast) == parse(argv)
    assert fast.paths is not argv  # a list of its own, as argparse makes


@pytest.mark.parametrize("argv", WITH_OPTIONS)
def test_anything_else_goes_to_the_parser(argv):
    assert without_argparse(argv) is None


def test_every_option_has_its_default():
    # a new option must be added to DEFAULTS, or a plain command line would not see it
    assert {k: v for k, v in parse(["m.xml"]).items() if k != "paths"} == DEFAULTS
