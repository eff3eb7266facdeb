"""Which files a run checks: the paths given, and the IR files found under directories."""
from __future__ import annotations

import os
from typing import List, Sequence


def files_under(path: str, skip_non_ir: bool = False) -> List[str]:
    """A file as given (unless ``skip_non_ir`` and its root is not ``<net>``); a directory's
    ``*.xml`` files whose root is ``<net>`` or that are not well-formed, in a stable order."""
    from .parser import sniff_root
    if not os.path.isdir(path):
        # a well-formed file whose root is not <net> (pom.xml, an .svg) is skipped; a broken
        # one is not, so the hook still reports a truncated IR
        if skip_non_ir and sniff_root(path) not in ("net", None):
            return []
        return [path]
    found = []
    for folder, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith(".xml"):
                candidate = os.path.join(folder, name)
                # other well-formed XML is skipped; an .xml that does not even parse to its
                # root is reported, or a broken model would pass a CI scan silently
                if sniff_root(candidate) in ("net", None):
                    found.append(candidate)
    return found


def find(paths: Sequence[str], skip_non_ir: bool = False) -> List[str]:
    """The files to check, in the order given."""
    return [f for p in paths for f in files_under(p, skip_non_ir)]
