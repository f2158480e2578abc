"""Your release, interpreted: one differentially private release read through all five papers.

A *release* is a list of mechanisms run on the same data (each ``k`` times), its privacy unit, its neighbouring
relation, what it publishes outside the accounting (invariants), the priors of the adversaries the reader
wants to consider, and the failure probability δ′ of the disclosure statements.

* ``report.fields`` checks a release's fields (plain Python: refusals and ``--help`` come before NumPy);
* ``report.content`` builds the release from :mod:`dpsemantics.releases` mechanism objects and computes the
  report's content (:func:`~dpsemantics.report.interpret`, a dict of numbers: ``report.json``);
* ``report.gallery`` holds published releases with their sources (``--release NAME``);
* ``report.render`` writes Markdown, HTML, CSV and figures, with its own formatting;
* ``python -m dpsemantics.report`` is the command line.

The report imports nothing from ``dpsemantics.book``.  The heavy names below are imported on first use.
"""

from __future__ import annotations

# the fields and defaults are importable from here too (report.FIELDS), not listed in __all__ (documented in fields)
from .fields import DEFAULT_DELTA_PRIME, DEFAULT_PRIORS, FIELDS, MECHANISMS, ReleaseError  # noqa: F401

# The fields, their ranges and the defaults are documented where they are defined, dpsemantics.report.fields.
__all__ = ["ReleaseError", "parse_release", "from_parameters", "interpret"]

_LAZY = {"parse_release", "from_parameters", "interpret", "SCHEMA_VERSION", "build"}


def __getattr__(name):
    if name in _LAZY:
        from importlib import import_module

        module = import_module(".content", __name__)

        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
