"""Pure shape mathematics: dims and intervals, broadcasting rules, bounded integer values.

Imports nothing else of irvalidate.

    dims.py          dimensions as intervals, shapes, parsing and formatting them
    broadcasting.py  none/numpy/pdpd/bidirectional rules, and Broadcast's modes
    values.py        integer tensors with bounds (what shape subgraphs compute)
    bounds.py        arithmetic on those bounds, as OpenVINO's bound evaluation does it
"""
