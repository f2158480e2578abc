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
from dpsemantics.book.api_reference import (API_MODULES, docstring_for_page, documented_objects, first_sentence,
                                             public_names)
from dpsemantics.book.api_usage import calls_by_section, heading_text, resolve

BOX = re.compile(r"^```\{prf:(?!proof\})(\w+)\}[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
CODE_ROLE = re.compile(r"\{py:(?:func|class|data)\}`~?([\w.]+)`")
CLAIM_ROLE = re.compile(r"\{claim\}`([^`]+)`")


def _boxes():
    for path in book.chapter_notebooks():
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for m in BOX.finditer(text):
            label = re.search(r"^:label: (\S+)", m.group(2), re.MULTILINE)
            yield path.stem, (label.group(1) if label else m.group(0)[:60]), m.group(2)


BOXES = list(_boxes())


def test_every_chapter_with_results_has_boxes():
    assert len(BOXES) >= 60  # 68 when written; a parser that finds none would pass the tests below vacuously
    assert {chapter for chapter, _, _ in BOXES} >= {"intro", "semantic-privacy", "privacy-notions", "causal-view",
                                                    "disclosure-risk"}


@pytest.mark.parametrize("chapter,label,body", BOXES, ids=[label for _, label, _ in BOXES])
def test_every_theorem_box_links_to_the_code_that_computes_it(chapter, label, body):
    footer = [line for line in body.splitlines() if line.startswith("Computed by ")]
    assert footer, f"{chapter}: box {label} has no 'Computed by …' line linking to the package"
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
        assert f"book/api/{module}" in pages
        page = (book.ROOT / "book" / "api" / f"{module}.md").read_text(encoding="utf-8")
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
        "\\|Z\\| ≤ e\\ :sup:`−ε`\\  and ``|x|`` stays", "Pr[A \\| B] Σ\\ :sub:`x_U`\\  π"]
    # roles do not nest in reST: the inner one stays text
    assert docstring_for_page(["δ_{e^ε}"]) == ["δ\\ :sub:`e^ε`\\ "]


def test_docstring_numbers_for_the_page_in_a_readers_form_outside_literals():
    assert docstring_for_page(["relative error below 1e-12, δ down to 1e-300 and ε₀ from 2.5e-4;",
                               "``tol=1e-12`` stays, as do names like x1e5."]) == [
        "relative error below 10⁻¹², δ down to 10⁻³⁰⁰ and ε₀ from 2.5×10⁻⁴;",
        "``tol=1e-12`` stays, as do names like x1e5."]


def test_summaries_are_whole_sentences():
    assert first_sentence(["Kazan et al., Theorem 3.2, eq. (3) (pure DP: Corollary 3.6).", "More."]) == \
        "Kazan et al., Theorem 3.2, eq. (3) (pure DP: Corollary 3.6)."
    assert first_sentence(["Every adversary of Zhao, Sec. I: a target. And more"]) == \
        "Every adversary of Zhao, Sec. I: a target."
    assert first_sentence(["", "ε′ of Theorem 3.9: the mechanism is PDP with:", "", "    ε′ = …"]) == \
        "ε′ of Theorem 3.9: the mechanism is PDP with …"
    assert first_sentence(["An (ε, δ)-DP mechanism is PDP with", "", "    ε′ = …"]) == \
        "An (ε, δ)-DP mechanism is PDP with …"
    assert first_sentence(["A closing parenthesis (Zhao, eq. (19))"]) == "A closing parenthesis (Zhao, eq. (19))"


def test_built_book_links_a_result_to_its_code_and_back(strict_build):
    """End to end on Kazan et al.'s Theorem 3.9: box → function and claims; function → box and sections."""
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    html = book.ROOT / "_build" / "html" / "book"
    chapter = (html / "disclosure-risk.html").read_text(encoding="utf-8")
    box = chapter[chapter.index('id="kazan-thm-3-9"'):]
    box = box[: box.index("</section>") if "</section>" in box else len(box)][:6000]
    assert 'href="api/conversions.html#dpsemantics.conversions.pdp_epsilon"' in box
    assert 'href="claims.html#claim-kazan-thm3.9-holds"' in box
    assert 'id="claim-kazan-thm3.9-holds"' in (html / "claims.html").read_text(encoding="utf-8")
    reference = (html / "api" / "conversions.html").read_text(encoding="utf-8")
    entry = reference[reference.index('id="dpsemantics.conversions.pdp_epsilon"'):]
    entry = entry[: entry.index("</dd>")]
    assert "Stated in:" in entry and 'href="../disclosure-risk.html#kazan-thm-3-9"' in entry
    assert "Used in:" in entry and 'href="../disclosure-risk.html#' in entry
