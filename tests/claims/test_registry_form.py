"""The papers' claim modules are registries, not evidence engines (CONTRIBUTING: "a paper's claims").

Each ``claims/<paper>.py`` holds data only: no function or class definitions (searches, LPs, certificates and
witnesses live in the paper's ``*_evidence`` module or in ``certify``), every ``Claim(...)`` call with keyword
arguments only, the not-checked statements (where a paper has some) under the one name ``UNCHECKED``, and at
most 600 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dpsemantics.claims import PAPERS

CLAIMS_DIR = Path(__file__).resolve().parents[2] / "lib" / "dpsemantics" / "claims"
MAX_LINES = 600


def _tree(paper):
    return ast.parse((CLAIMS_DIR / f"{paper}.py").read_text(encoding="utf-8"))


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_registry_is_short(paper):
    lines = (CLAIMS_DIR / f"{paper}.py").read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"claims/{paper}.py has {lines} lines (> {MAX_LINES}): move evidence out"


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_registry_defines_no_functions(paper):
    defined = [n.name for n in ast.walk(_tree(paper))
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    assert not defined, f"claims/{paper}.py defines {defined}: they belong in its evidence module or certify"


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_one_claim_form(paper):
    tree = _tree(paper)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "Claim"]
    assert calls, f"claims/{paper}.py makes no Claim(...)"
    for call in calls:
        assert not call.args, f"claims/{paper}.py line {call.lineno}: Claim(...) with positional arguments"
        names = {k.arg for k in call.keywords}
        assert None not in names, f"claims/{paper}.py line {call.lineno}: Claim(**...) hides its fields"
        assert {"id", "paper", "where", "statement", "printed", "compute"} <= names, (
            f"claims/{paper}.py line {call.lineno}: a required field is missing")


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_one_not_checked_name(paper):
    targets = {t.id for n in _tree(paper).body if isinstance(n, ast.Assign) for t in n.targets
               if isinstance(t, ast.Name)}
    assert "CLAIMS" in targets
    other = {t for t in targets if "CHECKED" in t} - {"UNCHECKED"}
    assert not other, f"claims/{paper}.py names its not-checked list {other}, not UNCHECKED"


def test_every_claim_comes_from_a_keyword_call():
    """The registry's claims are the modules' Claim(...) calls: no claim is rewritten after its definition."""
    import importlib

    for paper in PAPERS:
        module = importlib.import_module(f"dpsemantics.claims.{paper}")
        source = (CLAIMS_DIR / f"{paper}.py").read_text(encoding="utf-8")
        assert "replace(" not in source, f"claims/{paper}.py rewrites claims after defining them"
        assert all(c.paper == paper for c in module.CLAIMS)
