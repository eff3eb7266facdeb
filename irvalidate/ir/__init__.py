"""Reading IR files, with no inference.

    records.py   the parsed IR: layers, ports, edges, bodies, with source lines
    parser.py    the streaming lxml parser (no entities, no DTD, no network)
    schema.py    the structural check against schemas/ir.rng (RELAX NG)
    weights.py   the .bin: Const specs, integer constants decoded range by range
    elements.py  element types and precisions
    opsets.py    which types each opset of OpenVINO 2026.4 has; extension ops
    locate.py    exact lines where libxml2 lost them, found when a finding needs one
    lfs.py       Git LFS pointers in place of files
"""
