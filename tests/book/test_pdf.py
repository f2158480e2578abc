"""The printable edition: both PDFs from the strict build's HTML (no second execution of the chapters).

The book's PDF is printed from the ``_build/html`` that ``strict_build`` (conftest) made for the other
book tests; the student edition comes from the same build's executed notebooks with the solutions cut
(``student_edition --executed``), and is printed too.  Both are made by ``printed_editions`` (conftest) in the
background as soon as the strict build ends, with ``python -m dpsemantics.book.pdf … --json`` (what each
printing returned, read here); the PDFs land where ``make pdf`` puts them.  Without Chromium the test is skipped
with that reason, never passed.

The PDFs are read as a reader's PDF viewer would, with ``pypdf`` only: link annotations, named
destinations, the outline, and each page's text with its position.  A small book of three hand-written
pages (``test_links_*``) shows the link rules on every kind of link at once, in seconds.
"""

import ipaddress
import json
import re
import shutil
import subprocess
import textwrap
import unicodedata
from functools import lru_cache
from urllib.parse import urlsplit

import pytest

from conftest import printed_result
from dpsemantics.book import pdf, pdf_marks

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install -e '.[book]')")

MM = 72 / 25.4
# Phrases that occur only inside solutions (one per chapter): in the book's PDF, never in the student's.
SOLUTION_PHRASES = [
    "both inequalities of indistinguishability",            # intro-ex-tv
    "the slack grows geometrically",                        # intro-ex-group
    "the other bits' factors cancel",                       # ks-ex-rr
    "Knowing more helps the adversary less here",           # zhao-ex-copies
    "Averaging over the other data points dilutes",         # cv-ex-def7
    "the binding point is the one with the smallest",       # kazan-ex-profile
]


def needs_chromium():
    if pdf.chromium() is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium, or make system); no PDF was printed")


@pytest.fixture(scope="module")
def pdfs(strict_build, printed_editions):
    needs_chromium()
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    log = printed_editions.stdout + printed_editions.stderr
    assert printed_editions.returncode == 0, log[-3000:]
    executed = [line for line in log.splitlines() if "Executing notebook" in line]
    # The reproducibility report is the one page whose code differs in the student edition (it leaves out the
    # rows the exercises ask for), so it alone runs again; every chapter is reused.
    assert all("book/claims." in line for line in executed), f"the student edition executed a page again: {executed}"
    printed = {"book": json.loads(printed_result("book").read_text()),
               "student": json.loads(printed_result("book-student").read_text())}
    _prefetch(printed["student"]["pdf"])  # the first test reads the book here, then the student edition
    return printed


# ---------------------------------------------------------------------------------------------------------
# Reading a PDF: text with positions, links, destinations, outline

@lru_cache(maxsize=None)
def _read(path: str):
    """Every page's text (ligatures unfolded, typographic apostrophes plain) and its lines, each line as
    ``(y of its baseline in points from the bottom, text)``, top to bottom; the rightmost piece of text of each
    line goes to ``_last_pieces``, the largest font size on it (in points, as printed) to ``_line_sizes``.  Read
    once per process (a PDF takes seconds): by :func:`_page_texts`, here or, when ``pdfs`` started it, in a
    process of its own beside this one."""
    prefetched = _PREFETCH.pop(path, None)
    texts, lines, last, sizes = prefetched.result() if prefetched is not None else _page_texts(path)
    _last_pieces[path], _line_sizes[path] = last, sizes
    return pypdf.PdfReader(path), texts, lines


_PREFETCH = {}  # path -> the Future of its _page_texts in another process (started by the pdfs fixture)


def _prefetch(path: str) -> None:
    """Read ``path``'s pages in a new process while this one reads the other edition (the tests of this module
    run on one worker, at the end of the session, when the other core has nothing left to do)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    _PREFETCH[path] = pool.submit(_page_texts, path)
    pool.shutdown(wait=False)  # the process ends when its one read is done


def _page_texts(path: str):
    """(texts, lines, rightmost pieces, font sizes) of every page of ``path``, as :func:`_read` describes them."""
    reader = pypdf.PdfReader(path)
    texts, lines, last, sizes = [], [], [], []
    for page in reader.pages:
        pieces = []

        def visit(text, cm, tm, font, size, pieces=pieces):
            if text.strip():
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                # the size as printed: the font's size scaled by the text and page matrices (vertically)
                scale = ((tm[2] * cm[0] + tm[3] * cm[2]) ** 2 + (tm[2] * cm[1] + tm[3] * cm[3]) ** 2) ** 0.5
                pieces.append((y, x, text, size * scale))

        texts.append(_plain(page.extract_text(visitor_text=visit) or ""))
        rows = []
        for y, x, text, size in sorted(pieces, key=lambda p: (-p[0], p[1])):
            if rows and abs(rows[-1][0] - y) < 4:  # superscripts and math sit a little off the baseline
                rows[-1][1].append((x, text, size))
            else:
                rows.append((y, [(x, text, size)]))
        lines.append([(y, _plain("".join(t for _, t, _ in sorted(parts)))) for y, parts in rows])
        last.append([_plain(max(parts)[1]).strip() for y, parts in rows])
        sizes.append([round(max(s for _, _, s in parts), 2) for y, parts in rows])
    return texts, lines, last, sizes


_last_pieces = {}  # path -> for each page, for each line (as in _read), the text of its rightmost piece
_line_sizes = {}  # path -> for each page, for each line (as in _read), its largest font size in points


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("\u2019", "'")


def _flat(path: str) -> str:
    return re.sub(r"\s+", " ", " ".join(_read(path)[1]))


def _links(reader):
    """Every link annotation as (page index, annotation)."""
    for i, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") == "/Link":
                yield i, annot


def _name(name) -> str:
    name = str(name)
    return name[1:] if name.startswith("/") else name


def _outline(reader):
    """The bookmarks, flattened: (depth, title, page index, top)."""
    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                yield from walk(item, depth + 1)
            else:
                yield depth, str(item.title), reader.get_destination_page_number(item), float(item.get("/Top") or 0)
    return list(walk(reader.outline, 0))


def _is_local(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if url.lower().startswith("file:") or host in {"localhost", ""} or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_unspecified or address.is_link_local


def _link_faults(reader) -> list[str]:
    """What is wrong with a PDF's links: a link to a local address (or no public web address at all), an
    internal link whose destination the PDF lacks."""
    names = {_name(n) for n in reader.named_destinations}
    pages = {page.indirect_reference.idnum for page in reader.pages}
    faults = []
    for i, annot in _links(reader):
        action = annot.get("/A", {})
        dest = annot.get("/Dest", action.get("/D") if action.get("/S") == "/GoTo" else None)
        if dest is not None:
            if isinstance(dest, list):
                ok = getattr(dest[0], "idnum", None) in pages
            else:
                ok = _name(dest) in names
            if not ok:
                faults.append(f"p. {i + 1}: internal link to a missing destination {dest}")
        elif action.get("/S") == "/URI":
            uri = str(action["/URI"])
            if _is_local(uri) or not uri.startswith(("https://", "http://", "mailto:")):
                faults.append(f"p. {i + 1}: link to {uri}")
        else:
            faults.append(f"p. {i + 1}: a link that goes nowhere: {dict(annot)}")
    return faults


def _norm(text: str) -> str:
    return re.sub(r"\W+", "", _plain(text)).lower()


def _text_area(reader) -> tuple[float, float]:
    """The text area's foot and top, in points from the page's foot: inside the page margins, so without the
    running head above it and the page number below it."""
    height = float(reader.pages[0].mediabox.height)
    return pdf.MARGIN_MM["bottom"] * MM, height - pdf.MARGIN_MM["top"] * MM


def _body_lines(path: str, index: int) -> list[int]:
    """The indices (in ``_read``'s lines of page ``index``) of the lines inside the text area."""
    reader, _, lines = _read(path)
    foot, top = _text_area(reader)
    return [k for k, (y, _) in enumerate(lines[index]) if foot - 2 < y < top + 2]


def _find_heading(path: str, index: int, title: str, top: float | None = None) -> tuple[int, int, int] | None:
    """Where heading ``title`` stands whole on page ``index``: ``(its first line, the line after its last, the
    page's text-area lines)`` as indices into :func:`_body_lines`; None when it does not.  Where the title's words
    stand more than once on the page (a sentence ending "numbers." above the section "Numbers"), the place whose
    lines read the title as printed is the heading, and among several such the one nearest the bookmark's
    ``top``."""
    _, _, lines = _read(path)
    kept = _body_lines(path, index)
    body = [_norm(lines[index][k][1]) for k in kept]
    want = _norm(title)
    found = []
    for k in range(len(body)):
        got, j = "", k
        while j < len(body) and len(got) < len(want) and want.startswith(got + body[j][:1]):
            got += body[j]
            j += 1
        if got == want:
            found.append((k, j, len(body)))
    if not found:
        return None

    def as_printed(place):  # the lines' own text, case and punctuation kept ("Numbers", not "numbers.")
        return "".join(lines[index][kept[k]][1] for k in range(place[0], place[1])).replace(" ", "")

    exact = [place for place in found if as_printed(place) == title.replace(" ", "")] or found
    if top is None:
        return exact[0]
    return min(exact, key=lambda place: abs(lines[index][kept[place[0]]][0] - top))


def _heading_faults(path: str) -> list[str]:
    """Every bookmarked heading whose text does not stand whole on the page its bookmark points to, or below
    which that page's text area holds nothing (an orphaned heading).  The heading is looked for by its text
    among the page's lines (a bookmark's height is only approximate)."""
    reader, _, _ = _read(path)
    faults = []
    for depth, title, index, top in _outline(reader):
        found = _find_heading(path, index, title, top)
        end, count = (found[1], found[2]) if found else (None, None)
        if end is None:
            faults.append(f"p. {index + 1}: heading {title!r} is not whole on the page of its bookmark")
        elif end == count:
            faults.append(f"p. {index + 1}: heading {title!r} ends the page")
    return faults


def _contents_faults(path: str, docs: list[dict]) -> list[str]:
    """Every chapter entry of the contents (a link to a page's start, ``doc-…``) whose printed page number is not
    the page its link goes to, or whose page's text (below the running head) does not start with the chapter's
    title."""
    reader, _, lines = _read(path)
    dests = pdf.destinations(reader)
    titles = {d["id"]: d["title"] for d in docs}
    top = float(reader.pages[0].mediabox.height) - pdf.MARGIN_MM["top"] * MM + 2
    first_chapter = min(d["page"] for d in docs) - 1
    faults, checked = [], 0
    for i, annot in _links(reader):
        name = _name(annot.get("/Dest", ""))
        if i >= first_chapter or name not in titles:
            continue
        target = dests[name][0]
        y0, y1 = float(annot["/Rect"][1]), float(annot["/Rect"][3])
        row = [k for k, (y, t) in enumerate(lines[i]) if y0 - 1 <= y <= y1 + 1]
        number = _last_pieces[path][i][row[-1]] if row else None
        if number != str(target + 1):
            faults.append(f"p. {i + 1}: entry {titles[name]!r} shows p. {number}, goes to p. {target + 1}")
        text = _norm(" ".join(t for y, t in lines[target] if y < top))
        if not text.startswith(_norm(titles[name])):
            faults.append(f"p. {target + 1} does not start with {titles[name]!r}: {text[:60]!r}")
        checked += 1
    return faults if checked == len(docs) else faults + [f"{checked} chapter entries for {len(docs)} pages"]


def _front_faults(path: str, result: dict, title: str) -> list[str]:
    """The title page names the book, its five source documents and the edition print_book reported; the page
    behind it the copyright, a licence and how to cite the edition."""
    _, texts, _ = _read(path)
    first, second = (re.sub(r"\s+", " ", t) for t in texts[:2])
    edition = result["edition"]
    faults = [f"title page lacks {want!r}" for want in
              [title, "Kasiviswanathan", "Zhao", "Tschantz", "Kazan", "Lecture 1", edition["line"]]
              if want not in first]
    faults += [f"page 2 lacks {want!r}" for want in ["©", "Licence:", "How to cite:", f"Version {edition['version']}"]
               if want not in second]
    return faults


# ---------------------------------------------------------------------------------------------------------
# The book

def test_page_counts_front_matter_and_chapters(pdfs):
    book, student = pdfs["book"], pdfs["student"]
    print(f"\nbook.pdf: {book['pages']} pages in {book['seconds']} s {book['timings']}; book-student.pdf: "
          f"{student['pages']} pages in {student['seconds']} s")
    assert 100 <= book["pages"] <= 800
    assert 0.6 * book["pages"] <= student["pages"] < book["pages"]
    for result in (book, student):
        reader, texts, _ = _read(result["pdf"])
        assert "The Semantics of Differential Privacy" in re.sub(r"\s+", " ", texts[0])
        front = min(doc["page"] for doc in result["docs"]) - 1
        contents = re.sub(r"\s+", " ", " ".join(texts[1:front]))
        assert "Contents" in contents
        outline = _outline(reader)
        assert [t for depth, t, _, _ in outline if depth == 0] == [doc["title"] for doc in result["docs"]]
        for doc in result["docs"]:
            assert doc["title"][:30] in contents, doc["title"]
    chapters = [d["title"] for d in book["docs"] if d["doc"] in {"book/intro", "book/causal-view"}]
    assert all(re.match(r"\d+\.", t) for t in chapters), f"chapter titles are not numbered: {chapters}"


def test_chapter_titles_are_numbered_in_the_body(pdfs):
    reader, _, lines = _read(pdfs["book"]["pdf"])
    for doc in pdfs["book"]["docs"]:
        if doc["doc"] in {"book/intro", "book/causal-view"}:
            top = float(reader.pages[0].mediabox.height) - pdf.MARGIN_MM["top"] * MM
            first = [t for y, t in lines[doc["page"] - 1] if y < top]
            assert _norm(first[0]).startswith(_norm(doc["title"][:20])) and re.match(r"\d+\.", first[0]), first[:2]


def test_outline_has_chapters_sections_and_subsections(pdfs):
    outline = _outline(pypdf.PdfReader(pdfs["book"]["pdf"]))
    depths = [depth for depth, *_ in outline]
    assert depths.count(1) >= 60 and depths.count(2) >= 20, f"outline levels: {sorted(set(depths))}"
    sections = [t for depth, t, _, _ in outline if depth == 1]
    assert "1.3. Indistinguishable distributions" in sections
    pages = [index for _, _, index, _ in outline]
    assert pages == sorted(pages), "the outline is not in page order"


def test_no_link_to_a_local_address_and_every_internal_link_resolves(pdfs):
    for result in pdfs.values():
        reader = pypdf.PdfReader(result["pdf"])
        internal = sum("/Dest" in annot for _, annot in _links(reader))
        assert internal >= 800, f"only {internal} internal links in {result['pdf']}"
        assert _link_faults(reader) == [], result["pdf"]
        # links in the HTML to an id no printed page has (print_book unlinks them and keeps their text)
        assert result["broken"] == [], result["pdf"]


def test_contents_entries_link_to_their_pages_and_show_their_numbers(pdfs):
    reader, texts, lines = _read(pdfs["book"]["pdf"])
    dests = pdf.destinations(reader)
    first_chapter = min(doc["page"] for doc in pdfs["book"]["docs"]) - 1
    entries = [(i, annot) for i, annot in _links(reader) if i < first_chapter]
    assert len(entries) >= 60
    for i, annot in entries:
        target = dests[_name(annot["/Dest"])][0] + 1
        y0, y1 = float(annot["/Rect"][1]), float(annot["/Rect"][3])
        row = [k for k, (y, t) in enumerate(lines[i]) if y0 - 1 <= y <= y1 + 1]
        assert row, f"no text at the contents entry going to p. {target} on p. {i + 1}"
        number = _last_pieces[pdfs["book"]["pdf"]][i][row[-1]]  # the entry's last line ends with its page number
        assert number == str(target), f"contents entry {lines[i][row[-1]][1]!r} on p. {i + 1} goes to p. {target}"


def test_front_matter_names_the_edition_this_checkout_built(pdfs):
    head = subprocess.run(["git", "-C", str(pdf.ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    for result in pdfs.values():
        assert _front_faults(result["pdf"], result, "The Semantics of Differential Privacy") == []
        edition = result["edition"]
        assert edition["recorded"], "the HTML build recorded no edition (edition.json)"
        assert re.fullmatch(r"[0-9a-f]{7,}", edition["commit"]) and edition["commit"] == head, (edition, head)
        assert edition["version"] == pdf.release(pdf.ROOT)["version"]


def test_contents_page_numbers_point_at_the_chapter_titles(pdfs):
    for result in pdfs.values():
        assert _contents_faults(result["pdf"], result["docs"]) == [], result["pdf"]


def test_running_heads_name_the_chapter(pdfs):
    reader, _, lines = _read(pdfs["book"]["pdf"])
    height = float(reader.pages[0].mediabox.height)
    docs = pdfs["book"]["docs"]
    checked = 0
    for doc, after in zip(docs, docs[1:]):
        for index in range(doc["page"], after["page"] - 1):  # the chapter's pages after its first
            head = " ".join(t for y, t in lines[index] if y > height - pdf.MARGIN_MM["top"] * MM)
            assert _norm(doc["title"][:25]) in _norm(head) and head.split()[-1] == str(index + 1), (index + 1, head)
            checked += 1
    assert checked >= 100


def test_no_heading_is_split_or_ends_a_page(pdfs):
    for result in pdfs.values():
        assert _heading_faults(result["pdf"]) == [], result["pdf"]


#: The largest share of a page's text area that may stay empty below its last line or figure (issue 39), except on
#: the front matter and on a chapter's last page.
EMPTY_SHARE = 0.30


@lru_cache(maxsize=None)
def _empty_shares(path: str) -> tuple[float, ...]:
    """For each page, the share of its text area's height below the lowest mark it prints there: the lowest text
    baseline, filled or stroked path (a figure's lines, a box's or table's background and rules) or image, from
    the page's content stream (:func:`dpsemantics.book.pdf_marks.marks`).  1 for a page that prints nothing there."""
    reader, _, _ = _read(path)
    foot, top = _text_area(reader)
    shares = []
    for page in reader.pages:
        lowest = pdf_marks.lowest_mark(page, reader, foot, top)
        shares.append(1.0 if lowest is None else max(0.0, (lowest - foot) / (top - foot)))
    return tuple(shares)


def _empty_faults(result: dict, limit: float = EMPTY_SHARE) -> list[str]:
    """The pages more than ``limit`` empty, but the front matter (before the first chapter) and a chapter's last
    page."""
    shares = _empty_shares(result["pdf"])
    starts = sorted(doc["page"] - 1 for doc in result["docs"])
    excused = set(range(starts[0])) | {s - 1 for s in starts[1:]} | {len(shares) - 1}
    return [f"p. {i + 1}: {share:.0%} empty" for i, share in enumerate(shares)
            if share > limit and i not in excused]


def test_no_page_is_more_than_30_percent_empty_but_a_chapters_last(pdfs):
    """Every page's text area is filled to within ``EMPTY_SHARE`` of its height from its foot (issue 39), measured
    by what the page prints (:func:`_empty_shares`: text, figures, boxes): a tall block moved whole to the next
    page, or a figure that did not fit, leaves the page before it short.  A chapter's last page and the front
    matter may end anywhere."""
    for result in pdfs.values():
        shares = _empty_shares(result["pdf"])
        print(f"\n{result['pdf']}: {sum(s > EMPTY_SHARE for s in shares)} pages more than {EMPTY_SHARE:.0%} empty "
              f"of {len(shares)}, chapters' ends and front matter included")
        assert _empty_faults(result) == [], result["pdf"]


def test_the_emptiness_of_a_page_counts_its_figures_and_boxes(tmp_path):
    """The measure on a one-page PDF printed by Chromium: a line of text at the top and, below it, a box (a
    coloured background) and an image-free vector figure (an inline SVG) that end 40 % and 70 % down the text
    area: the page is as empty as the lowest of them leaves it, the white page background counts for nothing."""
    needs_chromium()
    from playwright.sync_api import sync_playwright

    area = 297 - pdf.MARGIN_MM["top"] - pdf.MARGIN_MM["bottom"]
    blocks = {"box": f'<div style="height: {0.4 * area - 10}mm; background: #eef"></div>',
              "svg": f'<svg width="100mm" height="{0.7 * area - 10}mm" viewBox="0 0 10 10" preserveAspectRatio="none">'
                     '<path d="M0 0 L10 10" stroke="black" stroke-width="0.1"/></svg>'}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=pdf.chromium(), args=pdf.CHROMIUM_ARGS)
        page = browser.new_page()
        for name, block in blocks.items():
            page.set_content(f'<body style="margin: 0; background: white"><p style="margin: 0; height: 10mm">'
                             f'a line of text</p>{block}</body>')
            page.pdf(path=str(tmp_path / f"{name}.pdf"), format="A4", print_background=True,
                     margin={k: f"{v}mm" for k, v in pdf.MARGIN_MM.items()})
        browser.close()
    for name, filled in (("box", 0.4), ("svg", 0.7)):
        shares = _empty_shares(str(tmp_path / f"{name}.pdf"))
        assert shares[0] == pytest.approx(1 - filled, abs=0.01), (name, shares)


def _caption_line(path: str, entry: dict, pages=None) -> tuple[int, int] | None:
    """``(page index, line index)`` of the line that starts a figure's or table's caption (``entry``: its number
    and caption text, from ``print_book``'s result): the number followed by the caption's first words, which tells
    the caption from a sentence that begins with a reference to it."""
    _, _, lines = _read(path)
    words = re.match(r"[^\W\d_]+(?:\W+[^\W\d_]+){0,2}", entry["caption"])
    want = _norm(entry["number"] + (words.group(0) if words else ""))
    for index in pages if pages is not None else range(len(lines)):
        for k, (_, text) in enumerate(lines[index]):
            if _norm(text).startswith(want):
                return index, k
    return None


def _caption_faults(result: dict) -> list[str]:
    """Every figure whose caption is not printed, or is printed on a page other than its figure's: a figure's
    lines and images (:mod:`dpsemantics.book.pdf_marks`) must end above its caption's first line in the page's text area
    (at most 90 pt above it: a figure's own margin is white) and reach at least 60 pt above it."""
    reader, _, lines = _read(result["pdf"])
    _, top = _text_area(reader)
    faults = []
    for figure in result["figures"]:
        found = _caption_line(result["pdf"], figure)
        if found is None:
            faults.append(f"{figure['number']}: caption not found")
            continue
        index, k = found
        y = lines[index][k][0]
        above = [box for kind, box in pdf_marks.marks(reader.pages[index], reader)
                 if kind != "text" and y < box[1] and box[3] < top]
        if not [box for box in above if box[1] < y + 90] or max(box[3] for box in above) < y + 60:
            faults.append(f"{figure['number']}: its caption on p. {index + 1} is not below its figure")
    return faults


def test_captions_stand_below_their_figures(pdfs):
    for result in pdfs.values():
        assert len(result["figures"]) >= 25
        assert _caption_faults(result) == [], result["pdf"]


def test_heading_sizes_follow_the_outline(pdfs):
    """A chapter's title is printed larger than every section heading, and a section heading larger than every
    subsection heading: the font size of each bookmarked heading's first line, read from the PDF."""
    for result in pdfs.values():
        reader, _, lines = _read(result["pdf"])
        sizes = {}
        for depth, title, index, top in _outline(reader):
            found = _find_heading(result["pdf"], index, title, top)
            if found is not None and depth <= 2:
                line = _body_lines(result["pdf"], index)[found[0]]
                sizes.setdefault(depth, []).append((_line_sizes[result["pdf"]][index][line], title))
        assert sorted(sizes) == [0, 1, 2] and all(len(s) >= 10 for s in sizes.values()), sizes.keys()
        for depth in (0, 1):
            smallest, largest = min(sizes[depth]), max(sizes[depth + 1])
            assert smallest[0] > largest[0], (f"{result['pdf']}: heading {smallest[1]!r} (level {depth}) is "
                                              f"{smallest[0]} pt, {largest[1]!r} (level {depth + 1}) {largest[0]} pt")


def _continued_faults(result: dict) -> list[str]:
    """Every page that continues a numbered table without the line "Table N.M (continued)" above its column heads,
    which Chromium repeats on each page a table runs onto: a page whose first line in the text area holds the first
    word of each column head of the last table captioned before it, in order, or whose first two lines hold them
    all after a short first line (a head that wraps).  A table without column heads, or one whose heads are math
    only, goes unseen."""
    reader, _, lines = _read(result["pdf"])
    starts = {}
    for table in result["tables"]:
        found = _caption_line(result["pdf"], table)
        if found is not None:
            starts.setdefault(found[0], []).append(table)
    faults, current = [], None
    for index in range(len(lines)):
        body = [_norm(lines[index][k][1]) for k in _body_lines(result["pdf"], index)]
        heads = [_norm(h.split()[0]) for h in (current or {}).get("head", []) if h.split() and _norm(h.split()[0])]
        said = body and re.match(r"table\d", body[0])  # a caption, or "Table N.M (continued)"
        if body and heads and not said and (_in_order(heads, body[0]) or (
                len(body[0]) <= 30 and all(h in "".join(body[:2]) for h in heads))):
            faults.append(f"p. {index + 1}: {current['number']} continues without '(continued)'")
        current = starts.get(index, [current])[-1]
    return faults


def _in_order(words: list[str], text: str) -> bool:
    """Whether ``words`` occur in ``text`` one after the other."""
    at = 0
    for word in words:
        at = text.find(word, at)
        if at < 0:
            return False
        at += len(word)
    return True


def test_a_table_continued_on_the_next_page_says_so(pdfs):
    for result in pdfs.values():
        assert len(result["tables"]) >= 60
        assert _continued_faults(result) == [], result["pdf"]


#: Words that point at a notebook's code cells, which the PDF prints without their frame (and hides some of).
CELL_POINTERS = re.compile(r"\b(?:cell|code)s? (?:above|below)\b|\b(?:above|below|this|next|previous|following) "
                           r"(?:code )?cells?\b|\bparameters? (?:set )?above\b", re.IGNORECASE)


def test_no_status_page_and_no_pointer_to_a_cell(pdfs):
    """The build's status page (when each notebook last ran) is not printed, and no sentence points at a code
    cell above or below it: the book hides the code of its figures and checks, which the PDF leaves out."""
    assert CELL_POINTERS.search("The cell below checks them") and CELL_POINTERS.search("the parameters above")
    for result in pdfs.values():
        assert "book/status" not in [doc["doc"] for doc in result["docs"]]
        text = _flat(result["pdf"])
        assert "Build status" not in text and "Package versions used for this build" not in text
        pointers = [text[max(0, m.start() - 60):m.end() + 20] for m in CELL_POINTERS.finditer(text)]
        assert pointers == [], f"{result['pdf']}: {pointers}"


def _image_count(page) -> int:
    """Image XObjects drawn on a page (counted in its resources, without decoding them)."""
    xobjects = page.get("/Resources", {}).get("/XObject", {})
    count = 0
    for x in xobjects.values():
        x = x.get_object()
        if x.get("/Subtype") == "/Image":
            count += 1
        elif x.get("/Subtype") == "/Form":  # the merged running head wraps the page's own content in a form
            count += _image_count(x)
    return count


#: Path-construction operators (``l`` line to, ``c`` curve to) on a page above which it draws a vector figure: a
#: figure printed from the book's SVG draws thousands, a page of text, tables and boxes a few dozen.
VECTOR_FIGURE_OPERATORS = 400


def _drawing_operators(obj) -> int:
    """The ``l`` and ``c`` path operators in a page's (or form's) content and in the forms it draws."""
    contents = obj.get_contents() if hasattr(obj, "get_contents") else obj
    data = contents.get_data() if contents is not None else b""
    count = len(re.findall(rb"\s[lc]\s", data))
    for x in obj.get("/Resources", {}).get("/XObject", {}).values():
        x = x.get_object()
        if x.get("/Subtype") == "/Form":
            count += _drawing_operators(x)
    return count


def _figure_count(page) -> int:
    """Figures a page draws: its images, and one vector figure when it draws as many paths as a figure does."""
    return _image_count(page) + (_drawing_operators(page) >= VECTOR_FIGURE_OPERATORS)




def test_figures_are_embedded(pdfs):
    """Every figure's caption is printed, and the page it is on draws a figure: the book's figures are SVG, printed
    as vector paths, so a figure is found by its paths."""
    for result in pdfs.values():
        reader, _, lines = _read(result["pdf"])
        captions = {f["number"]: _caption_line(result["pdf"], f) for f in result["figures"]}
        captions = {n: found[0] for n, found in captions.items() if found is not None}
        figures = sum(doc["images"] for doc in result["docs"])
        assert figures >= 25 and len(captions) >= 25, (result["pdf"], figures, sorted(captions))
        drawn = {i for i, page in enumerate(reader.pages) if _figure_count(page)}
        missing = [n for n, i in captions.items() if i not in drawn]
        assert not missing, f"{result['pdf']}: figures whose page draws no figure: {missing}"


def test_a_vector_figure_is_counted_and_a_text_page_is_not(tmp_path):
    """The figure detector on two one-page PDFs printed by Matplotlib: a plotted curve is a figure, text is not."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    noise = np.random.default_rng(0).normal(size=2000)  # a curve that path simplification cannot shorten
    for name, draw in (("curve", lambda ax: ax.plot(np.linspace(0, 1, 2000), noise)),
                       ("text", lambda ax: (ax.text(0.1, 0.5, "a page of text"), ax.set_axis_off()))):
        fig, ax = plt.subplots()
        draw(ax)
        fig.savefig(tmp_path / f"{name}.pdf")
        plt.close(fig)
    assert _figure_count(pypdf.PdfReader(tmp_path / "curve.pdf").pages[0]) == 1
    assert _figure_count(pypdf.PdfReader(tmp_path / "text.pdf").pages[0]) == 0


def test_the_editions_are_small_and_print_no_shadows(pdfs):
    """Each PDF is under ``pdf.MAX_MB`` MB (the book was 36 MB: page text left uncompressed by the overlay's merge,
    and 341 box shadows printed as 300 ppi JPEG masks), and no image is a JPEG: the book's figures are SVG and its
    one raster image a PNG, so a JPEG is a shadow or a filter that Chromium rasterised."""
    from pathlib import Path

    for result in pdfs.values():
        size = Path(result["pdf"]).stat().st_size
        assert size <= pdf.MAX_MB * 10**6, f"{result['pdf']}: {size / 10**6:.1f} MB (at most {pdf.MAX_MB} MB)"
        reader = pypdf.PdfReader(result["pdf"])
        jpegs = [i + 1 for i, page in enumerate(reader.pages) for image in _xobject_images(page)
                 if "/DCTDecode" in str(image.get("/Filter"))]
        assert not jpegs, f"{result['pdf']}: JPEG images (rasterised shadows?) on pages {jpegs[:10]}"


def _xobject_images(page):
    """The image XObjects a page uses, and those inside its form XObjects (a soft mask sits in a form's group)."""
    found, seen = [], set()

    def visit(resources):
        xobjects = (resources or {}).get("/XObject") or {}
        for ref in xobjects.values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.get("/Subtype") == "/Image":
                found.append(obj)
            elif obj.get("/Subtype") == "/Form":
                visit(obj.get("/Resources"))
        for state in ((resources or {}).get("/ExtGState") or {}).values():
            mask = state.get_object().get("/SMask")
            mask = mask.get_object() if mask is not None else None
            if isinstance(mask, dict) and mask.get("/G") is not None:  # not /None
                visit(mask["/G"].get_object().get("/Resources"))

    visit(page.get("/Resources"))
    return found


def test_student_pdf_has_no_solutions(pdfs):
    book, student = _flat(pdfs["book"]["pdf"]), _flat(pdfs["student"]["pdf"])
    assert "Solution to" in book and "Solution to" not in student
    for phrase in SOLUTION_PHRASES:
        assert phrase in book, f"{phrase!r} is not in book.pdf: the check could not fail"
        assert phrase not in student, f"solution text {phrase!r} in book-student.pdf"
    assert "student edition" in student.lower()


def test_one_citation_style(pdfs):
    """Citations read "[Author, year]" in the text; the bibliography shows no alphabetic labels ("[BC24]")."""
    text = _flat(pdfs["book"]["pdf"])
    assert "Brown and Choudhary, 2024" in text
    labels = re.findall(r"\[[A-Z][A-Za-z]{0,4}\+?\d\d\]", text)
    assert labels == [], f"alphabetic citation labels: {sorted(set(labels))[:10]}"


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
        at = text.find("??")
        assert at < 0, f"unresolved reference in {result['pdf']}: …{text[max(0, at - 80):at + 40]}…"
        assert "\ufffd" not in text, f"a character without a glyph (U+FFFD) in {result['pdf']}"
        for font in _fonts(pypdf.PdfReader(result["pdf"])):
            if font.get("/Subtype") == "/Type3":
                continue  # drawn by the PDF itself
            descriptor = font.get("/FontDescriptor", {}).get_object() if font.get("/FontDescriptor") else {}
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), (
                f"font not embedded: {font.get('/BaseFont')}")
        if shutil.which("fc-list"):
            uncovered = sorted({c for c in text if ord(c) > 127 and c.isprintable() and not _font_covers(c)})
            assert not uncovered, f"characters no installed font can draw in {result['pdf']}: {uncovered}"


# ---------------------------------------------------------------------------------------------------------
# The link rules on a small hand-written book (seconds, no book build)

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head><body>
<nav><a href="http://127.0.0.1:8000/book/index.html">navigation the print drops</a></nav>
<article class="bd-article"><section id="{id}"><h1>{number}{title}</h1>{body}</section></article></body></html>"""


def _small_book(root, site: str):
    (root / "book" / "api").mkdir(parents=True)
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/index\nparts:\n  - caption: Chapters\n"
                                   "    numbered: true\n    chapters:\n      - file: book/one\n"
                                   "      - file: book/api/index\n")
    (root / "_config.yml").write_text('title: "A small book"\nauthor: "Someone"\n')
    urls = f'\n[project.urls]\nDocumentation = "{site}"\n' if site else ""
    (root / "pyproject.toml").write_text(f'[project]\nname = "small"\nversion = "0"\n{urls}')
    html = root / "html"
    (html / "book" / "api").mkdir(parents=True)
    (html / "book" / "index.html").write_text(PAGE.format(title="Preface", id="preface", number="",
                                                          body=textwrap.dedent("""
        <p>See <a class="reference internal" href="one.html#second-part">the second part</a>,
        <a href="one.html">chapter one</a>, <a href="api/index.html#pkg.fn">the function</a>,
        <a href="../_sources/book/index.md">the source</a>, <a href="https://example.com/paper">a paper</a>
        and <a href="http://localhost:8888/lab">a notebook server</a>.</p>""")))
    sections = "".join(f'<section id="part-{k}"><h2><span class="section-number">1.{k}. </span>Part {k}</h2>'
                       + "<p>text</p>" * 30 + "</section>" for k in range(1, 4))
    (html / "book" / "one.html").write_text(PAGE.format(
        title="Chapter one", id="chapter-one", number='<span class="section-number">1. </span>',
        body='<section id="second-part"><h2><span class="section-number">1.0. </span>Second part</h2>'
             '<p>Back to <a href="#chapter-one">the start</a> and <a href="index.html">the preface</a>.</p>'
             '</section>' + sections
             # a heading the page cannot keep with its text: the heading check must see it
             + '<section id="cut"><h2><span class="section-number">1.4. </span>Cut off</h2>'
               '<p style="break-before: page">forced onto the next page</p></section>'))
    (html / "book" / "api" / "index.html").write_text(
        PAGE.format(title="API", id="api", number="", body="<p id='pkg.fn'>fn</p>"))
    return html


def _uris(reader) -> list[str]:
    return [str(annot["/A"]["/URI"]) for _, annot in _links(reader) if "/A" in annot]


@pytest.mark.parametrize("site", ["https://example.org/small", ""])
def test_links_stay_inside_the_pdf_or_go_to_the_public_site(tmp_path, site):
    needs_chromium()
    html = _small_book(tmp_path, site)
    result = pdf.print_book(html, tmp_path / "small.pdf", root=tmp_path)
    reader = pypdf.PdfReader(tmp_path / "small.pdf")
    assert _link_faults(reader) == []
    assert result["broken"] == []
    text = _flat(str(tmp_path / "small.pdf"))
    for words in ("the function", "the source", "a notebook server", "the second part"):
        assert words in text  # a removed link keeps its text
    internal = [_name(annot["/Dest"]) for _, annot in _links(reader) if "/Dest" in annot]
    dests = pdf.destinations(reader)
    preface, one = (next(d for d in result["docs"] if d["doc"] == doc) for doc in ("book/index", "book/one"))
    # the preface's links to chapter one and its second part, chapter one's links to itself and to the preface,
    # and the contents' entries all land on the pages of the PDF where their targets are
    assert (dests["doc-one"][0] == dests["one--chapter-one"][0] == one["page"] - 1
            > preface["page"] - 1 == dests["doc-index"][0])
    landed = {dests[name][0] for name in internal}
    assert {preface["page"] - 1, one["page"] - 1} <= landed and max(landed) < len(reader.pages)
    assert len(internal) >= 4 + 5  # four links in the text, five contents entries (two pages, four sections)
    web = ["https://example.com/paper"]
    if site:
        web += [f"{site}/book/api/index.html#pkg.fn", f"{site}/_sources/book/index.md"]
    assert sorted(_uris(reader)) == sorted(web)
    outline = _outline(reader)
    assert [(d, t) for d, t, _, _ in outline] == [(0, "Preface"), (0, "1. Chapter one"), (1, "1.0. Second part"),
                                                  (1, "1.1. Part 1"), (1, "1.2. Part 2"), (1, "1.3. Part 3"),
                                                  (1, "1.4. Cut off")]
    faults = _heading_faults(str(tmp_path / "small.pdf"))
    assert len(faults) == 1 and "'1.4. Cut off' ends the page" in faults[0], faults


def test_front_matter_of_a_small_book_from_a_git_checkout(tmp_path):
    needs_chromium()
    html = _small_book(tmp_path, "")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "_toc.yml", "_config.yml", "pyproject.toml"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "small book"], check=True)
    head = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    result = pdf.print_book(html, tmp_path / "small.pdf", root=tmp_path, edition="Student edition")
    path = str(tmp_path / "small.pdf")
    assert result["edition"]["commit"] == head and not result["edition"]["recorded"]
    assert f"commit {head}" in result["edition"]["line"] and "Version 0 " in result["edition"]["line"]
    assert _front_faults(path, result, "A small book") == []
    _, texts, _ = _read(path)
    assert "Student edition" in texts[0]
    assert "Licence: see the repository" in texts[1]  # the small book's pyproject.toml declares none
    assert _contents_faults(path, result["docs"]) == []


def test_the_pdf_prints_the_edition_the_html_build_recorded(tmp_path):
    from dpsemantics.book import edition

    html = tmp_path / "html"
    html.mkdir()
    record = {"version": "9.9", "commit": "abc1234", "modified": False, "date": "2026-01-02"}
    edition.write_record(html, {**record, "line": edition.line(record)})
    got = edition.recorded(html, pdf.ROOT)
    assert got["recorded"] and got["commit"] == "abc1234"
    assert got["line"] == "Version 9.9 · commit abc1234 · built 2026-01-02"
    now = edition.recorded(tmp_path, pdf.ROOT)  # no record: the edition of a build made now
    assert not now["recorded"] and now["version"] == pdf.release(pdf.ROOT)["version"]
    assert "· not built from a git checkout ·" in edition.line({**record, "commit": "", "modified": False})
