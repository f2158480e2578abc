"""The package's floors, read from the source with ``ast`` (nothing is imported, so a lazy import inside a function
counts as much as one at the top):

* the mathematical modules (every module at the root of ``dpsemantics``) and the release report
  (``dpsemantics.report``) import nothing from the book's tooling, ``dpsemantics.book``;
* the mathematical modules import nothing from the claims registry, ``dpsemantics.claims`` (evidence sits on the
  mathematics, never under it);
* the four paper modules — disclosure, causal, notions, semantic — hold no evidence search: they import no optimiser
  from ``scipy.optimize`` and draw no random numbers (no ``numpy.random``, no ``random`` module, no ``default_rng``,
  no parameter named ``rng``).  Root finders (``brentq``, ``bisect``, …) compute a number defined by an equation to
  machine precision and are mathematics; an optimiser or a sampler looks for a case, which is evidence
  (``dpsemantics.claims.*_evidence``; the rule is stated in ``dpsemantics.claims``).

``test_the_checks_catch_each_marker`` feeds each rule a line that breaks it, so that none of them passes by
reading nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "lib" / "dpsemantics"
MATHEMATICS = sorted(PACKAGE.glob("*.py"))
REPORT = sorted((PACKAGE / "report").rglob("*.py"))
PAPER_MODULES = ("disclosure", "causal", "notions", "semantic")

#: scipy.optimize's root finders: a number defined by an equation, solved to machine precision.
ROOT_FINDERS = {"brentq", "brenth", "bisect", "ridder", "toms748", "newton", "root_scalar"}
#: (module, optimiser) pairs that are mathematics, with the reason: the optimiser chooses the free parameter of a
#: bound that is valid at every choice, so whatever it returns is a valid bound (it only tightens it).
ALLOWED_OPTIMISERS = {
    ("disclosure", "minimize_scalar"): "best_zcdp_pdp_epsilon: Theorem 3.9 after Theorem 2.7 holds at every split δ "
                                       "< δ′; the optimiser only picks the tightest (Kazan et al., Example 4.1)",
}


NUMPY = ("np", "numpy")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, module: str, *, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module a source imports, as absolute dotted names with their line, relative imports resolved against
    ``module`` (``from . import claims`` in ``dpsemantics.x`` gives ``dpsemantics.claims``), and string arguments of
    ``import_module`` and of ``dpsemantics._lazy.Lazy`` (a module imported on first use)."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            stem = ".".join(base + ([node.module] if node.module else []))
            found.append((node.lineno, stem))
            found += [(node.lineno, f"{stem}.{alias.name}") for alias in node.names]
        elif (isinstance(node, ast.Call)
              and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("import_module", "Lazy")
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            name = node.args[0].value
            if name.startswith("."):
                level = len(name) - len(name.lstrip("."))
                name = ".".join(package[: len(package) - level + 1] + [name.lstrip(".")])
            found.append((node.lineno, name))
    return found


def evidence_markers(source: str, module: str) -> list[str]:
    """The evidence markers of a source: optimisers of scipy.optimize (beyond :data:`ROOT_FINDERS` and
    :data:`ALLOWED_OPTIMISERS`), random number generators, parameters named ``rng``."""
    short = module.rsplit(".", 1)[-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and node.module == "scipy.optimize":
            found += [f"line {line}: imports the optimiser {a.name} from scipy.optimize" for a in node.names
                      if a.name not in ROOT_FINDERS and (short, a.name) not in ALLOWED_OPTIMISERS]
        elif (isinstance(node, ast.ImportFrom) and node.module == "scipy"
              and any(a.name == "optimize" for a in node.names)
              or isinstance(node, ast.Import) and any(a.name == "scipy.optimize" for a in node.names)):
            found.append(f"line {line}: imports scipy.optimize whole (name the root finder instead)")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"line {line}: imports {n}" for n in names if n == "random" or n.startswith("numpy.random")]
        elif isinstance(node, ast.Attribute) and node.attr == "random" and getattr(node.value, "id", "") in NUMPY:
            found.append(f"line {line}: uses numpy.random")
        elif getattr(node, "id", getattr(node, "attr", None)) == "default_rng":
            found.append(f"line {line}: uses default_rng")
        elif isinstance(node, ast.arg) and node.arg == "rng":
            found.append(f"line {line}: takes a random generator (parameter rng)")
    return found


def _violations(paths, forbidden: str):
    out = []
    for path in paths:
        module = _module_name(path)
        for line, name in imports(path.read_text(encoding="utf-8"), module, is_package=path.name == "__init__.py"):
            if name == forbidden or name.startswith(forbidden + "."):
                out.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}")
    return out


def test_the_layout_is_what_the_rules_name():
    names = {p.stem for p in MATHEMATICS}
    assert set(PAPER_MODULES) <= names and {"indistinguishability", "mechanisms", "conversions"} <= names
    assert not {"claims", "book", "report"} & names and REPORT


def test_report_and_mathematics_import_nothing_from_the_book():
    assert not _violations(MATHEMATICS + REPORT, "dpsemantics.book")


def test_mathematics_imports_nothing_from_the_claims():
    assert not _violations(MATHEMATICS, "dpsemantics.claims")


@pytest.mark.parametrize("name", PAPER_MODULES)
def test_paper_modules_hold_no_evidence_search(name):
    path = PACKAGE / f"{name}.py"
    assert not evidence_markers(path.read_text(encoding="utf-8"), f"dpsemantics.{name}")


@pytest.mark.parametrize("line, rule", [
    ("from .book import plotting", "book"),
    ("from . import book", "book"),
    ("from dpsemantics.book.toc import docnames", "book"),
    ("import_module('.book.render', 'dpsemantics')", "book"),
    ("plotting = Lazy('dpsemantics.book.plotting')", "book"),
    ("from .claims import registry", "claims"),
    ("from ..claims import ks", "claims"),
    ("from scipy.optimize import minimize", "evidence"),
    ("from scipy.optimize import brentq, linprog", "evidence"),
    ("import scipy.optimize", "evidence"),
    ("from scipy import optimize", "evidence"),
    ("rng = np.random.default_rng(0)", "evidence"),
    ("x = numpy.random.rand()", "evidence"),
    ("from numpy.random import default_rng", "evidence"),
    ("import random", "evidence"),
    ("def f(mechanism, rng):\n    return mechanism", "evidence"),
])
def test_the_checks_catch_each_marker(line, rule):
    """Each rule flags a line that breaks it (in a module at the root of the package, or one floor down for the
    ``..`` import), and passes the lines the paper modules may hold."""
    module = "dpsemantics.report.content" if line.startswith("from ..") else "dpsemantics.semantic"
    if rule == "evidence":
        assert evidence_markers(line, module)
    else:
        names = [n for _, n in imports(line, module)]
        assert any(n == f"dpsemantics.{rule}" or n.startswith(f"dpsemantics.{rule}.") for n in names), names
    for fine in ("from scipy.optimize import brentq", "from scipy.special import expit", "import numpy as np",
                 "from .mechanisms import FiniteMechanism", "x = np.random_thing"):
        assert not evidence_markers(fine, "dpsemantics.semantic"), fine
    assert evidence_markers("from scipy.optimize import minimize_scalar", "dpsemantics.semantic")
    assert not evidence_markers("from scipy.optimize import minimize_scalar", "dpsemantics.disclosure")
