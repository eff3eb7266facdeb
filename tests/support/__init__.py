"""Helpers the tests share: IR builders, runtime oracles, model generators (tests/ is on sys.path, conftest.py)."""
