"""What a chapter notebook needs besides the mathematics: glue, tables and the first cell's installer.

A chapter runs in three places: in the book's build (myst-nb present), in a reader's Jupyter, and in a
fresh Python opened from a launch button (Colab, Binder) that has only pip.  So:

- :func:`glue` hands a value to the prose (``{glue:text}``) as a plain Python number, never a NumPy
  scalar, with all its digits (``repr``), so that the prose formats it once, from the unrounded value:
  ``{glue:text}`x:.6f``` of 0.1000190 is ``0.100019``, not ``0.100000`` padded from a 4-digit text; a
  glue without a format is written by :func:`dpsemantics.book.number` at build time
  (:mod:`dpsemantics.book.sphinx_extras`).  Without myst-nb it does nothing (there is no prose to fill),
  and shows the value if asked to.
- :func:`use_reader_numbers` makes every number a cell shows (alone or inside a dict, tuple or list) print
  through :func:`dpsemantics.book.number`: ``0.7``, not ``0.7000000000000003`` or ``np.float64(0.7)``.
- :func:`table` shows rows as a Markdown table, every number through :func:`dpsemantics.book.number`.
- :func:`number` (re-exported) makes the text of a number glued into a sentence: ``10⁻⁶``, not ``1e-06``.
- :func:`install_spec` is what a chapter's first cell installs when ``dpsemantics`` is missing: the
  book's release, pinned — from the repository named in ``pyproject.toml`` (``[project.urls]
  Repository``) when there is one, else from the package index.  ``tests/test_fresh_environment.py``
  keeps the chapters' first cells equal to it and runs them in a fresh virtual environment.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .render import as_real, number, prose
from .toc import ROOT, release

__all__ = ["glue", "number", "table", "install_spec", "plain", "use_reader_numbers"]


def plain(value):
    """NumPy scalars and 0-d arrays as Python ``int``/``float``/``bool``; anything else unchanged."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, np.generic):
        return value.item()
    return value


class _ExactFloat(float):
    """A float whose plain text is its ``repr`` (all its digits), whatever :func:`use_reader_numbers` set for
    floats: IPython's printer takes a class's own ``_repr_pretty_`` before the printers registered for
    its bases."""

    def _repr_pretty_(self, p, cycle):
        p.text(repr(float(self)))


def glue(name: str, value, display: bool = True):
    """myst-nb's ``glue`` for a value shown in the prose, as a plain Python value, a float with all its
    digits (see the module's docstring).

    Without myst-nb (a fresh Python, e.g. Colab) nothing is glued; with ``display=True`` the value is
    still shown as the cell's output."""
    value = plain(value)
    if isinstance(value, float) and not isinstance(value, bool):
        value = _ExactFloat(value)
    try:
        from myst_nb import glue as myst_glue
    except ImportError:
        if display:
            from IPython.display import display as show

            show(value)
        return None
    return myst_glue(name, value, display=display)


def table(header, rows, *, digits: int = 4):
    """Show ``rows`` under ``header`` as a Markdown table; numbers through :func:`number`, text through
    :func:`dpsemantics.book.prose` (superscripts for ``e^{ε}``, ``|`` escaped)."""
    from IPython.display import Markdown, display

    def cell(x):
        return number(x, digits) if as_real(x) is not None else prose(plain(x))

    lines = ["| " + " | ".join(prose(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    display(Markdown("\n".join(lines)))


def install_spec(root: Path = ROOT) -> str:
    """The pip requirement a chapter's first cell installs when the package is missing: the book's
    release, from its repository's tag ``v<version>`` if ``pyproject.toml`` names a repository, else
    ``dpsemantics==<version>`` from the package index (see :func:`dpsemantics.book.toc.release`)."""
    info = release(root)
    if info["repository"]:
        return f"dpsemantics @ git+{info['repository']}@v{info['version']}"
    return f"dpsemantics=={info['version']}"


def use_reader_numbers(digits: int = 4) -> None:
    """Print every float a cell's result shows through :func:`number` (``digits`` significant digits), also
    inside dicts, tuples and lists; NumPy scalars print as plain numbers.  Outside IPython it does nothing."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    formatter = shell.display_formatter.formatters["text/plain"]

    def printer(value, p, cycle):
        p.text(number(plain(value), digits))

    # IPython looks a printer up along the type's MRO and stops at the first class defining __repr__, which
    # every NumPy scalar type does: register the concrete types, not np.floating.
    for kind in (float, np.float16, np.float32, np.float64, np.longdouble, np.int8, np.int16, np.int32, np.int64,
                 np.uint8, np.uint16, np.uint32, np.uint64):
        formatter.for_type(kind, printer)
    formatter.for_type(np.bool_, lambda value, p, cycle: p.text(str(bool(value))))
