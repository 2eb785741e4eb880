"""The type stubs name everything the extension has, and the package is
marked typed."""

import inspect
import pathlib
import re

import pasang
from pasang import _pasang


def test_the_stub_names_every_public_name_of_the_extension():
    folder = pathlib.Path(pasang.__file__).parent
    assert (folder / "py.typed").exists()
    stub = (folder / "_pasang.pyi").read_text()
    declared = set(re.findall(r"^(?:class|def) (\w+)|^(\w+):", stub, re.M))
    names = {name for pair in declared for name in pair if name}
    for name in dir(_pasang):
        if name.startswith("_"):
            continue
        assert name in names, "{} is missing from _pasang.pyi".format(name)
        value = getattr(_pasang, name)
        if inspect.isclass(value) and not issubclass(value, Exception):
            for member in dir(value):
                if member.startswith("_") and member not in ("_repr_svg_",):
                    continue
                assert re.search(r"def {}\(".format(member), stub), "{}.{} is missing from _pasang.pyi".format(name, member)
