"""The map of notions: every arrow is well-formed data pointing at a theorem and a chapter of the book."""

import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

from dpsemantics import claims, notion_map as M  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TOC = (ROOT / "_toc.yml").read_text()
# the chapter lines of _toc.yml, commented out or not (a chapter is commented until its notebook runs)
TOC_FILES = set(re.findall(r"^\s*#?\s*-\s*file:\s*(\S+)", TOC, flags=re.M))
ACTIVE_FILES = set(re.findall(r"^\s*-\s*file:\s*(\S+)", TOC, flags=re.M))
KEYS = {n.key for n in M.NOTIONS}


def test_chapters_are_docnames_of_the_book():
    assert set(M.CHAPTERS) <= TOC_FILES


def test_active_chapters_exist_on_disk():
    for doc in set(M.CHAPTERS) & ACTIVE_FILES:
        assert any((ROOT / f"{doc}{ext}").exists() for ext in (".ipynb", ".md")), doc


def test_notion_keys_unique_and_placed_apart():
    assert len(KEYS) == len(M.NOTIONS)
    positions = [n.pos for n in M.NOTIONS]
    assert len(set(positions)) == len(positions)
    for n in M.NOTIONS:
        assert n.chapter in M.CHAPTERS and n.paper in claims.PAPERS and n.definition


@pytest.mark.parametrize("rel", M.RELATIONS, ids=[f"{r.source}->{r.target}:{r.theorem}" for r in M.RELATIONS])
def test_every_arrow_names_a_theorem_and_a_chapter(rel):
    assert rel.source in KEYS and rel.target in KEYS and rel.source != rel.target
    assert rel.chapter in M.CHAPTERS and rel.chapter in TOC_FILES
    assert rel.paper in claims.PAPERS
    # a theorem, proposition, corollary or section of a named paper, with its number
    assert re.search(r"(Theorems?|Propositions?|Corollar(y|ies)|Lemma|§|Section)\s*[0-9IV]", rel.theorem), rel.theorem
    assert rel.transform.strip()


def test_claim_links_resolve():
    ids = {c.id for c in claims.registry()}
    linked = [r.claim for r in M.RELATIONS if r.claim]
    assert linked and set(linked) <= ids


def test_zhao_arrows_cover_the_papers_results():
    theorems = {r.theorem.split(" (")[0] for r in M.relations_checked_in("book/privacy-notions")}
    assert {"Zhao, Theorem 1", "Zhao, Theorem 2", "Zhao, Theorem 3", "Zhao, Theorem 4"} <= theorems
    assert len(M.relations_between("bdp", "bsp")) == 2


def test_table_and_drawing():
    rows = M.table_rows()
    assert [r["number"] for r in rows] == list(range(1, len(M.RELATIONS) + 1))
    fig = M.draw()
    texts = [t.get_text() for t in fig.axes[0].texts]
    for n in M.NOTIONS:
        assert n.label in texts
    assert sum(t.startswith("[") for t in texts) == len(M.RELATIONS)


def test_bad_keys():
    with pytest.raises(ValueError, match="key"):
        M.notion("nope")
    with pytest.raises(ValueError, match="chapter"):
        M.relations_checked_in("book/nowhere")
