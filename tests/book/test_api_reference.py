"""The API reference and the links between results and code (dpsemantics.book.api_usage, api_reference).

The build itself (strict, nitpicky) proves that every link resolves; these tests check what it cannot: that
every theorem box says which code computes it, that the usage index finds what a chapter calls, and that
the docstring escaping leaves literals alone.
"""

from __future__ import annotations

import json
import re

import pytest

from dpsemantics import book, claims
from dpsemantics.book.api_reference import (API_MODULES, api_page, docstring_for_page, documented_objects,
                                             public_names)
from dpsemantics.book.api_usage import calls_by_section, heading_text, resolve

BOX = re.compile(r"^```\{prf:(?!proof\})(\w+)\}[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
# The margin note that carries a box's links to its code and checks: immediately before the box, nothing but blank
# lines between (it floats beside the box; the API reference's "Stated in" reads it there).
MARGIN_BEFORE = re.compile(r"^```\{margin\}[^\n]*\n(.*?)^```\s*\n\s*\Z", re.MULTILINE | re.DOTALL)
CODE_ROLE = re.compile(r"\{py:(?:func|class|data)\}`~?([\w.]+)`")
CLAIM_ROLE = re.compile(r"\{claim\}`([^`]+)`")


def _boxes():
    for path in book.chapter_notebooks():
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for m in BOX.finditer(text):
            label = re.search(r"^:label: (\S+)", m.group(2), re.MULTILINE)
            before = text[max(0, m.start() - 2000):m.start()]
            margins = [mm for mm in re.finditer(r"^```\{margin\}", before, re.MULTILINE)]
            margin = MARGIN_BEFORE.search(before[margins[-1].start():]) if margins else None
            yield (path.stem, (label.group(1) if label else m.group(0)[:60]), m.group(2),
                   margin.group(1) if margin else "")


BOXES = list(_boxes())


def test_every_chapter_with_results_has_boxes():
    assert len(BOXES) >= 60  # 68 when written; a parser that finds none would pass the tests below vacuously
    assert {chapter for chapter, _, _, _ in BOXES} >= {"intro", "semantic-privacy", "privacy-notions", "causal-view",
                                                    "disclosure-risk"}


@pytest.mark.parametrize("chapter,label,body,margin", BOXES, ids=[label for _, label, _, _ in BOXES])
def test_every_theorem_box_links_to_the_code_that_computes_it(chapter, label, body, margin):
    assert not re.search(r"^Computed by ", body, re.MULTILINE), (
        f"{chapter}: box {label} has its 'Computed by' line in its text; it goes in the margin note before the box")
    footer = [line for line in margin.splitlines() if line.startswith("Computed by ")]
    assert footer, f"{chapter}: box {label} has no margin note before it with a 'Computed by …' line"
    targets = CODE_ROLE.findall(footer[-1])
    assert targets, f"{chapter}: box {label}: 'Computed by' names no {{py:func}}/{{py:class}} target"
    unknown = [t for t in targets if t not in documented_objects()]
    assert not unknown, f"{chapter}: box {label} links to objects the API reference does not document: {unknown}"


def test_claim_links_in_chapters_name_registered_claims():
    ids = {c.id for c in claims.registry()}
    for path in book.chapter_notebooks():
        for claim_id in CLAIM_ROLE.findall(path.read_text(encoding="utf-8")):
            assert claim_id in ids, f"{path.name}: {{claim}}`{claim_id}` is not in the registry"


def test_every_api_module_has_a_page_in_the_table_of_contents():
    pages = set(book.docnames())
    for module in API_MODULES:
        assert api_page(module) in pages
        page = (book.ROOT / f"{api_page(module)}.md").read_text(encoding="utf-8")
        assert f".. automodule:: dpsemantics.{module}" in page and f".. api-summary:: dpsemantics.{module}" in page


def test_public_names_are_importable_and_documented():
    import importlib
    import inspect

    for module in API_MODULES:
        mod = importlib.import_module(f"dpsemantics.{module}")
        for name in public_names(mod):
            obj = getattr(mod, name)  # an __all__ entry that does not exist fails here
            if inspect.isfunction(obj) or inspect.isclass(obj):
                assert inspect.getdoc(obj), f"dpsemantics.{module}.{name} has no docstring"


def test_usage_follows_every_import_form(tmp_path):
    cells = [
        {"cell_type": "markdown", "source": ["# Chapter\n"]},
        {"cell_type": "code", "source": ["try:\n    import dpsemantics\nexcept ImportError:\n    %pip install x\n",
                                         "from dpsemantics import semantic as S, disclosure\n",
                                         "from dpsemantics.conversions import pdp_epsilon\n",
                                         "import dpsemantics.composition as C\n"]},
        {"cell_type": "markdown", "source": ["Text.\n", "```python\n", "# not a heading\n", "```\n",
                                             "## Pure DP: $\\varepsilon$ and Smith’s `games`\n"]},
        {"cell_type": "code", "source": ["g = S.games(m, b, t).posteriors\n", "disclosure.posterior_bounds(0.5, 1)\n",
                                         "pdp_epsilon(1, 0, 0.1)\n", "C.basic_epsilon(1, 2)\n",
                                         "dpsemantics.mechanisms.laplace_delta(1, 1, 1)\n", "other.games(1)\n"]},
    ]
    path = tmp_path / "chapter.ipynb"
    path.write_text(json.dumps({"cells": cells}))
    usage = calls_by_section(path)
    section = "Pure DP: \\varepsilon and Smith's games"
    for dotted in ("dpsemantics.semantic.games", "dpsemantics.disclosure.posterior_bounds",
                   "dpsemantics.composition.basic_epsilon", "dpsemantics.mechanisms.laplace_delta"):
        assert usage[dotted] == [section], dotted
    assert usage["dpsemantics.conversions.pdp_epsilon"] == ["Chapter", section]  # imported, then called
    assert not any(k.endswith(".games") and not k.startswith("dpsemantics") for k in usage)
    documented = documented_objects()
    assert resolve("dpsemantics.semantic.games.posteriors", documented) == "dpsemantics.semantic.games"
    assert resolve("dpsemantics.semantic", documented) is None


def test_a_cell_that_is_not_python_is_an_error(tmp_path):
    path = tmp_path / "broken.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["def f(:\n"]}]}))
    with pytest.raises(ValueError, match="not valid Python"):
        calls_by_section(path)


def test_every_chapter_calls_the_package():
    documented = documented_objects()
    for path in book.chapter_notebooks():
        used = {resolve(k, documented) for k in calls_by_section(path)} - {None}
        assert len(used) >= 2, f"{path.name}: the usage index finds only {sorted(used)}"


def test_heading_text_matches_docutils_titles():
    assert heading_text("The `g(b)` function and *Smith’s* “bound”") == "The g(b) function and Smith's \"bound\""


def test_docstring_math_for_the_page_outside_literals_only():
    assert docstring_for_page(["|Z| ≤ e^{−ε} and ``|x|`` stays", "Pr[A | B] Σ_{x_U} π"]) == [
        "\\|Z\\| ≤ e\\ :dps-sup:`−ε`\\  and ``|x|`` stays", "Pr[A \\| B] Σ\\ :dps-sub:`x<sub>U</sub>`\\  π"]
    # reST roles do not nest: the book's script role carries the inner script and builds nested nodes
    assert docstring_for_page(["δ_{e^ε}"]) == ["δ\\ :dps-sub:`e<sup>ε</sup>`\\ "]


def test_docstring_bare_indices_and_names_for_the_page():
    """Issue 25: the API pages showed δ_g, x_i, ε_rr and prog_status as plain text."""
    text = "(gε, δ_g)-DP for x_i, ε_rr; prog_status, delta_prime, prog_𝒜 and :func:`notion_map.x_y`"
    assert docstring_for_page([text]) == [
        "(gε, δ\\ :dps-sub:`g`\\ )-DP for x\\ :dps-sub:`i`\\ , ε\\ :dps-sub:`rr`\\ ; ``prog_status``, ``delta_prime``, "
        "``prog_𝒜`` and :func:`notion_map.x_y`"]


def test_docstring_primed_and_braced_indices_for_the_page():
    """Kazan et al.'s Z′_i and x_{−i}: a primed base takes its index, and a braced index is one script, not a bare
    index "{" followed by text (disclosure.posterior_from_privacy_loss showed x{−i} and Z′_i)."""
    assert docstring_for_page(["Z′_i = PrivLoss(M(x_{−i}) ‖ M(x))"]) == [
        "Z′\\ :dps-sub:`i`\\  = PrivLoss(M(x\\ :dps-sub:`−i`\\ ) ‖ M(x))"]


def test_script_role_nests():
    from docutils import nodes

    from dpsemantics.book.api_reference import script_role

    [node], _ = script_role("dps-sub", "", "x<sub>U</sub>, e<sup>jε</sup>", 0, None)
    assert isinstance(node, nodes.subscript) and node.astext() == "xU, ejε"
    assert [type(c) for c in node.children] == [nodes.Text, nodes.subscript, nodes.Text, nodes.superscript]


def _reader_text(lines: list[str]) -> str:
    """What a reader reads of a docstring as :func:`docstring_for_page` writes it, parsed by docutils with the book's
    script roles: the text outside code (literals, literal blocks, doctests, cross-reference roles)."""
    from docutils import nodes
    from docutils.core import publish_doctree
    from docutils.parsers.rst import roles

    from dpsemantics.book.api_reference import script_role

    text = "\n".join(lines)
    for name in set(re.findall(r":([\w:.-]+):`", text)):
        roles.register_local_role(name, script_role if name.startswith("dps-") else
                                  lambda role, raw, t, *a, **k: ([nodes.literal(raw, t)], []))
    tree = publish_doctree(text, settings_overrides={"report_level": 5, "halt_level": 5})
    code = (nodes.literal, nodes.literal_block, nodes.doctest_block, nodes.system_message, nodes.problematic)
    return " ".join(t.astext() for t in tree.findall(nodes.Text)
                    if not any(isinstance(a, code) for a in _ancestors(t)))


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def test_no_bare_index_left_in_the_api_docstrings():
    """Every docstring of the documented modules, as the API pages show it, has no index typed as plain text (the
    browser test's pattern) outside code, so the API pages need no exemption from the bare-index check."""
    import inspect
    from importlib import import_module

    from dpsemantics.book.api_reference import API_MODULES

    pattern = re.compile(r"[A-Za-z\u0370-\u03ff][\u0300-\u036f]?_[^\s_.,;:!?)\]}'\"<]")
    found = []
    for name in API_MODULES:
        module = import_module(f"dpsemantics.{name}")
        objects = [module] + [getattr(module, n) for n in getattr(module, "__all__", [])]
        objects += [m for o in objects if inspect.isclass(o) for _, m in inspect.getmembers(o)
                    if (inspect.isfunction(m) or isinstance(m, property)) and not _.startswith("_")]
        for obj in objects:
            text = _reader_text(docstring_for_page((inspect.getdoc(obj) or "").splitlines()))
            found += [f"{name}: …{text[max(0, m.start() - 40):m.end() + 20]}…" for m in pattern.finditer(text)]
    assert not found, "\n".join(found[:20])


def test_docstring_code_stays_as_written():
    """A literal block (after ``::``) and a doctest are code: no roles or literals are put into them; a literal that
    runs over a line break stays one literal."""
    lines = ["Typical use::", "", "    pld = PLD.laplace(eps0).self_compose(k)  # x_i", "", "Then x_i.",
             ">>> f(x_i)", "a ``P[Y|x_i]/", "P[Y|x̄_i]`` b"]
    assert docstring_for_page(lines) == ["Typical use::", "", "    pld = PLD.laplace(eps0).self_compose(k)  # x_i", "",
                                         "Then x\\ :dps-sub:`i`\\ .", ">>> f(x_i)", "a ``P[Y|x_i]/", "P[Y|x̄_i]`` b"]


def test_the_margin_parser_takes_only_a_note_just_before_the_box():
    note = "```{margin} Code and checks\nComputed by {py:func}`~dpsemantics.disclosure.posterior_bounds`.\n```\n"
    assert "Computed by" in MARGIN_BEFORE.search(note + "\n").group(1)
    assert MARGIN_BEFORE.search(note + "\nA paragraph between the note and the box.\n") is None
