"""``inspect``'s text: read at a glance, the inputs and outputs first (the contract), then
the layers, weights, producer and rt_info in a line each.  Everything taken from the file
is printed with its control characters escaped (``reporting.names.printed``); the JSON
document has all of it, this the part a person reads.
"""
from __future__ import annotations

from ..reporting.names import printed, shown_path

#: the layer types named on the layers line (the JSON counts them all)
SHOWN_TYPES = 8
#: rt_info keys shown: those about layout and preprocessing
_RT_INFO_WORDS = ("layout", "preprocess", "mean_value", "scale_value", "reverse_input_channels",
                  "resize", "color")
#: an rt_info value longer than this is cut in the text
SHOWN_VALUE = 60


def render(found: dict) -> str:
    """One file's summary (``inspect.summary``'s dict), its path first."""
    lines = [shown_path(found["file"]) + _headline(found)]
    lines += _table("inputs", found["inputs"])
    lines += _table("outputs", found["outputs"])
    lines += [printed(line) for line in _summary(found)]
    return "\n".join(lines) + "\n"


def _headline(found: dict) -> str:
    version = f"IR v{found['ir_version']}" if found["ir_version"] is not None else "IR"
    said = ", ".join(f"{k} {v}" for k, v in found["producer"].items())
    return printed(f": {version}" + (f", {said}" if said else ""))


def _table(title: str, tensors: list[dict]) -> list[str]:
    """A header and a row per tensor (index, names, type, shape, layout), then its axes."""
    if not tensors:
        return [f"  {title}: none"]
    rows = [("#", "names", "type", "shape", "layout")]
    rows += [(str(t["index"]), ", ".join(n.replace(",", "\\,") for n in t["names"])
              or f"(no name; layer {t['layer']})",
              t["element_type"], t["shape_text"], t["layout"] or "-") for t in tensors]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [f"  {title}:"]
    for row, tensor in zip(rows, [None, *tensors]):
        cells = [cell.ljust(width) for cell, width in zip(row, widths)] + [row[4]]
        lines.append(printed("    " + "  ".join(cells).rstrip()))
        shown = {k: v for k, v in (tensor or {}).get("rt_info", {}).items() if k != "layout"}
        if shown:  # (the layout has its column)
            lines.append(printed("        rt_info: " + ", ".join(f"{k}={v}" if v else k
                                                               for k, v in shown.items())))
        if tensor is not None and tensor["axes"]:
            lines += [printed(f"        axis {a['axis']}: {_sizes(a)}") for a in tensor["axes"]]
    return lines


def _size(count: int) -> str:
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}B"
    return f"{count} B"


def _summary(found: dict) -> list[str]:
    layers = found["layers"]
    total = sum(row["count"] for row in layers)
    types = ", ".join(f"{row['type']} {row['count']:,}" for row in layers[:SHOWN_TYPES])
    more = len(layers) - SHOWN_TYPES
    lines = [f"  layers: {total:,} ({types}{f' and {more} more' if more > 0 else ''})",
             "  opsets: " + ", ".join(sorted({row["opset"] for row in layers}))]
    if found["weights"]:
        lines.append("  weights: " + ", ".join(
            f"{row['element_type']} {row['elements']:,} ({_size(row['bytes'])})"
            for row in found["weights"]))
    if found["compression"]:
        lines.append("  compressed: " + ", ".join(
            f"{row['element_type']} {100 * row['share']:.1f}%" for row in found["compression"])
            + " of the weight elements (Convert -> Subtract -> Multiply)")
    if found["extensions"]:
        lines.append("  extension ops: " + ", ".join(found["extensions"]))
    shown = {k: v for k, v in found["rt_info"].items()
             if any(word in k.lower() for word in _RT_INFO_WORDS)}
    for key, value in shown.items():
        cut = value if len(value) <= SHOWN_VALUE else value[:SHOWN_VALUE - 3] + "..."
        lines.append(f"  rt_info {key}: {cut}")
    if found["bin_bytes"] is not None:
        lines.append(f"  .bin: {found['bin_bytes']:,} bytes")
    if not found["reshapeable"]:
        lines.append("  reshapeable axes: not computed (--reshapeable always computes them)")
    return lines


def _sizes(axis: dict) -> str:
    """An axis's sizes as reshapeable says them; a superset says so."""
    from ..reshaping.constraints import described  # (not cheap: only where axes are shown)
    if axis["exact"] or axis.get("residues"):
        return described(axis)
    return f"not exact, at most: {described(axis)}"
