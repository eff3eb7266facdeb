"""Package data: the opset tables, the extensions' types and the IR schema."""


def data_path(name: str) -> str:
    """The path of one of the package's data files.  (Not importlib.resources: importing it
    costs ~10 ms, a tenth of a small file's start-up, and the package is installed as
    files.)"""
    import os
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
