"""The printable edition: both PDFs from the strict build's HTML (no second execution of the chapters).

The book's PDF is printed from the ``_build/html`` that ``strict_build`` (conftest) made for the other
book tests; the student edition is built from the same build's executed notebooks with the solutions cut
(``student_edition --executed``) and printed.  The PDFs land where ``make pdf`` puts them.  Without
Chromium the test is skipped with that reason, never passed.
"""

import re
import shutil
import subprocess
import unicodedata
from functools import lru_cache

import pytest

from conftest import ROOT, jupyter_book
from dpsemantics.book import pdf, student_edition

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install -e '.[book]')")

OUT = ROOT / "_build" / "pdf"
# Phrases that occur only inside solutions (one per chapter): in the book's PDF, never in the student's.
SOLUTION_PHRASES = [
    "both inequalities of indistinguishability",            # intro-ex-tv
    "the slack grows geometrically",                        # intro-ex-group
    "the other bits' factors cancel",                       # ks-ex-rr
    "Knowing more helps the adversary less here",           # zhao-ex-copies
    "Averaging over the other data points dilutes",         # cv-ex-def7
    "the binding point is the one with the smallest",       # kazan-ex-profile
]


@pytest.fixture(scope="module")
def pdfs(strict_build, tmp_path_factory):
    if pdf.chromium() is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium, or make system); no PDF was printed")
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    book = pdf.print_book(ROOT / "_build" / "html", OUT / "book.pdf")
    src = tmp_path_factory.mktemp("student") / "student-src"
    student_edition.write_edition(src, executed=ROOT / "_build" / "jupyter_execute")
    proc = jupyter_book(".", "--keep-going", cwd=src)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    student = pdf.print_book(src / "_build" / "html", OUT / "book-student.pdf", edition="Student edition: without solutions")
    return {"book": book, "student": student}


@lru_cache(maxsize=None)
def _text(path: str) -> list[str]:
    """The text of every page, with ligatures (ﬁ, ﬀ) unfolded and typographic apostrophes made plain."""
    return [unicodedata.normalize("NFKC", page.extract_text() or "").replace("\u2019", "'")
            for page in pypdf.PdfReader(path).pages]


def _flat(path: str) -> str:
    return re.sub(r"\s+", " ", " ".join(_text(path)))


def test_page_counts_front_matter_and_chapters(pdfs):
    book, student = pdfs["book"], pdfs["student"]
    print(f"\nbook.pdf: {book['pages']} pages in {book['seconds']} s; book-student.pdf: {student['pages']} pages in "
          f"{student['seconds']} s")
    assert 100 <= book["pages"] <= 800
    assert 0.6 * book["pages"] <= student["pages"] < book["pages"]
    for result in (book, student):
        pages = _text(result["pdf"])
        assert "The Semantics of Differential Privacy" in re.sub(r"\s+", " ", pages[0])
        contents = re.sub(r"\s+", " ", pages[1])
        assert "Contents" in contents
        for doc in result["docs"]:
            assert doc["pages"] >= 1
            assert doc["title"][:30] in contents, doc["title"]
        outline = [item.title for item in pypdf.PdfReader(result["pdf"]).outline]
        assert outline == [doc["title"] for doc in result["docs"]]
    chapters = [d["title"] for d in book["docs"] if d["doc"] in {"book/intro", "book/causal-view"}]
    assert all(re.match(r"\d+\.", t) for t in chapters), f"chapter titles are not numbered: {chapters}"


def _image_count(page) -> int:
    """Image XObjects drawn on a page (counted in its resources, without decoding them)."""
    xobjects = page.get("/Resources", {}).get("/XObject", {})
    return sum(x.get_object().get("/Subtype") == "/Image" for x in xobjects.values())


def test_figures_are_embedded(pdfs):
    for result in pdfs.values():
        reader = pypdf.PdfReader(result["pdf"])
        images = sum(_image_count(page) for page in reader.pages)
        figures = sum(doc["images"] for doc in result["docs"])
        assert figures >= 25 and images >= figures, (result["pdf"], images, figures)


def test_student_pdf_has_no_solutions(pdfs):
    book, student = _flat(pdfs["book"]["pdf"]), _flat(pdfs["student"]["pdf"])
    assert "Solution to" in book and "Solution to" not in student
    for phrase in SOLUTION_PHRASES:
        assert phrase in book, f"{phrase!r} is not in book.pdf: the check could not fail"
        assert phrase not in student, f"solution text {phrase!r} in book-student.pdf"
    assert "student edition" in student.lower()


@lru_cache(maxsize=None)
def _font_covers(char: str) -> bool:
    proc = subprocess.run(["fc-list", f":charset={ord(char):x}", "family"], capture_output=True, text=True)
    return bool(proc.stdout.strip())


def _fonts(reader):
    for page in reader.pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for font in fonts.values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            yield from ([d.get_object() for d in descendants] if descendants else [font])


def test_no_unresolved_references_or_missing_glyphs(pdfs):
    for result in pdfs.values():
        text = _flat(result["pdf"])
        assert "??" not in text, f"unresolved reference in {result['pdf']}: …{text[max(0, text.find('??') - 80):text.find('??') + 40]}…"
        assert "\ufffd" not in text, f"a character without a glyph (U+FFFD) in {result['pdf']}"
        for font in _fonts(pypdf.PdfReader(result["pdf"])):
            if font.get("/Subtype") == "/Type3":
                continue  # drawn by the PDF itself
            descriptor = font.get("/FontDescriptor", {}).get_object() if font.get("/FontDescriptor") else {}
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), f"font not embedded: {font.get('/BaseFont')}"
        if shutil.which("fc-list"):
            uncovered = sorted({c for c in text if ord(c) > 127 and c.isprintable() and not _font_covers(c)})
            assert not uncovered, f"characters no installed font can draw in {result['pdf']}: {uncovered}"
