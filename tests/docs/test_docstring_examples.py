"""Every public class and function carries a docstring with an example that runs as a doctest."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import croupier


def public_objects() -> list[tuple[str, object]]:
    """Module-level public classes and functions named in each module's ``__all__``."""
    found: list[tuple[str, object]] = []
    for info in pkgutil.walk_packages(croupier.__path__, prefix="croupier."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            defined_here = getattr(obj, "__module__", None) == module.__name__
            if defined_here and (inspect.isclass(obj) or inspect.isfunction(obj)):
                found.append((f"{module.__name__}.{name}", obj))
    return found


PUBLIC = public_objects()


def test_the_scan_finds_the_api() -> None:
    names = {name for name, _ in PUBLIC}
    assert "croupier.evaluation.evaluate.evaluate" in names
    assert "croupier.poker.state.HandState" in names
    assert len(PUBLIC) > 50


@pytest.mark.parametrize(("name", "obj"), PUBLIC, ids=[name for name, _ in PUBLIC])
def test_public_object_has_a_docstring_example(name: str, obj: object) -> None:
    doc = inspect.getdoc(obj) or ""
    module_doc = inspect.getdoc(importlib.import_module(name.rsplit(".", 1)[0])) or ""
    # an example may sit on the object itself, or (for small value types) in its module's
    # docstring when that example uses the object by name
    short = name.rsplit(".", 1)[1]
    assert ">>>" in doc or (">>>" in module_doc and short in module_doc), (
        f"{name} has no docstring example"
    )
