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

The tests are laid out like the package (``test_the_unit_tests_mirror_the_modules``), so that the tests of a module
are found by its name: each test module under ``tests/unit`` is ``test_<module>.py`` or, for a module with several,
``<module>/test_<module>.py`` and ``<module>/test_<module>_<aspect>.py`` (the prefix keeps every test file's name
unique, as pytest's default import mode needs), ``<module>`` the last name of a module or subpackage of
``dpsemantics`` without its leading underscore (``test_binomial.py`` tests ``_binomial``); or it is one of the few
cross-cutting topics of :data:`CROSS_CUTTING`, each with its reason.
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


# ---------------------------------------------------------------------------------------------------------
# The tests' layout

UNIT_TESTS = Path(__file__).resolve().parent

#: Test modules of tests/unit that belong to no one module: a property held over the whole package, with the reason.
CROSS_CUTTING = {
    "test_accuracy.py": "the numerical core against 50-digit references at one bar (1e-9 relative) for every module",
    "test_environment.py": "the versions pinned in pyproject.toml and environment.yml: the environment, no module",
    "test_fuzz_numerics.py": "every public numeric function of every mathematical module under extreme inputs",
    "test_fuzz_pairs.py": "every public function with extremes in two parameters at once",
    "test_fuzz_surface.py": "every public function and object method with extremes in one parameter at a time",
    "test_layers.py": "the package's floors (which module may import which) and this layout",
    "test_return_types.py": "the one return type and broadcasting rule, over every public function",
    "test_outward_rounding.py": "the safe-side rule over every public function: the enumeration and its table "
                                "(direction and exact references, or the reason for an exemption)",
    "test_outward_rounding_rest.py": "the outward checks of the rows test_outward_rounding.py's table points at "
                                     "across composition, conversions, pld, disclosure and releases",
    "test_underflow.py": "values below the normal range, followed through every module the Gaussian's tails "
                         "pass (mechanisms, privacy_loss, conversions, pld, _rounding)",
}
#: Test modules another branch is still reorganising: the safe-direction test goes to the modules it checks or into
#: CROSS_CUTTING with a reason, and test_pld.py joins pld/.
PENDING = {"test_safe_direction.py", "test_pld.py"}


def module_names(package: Path = PACKAGE) -> set[str]:
    """The names a test module may carry: every module and subpackage of ``dpsemantics`` by its last name, without
    its leading underscore (``__main__`` and ``__init__`` name nothing)."""
    names = {path.stem for path in package.rglob("*.py") if not path.stem.startswith("__")}
    names |= {path.parent.name for path in package.rglob("__init__.py") if path.parent != package}
    return {name.lstrip("_") for name in names}


def layout_errors(files: list[str], modules: set[str]) -> list[str]:
    """The test modules (paths under tests/unit, as ``a/b.py``) that break the layout: a top-level
    ``test_<name>.py`` whose name is no module (nor :data:`CROSS_CUTTING`, :data:`PENDING`) or that stands beside
    its module's folder; in a folder, a folder named for no module or a file not named for its folder; deeper."""
    folders = {f.split("/")[0] for f in files if "/" in f}
    errors = []
    for f in files:
        parts = f.split("/")
        name = parts[-1]
        subject = name.removeprefix("test_").removesuffix(".py")
        if len(parts) == 1:
            if name in CROSS_CUTTING or name in PENDING:
                continue
            if subject not in modules:
                errors.append(f"{f}: names no module of dpsemantics (nor a topic of CROSS_CUTTING)")
            elif subject in folders:
                errors.append(f"{f}: beside the folder {subject}/ (one file or one folder per module)")
        elif len(parts) == 2:
            folder = parts[0]
            if folder not in modules:
                errors.append(f"{f}: the folder {folder}/ names no module of dpsemantics")
            elif subject != folder and not subject.startswith(folder + "_"):
                errors.append(f"{f}: in {folder}/ but not named test_{folder}.py or test_{folder}_<aspect>.py")
        else:
            errors.append(f"{f}: more than one folder deep")
    return errors


def test_the_unit_tests_mirror_the_modules():
    files = sorted(p.relative_to(UNIT_TESTS).as_posix() for p in UNIT_TESTS.rglob("test_*.py"))
    assert len(files) > 20
    assert not layout_errors(files, module_names())
    assert set(CROSS_CUTTING) <= set(files), "CROSS_CUTTING names a file that is gone"
    assert not {f.removeprefix("test_").removesuffix(".py") for f in CROSS_CUTTING} & module_names()


@pytest.mark.parametrize("files", [
    ["test_directed_profiles.py"],  # a topic that is no module
    ["test_semantic_directed.py"],  # a module's aspect at the top level
    ["test_semantic.py", "semantic/test_semantic_outward.py"],  # a file beside its module's folder
    ["semantic/test_disclosure_outward.py"],  # a file in another module's folder
    ["semantic/test_outward.py"],  # not prefixed by its folder
    ["outward/test_outward_semantic.py"],  # a folder that is no module
    ["semantic/outward/test_semantic_outward.py"],  # deeper
])
def test_the_layout_check_catches_each_break(files):
    assert layout_errors(files, module_names())
    fine = ["test_causal.py", "test_binomial.py", "test_notion_map.py", "test_accuracy.py", "report/test_report.py",
            "report/test_report_cli.py", "semantic/test_semantic_outward.py"]
    assert not layout_errors(fine, module_names())

