"""The printable edition: the built HTML book printed by headless Chromium into one PDF.

    python -m dpsemantics.book.pdf HTML_DIR OUT.pdf [--edition "Student edition"]

``make pdf`` prints ``_build/html`` (the reader's edition, solutions unfolded) into ``_build/pdf/book.pdf``
and the student edition's ``_build/student-src/_build/html`` (solutions removed at the source) into
``_build/pdf/book-student.pdf``.

Why this route: Jupyter Book's LaTeX builder needs TeX Live from Debian (about 2 GB with texlive-fonts-extra,
for bbm.sty, and about 9 minutes on 2 cores), and its HTML-to-PDF builder crashes on sphinx-exercise nodes
and downloads its own browser.  Printing the HTML with the Chromium the browser test already uses costs
about a minute and nothing new to install beyond ``pypdf`` (pure Python) to merge the pages: the math is the
same MathJax typesetting readers see, the figures the same images, the chapter and figure numbers the same.

Every page of the table of contents is loaded from a local server, MathJax is awaited, the navigation chrome
is hidden, folded solutions are unfolded, code cells the book hides stay hidden, and the page is printed to
A4.  A title page and a contents page (with each page's first page number) come first, page numbers are
stamped at the foot of every later page, and the PDF outline lists the pages.
"""

from __future__ import annotations

import argparse
import functools
import html
import http.server
import io
import shutil
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import yaml

from .toc import ROOT, docnames

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
MARGIN = {"top": "16mm", "bottom": "20mm", "left": "16mm", "right": "16mm"}

PRINT_CSS = """
.bd-header, .bd-header-announcement, .bd-sidebar-primary, .bd-sidebar-secondary, .header-article, .bd-footer,
.bd-footer-article, .bd-footer-content, .prev-next-area, .headerlink, button.toggle-button, .toggle-button,
.search-button, .theme-switch-button, #pst-back-to-top, .skip-link, .dropdown-buttons-trigger, .article-header-buttons,
.footer-article-items { display: none !important; }
.bd-main .bd-content, .bd-article-container, .bd-page-width, .bd-container, .bd-container__inner, .bd-main,
.bd-content .bd-article-container { max-width: none !important; width: auto !important; padding: 0 !important; margin: 0 !important; }
.toggle-hidden, .toggle-details__container { display: block !important; visibility: visible !important; height: auto !important; opacity: 1 !important; }
.pst-scrollable-table-container, .table-wrapper, .cell_output, .output, div.highlight, .bd-article { overflow: visible !important; }
table { font-size: 8.5pt; } pre { white-space: pre-wrap !important; word-break: break-word; }
img { max-width: 100% !important; height: auto !important; break-inside: avoid; }
figure, .admonition, table { break-inside: avoid-page; }
h1, h2, h3 { break-after: avoid-page; }
body { font-size: 10.5pt; }
"""

PREPARE_PAGE = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  // code the book hides behind 'Show code cell source' stays out of print; folded solutions unfold
  document.querySelectorAll('details.hide.above-input, details.above-input').forEach(d => d.remove());
  document.querySelectorAll('details').forEach(d => d.open = true);
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
  document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager');
  await Promise.all([...document.images].filter(i => !i.complete).map(i => new Promise(r => { i.onload = i.onerror = r; })));
  const h1 = document.querySelector('article section > h1') || document.querySelector('article h1, main h1');
  return {title: h1 ? h1.innerText.replace(/[#¶]\\s*$/, '').trim() : document.title,
          images: document.querySelectorAll('article img').length};
}"""


def chromium() -> str | None:
    """The system Chromium (Debian's package, installed by ``make system``), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def _serve(directory: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


def _front_matter(title: str, author: str, edition: str, contents: list[tuple[str, int]]) -> str:
    rows = "\n".join(f'<tr><td>{html.escape(t)}</td><td class="p">{p}</td></tr>' for t, p in contents)
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
body {{ font-family: 'Noto Serif', 'DejaVu Serif', serif; margin: 0; }}
.title {{ height: 250mm; display: flex; flex-direction: column; justify-content: center; text-align: center; break-after: page; }}
.title h1 {{ font-size: 28pt; margin: 0 0 8mm; }} .title p {{ font-size: 14pt; margin: 2mm; }}
h2 {{ font-size: 18pt; }} table {{ width: 100%; border-collapse: collapse; font-size: 12pt; }}
td {{ padding: 2mm 0; border-bottom: 1px dotted #999; }} td.p {{ text-align: right; width: 20mm; }}
</style></head><body>
<div class="title"><h1>{html.escape(title)}</h1><p>executable papers</p><p>{html.escape(author)}</p>
<p><em>{html.escape(edition)}</em></p></div>
<h2>Contents</h2><table>{rows}</table></body></html>"""


def _page_numbers(count: int, first: int) -> str:
    pages = "".join(f'<div class="pg"><span>{first + i}</span></div>' for i in range(count))
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
@page {{ size: A4; margin: 0; }} body {{ margin: 0; font-family: 'Noto Sans', 'DejaVu Sans', sans-serif; font-size: 9pt; }}
.pg {{ height: 297mm; position: relative; break-after: page; }}
.pg span {{ position: absolute; bottom: 9mm; width: 100%; text-align: center; color: #444; }}
</style></head><body>{pages}</body></html>"""


def print_book(html_dir: Path, out: Path, *, edition: str = "", root: Path = ROOT) -> dict:
    """Print every page of the table of contents from ``html_dir`` into ``out``; return what was printed."""
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader, PdfWriter

    exe = chromium()
    if exe is None:
        raise RuntimeError("Chromium is not installed (Debian: apt-get install chromium, or make system): no PDF")
    html_dir, out = Path(html_dir), Path(out)
    docs = [d for d in docnames(root) if not d.startswith("book/api/")]  # the API reference is read online
    missing = [d for d in docs if not (html_dir / f"{d}.html").is_file()]
    if missing:
        raise FileNotFoundError(f"{html_dir} lacks {missing}: build the book first (make book / make book-student)")
    config = yaml.safe_load((root / "_config.yml").read_text())
    start = time.perf_counter()
    printed, info = [], []
    with _serve(html_dir) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 1400})
        for doc in docs:
            page.goto(f"{url}/{doc}.html", wait_until="networkidle")
            page.add_style_tag(content=PRINT_CSS)
            meta = page.evaluate(PREPARE_PAGE)
            page.emulate_media(media="print")
            printed.append(page.pdf(format="A4", margin=MARGIN, print_background=True))
            info.append({"doc": doc, **meta, "pages": len(PdfReader(io.BytesIO(printed[-1])).pages)})
        # front matter: title page and contents, whose page numbers count from the title page
        first, contents = 3, []
        for item in info:
            contents.append((item["title"], first))
            first += item["pages"]
        front = _front_matter(config.get("title", "The book"), config.get("author", ""), edition, contents)
        page.set_content(front, wait_until="load")
        front_pdf = page.pdf(format="A4", margin=MARGIN, print_background=True)
        front_pages = len(PdfReader(io.BytesIO(front_pdf)).pages)
        if front_pages != 2:  # the contents spilled over a page: renumber once
            shift = front_pages - 2
            contents = [(t, p + shift) for t, p in contents]
            page.set_content(_front_matter(config.get("title", "The book"), config.get("author", ""), edition, contents))
            front_pdf = page.pdf(format="A4", margin=MARGIN, print_background=True)
        body_pages = sum(item["pages"] for item in info)
        page.set_content(_page_numbers(body_pages, front_pages + 1), wait_until="load")
        numbers = PdfReader(io.BytesIO(page.pdf(format="A4", prefer_css_page_size=True)))
        browser.close()
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(front_pdf)))
    k = 0
    for item, data in zip(info, printed):
        at = len(writer.pages)
        writer.append(PdfReader(io.BytesIO(data)))
        writer.add_outline_item(title=item["title"], page_number=at)
        for i in range(at, len(writer.pages)):
            writer.pages[i].merge_page(numbers.pages[k])
            k += 1
    writer.add_metadata({"/Title": config.get("title", ""), "/Author": config.get("author", ""), "/Subject": edition})
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=out.parent, suffix=".pdf", delete=False) as f:
        writer.write(f)
    Path(f.name).chmod(0o644)  # a temporary file is private; the edition is not
    Path(f.name).replace(out)
    return {"pdf": str(out), "pages": len(writer.pages), "seconds": round(time.perf_counter() - start, 1), "docs": info}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m dpsemantics.book.pdf", description=__doc__.split("\n\n")[0])
    p.add_argument("html_dir", type=Path, help="a built book, e.g. _build/html")
    p.add_argument("out", type=Path, help="the PDF to write")
    p.add_argument("--edition", default="", help='a line for the title page, e.g. "Student edition"')
    a = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        result = print_book(a.html_dir, a.out, edition=a.edition)
    except (RuntimeError, FileNotFoundError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"{result['pdf']}: {result['pages']} pages in {result['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
