"""Teach first, then check (issue 34): every chapter's reading path, read on the built page, is a textbook's.

The *reading path* of a chapter is its built page without the sections a reader opens on purpose (Exercises,
"Notes on the paper", "How this was checked") and without code (cell inputs, and code blocks such as a command to
type).  On it:

* at most :data:`MAX_WORDS` words, margin notes included: they sit beside the text and are read with it (the
  anchors' chapters, d2l's and QuantEcon's, run 1 500–4 000);
* outside the margin notes, no claim id as text (a claim is cited by a superscript mark), no "Computed by"/
  "checked by" line, no ``tests/`` path, no module path (``dpsemantics.…``) and no name of a function of the
  package;
* a "Key idea" box before the first section.

Each detector is tested on sample HTML first, so that a detector that finds nothing cannot pass vacuously.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT
from dpsemantics import book

#: The sections a reader opens on purpose; the reading path is the rest.
SET_ASIDE = ("Exercises", "Notes on the paper", "How this was checked")
MAX_WORDS = 4500
#: The modules whose public function names must not appear in reading text.
MATH_MODULES = ("indistinguishability", "mechanisms", "conversions", "composition", "pld", "privacy_loss",
                "disclosure", "semantic", "notions", "causal", "releases")
#: The pages that must open with a Key idea box and keep their reading path clean: every chapter, and the
#: opening page when there is one.
PAGES = [str(p.relative_to(ROOT).with_suffix("")) for p in book.chapter_notebooks()]


def _heading(section) -> str:
    h = section.find(re.compile(r"^h[1-6]$"))
    text = re.sub(r"[#¶]\s*$", "", h.get_text(" ", strip=True)).strip() if h else ""
    return re.sub(r"^\d+(\.\d+)*\.?\s+", "", text)  # the section number the book puts before a title


def reading_path(html: str, margins: bool = False):
    """The main article of a built page with the set-aside sections, code inputs, scripts and header links
    removed (a BeautifulSoup tree); margin notes are kept when *margins* is true (for the word count: they are
    read) and removed otherwise (for the apparatus check: a box's "Computed by" line belongs there)."""
    soup = BeautifulSoup(html, "html.parser")
    article = soup.find("article") or soup.find("main") or soup
    for section in article.find_all("section"):
        if section.parent is not None and _heading(section) in SET_ASIDE:
            section.decompose()
    selectors = ("div.cell_input", "script", "style", "a.headerlink", "details.above-input", "div.cell_input-wrapper")
    if not margins:
        selectors += ("aside.margin", "aside.sidebar", "div.margin")
    for selector in selectors:
        for node in article.select(selector):
            node.decompose()
    for node in article.select('div[class*="highlight-"]'):  # a code block of the text (a command to type) is code
        if node.find_parent("div", class_="cell_output") is None:
            node.decompose()
    for node in article.select("span.math-var"):  # an italic Greek letter is part of its word ("ε-DP", "ε₀")
        node.unwrap()
    article.smooth()
    return article


def word_count(article) -> int:
    return len(re.findall(r"\w[\w'’.,:;%)-]*", article.get_text(" ")))


def key_idea_first(article) -> bool:
    """Whether a Key idea box comes before the page's first second-level section."""
    for node in article.find_all(["div", "section"]):
        if node.name == "div" and "admonition" in node.get("class", []) and "key-idea" in node.get("class", []):
            return True
        if node.name == "section" and node.find("h2", recursive=False):
            return False
    return False


@lru_cache(maxsize=None)
def _claim_ids() -> frozenset[str]:
    from dpsemantics import claims

    return frozenset(c.id for c in claims.registry())


@lru_cache(maxsize=None)
def _function_names() -> frozenset[str]:
    import importlib

    from dpsemantics.book.api_reference import public_names

    names = set()
    for module in MATH_MODULES:
        names |= {n for n in public_names(importlib.import_module(f"dpsemantics.{module}")) if "_" in n}
    return frozenset(names)


def apparatus(text: str, claim_ids=None, function_names=None) -> list[str]:
    """The checking apparatus found in reading text: claim ids, "Computed by"/"checked by", test and module
    paths, function names of the package."""
    claim_ids = _claim_ids() if claim_ids is None else claim_ids
    function_names = _function_names() if function_names is None else function_names
    found = [f"claim id {i}" for i in sorted(claim_ids) if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    found += [f"{m.group(0)!r}" for m in re.finditer(r"Computed by|[Cc]hecked by|\btests/\S+|dpsemantics\.\w+", text)]
    found += [f"function name {n}" for n in sorted(function_names) if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)]
    return found


SAMPLE = """<html><body><main><article>
<section id="t"><h1>Title</h1>
<div class="admonition key-idea"><p class="admonition-title">Key idea</p><p>DP bounds the change.</p></div>
<p>Ada answers a survey{extra}.</p>
<aside class="sidebar margin"><p>Computed by dpsemantics.disclosure.posterior_bounds; checked by kazan-thm3.2.</p>
</aside>
<div class="cell"><div class="cell_input"><pre>disclosure.posterior_bounds(0.5, 1.0)</pre></div>
<div class="cell_output"><p>0.731</p></div></div>
<section id="s"><h2>A section</h2><p>one two three</p>
<div class="highlight-bash notranslate"><pre>python -m dpsemantics.report --list</pre></div></section>
<section id="n"><h2>Notes on the paper</h2><p>kazan-thm3.2 posterior_bounds Computed by</p></section>
<section id="c"><h2>How this was checked</h2><p>tests/claims/test_claims.py dpsemantics.claims</p></section>
</section></article></main></body></html>"""


def test_the_reading_path_detectors_on_sample_pages():
    ids, names = frozenset({"kazan-thm3.2"}), frozenset({"posterior_bounds"})
    clean = reading_path(SAMPLE.format(extra=""))
    assert key_idea_first(clean)
    assert apparatus(clean.get_text(" "), ids, names) == []
    assert word_count(clean) == len("Title Key idea DP bounds the change. Ada answers a survey. 0.731 A section "
                                    "one two three".split())
    margin_words = len("Computed by dpsemantics.disclosure.posterior_bounds; checked by kazan-thm3.2.".split())
    assert word_count(reading_path(SAMPLE.format(extra=""), margins=True)) \
        == word_count(clean) + margin_words
    for extra, found in ((" (kazan-thm3.2)", "claim id kazan-thm3.2"), (", by posterior_bounds", "function name"),
                         (". Computed by the package", "Computed by"), (" (tests/unit/test_x.py)", "tests/"),
                         (" in dpsemantics.mechanisms", "dpsemantics.mechanisms")):
        faults = apparatus(reading_path(SAMPLE.format(extra=extra)).get_text(" "), ids, names)
        assert any(found in f for f in faults), (extra, faults)
    no_box = SAMPLE.format(extra="").replace('class="admonition key-idea"', 'class="admonition note"')
    assert not key_idea_first(reading_path(no_box))
    late_box = no_box.replace('<section id="s"><h2>A section</h2>',
                              "<section id=\"s\"><h2>A section</h2>"
                              "<div class=\"admonition key-idea\"><p>Key idea</p></div>")
    assert not key_idea_first(reading_path(late_box))


def _page(doc: str, margins: bool = False):
    path = ROOT / "_build" / "html" / f"{doc}.html"
    if not path.is_file():
        pytest.fail(f"{path} was not built")
    return reading_path(path.read_text(encoding="utf-8"), margins=margins)


@pytest.mark.parametrize("doc", PAGES)
def test_a_chapter_teaches_before_it_checks(doc, strict_build):
    article = _page(doc)
    assert key_idea_first(article), f"{doc}: no Key idea box before the first section"
    words = word_count(_page(doc, margins=True))
    assert words <= MAX_WORDS, f"{doc}: the reading path has {words} words with its margin notes (at most {MAX_WORDS})"
    found = apparatus(article.get_text(" "))
    assert not found, f"{doc}: checking apparatus in the reading path: {found[:12]}"


@pytest.mark.parametrize("doc", PAGES)
def test_the_checks_are_one_click_away(doc, strict_build):
    """The chapter's "How this was checked" section is in the page, collapsed (its body in <details>)."""
    path = ROOT / "_build" / "html" / f"{doc}.html"
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    sections = [s for s in soup.find_all("section") if _heading(s) == "How this was checked"]
    if doc.endswith("your-release"):
        return  # the chapter that checks no paper of its own
    assert sections, f"{doc}: no section 'How this was checked'"
    assert sections[0].find("details", class_="dps-checks"), f"{doc}: 'How this was checked' is not collapsed"
