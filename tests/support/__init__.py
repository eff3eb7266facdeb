"""Helpers the tests share: IR builders, runtime oracles, model generators (imported as ``support``: pytest puts tests/ on the path, pyproject.tomls ``pythonpath``)."""
