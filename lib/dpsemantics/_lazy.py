"""A module, or one name of a module, imported the first time it is used.

:mod:`dpsemantics.releases` declares the mechanisms (their fields, ranges and help), and the release report reads
those declarations to answer ``--help`` and refuse bad input before NumPy and SciPy are loaded.  The numerical
modules behind the mechanisms' answers are therefore bound there through :class:`Lazy` and imported when the first
answer is computed.  A ``Lazy`` forwards attribute access and calls; it is not the class itself (no ``isinstance``
or ``except`` on it).
"""

from __future__ import annotations

import importlib


class Lazy:
    """``module`` (a dotted name), or its attribute ``name``, imported on first use."""

    __slots__ = ("_module", "_name")

    def __init__(self, module: str, name: str | None = None):
        self._module, self._name = module, name

    def _target(self):
        module = importlib.import_module(self._module)
        return module if self._name is None else getattr(module, self._name)

    def __getattr__(self, attribute):
        return getattr(self._target(), attribute)

    def __call__(self, *args, **kwargs):
        return self._target()(*args, **kwargs)

    def __repr__(self):
        return f"<lazy {self._module}{'' if self._name is None else '.' + self._name}>"
