"""Checking files: the rules over every graph of a file, streaming, ``-j N`` workers, root causes."""
