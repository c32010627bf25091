"""Lazy re-exports for package ``__init__`` modules (PEP 562 ``__getattr__`` and ``__dir__``).

A package names its heavy exports (the numba-backed math) and the submodule each comes from;
:func:`lazy_exports` returns the module-level ``__getattr__`` and ``__dir__`` that import a
submodule only when one of its names is first used, then keep the value in the package.

An export may not have the name of the submodule it comes from: the import system would bind
the *module* to that name on the package the moment the submodule loads, hiding the export.
(That is why the blackjack math lives in ``croupier.blackjack.math``: the function
``croupier.blackjack.simulate`` comes from ``croupier.blackjack.math.simulate``.)

>>> import sys, types
>>> pkg = types.ModuleType("demo_pkg")
>>> sys.modules["demo_pkg"] = pkg
>>> pkg.__getattr__, pkg.__dir__ = lazy_exports("demo_pkg", {"json": ("dumps", "loads")})
>>> pkg.dumps([1, 2])
'[1, 2]'
>>> "loads" in dir(pkg), "loads" in vars(pkg)
(True, False)
>>> pkg.nothing
Traceback (most recent call last):
...
AttributeError: module 'demo_pkg' has no attribute 'nothing'
>>> del sys.modules["demo_pkg"]
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, sources: Mapping[str, Iterable[str]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: each name of ``sources[submodule]`` is
    imported from ``submodule`` on first use.

    >>> import sys, types
    >>> pkg = sys.modules["demo_lazy"] = types.ModuleType("demo_lazy")
    >>> pkg.__getattr__, pkg.__dir__ = lazy_exports("demo_lazy", {"textwrap": ("dedent",)})
    >>> pkg.dedent("  x")
    'x'
    >>> del sys.modules["demo_lazy"]
    """
    module = sys.modules[package]
    origin = {name: source for source, names in sources.items() for name in names}
    shadowing = sorted(name for name, source in origin.items() if source == f"{package}.{name}")
    if shadowing:
        raise ValueError(f"{package}: exports named like their submodule: {shadowing}")

    def __getattr__(name: str) -> Any:  # noqa: N807  (the PEP 562 hook)
        source = origin.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        vars(module)[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(set(vars(module)) | set(origin))

    return __getattr__, __dir__
