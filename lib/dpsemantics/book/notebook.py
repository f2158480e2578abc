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
- :func:`table` shows rows as a Markdown table, every number through :func:`dpsemantics.book.number`,
  numbered and captioned when given a caption; :func:`quantities` shows named results so (a reader sees
  a table, never a dict's repr).
- :func:`number` (re-exported) makes the text of a number glued into a sentence: ``10⁻⁶``, not ``1e-06``.
- :func:`install_spec` is what a chapter's first cell installs when ``dpsemantics`` is missing: the
  book's release, pinned — from the repository named in ``pyproject.toml`` (``[project.urls]
  Repository``) when there is one, else from the package index.  ``tests/e2e/test_fresh_environment.py``
  keeps the chapters' first cells equal to it and runs them in a fresh virtual environment.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .render import as_real, captioned, number, prose
from .toc import ROOT, release

__all__ = ["glue", "number", "quantities", "table", "table_markdown", "install_spec", "plain", "use_reader_numbers"]


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


def table_markdown(header, rows, *, digits: int = 4, caption: str | None = None, name: str | None = None) -> str:
    """``rows`` under ``header`` as Markdown: numbers through :func:`number` (to ``digits`` significant digits),
    booleans as "yes"/"no", infinity as ∞, text through :func:`dpsemantics.book.prose` (superscripts for
    ``e^{ε}``, ``|`` escaped).  With a ``caption``, a numbered table (MyST's ``{table}`` directive in a colon
    fence, "Table 2.3")
    that ``name`` (e.g. ``tbl-intro-group``) lets the prose cite with ``{numref}``."""

    def cell(x):
        x = plain(x)
        if isinstance(x, bool):
            return "yes" if x else "no"
        real = as_real(x)
        if real is not None:
            return ("−∞" if real < 0 else "∞") if isinstance(real, float) and np.isinf(real) else number(real, digits)
        if isinstance(x, (tuple, list)):
            return ", ".join(cell(v) for v in x)
        return prose(x)

    lines = ["| " + " | ".join(prose(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    if caption is None:
        return "\n".join(lines)
    # a colon fence: the caption may hold code (`prog_A`), whose backticks a backtick fence's info string cannot
    return "\n".join(captioned(prose(caption), lines, name))


def table(header, rows, *, digits: int = 4, caption: str | None = None, name: str | None = None):
    """Show ``rows`` under ``header`` as a Markdown table (:func:`table_markdown`), numbered when it has a
    ``caption``."""
    from IPython.display import Markdown, display

    display(Markdown(table_markdown(header, rows, digits=digits, caption=caption, name=name)))


def quantities(caption: str, values: dict, *, header=("quantity", "value"), digits: int = 4, name: str | None = None,
               check=None):
    """Show named results (``{"ε of Definition 1": 0.5, ...}``) as a numbered, captioned two-column table,
    not as a dict's repr; a nested dict becomes one row per inner key (``outer: inner``).

    ``check`` (an exercise's :class:`~dpsemantics.book.coursework.CheckResult`) adds one row per part of the
    answer checked: the answer's variable set as code and the verdict in words ("right: within 0.001 …"), so an
    exercise solution shows its numbers and its check in one table, never a printed ``[ok] eps_group``."""
    rows = []
    for key, value in values.items():
        if isinstance(value, dict):
            rows += [[f"{key}: {inner}", v] for inner, v in value.items()]
        else:
            rows.append([key, value])
    if check is not None:
        rows += [[f"check of `{part.name}`", f"{'right' if part.ok else 'not yet'}: {part.feedback}"]
                 for part in check.parts]
    table(list(header), rows, digits=digits, caption=caption, name=name)


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
