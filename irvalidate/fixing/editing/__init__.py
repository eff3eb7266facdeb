"""Editing a file's text for --diff and --fix, byte for byte.

    spans.py    the changes a fix asks for, as replacements of the file's own bytes
    planner.py  one round of fixes: replacements, duplicates merged, conflicts left out
    ledger.py   edits over several rounds, kept in the original file's coordinates
    diff.py     a unified diff that ``git apply`` accepts
"""
