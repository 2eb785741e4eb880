"""``pasang.__version__`` is the engine's version line, and the package
metadata carries the same version."""

import importlib.metadata
import re

import pasang


def test_the_version_names_the_release_and_the_commit():
    # "0.2.0 (1a2b3c4)", "0.2.0 (1a2b3c4-dirty)", or "0.2.0" from a build
    # without git (the sdist's).
    match = re.fullmatch(r"(\d+\.\d+\.\d+)(?: \(([0-9a-f]{7})(-dirty)?\))?", pasang.__version__)
    assert match, pasang.__version__
    assert match.group(1) == importlib.metadata.version("pasang")
