"""The map of notions: every arrow is well-formed data pointing at a theorem and a chapter of the book, and no chapter
is typed twice (the data derives them from the claims, the figure names them from the table of contents)."""

import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

from dpsemantics import claims  # noqa: E402
from dpsemantics.book import toc  # noqa: E402
from dpsemantics.claims import notion_map as M  # noqa: E402
from dpsemantics.book import notion_map_figure  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TOC = (ROOT / "_toc.yml").read_text()
# the chapter lines of _toc.yml, commented out or not (a chapter is commented until its notebook runs)
TOC_FILES = set(re.findall(r"^\s*#?\s*-\s*file:\s*(\S+)", TOC, flags=re.M))
ACTIVE_FILES = set(re.findall(r"^\s*-\s*file:\s*(\S+)", TOC, flags=re.M))
KEYS = {n.key for n in M.NOTIONS}


def test_chapters_are_the_table_of_contents_chapters_in_its_order():
    """The map's chapters come from the claims modules, in the sources' order; that order is the table of contents'
    (so the legend, numbered from the table of contents, lists them in the colours' order)."""
    listed = toc.docnames()
    assert set(M.chapters()) <= TOC_FILES and set(M.chapters()) <= set(listed)
    assert M.chapters() == sorted(M.chapters(), key=listed.index)
    assert len(M.chapters()) == len(claims.PAPERS)


def test_active_chapters_exist_on_disk():
    for doc in set(M.chapters()) & ACTIVE_FILES:
        assert any((ROOT / f"{doc}{ext}").exists() for ext in (".ipynb", ".md")), doc


def test_no_chapter_is_typed_in_the_map():
    """A chapter is derived, never typed: the module's source names no docname, and every arrow's chapter is the
    chapter of one of its claims (or of its paper, with none)."""
    import ast

    tree = ast.parse(Path(M.__file__).read_text(encoding="utf-8"))
    typed = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and n.value.startswith("book/")]
    assert not typed
    by_id = {c.id: c for c in claims.registry()}
    for r in M.RELATIONS:
        expected = {by_id[c].chapter for c in r.claims} or {M.paper_chapter(r.paper)}
        assert r.chapter in expected, (r.source, r.target)
    with pytest.raises(ValueError, match="paper"):
        M.paper_chapter("nobody")


def test_notion_keys_and_labels_unique():
    assert len(KEYS) == len(M.NOTIONS)
    assert len({n.label for n in M.NOTIONS}) == len(M.NOTIONS)
    for n in M.NOTIONS:
        assert n.chapter in M.chapters() and n.paper in claims.PAPERS and n.definition


@pytest.mark.parametrize("rel", M.RELATIONS, ids=[f"{r.source}->{r.target}:{r.theorem}" for r in M.RELATIONS])
def test_every_arrow_names_a_theorem_and_a_chapter(rel):
    assert rel.source in KEYS and rel.target in KEYS and rel.source != rel.target
    assert rel.chapter in TOC_FILES
    assert rel.paper in claims.PAPERS
    # a theorem, proposition, corollary or section of a named paper, with its number
    assert re.search(r"(Theorems?|Propositions?|Corollar(y|ies)|Lemma|§|Section)\s*[0-9IV]", rel.theorem), rel.theorem
    assert rel.transform.strip()


def test_claim_links_resolve():
    ids = {c.id for c in claims.registry()}
    linked = [c for r in M.RELATIONS for c in r.claims]
    assert linked and set(linked) <= ids


@pytest.mark.registry
def test_no_arrow_is_drawn_valid_when_its_claim_is_a_discrepancy():
    """The map is joined to the registry: an arrow is 'valid' only when every claim that checks it is
    reproduced (declared and recomputed), and the drawing shows refuted arrows as refuted."""
    by_id = {c.id: c for c in claims.registry()}
    marks = M.statuses()
    for rel, mark in zip(M.RELATIONS, marks):
        expected = [by_id[c].expected for c in rel.claims]
        if "discrepancy" in expected:
            assert mark == "refuted", (rel.theorem, mark)
        if mark == "valid":
            assert rel.claims and all(e == "reproduced" for e in expected), rel.theorem
    # the recomputed statuses agree for the arrows of the chapter that owns the map (fast claims only)
    zhao = [r for r in M.RELATIONS if r.claims and all(c.startswith("zhao-") for c in r.claims)]
    for rel in zhao:
        assert all(claims.evaluate(by_id[c]).status == "reproduced" for c in rel.claims), rel.theorem
    fig = notion_map_figure.draw()
    texts = [t.get_text() for t in fig.axes[0].texts]
    for k, mark in enumerate(marks):
        label = next(t for t in texts if re.match(rf"(✗ )?\[{k + 1}\]\*?(\n|$)", t))
        assert (mark == "refuted") == label.startswith("✗"), label
    legend_text = " ".join(t.get_text() for leg in fig.legends for t in leg.get_texts())
    assert "refuted" in legend_text


def test_ks_theorem_2_4_2_is_refuted_on_the_map():
    """K&S Theorem 2.4(2) fails as printed (semantic-privacy chapter): the map must not draw it as valid."""
    rel = next(r for r in M.RELATIONS if r.theorem == "K&S, Theorem 2.4 (2)")
    assert rel.claims and M.status(rel) != "valid"


def test_dp_and_bdp_arrows_carry_their_conditions():
    """[21]/[22] must not read as DP ⇔ BDP: each is marked conditional (``[k]*``) on the figure and names its
    condition in the table."""
    pair = M.relations_between("dp", "bdp")
    assert len(pair) == 2 and not any(r.both_ways for r in pair)
    for r in pair:
        assert r.condition and r.caveat and r.claims
    assert {"independent" in r.caveat for r in pair} == {True, False}
    labels, rows = notion_map_figure.edge_labels(), M.table_rows()
    for r in pair:
        k = M.RELATIONS.index(r)
        assert labels[k] == f"[{k + 1}]*" and rows[k]["condition"] == r.condition


def test_bsp_to_bdp_arrow_is_drawn_with_its_hypothesis():
    """Zhao's Theorem 1 converse (BSP ⇒ BDP) holds only when ⊥ has positive prior mass: the registry refutes it
    without (records in {0, 1, 2}, BSP 0 and BDP 2). The arrow carries that condition, is joined to the refuting
    claim, stays valid as stated with its condition, and the drawing writes the hypothesis on the arrow."""
    (rel,) = [r for r in M.RELATIONS if (r.source, r.target) == ("bsp", "bdp")]
    assert "⊥" in rel.condition and "prior mass" in rel.condition and "⊥" in rel.caveat
    assert "zhao-thm1-converse-three-values" in rel.needs
    by_id = {c.id: c for c in claims.registry()}
    assert all(by_id[c].expected == "discrepancy" for c in rel.needs)
    assert M.status(rel) == "valid"
    k = M.RELATIONS.index(rel)
    row = M.table_rows()[k]
    assert row["condition"] == rel.condition and "zhao-thm1-converse-three-values" in row["needs"]
    assert notion_map_figure.edge_labels()[k] == f"[{k + 1}]*\n{rel.caveat}"
    texts = [t.get_text() for t in notion_map_figure.draw().axes[0].texts]
    assert f"[{k + 1}]*\n{rel.caveat}" in texts
    for r, label in zip(M.RELATIONS, notion_map_figure.edge_labels()):  # every omitted hypothesis is written out
        if r.needs:
            assert r.caveat in label, label
    with pytest.raises(ValueError, match="needs"):
        M.Relation("dp", "sp", "x", "Theorem 1", "zhao", needs=("zhao-thm1-converse-three-values",))


def test_dp_to_bdp_fails_without_independence():
    """The condition is needed: copied records, ε-local randomized response on two records: DP ε, BDP 2ε."""
    from dpsemantics import notions
    from dpsemantics.mechanisms import local_randomized_response

    m = local_randomized_response(2, 1.0)
    assert m.epsilon() == pytest.approx(1.0)
    assert notions.bdp_leakage(m, notions.copies_prior(2)) == pytest.approx(2.0)


def test_zhao_arrows_cover_the_papers_results():
    theorems = {r.theorem.split(" (")[0] for r in M.relations_checked_in("book/privacy-notions")}
    assert {"Zhao, Theorem 1", "Zhao, Theorem 2", "Zhao, Theorem 3", "Zhao, Theorem 4"} <= theorems
    assert len(M.relations_between("bdp", "bsp")) == 2


def test_table_and_drawing():
    rows = M.table_rows()
    assert [r["number"] for r in rows] == list(range(1, len(M.RELATIONS) + 1))
    fig = notion_map_figure.draw()
    texts = [t.get_text() for t in fig.axes[0].texts]
    shown = {" ".join(t.replace("-\n", "-").split()) for t in texts}  # box names are wrapped to fit the column
    for n in M.NOTIONS:
        assert " ".join(n.label.split()) in shown
    assert sum(t.lstrip("✗ ").startswith("[") for t in texts) == len(M.RELATIONS)
    assert {r["status"] for r in rows} <= set(M.STATUSES)


def test_bad_keys():
    with pytest.raises(ValueError, match="key"):
        M.notion("nope")
    with pytest.raises(ValueError, match="chapter"):
        M.relations_checked_in("book/nowhere")
    with pytest.raises(ValueError, match="registry"):
        M.status(M.Relation("dp", "sp", "x", "Theorem 1", "zhao", claims=("no-such-claim",)))
    with pytest.raises(ValueError, match="registry"):
        _ = M.Relation("dp", "sp", "x", "Theorem 1", "zhao", claims=("no-such-claim",)).chapter


def test_legend_names_the_chapters_as_the_table_of_contents_does():
    """The legend names only chapters that exist: every chapter name it shows is the start of a chapter's own
    first heading."""
    import json

    from dpsemantics.book.notion_map_figure import _chapter_name

    for doc in M.chapters():
        cells = json.loads((ROOT / f"{doc}.ipynb").read_text())["cells"]
        heading = next(line for c in cells if c["cell_type"] == "markdown" for line in "".join(c["source"]).splitlines()
                       if line.startswith("# "))
        name = _chapter_name(doc)
        number, title = name.split(" ", 1)
        assert heading[2:].startswith(title), (doc, name, heading)
        assert number == str(M.chapters().index(doc) + 1)
