"""version.read: what importlib.metadata.version("irvalidate") says, read without it where
the METADATA file is plainly the one it would read."""
import importlib.metadata
import sys

import pytest

from irvalidate import version


@pytest.fixture
def fresh(monkeypatch):
    """read() uncached, with sys.path restored after the test."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    version.read.cache_clear()
    yield
    version.read.cache_clear()


def test_the_installed_version_is_the_one_importlib_metadata_reads(fresh):
    assert version.read() == importlib.metadata.version("irvalidate")
    assert version._from_metadata_file() == version.read()  # the fast way, here


def _installed(folder, name, text):
    info = folder / name
    info.mkdir(parents=True)
    (info / ("PKG-INFO" if name.endswith(".egg-info") else "METADATA")).write_text(text)
    return folder


METADATA = {
    "plain": ("irvalidate-9.8.7.dist-info", "Metadata-Version: 2.1\nName: irvalidate\n"
              "Version: 9.8.7\n\nVersion: 1.0 (in the body)\n"),
    "upper case folder": ("IRValidate-2.0.dist-info", "Name: irvalidate\nVersion: 2.0.dev3\n"),
    "egg-info": ("irvalidate.egg-info", "Name: irvalidate\nversion: 3.1+local.7\n"),
    "trailing blank": ("irvalidate-4.0.dist-info", "Name: irvalidate\nVersion: 4.0 \n"),
    "folded": ("irvalidate-5.0.dist-info", "Name: irvalidate\nVersion: 5.0\n  .1\n"),
    "no version": ("irvalidate-6.0.dist-info", "Name: irvalidate\n\nVersion: 6.0\n"),
    "windows lines": ("irvalidate-7.0.dist-info", "Name: irvalidate\r\nVersion: 7.0\r\n"),
    "another package first": ("irvalidate_extra-1.0.dist-info", "Version: 1.0\n"),
}


@pytest.mark.parametrize("case", sorted(METADATA))
def test_a_metadata_folder_first_on_the_path(case, fresh, tmp_path):
    name, text = METADATA[case]
    sys.path.insert(0, str(_installed(tmp_path, name, text)))
    assert version.read() == importlib.metadata.version("irvalidate")


def test_a_zip_on_the_path_is_left_to_importlib_metadata(fresh, tmp_path):
    (tmp_path / "packages.zip").write_bytes(b"not a zip")
    sys.path.insert(0, str(tmp_path / "packages.zip"))
    assert version._from_metadata_file() is None
    assert version.read() == importlib.metadata.version("irvalidate")
