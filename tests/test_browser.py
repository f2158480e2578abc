"""The built book in a real browser: math typeset, figures loaded, no console errors, no broken links.

Runs headless Debian Chromium (``make test`` installs it with apt-get where it can) through Playwright,
against the strict build served from a local HTTP server. Saves a screenshot of every page under
``_build/screenshots/`` (and the chapters in dark mode under ``_build/screenshots/dark/``). Where Chromium
is not installed the test is skipped with that reason, never passed.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import ROOT
from dpsemantics.book import docnames

HTML = ROOT / "_build" / "html"
SHOTS = ROOT / "_build" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
# Messages the third-party theme itself logs on a first visit; they are not faults of the book.
KNOWN_THEME_MESSAGES = ("Got invalid theme mode",)

# Text left in the page after MathJax has run that means some TeX was not typeset.
RAW_TEX_SCRIPT = r"""
() => {
  const skip = new Set(['PRE', 'CODE', 'SCRIPT', 'STYLE', 'TEXTAREA', 'MJX-CONTAINER', 'MJX-ASSISTIVE-MML']);
  const found = [];
  const walker = document.createTreeWalker(document.querySelector('main') || document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    let el = node.parentElement, skipped = false;
    while (el) { if (skip.has(el.tagName) || el.classList.contains('highlight') || el.classList.contains('output')) { skipped = true; break; } el = el.parentElement; }
    if (skipped) continue;
    const t = node.textContent;
    if (/\\\(|\\\[|\$\$|\\begin\{|\\varepsilon|\\mathcal/.test(t)) found.push(t.trim().slice(0, 80));
  }
  return found;
}
"""

BROKEN_IMAGES_SCRIPT = """
() => Array.from(document.querySelectorAll('main img')).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)
"""

FIGURES_WITHOUT_ALT = """
() => Array.from(document.querySelectorAll('main figure img')).filter(i => !(i.alt && i.alt.trim())).map(i => i.src)
"""


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in ("img", "script") and attrs.get("src"):
            self.links.append(attrs["src"])
        if tag == "link" and attrs.get("href"):
            self.links.append(attrs["href"])


@functools.lru_cache(maxsize=None)
def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_no_broken_internal_links(strict_build):
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    broken = []
    for doc in docnames():
        page = HTML / f"{doc}.html"
        for href in _parse(page).links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{doc}: {href} (no file {target.relative_to(HTML.resolve()) if HTML.resolve() in target.parents else target})")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _parse(target).ids:
                broken.append(f"{doc}: {href} (no anchor #{parts.fragment})")
    assert not broken, "broken internal links:\n" + "\n".join(broken)


def test_no_cdn_for_mathjax(strict_build):
    assert strict_build.returncode == 0
    for page in HTML.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "cdn.jsdelivr.net/npm/mathjax" not in text and "mathjax@" not in text, f"{page} loads MathJax from a CDN"
    assert (HTML / "_static" / "mathjax" / "tex-chtml.js").is_file()


@pytest.fixture(scope="module")
def server(strict_build):
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(HTML))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); the browser test did not run")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _visit(browser, url: str, shot: Path, *, dark: bool = False) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark" if dark else "light")
    if dark:
        context.add_init_script("localStorage.setItem('mode', 'dark'); localStorage.setItem('theme', 'dark');")
    page = context.new_page()
    errors, failed = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(url, wait_until="load")
    if page.evaluate("!!document.querySelector('script[src*=\"mathjax\"]')"):  # Sphinx adds MathJax only where there is math
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=30000)
        page.evaluate("MathJax.startup.promise")
    result = {
        "errors": [e for e in errors if not any(k in e for k in KNOWN_THEME_MESSAGES)],
        "failed": failed,
        "raw_tex": page.evaluate(RAW_TEX_SCRIPT),
        "typeset": page.evaluate("document.querySelectorAll('mjx-container').length"),
        "broken_images": page.evaluate(BROKEN_IMAGES_SCRIPT),
        "figures_without_alt": page.evaluate(FIGURES_WITHOUT_ALT),
        "images": page.evaluate("document.querySelectorAll('main img').length"),
    }
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=True)
    context.close()
    return result


@pytest.mark.parametrize("doc", docnames())
def test_page_renders_in_browser(browser, server, doc):
    r = _visit(browser, f"{server}/{doc}.html", SHOTS / f"{doc.replace('/', '-')}.png")
    assert not r["errors"], f"console errors on {doc}: {r['errors']}"
    assert not r["failed"], f"failed requests on {doc}: {r['failed']}"
    assert not r["raw_tex"], f"untypeset TeX on {doc}: {r['raw_tex'][:5]}"
    assert not r["broken_images"], f"images that did not load on {doc}: {r['broken_images']}"
    assert not r["figures_without_alt"], f"figures without alt text on {doc}: {r['figures_without_alt']}"
    html = (HTML / f"{doc}.html").read_text(encoding="utf-8")
    if "\\(" in html or "\\[" in html:
        assert r["typeset"] > 0, f"{doc} has math but MathJax typeset nothing"


@pytest.mark.parametrize("doc", [d for d in docnames() if (ROOT / f"{d}.ipynb").exists()])
def test_chapter_in_dark_mode(browser, server, doc):
    r = _visit(browser, f"{server}/{doc}.html", SHOTS / "dark" / f"{doc.replace('/', '-')}.png", dark=True)
    assert not r["errors"] and not r["broken_images"] and not r["raw_tex"]
