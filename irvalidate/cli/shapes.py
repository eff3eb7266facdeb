"""``irvalidate shapes PATH...``: what irvalidate believes every layer produces (a folder:
every IR file the check would find in it).

For every layer (nested bodies included), each output port's inferred shape next to the one
the file declares, and whether an op of irvalidate models the layer (or refused it, and why).  Shapes are written as
OpenVINO prints a PartialShape (``[1,3..5,?]``, ``[...]`` for a dynamic rank, ``[]`` for a
scalar); an output no op infers has no inferred shape (``null`` in JSON, ``-`` in text).
The differential tests read this to compare irvalidate with ``read_model`` layer by layer.

JSON: ``{"files": [{"path", "layers": [{"id", "name", "type", "scope", "modelled",
"refused", "outputs": [{"port", "inferred", "declared", "consistent"}]}]}]}``; ``consistent`` says
whether the declared dims could be how a port writes the inferred shape (a port writes -1
for any dim that is not static), null when nothing was inferred.  ``refused`` is why an op
refused the layer (as the runtime would), else null; a layer no op models is not refused.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from ..analysis import GraphAnalysis, analyse
from ..engine.validation import default_bin
from ..ir.reader import parse
from ..ir.records import Graph, declared_shape
from ..ir.weights import BinFile
from ..reporting.names import display_path, line_start, printed, printed_lines, shown_path
from ..shapes.dims import Shape, format_shape
from .options import one_line_parser


def _text(shape: Shape | None, known: bool) -> str | None:
    return format_shape(shape, elide=False) if known else None


def _as_port(shape: Shape) -> tuple | None:
    """How a port would write the shape: static dims as themselves, any other as -1."""
    return None if shape is None else tuple(d.lo if d.is_static else -1 for d in shape)


def layers_of(path: str, bin_path: str | None = None, reshape: Sequence | None = None,
              smart: bool = True) -> list[dict]:
    """One entry per layer, in file order, the model's layers first, then each body's.

    With ``reshape`` (requests, see reshape_spec): every layer, bodies included, as the
    what-if infers it (the declarations describe the old shapes: ``consistent`` is null);
    UsageError when the requests do not fit."""
    if reshape is None:
        doc = parse(path)
        if doc.fatal:
            raise ValueError(doc.fatal[0].message)
        weights = BinFile(bin_path) if bin_path else BinFile(
            default_bin(path), os.path.dirname(os.path.abspath(path)))
        graphs = doc.graphs()
        analyses: Sequence[GraphAnalysis | None] = analyse(graphs, weights)
    else:  # the what-if reads the file itself: it is parsed once
        from ..reshaping.run import reshape_file
        result = reshape_file(path, reshape, smart, bin_path=bin_path)
        if result.reshape is None or result.reshape.run is None:
            raise ValueError(result.findings[0].message if result.findings
                             else "the file could not be analysed")
        run = result.reshape.run
        graphs = run.graphs or [run.after.graph]
        # a body no outer layer reached in the what-if (its outer layer not modelled) has
        # no analysis there: its layers are listed with nothing inferred
        analyses = [run.after, *[run.bodies_after.get(id(g)) for g in graphs[1:]]]
    rows = []
    for graph, analysis in zip(graphs, analyses):
        rows += _rows(graph, analysis, reshape is None)
    return rows


def _rows(graph: Graph, analysis: GraphAnalysis | None, compared: bool) -> list[dict]:
    """One graph's layers (``analysis`` None: not analysed, so nothing is inferred)."""
    rows = []
    outputs = analysis.propagation.outputs if analysis is not None else {}
    for layer in graph.layers:
        inferred = analysis.inferences.get(layer.id) if analysis is not None else None
        source = analysis is not None and layer.type.lower() in ("parameter", "const", "constant")
        modelled = source or (inferred is not None and inferred.outputs is not None)
        rows.append({
            "id": layer.id, "name": layer.name, "type": layer.type, "scope": graph.scope,
            "modelled": modelled, "refused": _refusal(inferred),
            "outputs": [_output(port, outputs.get((layer.id, port.id)), modelled, compared)
                        for port in layer.outputs],
        })
    return rows


def _refusal(inferred) -> str | None:
    """Why the layer's op refused it (the runtime would refuse the file there), or None: a
    layer refused is modelled, and its inference stopped on the last problem it noted."""
    if inferred is None or inferred.outputs is not None or not inferred.problems:
        return None
    return inferred.problems[-1].message


def _output(port, value, modelled: bool, compared: bool = True) -> dict:
    shape = None if value is None else value.shape
    known = modelled and value is not None
    return {"port": port.id, "inferred": _text(shape, known),
            "declared": format_shape(declared_shape(port), elide=False) if port.readable else None,
            # a port writes -1 for any dim that is not static: compare what it could write
            "consistent": None if not known or not port.readable or not compared else
            (shape is None or _as_port(shape) == tuple(port.dims) or
             (len(shape) == len(port.dims) and all(
                 d == -1 or s.contains(d) for s, d in zip(shape, port.dims))))}


def _table(rows: list[dict]) -> str:
    lines = []
    for row in rows:
        where = f" [in {row['scope']}]" if row["scope"] else ""
        mark = "" if row["modelled"] else \
            f"  (refused: {row['refused']}; declared dims passed on)" if row["refused"] else \
            "  (not modelled: declared dims passed on)"
        # the type and names are the file's: escaped, and the type starts the line
        lines.append(line_start(row["type"]) +
                     printed(f" '{row['name']}' (id={row['id']}){where}{mark}"))
        for out in row["outputs"]:
            inferred = out["inferred"] if out["inferred"] is not None else "-"
            differs = "   <- the declaration contradicts it" if out["consistent"] is False else ""
            lines.append(f"    port {out['port']}: inferred {inferred}, declared "
                         f"{out['declared']}{differs}")
    return "\n".join(lines) + ("\n" if lines else "")


def file_arguments(parser) -> None:
    """What ``shapes``, ``reshapeable`` and ``inspect`` take alike: the files or folders,
    ``--format text|json`` and ``--bin``."""
    parser.add_argument("files", nargs="+", metavar="PATH", help="IR .xml files, or folders "
                        "holding them (found as the check finds them)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--bin", metavar="PATH", help="the weights file (one IR only)")


def run(argv: Sequence[str]) -> int:
    """``argv`` starts with ``shapes``."""
    parser = one_line_parser(prog="irvalidate shapes", description="Show the output "
                                     "shapes irvalidate infers for every layer, beside the "
                                     "declared ones.")
    file_arguments(parser)
    parser.add_argument("--reshape", metavar="SPEC", action="append",
                        help="infer with these input shapes (see irvalidate --help)")
    parser.add_argument("--no-smart-reshape", action="store_true",
                        help="with --reshape: without SmartReshape's rewrites")
    args = parse_args(parser, argv)
    if isinstance(args, int):
        return args
    requests = None
    if args.reshape:
        from ..reshaping.spec import SpecError, parse_all
        try:
            requests = parse_all(args.reshape)
        except SpecError as err:
            print(f"irvalidate: error: --reshape {err}", file=sys.stderr)
            return 2
    files = ir_files(args.files, args.bin)
    if isinstance(files, int):
        return files
    return report_files(files, args.format, "layers",
                        lambda path: layers_of(path, args.bin, requests, not args.no_smart_reshape),
                        lambda path, rows: f"{shown_path(path)}\n{_table(rows)}")


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str]):
    """The subcommand's arguments, or its exit status (0 for --help, 2 for a usage error)."""
    try:
        return parser.parse_args(argv[1:])
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2


def parsed_files(parser: argparse.ArgumentParser, argv: Sequence[str]
                 ) -> tuple[argparse.Namespace, list[str]] | int:
    """A per-file subcommand's arguments and its IR files (``parse_args``, ``ir_files``), or
    its exit status."""
    args = parse_args(parser, argv)
    if isinstance(args, int):
        return args
    files = ir_files(args.files, args.bin)
    return files if isinstance(files, int) else (args, files)


def ir_files(paths: Sequence[str], bin_path: str | None = None) -> list[str] | int:
    """The IR files a per-file subcommand works on: the files named and those found under
    the folders named, as the check finds them (``files.discovery``: its exclusions, the
    nearest configuration's); or exit status 2, said on standard error (no IR file found,
    a .bin without its .xml, ``--bin`` with other than one IR file)."""
    from ..files.discovery import DiscoveryError, find
    from ..files.hierarchy import Resolver
    from ..settings.config import ConfigError
    try:
        files = find(paths, Resolver())
    except (DiscoveryError, ConfigError) as err:
        print(printed_lines(f"irvalidate: error: {err}"), file=sys.stderr)
        return 2
    if not files:
        print(f"irvalidate: no IR files found under {', '.join(shown_path(p) for p in paths)}",
              file=sys.stderr)
        return 2
    if bin_path is not None and len(files) != 1:
        print("irvalidate: error: --bin needs exactly one IR file", file=sys.stderr)
        return 2
    if bin_path is not None and (os.path.isdir(bin_path) or not os.path.exists(bin_path)):
        reason = "is a directory, not a file" if os.path.isdir(bin_path) else "no such file"
        print(printed_lines(f"irvalidate: error: --bin {bin_path}: {reason}"), file=sys.stderr)
        return 2
    return files


def report_files(paths: Sequence[str], fmt: str, key: str, work: Callable[[str], list],
                 text: Callable[[str, list], str]) -> int:
    """What a per-file subcommand (``shapes``, ``reshapeable``) prints: ``work`` on every
    file, as JSON ``{"files": [{"path", key: rows}]}`` or as ``text``; exit 2 at the first
    file that cannot be read (a usage error of a what-if is a ValueError too)."""
    found: dict[str, list] = {}
    for path in paths:
        try:
            found[path] = work(path)
        except (OSError, ValueError) as err:
            print(printed_lines(f"irvalidate: error: {display_path(path)}: {err}"),
                  file=sys.stderr)
            return 2
    from .output import write_stdout
    if fmt == "json":
        document = {"files": [{"path": display_path(p), key: rows} for p, rows in found.items()]}
        write_stdout(json.dumps(document, indent=1) + "\n", json_document=True)
    else:
        write_stdout("".join(text(p, rows) for p, rows in found.items()))
    return 0
