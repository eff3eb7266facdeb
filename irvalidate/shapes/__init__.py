"""Pure shape mathematics: dims and intervals, broadcasting rules, bounded integer values.

Imports nothing else of irvalidate.

    dims.py          dimensions as intervals, shapes, parsing and formatting them
    arith.py         arithmetic on dims as OpenVINO's Dimension does it
    broadcasting.py  none/numpy/pdpd/bidirectional rules, and Broadcast's modes
    windows.py       convolution and pooling windows, with the runtime's integer semantics
    values.py        integer tensors with bounds (what shape subgraphs compute)
    bounds.py        arithmetic on those bounds, as OpenVINO's bound evaluation does it
    sizeset.py       eventually periodic sets of sizes, and the contract that describes one
    symbolic.py      expressions over input-dim symbols, conditions, and the exact solver
"""
