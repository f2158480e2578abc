"""The built book in a real browser: what a reader sees at 1280 px, page by page.

Every page must show typeset math (no MathJax input error) and never raw TeX or pseudo-TeX (``e^{ε}``,
``e^ε``) as text, numbers through the
book's formatter and never a NumPy repr (``np.float64(...)``) or a float's 17 digits, theorem titles
without doubled parentheses, no blank cross-reference ("Proposition " with no number or name), no table
wider than the text column, no character that no installed font can draw, and no serious or critical
accessibility violation (axe-core).  Figures load and have alt text; no console errors, no broken links.

Runs headless Debian Chromium (``make test`` installs it with apt-get where it can) through Playwright,
against the strict build served from a local HTTP server. Saves a screenshot of every page under
``_build/screenshots/`` (and the chapters in dark mode under ``_build/screenshots/dark/``). Where Chromium
is not installed the test is skipped with that reason, never passed.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import subprocess
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import ROOT
from dpsemantics.book import chapter_notebooks, docnames

HTML = ROOT / "_build" / "html"
SHOTS = ROOT / "_build" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
# Messages the third-party theme itself logs on a first visit; they are not faults of the book.
KNOWN_THEME_MESSAGES = ("Got invalid theme mode",)

# Text left in the page after MathJax has run that means some TeX was not typeset: TeX delimiters and commands,
# pseudo-TeX (``e^{ε}``, ``x_{i}``), and a bare caret between a letter, digit or closing parenthesis and a
# character that is not a space (``e^ε``, ``2^k``, ``(1+x)^2``), and a MyST directive left as text (````{table}``).
# One pattern, used by the page walk below and
# by :func:`raw_tex`, which the unit test checks on sample strings.
RAW_TEX_PATTERN = (r"\\\(|\\\[|\$\$|\\begin\{|\\[a-zA-Z]{2,}|[\^_]\{|[A-Za-z0-9)\u0370-\u03ff]\^[^\s{]|```\{|:::\{"
                   # a MyST role left as text (a {glue:md} paste is CommonMark: "{claim}`id`" shows as "{claim}id")
                   r"|\{(?:claim|numref|ref|doc|prf:ref|cite(?::[pt])?|glue(?::\w+)?|eq|term|download)\}")


def raw_tex(text: str) -> bool:
    """Whether ``text`` (seen as text on a page, outside math and code) shows TeX that was not typeset."""
    return re.search(RAW_TEX_PATTERN, text) is not None


# A walk over the text a reader reads in ``main``: each text node outside the given tags and classes, matched
# against a pattern; reported with the text around the match.  Shared by the raw-TeX and bare-index checks.
TEXT_WALK_SCRIPT = r"""
([pattern, skipTags, skipClasses]) => {
  const hit = new RegExp(pattern);
  const skip = new Set(skipTags);
  const found = [];
  const walker = document.createTreeWalker(document.querySelector('main') || document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    let el = node.parentElement, skipped = false;
    while (el) { if (skip.has(el.tagName) || skipClasses.some(c => el.classList.contains(c))) { skipped = true; break; } el = el.parentElement; }
    if (skipped) continue;
    const t = node.textContent;
    const m = hit.exec(t);
    if (m) found.push(t.slice(Math.max(0, m.index - 40), m.index + 40).replace(/\s+/g, ' ').trim());
  }
  return found;
}
"""
_MATH_AND_SCRIPTS = ["SCRIPT", "STYLE", "TEXTAREA", "MJX-CONTAINER", "MJX-ASSISTIVE-MML"]
# untypeset TeX: in prose, outside code and printed output
RAW_TEX_ARGS = [RAW_TEX_PATTERN, ["PRE", "CODE", *_MATH_AND_SCRIPTS], ["highlight", "cell_input"]]

# What a reader sees that only a program should: NumPy reprs, floats printed to 12+ digits and Python's
# exponent form (1e-06, 2.5e-7: a reader writes 10⁻⁶, book.number's form), in text and in cell outputs (code
# shown as code is not judged: cell inputs, inline literals such as ``f(0.5, 1e-5)``, and the API pages' Sphinx
# signatures, dt.sig, whose defaults such as tol=1e-12 are Python).
NUMBER_REPRS_SCRIPT = r"""
() => {
  const root = document.querySelector('main') || document.body;
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    let el = node.parentElement, skipped = false;
    while (el) { if (['SCRIPT', 'STYLE', 'CODE', 'MJX-CONTAINER'].includes(el.tagName) || el.classList.contains('cell_input') || el.classList.contains('sig')) { skipped = true; break; } el = el.parentElement; }
    if (skipped) continue;
    const m = node.textContent.match(/np\.(float|int|bool|str)\w*\(|\barray\(|np\.True_|np\.False_|\d\.\d{12,}|(^|[^\w.])\d+(\.\d+)?e[-+]?\d+(?!\w|\.\d)/);
    if (m) found.push(node.textContent.trim().slice(0, 80));
  }
  return found;
}
"""

# Theorem-box titles with doubled parentheses ("Definition ((…) …)"), and cross-references with no number
# and no name ("Proposition " — sphinx-proof's rendering of a reference to an unnumbered box).
TITLES_AND_REFERENCES_SCRIPT = r"""
() => {
  const main = document.querySelector('main') || document.body;
  const titles = Array.from(main.querySelectorAll('.admonition-title'))
    .map(e => e.textContent.replace(/\s+/g, ' ').trim()).filter(t => /\(\s*\(|\)\s*\)/.test(t.replace(/\$[^$]*\$/g, '')));
  const blank = Array.from(main.querySelectorAll('a.reference.internal'))
    .filter(a => !a.querySelector('img'))
    .map(a => a.textContent.replace(/\s+/g, ' ').trim())
    .filter(t => t === '' || /^(Theorem|Lemma|Definition|Proposition|Corollary|Remark|Example|Exercise|Solution|Fig\.|Figure|Table|Equation|Algorithm|Conjecture|Axiom|Criterion|Property|Observation)\.?$/.test(t));
  return {titles, blank};
}
"""

# A link whose text repeats the words just before it: "Theorem 3.1 (Kazan et al., Theorem 3.1)".
DOUBLED_LINKS_SCRIPT = r"""
() => {
  const kinds = /(Theorem|Lemma|Corollary|Definition|Proposition|Example|Remark|Figure|Table|Equation)\s+([\w.]+)\s*\(?\s*$/;
  const found = [];
  for (const a of document.querySelectorAll('main a.reference')) {
    let before = '', n = a.previousSibling;
    while (n && before.length < 60) { before = (n.textContent || '') + before; n = n.previousSibling; }
    const m = kinds.exec(before);
    const text = a.textContent.replace(/\s+/g, ' ');
    if (m && new RegExp('\\b' + m[1] + '\\s+' + m[2].replace(/\./g, '\\.') + '\\b').test(text))
      found.push((m[0] + text).replace(/\s+/g, ' ').trim().slice(0, 80));
  }
  return found;
}
"""

# Tables that do not fit the text column (they would scroll, or run past it).
WIDE_TABLES_SCRIPT = r"""
() => {
  const article = document.querySelector('main article') || document.querySelector('main');
  const column = article.getBoundingClientRect();
  return Array.from(article.querySelectorAll('table')).filter(t => {
    const r = t.getBoundingClientRect(), holder = t.parentElement.getBoundingClientRect();
    return t.scrollWidth > t.clientWidth + 1 || r.right > Math.min(column.right, holder.right) + 1 || r.width > column.width + 1;
  }).map(t => (t.querySelector('tr') || t).textContent.replace(/\s+/g, ' ').trim().slice(0, 60));
}
"""

# Typeset math that runs past the text column (a long inline formula cannot break; Theorem A.2's was clipped).
WIDE_MATH_SCRIPT = r"""
() => {
  const article = document.querySelector('main article') || document.querySelector('main');
  const right = article.getBoundingClientRect().right;
  return Array.from(article.querySelectorAll('mjx-container')).filter(m => {
    if (m.closest('table, .table-wrapper')) return false;  // tables have their own check
    const r = m.getBoundingClientRect();
    const margin = m.closest('aside.margin, aside.sidebar');  // a margin note stands beside the column: its own edge
    const edge = margin ? margin.getBoundingClientRect().right : right;
    return r.width > 0 && (r.right > edge + 1 || m.scrollWidth > m.clientWidth + 1 && getComputedStyle(m).overflowX !== 'visible');
  }).map(m => (m.getAttribute('aria-label') || m.textContent).replace(/\s+/g, ' ').trim().slice(0, 60));
}
"""

# Printed cell output or code whose lines run past its box: the reader would have to scroll sideways to read it.
WIDE_OUTPUTS_SCRIPT = r"""
() => Array.from(document.querySelectorAll('main .cell_output pre, main .output pre, main .cell_input pre'))
  .filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.replace(/\s+/g, ' ').trim().slice(0, 60))
"""

# An identifier set as code in a table (a claim id, a function's path) broken across lines inside a word
# ("dpsemantics.boo / k.coursework", "improvemen / t"): a line may end only after a dot, underscore, hyphen or slash.
SPLIT_IDENTIFIERS_SCRIPT = r"""
() => {
  const found = [], range = document.createRange();
  for (const code of document.querySelectorAll('main table code')) {
    let prevTop = null, prev = '', split = false;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    while (walker.nextNode() && !split) {
      const n = walker.currentNode;
      for (let i = 0; i < n.length; i++) {
        range.setStart(n, i); range.setEnd(n, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) continue;
        const top = Math.round(rects[0].top), c = n.data[i];
        if (prevTop !== null && top > prevTop + 2 && /\w/.test(prev) && prev !== '_' && /\w/.test(c)) { split = true; break; }
        prevTop = top; prev = c;
      }
    }
    if (split) found.push(code.textContent.trim().slice(0, 60));
  }
  return found;
}
"""

# Code a reader sees (a cell's input, not collapsed) that wraps: the book's CSS wraps long lines instead of letting them
# run past the column (WIDE_OUTPUTS_SCRIPT), so a line too long for the column shows as more lines than it has.
WRAPPED_CODE_SCRIPT = r"""
() => Array.from(document.querySelectorAll('main .cell_input pre')).filter(p => {
  if (!p.offsetParent || (p.checkVisibility && !p.checkVisibility())) return false;  // a collapsed input is not seen
  const cs = getComputedStyle(p);
  const lineHeight = parseFloat(cs.lineHeight) || 1.25 * parseFloat(cs.fontSize);
  const lines = p.textContent.replace(/\n$/, '').split('\n').length;
  const height = p.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
  return height > (lines + 0.5) * lineHeight;
}).map(p => p.textContent.split('\n').reduce((a, b) => (b.length > a.length ? b : a), '').trim().slice(0, 60))
"""

# Every character drawn as text (math is drawn by MathJax's own fonts and excluded).
CHARACTERS_SCRIPT = r"""
() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const chars = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    let el = node.parentElement, skipped = false;
    while (el) { if (['SCRIPT', 'STYLE', 'MJX-CONTAINER', 'NOSCRIPT'].includes(el.tagName)) { skipped = true; break; } el = el.parentElement; }
    if (skipped) continue;
    for (const c of node.textContent) if (c.codePointAt(0) > 0x7e) chars.add(c);
  }
  return Array.from(chars);
}
"""

# What a reader sees in a cell's output that only a program should: a dict, list or tuple repr, Python's True,
# False, None, inf and nan, and variable names (``eps``, ``delta_hat``, ``x_i``).  Outputs are prose, tables and
# figures.  One pattern, shared by the page walk and :func:`python_in_output` (unit-tested on sample strings).
# Exercise solutions are judged too: a solution shows its numbers and its check as a table
# (``book.notebook.quantities(..., check=...)``), the answers' variables set as code.
PYTHON_OUTPUT_PATTERN = (r"\{\s*(['\"(]|[-\d.]+\s*:)|\[\(|\b(True|False|None)\b(?!\s+[a-z]|\.\s+[A-Z])|\b(inf|nan)\b"
                         r"|\b(eps|delta|epsilon|sigma|rho)\b(?!\s*\()|\b[a-z]+_[a-z0-9_]+\b")
# Printed output (``pre``) that is a tuple or list: one line, in brackets, with a comma; in a table cell "(1, 0)"
# is the book's notation for a pair of parameters, in printed output it is Python's.
PRINTED_SEQUENCE_PATTERN = r"^\s*[\[(][^\n]*,[^\n]*[\])]\s*$"


def python_in_output(text: str, printed: bool = False) -> bool:
    """Whether ``text`` (one cell output as a reader sees it; ``printed``: a ``pre`` block) shows Python data or
    names rather than prose."""
    return re.search(PYTHON_OUTPUT_PATTERN, text) is not None or (
        printed and re.search(PRINTED_SEQUENCE_PATTERN, text, re.MULTILINE) is not None)


# Code-like strings in what a reader reads as content (issue 39): every table cell and caption of the page, and every
# sentence a cell generated (its output's paragraphs and list items).  A call (``gaussian_sigma(``), a name with an
# underscore, a list repr (``[0.5, 0.0, 0.0, 0.5]``) or tuples run together (``(0,0),(0,1)``), a case number
# (``#0``), an equals sign without spaces (``n=10``) and a star for times (``0.999*max``).  Code (claim ids, which are
# links set as code), math and the heading links' ``#`` are not judged, and neither is an event in mathematical
# notation, which writes = without spaces by convention (``Pr[O=3 | do(D₁=1)]``, ``M[Y:=0]``): those are removed
# first, innermost first (MATH_EVENT_PATTERN).  One pair of patterns, shared by the page walk and
# :func:`code_like` (unit-tested on sample strings).
MATH_EVENT_PATTERN = r"\b(?:Pr|Cr|P|do|M|RP)\s?[\[(][^\[\]()]*[\])]|\([^\[\]()=]*\)"
CODE_LIKE_PATTERN = (
    r"\b(?!(?:log|ln|exp|tanh|artanh|logit|sinh|cosh|min|max|sup|inf|median|clamp|Pr|Cr|Var|SD|TV|RP|do)\()"
    r"[A-Za-z_][A-Za-z0-9_]+\((?!s\))"                    # a call: name(  (not a plural: relative(s))
    r"|[A-Za-z0-9]_(?!\s)|(?<!\w)_[A-Za-z]"               # a name with an underscore
    r"|\[\s*[-'\"\d.]+[^\[\]]*,[^\[\]]*,[^\[\]]*\]|\),\("  # a list repr; tuples run together
    r"|#\s?\d"                                             # a case number
    r"|[^\s:=<>!≤≥≠]=(?!=)|(?<!:)=[^\s=]"                  # = without spaces (not := or ==)
    r"|[\w)]\*[\w(]|[\w)] \* [\w(]"                        # a star for times (not p*, the optimum)
)


def code_like(text: str) -> bool:
    """Whether ``text`` (a table cell or a generated sentence, code and math removed) reads as code."""
    while True:
        stripped = re.sub(MATH_EVENT_PATTERN, " ", text)
        if stripped == text:
            break
        text = stripped
    return re.search(CODE_LIKE_PATTERN, text) is not None


CODE_LIKE_SCRIPT = r"""
([pattern, eventPattern]) => {
  const code = new RegExp(pattern), event = new RegExp(eventPattern, 'g');
  const found = [];
  const main = document.querySelector('main') || document.body;
  for (const part of main.querySelectorAll('td, th, caption, .cell_output p, .cell_output li')) {
    if (!['TD', 'TH'].includes(part.tagName) && part.querySelector('td, p, li')) continue;
    if (part.closest('.highlight, pre')) continue;
    const copy = part.cloneNode(true);
    copy.querySelectorAll('code, mjx-container, .math, script, .headerlink').forEach(e => e.remove());
    let t = copy.textContent.replace(/\s+/g, ' ').trim(), before;
    do { before = t; t = t.replace(event, ' '); } while (t !== before);
    const m = code.exec(t);
    if (m) found.push(t.slice(Math.max(0, m.index - 40), m.index + 40).trim());
  }
  return [...new Set(found)];
}
"""

# The page at a phone's width: the document must not be wider than the viewport (a page that scrolls sideways).
PHONE = {"width": 390, "height": 844}
PAGE_WIDTH_SCRIPT = r"""
() => {
  const doc = document.documentElement, wide = [];
  if (doc.scrollWidth > doc.clientWidth + 1) {
    for (const e of document.querySelectorAll('main *')) {
      const r = e.getBoundingClientRect();
      if (r.right > doc.clientWidth + 1 && !e.closest('.table-wrapper, .pst-scrollable-table-container, mjx-container, '
                                                       + 'div.highlight, .cell_output, .MathJax, .bd-sidebar-secondary'))
        wide.push(`${e.tagName.toLowerCase()}${e.className ? '.' + String(e.className).split(' ')[0] : ''}: `
                  + `${Math.round(r.right)} px: ${(e.textContent || '').trim().slice(0, 40)}`);
      if (wide.length >= 5) break;
    }
  }
  return {scroll: doc.scrollWidth, client: doc.clientWidth, wide};
}
"""


PYTHON_IN_OUTPUTS_SCRIPT = r"""
([pattern, printedPattern]) => {
  const python = new RegExp(pattern), printed = new RegExp(printedPattern, 'm');
  const found = [];
  for (const out of document.querySelectorAll('main .cell_output')) {
    for (const part of out.querySelectorAll('pre, p, li, td, th, caption')) {
      if (part.closest('mjx-container') || part.querySelector('pre, p, li, td')) continue;
      const copy = part.cloneNode(true);  // identifiers set as code (claim ids) and typeset math are not judged
      copy.querySelectorAll('code, mjx-container').forEach(e => e.remove());
      const t = copy.textContent;
      const m = python.exec(t) || (part.tagName === 'PRE' ? printed.exec(t) : null);
      if (m) found.push(t.slice(Math.max(0, m.index - 30), m.index + 50).replace(/\s+/g, ' ').trim());
    }
  }
  return found;
}
"""

# An index typed as plain text (``ε_DP``, ``x_i ∈ S``, ``δ_PDP(ε)``) in prose, headers, tables and outputs (code and
# math are exempt): it must be a subscript.  ``a_b`` with a letter before the underscore and a letter, digit or
# bracket after it, not inside a longer identifier's word (``prog_A`` is caught too: a name, not prose).
BARE_INDEX_PATTERN = r"[A-Za-z\u0370-\u03ff][\u0300-\u036f]?_[^\s_.,;:!?)\]}'\"<]"


def bare_index(text: str) -> bool:
    return re.search(BARE_INDEX_PATTERN, text) is not None


# bare indices: in prose and in printed output too, outside code and signatures; ``onlyprint`` is the theme's print-only
# copy of the page title, markup stripped (on screen the title sets `notion_map` as code)
BARE_INDEX_ARGS = [BARE_INDEX_PATTERN, ["CODE", *_MATH_AND_SCRIPTS], ["highlight", "cell_input", "sig", "onlyprint"]]

# Symbols (arrows, operators, shapes, dingbats) must be drawn by the element's own text font or by a symbol font
# the page's CSS declares for them (an @font-face with local() sources named in the element's font-family), never
# by whatever font the system falls back on (Liberation Sans draws ⇔ at half size).  The page walk wraps each such
# character in a span, and Chromium (DevTools: CSS.getPlatformFontsForNode) says which font drew it.
SYMBOL_CHARACTERS = r"[\u2190-\u23ff\u25a0-\u25ff\u2700-\u27bf\u27f0-\u27ff\u2900-\u297f\u2a00-\u2aff]"
MARK_SYMBOLS_SCRIPT = r"""
(pattern) => {
  const symbol = new RegExp(pattern);
  const main = document.querySelector('main') || document.body;
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  const aliases = {};
  for (const sheet of document.styleSheets) {
    let rules; try { rules = sheet.cssRules; } catch (e) { continue; }
    for (const r of rules) if (r instanceof CSSFontFaceRule) {
      const family = r.style.getPropertyValue('font-family').replace(/["']/g, '').trim();
      const locals = [...r.style.getPropertyValue('src').matchAll(/local\(["']?([^"')]+)["']?\)/g)].map(m => m[1]);
      aliases[family] = (aliases[family] || []).concat(locals);
    }
  }
  let k = 0;
  const marks = [];
  for (const node of nodes) {
    const parent = node.parentElement;
    if (!parent || parent.closest('mjx-container, script, style, svg')) continue;
    const text = node.textContent;
    if (!symbol.test(text)) continue;
    const declared = getComputedStyle(parent).fontFamily.split(',').map(f => f.replace(/["']/g, '').trim())
      .flatMap(f => aliases[f] || []);
    parent.setAttribute('data-symbol-host', String(k));
    const frag = document.createDocumentFragment();
    for (const c of text) {
      if (symbol.test(c)) {
        const s = document.createElement('span');
        s.setAttribute('data-symbol', String(k)); s.textContent = c; frag.appendChild(s);
        marks.push({k, c, declared, context: text.trim().slice(0, 40)});
      } else frag.appendChild(document.createTextNode(c));
    }
    node.replaceWith(frag);
    k++;
  }
  return marks;
}
"""


def symbols_from_fallback_fonts(page) -> list[str]:
    """The symbols on ``page`` drawn by a font that is neither their element's text font nor a symbol font the
    page declares for them (see ``MARK_SYMBOLS_SCRIPT``); changes the page's DOM (run it last)."""
    marks = page.evaluate(MARK_SYMBOLS_SCRIPT, SYMBOL_CHARACTERS)
    if not marks:
        return []
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]

    def fonts(selector):
        ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
        return [cdp.send("CSS.getPlatformFontsForNode", {"nodeId": i})["fonts"] for i in ids]

    found = []
    for mark in marks:
        host = fonts(f'[data-symbol-host="{mark["k"]}"]')
        text_font = max(host[0], key=lambda f: f["glyphCount"])["familyName"] if host and host[0] else None
        drawn = {f["familyName"] for spans in fonts(f'[data-symbol="{mark["k"]}"]') for f in spans}
        bad = drawn - {text_font} - set(mark["declared"])
        if bad:
            found.append(f'{mark["c"]} drawn by {", ".join(sorted(bad))} (text font {text_font}) in '
                         f'"{mark["context"]}"')
    cdp.detach()
    return sorted(set(found))


BROKEN_IMAGES_SCRIPT = """
() => Array.from(document.querySelectorAll('main img')).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)
"""

FIGURES_WITHOUT_ALT = """
() => Array.from(document.querySelectorAll('main figure img')).filter(i => !(i.alt && i.alt.trim())).map(i => i.src)
"""


# Numbers glued into the prose (``{glue:text}``): the book's glue role marks each pasted text with its key and
# format (``glue-key-x glue-format-.6f``, dpsemantics.book.sphinx_extras); myst-nb keeps the glued values
# (``NAME.glue.json``), floats with every digit (dpsemantics.book.notebook.glue).  A page must show each glued
# number right to its last digit: the shown number within half a unit of its last digit of the glued value.
GLUED = ROOT / "_build" / "jupyter_execute"
_SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_SHOWN_NUMBER = re.compile(
    r"^(?P<sign>[-−]?)(?P<mantissa>\d[\d  ]*(?:\.\d+)?)?(?:(?:^|×)10(?P<exp>[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+))?(?P<pct>%?)$")


class _Pasted(HTMLParser):
    """The texts a page pastes from glue: (key, format, shown text), in page order."""

    def __init__(self):
        super().__init__()
        self.pasted, self._open = [], None

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        key = next((c[len("glue-key-"):] for c in classes if c.startswith("glue-key-")), None)
        if key is not None:
            fmt = next((c[len("glue-format-"):] for c in classes if c.startswith("glue-format-")), "none")
            self._open = [key, fmt, ""]

    def handle_data(self, data):
        if self._open is not None:
            self._open[2] += data

    def handle_endtag(self, tag):
        if self._open is not None and tag == "span":
            self.pasted.append(tuple(self._open))
            self._open = None


def shown_number(text: str):
    """A number as a page shows it (``0.100019``, ``−2.5×10⁻⁶``, ``10⁻⁵``, ``12 345``, ``95%``) as (value, half a
    unit of its last digit), or ``None`` when ``text`` is not a number."""
    m = _SHOWN_NUMBER.match(text.strip())
    if m is None or (m.group("mantissa") is None and m.group("exp") is None):
        return None
    mantissa = (m.group("mantissa") or "1").replace(" ", "").replace("\u202f", "").replace("\u00a0", "")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    scale = (10.0 ** int(m.group("exp").translate(_SUPERSCRIPTS)) if m.group("exp") else 1.0) * (0.01 if m.group("pct")
                                                                                                 else 1.0)
    sign = -1 if m.group("sign") else 1
    if m.group("mantissa") is None:  # "10⁻⁵" shows one significant digit
        return sign * scale, 0.5 * scale
    return sign * float(mantissa) * scale, 0.5 * 10.0 ** -decimals * scale


def wrong_glued_digits(html: str, glued: dict) -> list[str]:
    """The glued numbers ``html`` shows with wrong digits: not the glued value (``glued``: key → its text/plain)
    rounded to the digits shown, or a number glued as text (already rounded) and formatted again with a
    number format (``{glue:text}`x:.6f``` of a glued "0.1" shows "0.100000": digits that were never
    computed)."""
    from ast import literal_eval

    parser = _Pasted()
    parser.feed(html)
    wrong = []
    for key, fmt, text in parser.pasted:
        if key not in glued:
            wrong.append(f"{key}: shown {text!r}, nothing glued under that name")
            continue
        try:
            value = literal_eval(glued[key])
        except (SyntaxError, ValueError):
            value = glued[key]
        if isinstance(value, str):
            if fmt != "none" and fmt[-1] in "eEfFgGn%":
                wrong.append(f"{key}: glued as text {value!r}, formatted again with :{fmt} to {text!r}")
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        shown = shown_number(text)
        if shown is None:
            wrong.append(f"{key}: glued {value!r}, shown {text!r}, which is not a number")
        elif abs(shown[0] - value) > shown[1] * (1 + 1e-9) + 1e-300:
            wrong.append(f"{key}: glued {value!r}, shown {text!r}")
    return wrong


def _glued_values(doc: str) -> dict:
    path = GLUED / f"{doc}.glue.json"
    if not path.is_file():
        return {}
    import json

    return {k: v["data"].get("text/plain", "") for k, v in json.loads(path.read_text(encoding="utf-8")).items()}


def test_glued_numbers_show_right_digits(strict_build):
    """Issue 25: every number glued into a chapter's prose is the glued value rounded to the digits shown."""
    assert strict_build.returncode == 0
    wrong, checked = [], 0
    for doc in docnames():
        if not (ROOT / f"{doc}.ipynb").exists():
            continue
        html = (HTML / f"{doc}.html").read_text(encoding="utf-8")
        found = wrong_glued_digits(html, _glued_values(doc))
        wrong += [f"{doc}: {w}" for w in found]
        parser = _Pasted()
        parser.feed(html)
        checked += len(parser.pasted)
    assert checked > 100, f"only {checked} glued numbers found on the chapters: is the glue role marking them?"
    assert not wrong, "glued numbers shown with wrong digits:\n" + "\n".join(wrong)


@pytest.mark.parametrize("glued, html", [
    ("0.1000190", '<span class="pasted-text glue-key-x glue-format-.6f">0.100000</span>'),
    ("2.1972245773362196", '<span class="pasted-text glue-key-x glue-format-.4f">2.1970</span>'),
    ("1.6487212707001282", '<span class="pasted-text glue-key-x glue-format-.4f">1.6490</span>'),
    ("2.0077", '<span class="pasted-text glue-key-x glue-format-.3f">2.008</span> <span class="pasted-text glue-key-y '
     'glue-format-.4f">2.0080</span>'),
    ("3.7e-05", '<span class="pasted-text glue-key-x glue-format-none">3.8×10⁻⁵</span>'),
    ("0.957", '<span class="pasted-text glue-key-x glue-format-.0%">95%</span>'),
    ("'0.1'", '<span class="pasted-text glue-key-x glue-format-.6f">0.100000</span>'),  # text formatted twice
    ("0.5", '<span class="pasted-text glue-key-x glue-format-none">True</span>'),
])
def test_wrong_glued_digits_catches(glued, html):
    assert wrong_glued_digits(html, {"x": glued, "y": glued})


@pytest.mark.parametrize("glued, html", [
    ("0.1000190", '<span class="pasted-text glue-key-x glue-format-.6f">0.100019</span>'),
    ("2.1972245773362196", '<p>so <span class="pasted-text glue-key-x glue-format-.4f">2.1972</span> here</p>'),
    ("3.718e-05", '<span class="pasted-text glue-key-x glue-format-none">3.718×10⁻⁵</span>'),
    ("1e-05", '<span class="pasted-text glue-key-x glue-format-none">10⁻⁵</span>'),
    ("12345", '<span class="pasted-text glue-key-x glue-format-none">12 345</span>'),
    ("0.9573", '<span class="pasted-text glue-key-x glue-format-.1%">95.7%</span>'),
    ("-0.25", '<span class="pasted-text glue-key-x glue-format-.2f">−0.25</span>'),
    ("'2.5×10⁻⁶'", '<span class="pasted-text glue-key-x glue-format-none">2.5×10⁻⁶</span>'),
])
def test_wrong_glued_digits_passes(glued, html):
    assert wrong_glued_digits(html, {"x": glued}) == []


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
                broken.append(
                    f"{doc}: {href} (no file "
                    f"{target.relative_to(HTML.resolve()) if HTML.resolve() in target.parents else target})")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _parse(target).ids:
                broken.append(f"{doc}: {href} (no anchor #{parts.fragment})")
    assert not broken, "broken internal links:\n" + "\n".join(broken)


def test_no_cdn_for_mathjax(strict_build):
    assert strict_build.returncode == 0
    for page in HTML.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "cdn.jsdelivr.net/npm/mathjax" not in text and "mathjax@" not in text, f"{page} loads MathJax from a CDN"
    assert (HTML / "_static" / "mathjax" / "tex-chtml.js").is_file()


class _FigureImages(HTMLParser):
    """``(src, alt)`` of every ``<img>`` inside a ``<figure>``, and how many inline ``<svg>`` figures have no
    name (neither ``<title>`` nor ``aria-label``)."""

    def __init__(self):
        super().__init__()
        self.images, self.unnamed_svgs = [], 0
        self._figures, self._svg = 0, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "figure":
            self._figures += 1
        elif tag == "img" and self._figures:
            self.images.append((attrs.get("src", ""), attrs.get("alt") or ""))
        elif tag == "svg" and self._figures and self._svg is None:
            self._svg = bool(attrs.get("aria-label"))
        elif tag == "title" and self._svg is not None:
            self._svg = True

    def handle_endtag(self, tag):
        if tag == "figure":
            self._figures -= 1
        elif tag == "svg" and self._svg is not None:
            self.unnamed_svgs += not self._svg
            self._svg = None


def figure_alt_faults(page: Path) -> list[str]:
    """The figures of ``page`` whose alt text is missing or holds a number their data do not give: an SVG must
    carry the description :func:`dpsemantics.book.plotting.finish` read from the figure and its alt must end
    with it, every number of the alt rounding from a drawn value; a picture without drawn values (a PNG, a
    hand-made SVG) may hold no number in its alt; an inline SVG needs a title."""
    from dpsemantics.book import alt_text

    parser = _FigureImages()
    parser.feed(page.read_text(encoding="utf-8"))
    faults = [f"{parser.unnamed_svgs} inline SVG figures without a title"] if parser.unnamed_svgs else []
    for src, alt in parser.images:
        if not alt.strip():
            faults.append(f"{src}: no alt text")
            continue
        target = (page.parent / unquote(urlsplit(src).path)).resolve()
        found = alt_text.from_svg(target.read_text(encoding="utf-8")) if target.suffix == ".svg" and \
            target.is_file() else None
        if found is None:
            typed = [w for w, _, _ in alt_text.numbers_in(alt)]
            if typed:
                faults.append(f"{src}: numbers in an alt text not read from drawn data: {typed}")
            continue
        if not alt.endswith(found[0]):
            faults.append(f"{src}: the alt text is not the description read from the figure: {alt!r}")
        missing = alt_text.unfounded_numbers(alt, found[1])
        if missing:
            faults.append(f"{src}: numbers the figure does not draw: {missing}")
    return faults


def _alt_page(tmp_path, alt: str, svg: str | None) -> Path:
    if svg is not None:
        (tmp_path / "f.svg").write_text(svg, encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text(f'<main><figure><img src="f.{"svg" if svg is not None else "png"}" alt="{alt}"></figure>'
                    f'<figure><svg><title>x</title></svg></figure></main>', encoding="utf-8")
    return page


def test_figure_alt_faults_on_sample_pages(tmp_path):
    from dpsemantics.book import alt_text

    svg = alt_text.embed('<svg width="1px"></svg>', "Points (0.149, 0.0222), (0.532, 0.283).",
                         [0.149, 0.0222, 0.532, 0.283])
    assert figure_alt_faults(_alt_page(tmp_path, "Intent. Points (0.149, 0.0222), (0.532, 0.283).", svg)) == []
    assert figure_alt_faults(_alt_page(tmp_path, "Markers at 0.14. Points (0.149, 0.0222), (0.532, 0.283).", svg))
    assert figure_alt_faults(_alt_page(tmp_path, "Markers at 0.14 and 0.47.", svg))  # typed, not read
    assert figure_alt_faults(_alt_page(tmp_path, "", svg))
    assert figure_alt_faults(_alt_page(tmp_path, "A logo with 3 stars", None))
    assert figure_alt_faults(_alt_page(tmp_path, "The book's logo", None)) == []


def test_every_figure_alt_text_is_read_from_its_data(strict_build):
    """Issue 39: Fig 1.1's typed alt text put markers at 0.14 and 0.47, drawn at 0.149 and 0.532.  On the built
    book every figure's alt text is the figure's own description, with no number its data do not give."""
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    faults, pages = [], 0
    for doc in docnames():
        page = HTML / f"{doc}.html"
        if page.is_file():
            pages += 1
            faults += [f"{doc}: {f}" for f in figure_alt_faults(page)]
    assert pages and not faults, "figures whose alt text is not read from their data:\n" + "\n".join(faults)


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
    # Sphinx adds MathJax only where there is math
    if page.evaluate("!!document.querySelector('script[src*=\"mathjax\"]')"):
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=30000)
        page.evaluate("MathJax.startup.promise")
    result = {
        "errors": [e for e in errors if not any(k in e for k in KNOWN_THEME_MESSAGES)],
        "failed": list(failed),  # before axe runs: its CSS preloading requests @imports from the page's folder
        "raw_tex": page.evaluate(TEXT_WALK_SCRIPT, RAW_TEX_ARGS),
        "broken_images": page.evaluate(BROKEN_IMAGES_SCRIPT),
    }
    if not dark:  # the dark theme is checked for errors, images and math; the rest does not depend on the theme
        result |= _light_checks(page)
    _save_screenshots(page, shot)
    result["fallback_symbols"] = symbols_from_fallback_fonts(page) if not dark else []  # changes the DOM: last
    context.close()
    return result


def _light_checks(page) -> dict:
    return {
        "typeset": page.evaluate("document.querySelectorAll('mjx-container').length"),
        "math_errors": page.evaluate("Array.from(document.querySelectorAll('mjx-merror')).map(e => "
                                     "e.getAttribute('data-mjx-error'))"),
        "figures_without_alt": page.evaluate(FIGURES_WITHOUT_ALT),
        "images": page.evaluate("document.querySelectorAll('main img').length"),
        "number_reprs": page.evaluate(NUMBER_REPRS_SCRIPT),
        "titles_and_refs": page.evaluate(TITLES_AND_REFERENCES_SCRIPT),
        "wide_tables": page.evaluate(WIDE_TABLES_SCRIPT),
        "wide_outputs": page.evaluate(WIDE_OUTPUTS_SCRIPT),
        "wrapped_code": page.evaluate(WRAPPED_CODE_SCRIPT),
        "wide_math": page.evaluate(WIDE_MATH_SCRIPT),
        "split_identifiers": page.evaluate(SPLIT_IDENTIFIERS_SCRIPT),
        "doubled_links": page.evaluate(DOUBLED_LINKS_SCRIPT),
        "characters": page.evaluate(CHARACTERS_SCRIPT),
        "python_in_outputs": page.evaluate(PYTHON_IN_OUTPUTS_SCRIPT, [PYTHON_OUTPUT_PATTERN, PRINTED_SEQUENCE_PATTERN]),
        "code_like": page.evaluate(CODE_LIKE_SCRIPT, [CODE_LIKE_PATTERN, MATH_EVENT_PATTERN]),
        "bare_indices": page.evaluate(TEXT_WALK_SCRIPT, BARE_INDEX_ARGS),
        "accessibility": _serious_accessibility_violations(page),
    }


# Chromium leaves a full-page capture blank below about 65 000 px (the claims page is 85 000 px tall), and a
# picture that tall is unreadable anyway: a taller page is saved in slices of this height, doc-1.png, doc-2.png, …
SHOT_SLICE = 16_000


def _save_screenshots(page, shot: Path) -> list[Path]:
    """Save the whole page under ``shot``, or, when it is taller than :data:`SHOT_SLICE`, in numbered slices
    next to it (stale pictures of the page from an earlier run are removed first).  Returns the files."""
    shot.parent.mkdir(parents=True, exist_ok=True)
    for old in [shot, *shot.parent.glob(f"{shot.stem}-[0-9]*.png")]:
        old.unlink(missing_ok=True)
    width, height = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    if height <= SHOT_SLICE:
        page.screenshot(path=str(shot), full_page=True)
        return [shot]
    files = []
    for i, top in enumerate(range(0, height, SHOT_SLICE), start=1):
        files.append(shot.with_name(f"{shot.stem}-{i}.png"))
        clip = {"x": 0, "y": top, "width": width, "height": min(SHOT_SLICE, height - top)}
        page.screenshot(path=str(files[-1]), full_page=True, clip=clip)
    return files


def _serious_accessibility_violations(page) -> list[str]:
    """axe-core's serious and critical violations (WCAG 2 A/AA rules and best practices) on the page."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} element(s), e.g. {v['nodes'][0]['target']}"
            for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]


@functools.lru_cache(maxsize=None)
def _font_covers(char: str) -> bool:
    """Whether any installed font (fontconfig, which Chromium uses) has a glyph for ``char``."""
    proc = subprocess.run(["fc-list", f":charset={ord(char):x}", "family"], capture_output=True, text=True)
    return bool(proc.stdout.strip())


@pytest.mark.parametrize("doc", docnames())
def test_page_renders_in_browser(browser, server, doc):
    r = _visit(browser, f"{server}/{doc}.html", SHOTS / f"{doc.replace('/', '-')}.png")
    assert not r["errors"], f"console errors on {doc}: {r['errors']}"
    assert not r["failed"], f"failed requests on {doc}: {r['failed']}"
    assert not r["raw_tex"], f"untypeset TeX on {doc}: {r['raw_tex'][:5]}"
    assert not r["math_errors"], f"math MathJax could not typeset on {doc}: {r['math_errors'][:5]}"
    assert not r["broken_images"], f"images that did not load on {doc}: {r['broken_images']}"
    assert not r["figures_without_alt"], f"figures without alt text on {doc}: {r['figures_without_alt']}"
    assert not r["number_reprs"], f"number reprs on {doc}: {r['number_reprs'][:5]}"
    assert not r["titles_and_refs"]["titles"], \
        f"doubled parentheses in titles on {doc}: {r['titles_and_refs']['titles'][:5]}"
    assert not r["titles_and_refs"]["blank"], f"blank cross-references on {doc}: {r['titles_and_refs']['blank'][:5]}"
    assert not r["wide_tables"], f"tables wider than the text column on {doc}: {r['wide_tables']}"
    assert not r["wide_outputs"], f"cell outputs that scroll sideways on {doc}: {r['wide_outputs']}"
    assert not r["wrapped_code"], f"visible code lines too long for the column on {doc}: {r['wrapped_code'][:5]}"
    assert not r["wide_math"], f"equations wider than the text column on {doc}: {r['wide_math']}"
    assert not r["split_identifiers"], f"identifiers broken inside a word on {doc}: {r['split_identifiers'][:5]}"
    assert not r["doubled_links"], f"link texts that repeat the words before them on {doc}: {r['doubled_links']}"
    if shutil.which("fc-list"):
        missing = [f"U+{ord(c):04X} {c}" for c in r["characters"] if not _font_covers(c)]
        assert not missing, f"characters no installed font can draw on {doc}: {missing}"
    assert not r["python_in_outputs"], f"Python data or names in outputs on {doc}: {r['python_in_outputs'][:5]}"
    if not doc.startswith("book/api/"):  # the API reference documents code: its signatures and names are code
        assert not r["code_like"], f"code-like table cells or generated sentences on {doc}: {r['code_like'][:8]}"
    # every page, the API reference too: its docstrings' indices are typeset (api_reference.docstring_for_page)
    assert not r["bare_indices"], f"indices typed as plain text (x_i) on {doc}: {r['bare_indices'][:5]}"
    assert not r["fallback_symbols"], f"symbols drawn by a fallback font on {doc}: {r['fallback_symbols'][:5]}"
    assert not r["accessibility"], f"serious accessibility violations on {doc}:\n" + "\n".join(r["accessibility"])
    html = (HTML / f"{doc}.html").read_text(encoding="utf-8")
    if "\\(" in html or "\\[" in html:
        assert r["typeset"] > 0, f"{doc} has math but MathJax typeset nothing"


@pytest.mark.parametrize("doc", docnames())
def test_page_fits_a_phone(browser, server, doc):
    """At 390 px (a phone), no page is wider than the viewport: tables, code blocks and equations scroll inside
    their own boxes, long inline code wraps; the page itself never scrolls sideways."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{server}/{doc}.html", wait_until="load")
    if page.evaluate("!!document.querySelector('script[src*=\"mathjax\"]')"):
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=30000)
        page.evaluate("MathJax.startup.promise")
    width = page.evaluate(PAGE_WIDTH_SCRIPT)
    _save_screenshots(page, SHOTS / "phone" / f"{doc.replace('/', '-')}.png")
    context.close()
    assert width["scroll"] <= width["client"] + 1, (
        f"{doc} is {width['scroll']} px wide at {PHONE['width']} px: {width['wide']}")


#: The claims page is an index a reader scans: at most this many screens (1280 × 900) tall with its details closed.
CLAIMS_PAGE_SCREENS = 15


def test_claims_page_is_a_readable_index(browser, server):
    """Issue 39: the reproducibility report was 66 screens tall.  Per paper, a compact table with every claim's
    anchor (the chapters' {claim} links land on it), the details behind a toggle; under 15 screens at 1280 px."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/book/claims.html", wait_until="load")
    height = page.evaluate("document.documentElement.scrollHeight")
    anchors = page.evaluate("document.querySelectorAll('main code.claim-id[id^=\"claim-\"]').length")
    toggles = page.evaluate("document.querySelectorAll('main details.dps-claim-details').length")
    empty_columns = page.evaluate("""Array.from(document.querySelectorAll('main table')).flatMap(t => {
        const rows = Array.from(t.querySelectorAll('tbody tr'));
        const n = rows.length ? rows[0].children.length : 0;
        return [...Array(n).keys()].filter(k => rows.every(r => !(r.children[k]?.textContent || '').trim()));
    })""")
    context.close()
    from dpsemantics import claims

    assert anchors == len(claims.registry()), (anchors, len(claims.registry()))
    assert toggles >= len({c.paper for c in claims.registry()})
    assert not empty_columns, f"empty columns in the claims tables: {empty_columns}"
    assert height <= CLAIMS_PAGE_SCREENS * 900, f"the claims page is {height} px tall ({height / 900:.1f} screens)"


def test_page_width_script_finds_a_page_wider_than_a_phone(browser):
    """The phone check is not true by construction: a long unbreakable inline code makes a sample page scroll
    sideways and is named; the same page with the code wrapped fits."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    long = "dpsemantics.conversions.zcdp_gaussian_delta_with_a_very_long_name_indeed"
    page.set_content(f"<main><p>see <code style='white-space: nowrap'>{long}</code></p></main>")
    width = page.evaluate(PAGE_WIDTH_SCRIPT)
    assert width["scroll"] > width["client"] and any("code" in w for w in width["wide"]), width
    page.set_content(f"<main><p>see <code style='overflow-wrap: anywhere'>{long}</code></p></main>")
    width = page.evaluate(PAGE_WIDTH_SCRIPT)
    assert width["scroll"] <= width["client"] + 1, width
    context.close()


@pytest.mark.parametrize("text", ["σ for ε = 0.5 by mech.gaussian_sigma", "check of eps_/at_/sigma2",
                                  "ε = 0.5, n=10, δ = 0.999*max", "r=1.22347", "random pair #0", "b=0.0000",
                                  "population [0.5, 0.0, 0.0, 0.5] over (0,0),(0,1),(1,0),(1,1)",
                                  "Pr[R₁=1]=0.5, do(R₂=0)"])
def test_code_like_catches(text):
    assert code_like(text)


@pytest.mark.parametrize("text", ["ε = 0.5, n = 10, δ = 0.999 × max", "random pair 0", "Pr[O=3 | do(D₁=1)]",
                                  "ε₂ in M[Y:=0]", "b ∈ [0, 1]", "R₁ → O with 2 relative(s)", "p* on the grid",
                                  "log(2)/3", "(ε, δ) = (1, 10⁻⁵)", "R₂ := R₁"])
def test_code_like_passes(text):
    assert not code_like(text)


def test_code_like_script_on_a_page(browser):
    """The page walk reads table cells, captions and generated sentences; it leaves out code (a claim id), math,
    the heading links' # and prose the author wrote (outside cell outputs)."""
    page = browser.new_page()
    page.set_content("<main><p>n=10 in the author's prose is not judged</p><table><caption>Table 1. Checks "
                     "<a class='headerlink'>#</a></caption><tr><td>random pair #0</td><td><code>ks-eq4-n=1</code>"
                     "</td><td>Pr[O=3 | do(D₁=1)]</td></tr></table><div class='cell_output'><p>at n=10 the bound "
                     "holds</p></div><mjx-container>x=1</mjx-container></main>")
    assert page.evaluate(CODE_LIKE_SCRIPT, [CODE_LIKE_PATTERN, MATH_EVENT_PATTERN]) == [
        "random pair #0", "at n=10 the bound holds"]
    page.close()


@pytest.mark.parametrize("doc", [d for d in docnames() if (ROOT / f"{d}.ipynb").exists()])
def test_chapter_in_dark_mode(browser, server, doc):
    r = _visit(browser, f"{server}/{doc}.html", SHOTS / "dark" / f"{doc.replace('/', '-')}.png", dark=True)
    assert not r["errors"] and not r["broken_images"] and not r["raw_tex"]


@pytest.mark.parametrize("text", ["bounded by e^ε", "2^k outputs", "(1 + x)^2", "e^{ε} − 1", "δ_{n}", "ε^2",
                                  r"\(x\)", r"\frac{1}{2}", "$$x$$", "```{table} A caption :name: tbl-x",
                                  "are discrepancies: {claim}kazan-ex1.1-pure-low, {claim}kazan-4.1"])
def test_raw_tex_pattern_catches(text):
    assert raw_tex(text)


@pytest.mark.parametrize("text", ["bounded by eε", "a ^ b", "x_i is a name", "e^ alone", "price: $5", "ε = 0.5"])
def test_raw_tex_pattern_passes(text):
    assert not raw_tex(text)


def test_raw_tex_script_skips_math_and_code(browser):
    """The page walk reports a bare caret in prose, and not in code, preformatted output or typeset math."""
    page = browser.new_page()
    page.set_content("<main><p>a bound of e^ε here</p><p><code>e^eps</code></p><pre>2^k</pre>"
                     "<div class='highlight'>x^2</div><mjx-container>e^ε</mjx-container><p>plain e ε</p></main>")
    assert page.evaluate(TEXT_WALK_SCRIPT, RAW_TEX_ARGS) == ["a bound of e^ε here"]
    page.close()


def test_number_repr_script_catches_exponent_form(browser):
    """Python's exponent form is a finding in prose and outputs, not in code (cell inputs, inline literals,
    signatures) or in the book's own 10⁻⁶."""
    page = browser.new_page()
    page.set_content("<main><p>at δ = 1e-06 the bound</p><p>gap 2.5e-7.</p><p>δ = 10⁻⁶, 2.5×10⁻⁶, x1e5, v1.2</p>"
                     "<div class='cell_input'>delta = 1e-6</div><p>np.float64(0.5)</p><p>call <code>f(1e-5)</code></p>"
                     "<dl><dt class='sig sig-object py'>f(<em class='sig-param'>tol=1e-12</em>)</dt><dd>below "
                     "1e-12</dd></dl></main>")
    assert page.evaluate(NUMBER_REPRS_SCRIPT) == ["at δ = 1e-06 the bound", "gap 2.5e-7.", "np.float64(0.5)",
                                                  "below 1e-12"]
    page.close()


def test_wide_output_script_catches_a_line_past_its_box(browser):
    """A printed line longer than its box is found; the same line wrapped (the book's output CSS) is not."""
    page = browser.new_page()
    line = "x = " + "0.123456 " * 40
    page.set_content(f"<main><div class='cell_output'><pre style='width: 300px'>{line}</pre></div>"
                     "<div class='cell_output'><pre style='width: 300px; white-space: "
                     f"pre-wrap'>{line}</pre></div></main>")
    assert page.evaluate(WIDE_OUTPUTS_SCRIPT) == [line.strip()[:60]]
    page.close()


@pytest.mark.parametrize("text", ["{1: (1, 10⁻⁵), 2: (2, 3.718×10⁻⁵)}", "{'delta from the hockey stick': 5.9e-17}",
                                  "[(0, 0, 0), (0, 0, 1)]", "check: True", "pure ε: inf", "holds: False)",
                                  "worst case eps=0.01, delta=0.5", "delta_hat = 0.1", "[ok] eps_group: within"])
def test_python_in_output_catches(text):
    assert python_in_output(text)


def test_python_in_output_catches_a_printed_tuple_not_a_pair_of_parameters():
    assert python_in_output("(0.3378, 0.3378)", printed=True) and not python_in_output("(0.3378, 0.3378)")


@pytest.mark.parametrize("text", ["correct: 2 of 2 parts right", "ε = 0.01, δ = 0.5", "pure ε: ∞",
                                  "The worst belief puts 0.5 on 100; the adversary sees output 1.", "δ₁ = b[LS > 1]",
                                  "A(1, ∅)", "A(1, {2})", "Pr[O=3 | do(D₁=1)]", "True by construction",
                                  "False. Binary A", "(1, 10⁻⁶)",
                                  "uniform on {0ⁿ, (1, 0ⁿ⁻¹)}"])
def test_python_in_output_passes(text):
    assert not python_in_output(text)


@pytest.mark.parametrize("text", ["ε_DP", "x_i ∈ S", "1 − δ_PDP(ε)", "ε_adv(51)", "Pr_𝒫[D", "b_0", "b̄_0", "ε_{n}"])
def test_bare_index_catches(text):
    assert bare_index(text)


@pytest.mark.parametrize("text", ["ε<sub>DP</sub> as text: εDP", "x₁ ∈ S", "a _ b", "snake _case"])
def test_bare_index_passes(text):
    assert not bare_index(text)


def test_output_and_index_scripts_on_a_page(browser):
    """The page walks find a dict repr in an output and a bare index in prose, and pass tables, code and math."""
    page = browser.new_page()
    page.set_content("<main><div class='cell_output'><pre>{'eps': 0.5}</pre></div>"
                     "<div class='cell_output'><table><tr><td>ε of DP</td><td>(1, 0) "
                     "<code>ks-eps-delta</code></td></tr></table></div><div class='solution'><div "
                     "class='cell_output'><pre>(1.5, 0.005)</pre></div></div><p>bound on ε_DP "
                     "here</p><p>ε<sub>DP</sub></p><p><code>x_i</code></p><mjx-container>x_i</mjx-container></main>")
    assert page.evaluate(PYTHON_IN_OUTPUTS_SCRIPT, [PYTHON_OUTPUT_PATTERN, PRINTED_SEQUENCE_PATTERN]) == [
        "{'eps': 0.5}", "(1.5, 0.005)"]
    assert page.evaluate(TEXT_WALK_SCRIPT, BARE_INDEX_ARGS) == ["bound on ε_DP here"]
    page.close()


def test_python_in_solutions_is_found(browser):
    """Issue 25: an exercise solution (sphinx-exercise's dropdown) is judged like any output: a dict repr and a
    printed ``[ok] eps_group`` in it are found; the same results as a table, the variable set as code, are not."""
    page = browser.new_page()
    solution = ("<div class='solution dropdown admonition'><p class='admonition-title'>Solution</p>"
                "<section class='solution-content'><div class='cell docutils container'>"
                "<div class='cell_output docutils container'>{}</div></div></section></div>")
    page.set_content("<main>" + solution.format("<pre>{'eps at sigma=2': 2.254, 'check': True}</pre>")
                     + solution.format("<pre>correct: 2 of 2 parts right\n  [ok] eps_group: within 0.001</pre>")
                     + solution.format("<table><tr><td>ε at σ = 2</td><td>2.254</td></tr><tr><td>check of "
                                       "<code>eps_group</code></td><td>right: within 0.001 "
                                       "(relative)</td></tr></table>")
                     + "</main>")
    found = page.evaluate(PYTHON_IN_OUTPUTS_SCRIPT, [PYTHON_OUTPUT_PATTERN, PRINTED_SEQUENCE_PATTERN])
    page.close()
    assert len(found) == 2 and "eps at sigma" in found[0] and "eps_group" in found[1], found


def test_fallback_symbol_check_catches_an_undeclared_font(browser):
    """⇔ in a text font that lacks it is drawn by a fallback and found; the same text with a declared symbol font
    (an @font-face for the symbol's range, named first in the element's font-family) is not."""
    if not shutil.which("fc-list") or "DejaVu Sans" not in subprocess.run(["fc-list"], capture_output=True,
                                                                          text=True).stdout:
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is not installed")
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<style>@font-face { font-family: 'Sym'; src: local('DejaVu Sans'); unicode-range: U+2190-22FF; "
                     "}</style><main><p style=\"font-family: 'Noto Sans', 'Liberation Sans'\">plain a ⇔ b</p>"
                     "<p style=\"font-family: 'Sym', 'Noto Sans', 'Liberation Sans'\">declared a ⇔ b</p></main>")
    page.evaluate("document.fonts.ready")
    found = symbols_from_fallback_fonts(page)
    assert len(found) == 1 and "plain a" in found[0], found
    context.close()


def test_wide_math_script_catches_an_equation_past_the_column(browser):
    page = browser.new_page()
    page.set_content("<main><article style='width: 300px'><p><mjx-container style='display: inline-block; width: "
                     "500px'>long</mjx-container></p><p><mjx-container style='display: inline-block; width: "
                     "100px'>short</mjx-container></p></article></main>")
    assert page.evaluate(WIDE_MATH_SCRIPT) == ["long"]
    page.close()


def test_doubled_link_script_catches_a_repeated_title(browser):
    page = browser.new_page()
    page.set_content("<main><p>By Theorem 3.1 (<a class='reference internal' href='#a'>Kazan et al., Theorem 3.1</a>) "
                     "it holds; by <a class='reference internal' href='#b'>Theorem 3.1 (Kazan et al.)</a> too; Theorem "
                     "3.2 (<a class='reference internal' href='#c'>Kazan et al., Lemma 3.4</a>).</p></main>")
    found = page.evaluate(DOUBLED_LINKS_SCRIPT)
    assert len(found) == 1 and "Kazan et al., Theorem 3.1" in found[0], found
    page.close()


def test_identifiers_in_tables_break_after_dots_not_inside_words(browser):
    """Issue 25: the instructors table split ``dpsemantics.boo/k.coursework.che/ck_…``.  In a narrow column an
    identifier breaks after a dot or underscore; every line of it ends at one."""
    from dpsemantics.book.sphinx_extras import _TABLE_RULES, break_identifiers_at_dots

    html = break_identifiers_at_dots("<main><table style='width: 150px'><tr><td><code><span class='pre'>x</span>"
                                     "</code></td><td><code class='literal'>"
                                     "<span class=\"pre\">dpsemantics.book.coursework.check_answer</span>"
                                     "</code></td></tr></table></main>")
    assert "book.<wbr>coursework.<wbr>check_<wbr>answer" in html
    page = browser.new_page()
    page.set_content(f"<style>{_TABLE_RULES.split('/* dpsemantics: tables')[1].split('*/', 1)[1]}</style>{html}")
    lines = page.evaluate("""() => {
      const span = document.querySelectorAll('span.pre')[1], range = document.createRange(), text = [];
      const nodes = Array.from(span.childNodes).filter(n => n.nodeType === 3);
      const tops = new Map();
      for (const n of nodes) for (let i = 0; i < n.length; i++) {
        range.setStart(n, i); range.setEnd(n, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        tops.set(top, (tops.get(top) || '') + n.data[i]);
      }
      return Array.from(tops.values());
    }""")
    page.close()
    assert len(lines) > 1, lines
    assert all(line.endswith((".", "_")) for line in lines[:-1]), lines


def test_split_identifier_script_catches_a_break_inside_a_word(browser):
    """Issue 25: ``dpsemantics.boo/k.coursework.che/ck_…`` in the instructors table.  The same identifier in the same
    narrow column is found when the browser may break it anywhere, and passes when it breaks after its dots and
    underscores (the book's <wbr>, break_identifiers_at_dots) or not at all."""
    from dpsemantics.book.sphinx_extras import break_identifiers_at_dots

    name = "dpsemantics.book.coursework.check_answer_of_the_student"
    cell = ("<td style='width: 90px; max-width: 90px'><code style='white-space: normal; {}'><span class='pre'>{}</span>"
            "</code></td>")
    anywhere = cell.format("overflow-wrap: anywhere", name)
    at_dots = break_identifiers_at_dots(f"<table><tr>{cell.format('overflow-wrap: normal', name)}</tr></table>")
    page = browser.new_page()
    page.set_content(f"<main><table style='table-layout: fixed; width: 100px'><tr>{anywhere}</tr></table>{at_dots}"
                     "<table><tr><td><code>short</code></td></tr></table></main>")
    found = page.evaluate(SPLIT_IDENTIFIERS_SCRIPT)
    page.close()
    assert found == [name], found


def test_wrapped_code_script_catches_a_line_too_long_for_its_box(browser):
    """A visible cell's line longer than its box wraps (the book's CSS) and is found; the same cell with short lines,
    and a long line in a collapsed (hidden) input, are not."""
    page = browser.new_page()
    style = "style='width: 300px; white-space: pre-wrap; font: 14px/17.5px monospace; padding: 8px'"
    page.set_content(f"<main><div class='cell_input'><pre {style}>x = 1\ny = f(x, {'0.5, ' * 20}1)</pre></div>"
                     f"<div class='cell_input'><pre {style}>x = 1\ny = 2</pre></div>"
                     f"<details><div class='cell_input'><pre {style}>z = g({'1, ' * 40}2)</pre></div></details></main>")
    found = page.evaluate(WRAPPED_CODE_SCRIPT)
    page.close()
    assert len(found) == 1 and found[0].startswith("y = f(x, 0.5"), found


# The code column at 1280 px holds 75 characters of the book's code font (14 px, 8.43 px a character, 634 px inside
# the padding; measured on the built intro page): a visible line is at most 74.  A solution's code sits in the
# exercise box, narrower (about 69 characters, seen on the built intro page with the solutions opened): 66 there.
CODE_COLUMN, CODE_COLUMN_IN_SOLUTIONS = 74, 66


def test_visible_code_fits_the_column():
    """Issue 25: visible code lines of ~140 characters wrapped on the page.  Every code cell a reader sees (no hide or
    remove tag) has lines of at most CODE_COLUMN characters, CODE_COLUMN_IN_SOLUTIONS in the Exercises section (the
    solutions are collapsed during the page walk, so the browser's wrapped-code check does not see them)."""
    long_lines = []
    for nb in chapter_notebooks():
        for source, in_exercises in _visible_code_cells(nb):
            width = CODE_COLUMN_IN_SOLUTIONS if in_exercises else CODE_COLUMN
            long_lines += [f"{nb.stem}: {line.strip()[:60]} ({len(line)} > {width})" for line in source.splitlines()
                           if len(line) > width]
    assert not long_lines, long_lines


def _visible_code_cells(nb_path: Path):
    """The code cells of a chapter a reader sees (no hide/remove tag), each with whether it lies in the chapter's
    Exercises section: pairs (source, in_exercises)."""
    import json

    hidden = ("remove-input", "remove-cell", "hide-input", "hide-cell")
    in_exercises = False
    for cell in json.loads(nb_path.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for line in source.splitlines():
                if line.startswith("## "):
                    in_exercises = line.startswith("## Exercises")
            continue
        if not any(t in cell["metadata"].get("tags", []) for t in hidden):
            yield source, in_exercises


def _visible_code_outside_exercises(nb_path: Path):
    """The code cells of a chapter a reader sees (no hide/remove tag) outside its Exercises section."""
    return [source for source, in_exercises in _visible_code_cells(nb_path) if not in_exercises]


def _prints_in_a_loop(source: str) -> bool:
    """Whether a ``for`` loop's body (the lines indented deeper than its header; a header may run over several lines,
    closed by a bracket at its own indentation) calls ``print``.  A line scan: a regular expression over nested
    indentation backtracks without end on long cells."""
    lines = source.splitlines()
    for k, line in enumerate(lines):
        if not line.lstrip().startswith("for "):
            continue
        indent = len(line) - len(line.lstrip())
        for body in lines[k + 1:]:
            stripped = body.strip()
            depth = len(body) - len(body.lstrip())
            if stripped and depth <= indent and stripped[0] not in ")]}":
                break
            if stripped.startswith("print("):
                return True
    return False


PLUMBING = {
    "calls glue": re.compile(r"\bglue\(").search,
    "builds a Markdown table from strings": re.compile(r"""["']\|\s*-{3}|["']\|\s"\s*\+|\+\s*["']\s*\|""").search,
    "prints in a loop": _prints_in_a_loop,
}


def plumbing(source: str) -> list[str]:
    """What of ``source`` (a visible code cell) is plumbing a reader should not have to read."""
    return [what for what, found in PLUMBING.items() if found(source + "\n")]


@pytest.mark.parametrize("source, found", [
    ('glue("x", 1.0, display=False)', ["calls glue"]),
    ('rows = ["| a | b |", "|---|---|"]', ["builds a Markdown table from strings"]),
    ("for e in (1, 2):\n    x = e\n    print(f'{e}')", ["prints in a loop"]),
    ("for e in [\n    1,\n]:\n    print(e)", ["prints in a loop"]),
    ("for e in (1, 2):\n    x = e\nprint(x)", []),
    ("table(['a'], rows, caption='c')\nprint('one line')", []),
])
def test_plumbing_detector(source, found):
    assert plumbing(source) == found


def test_no_plumbing_in_visible_code():
    """Issue 25: no visible code cell of a chapter (outside its exercises) calls glue, builds a table from strings or
    prints in a loop; those go into hidden cells or the package."""
    found = [f"{nb.name}: {what}" for nb in chapter_notebooks() for source in _visible_code_outside_exercises(nb)
             for what in plumbing(source)]
    assert not found, found


# The chapter template (book/notation.md): the title, a Key idea box and the introduction, then the hidden
# "Parameters of this chapter" cell (tag ``parameters``) before the first section, the reading path (the paper's
# ideas, taught), and the same closing sections in the same order: the summary and exercises, then the paper's
# slips and the book's readings, then the checks (collapsed in HTML); *margin* defined once per chapter; the book's own results labelled "(this book)", never "ours".
CLOSING_SECTIONS = ["Summary", "Exercises", "Notes on the paper", "How this was checked"]
# The pages that reproduce no paper of their own: the chapter that applies the others' results to a reader's
# release (no exercises and no claims of its own to check: it closes with its summary), and the opening page (no
# exercises; it checks its table against Bayes' rule).
NO_PAPER_OF_ITS_OWN = {"your-release": ["Summary"], "meaning": ["Summary", "How this was checked"]}


def template_faults(cells: list[dict], closing=CLOSING_SECTIONS) -> list[str]:
    """How a chapter's cells (a notebook's JSON ``cells``) depart from the chapter template."""
    faults, sections, parameters, first_section = [], [], None, None
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for line in source.splitlines():
                if line.startswith("## "):
                    sections.append(line[3:].strip())
                    first_section = i if first_section is None else first_section
        elif "parameters" in cell["metadata"].get("tags", []):
            parameters = i if parameters is None else parameters
    if parameters is None:
        faults.append("no Parameters cell (a code cell tagged 'parameters')")
    elif first_section is not None and parameters > first_section:
        faults.append(f"Parameters (cell {parameters}) after the first section (cell {first_section})")
    if sections[-len(closing):] != closing:
        faults.append(f"closing sections {sections[-len(closing):]}, not {closing}")
    elif any(s in closing or re.search(r"\bclaims\b", s, re.I) for s in sections[:-len(closing)]):
        faults.append(f"a closing or claims section also earlier: {sections}")
    text = "\n".join("".join(c["source"]) for c in cells)
    definitions = len(re.findall(r"fraction of the bound", text))
    if definitions > 1:
        faults.append(f"margin defined {definitions} times (once per chapter)")
    if re.search(r"\(ours\)|[\"']ours[\"']", text):
        faults.append("'ours' for the book's own results (the label is '(this book)')")
    return faults


def _cells(*specs):
    """Sample cells: ("md", text) or ("code", text, tags)."""
    return [{"cell_type": "markdown" if s[0] == "md" else "code", "source": [s[1]],
             "metadata": {"tags": list(s[2])} if len(s) > 2 else {}} for s in specs]


def test_template_faults_on_sample_chapters():
    closing = [("md", f"## {s}") for s in CLOSING_SECTIONS[:-1]]
    good = _cells(("md", "# Title\nintro"), ("code", "eps = 1", ["parameters", "hide-input"]), ("md", "## A section"),
                  *closing, ("md", "## How this was checked\nthe *margin*, the worst case as a fraction of the bound"))
    assert template_faults(good) == []
    late_parameters = _cells(("md", "# T"), ("md", "## A"), ("code", "eps = 1", ["parameters"]),
                             *[("md", f"## {s}") for s in CLOSING_SECTIONS])
    assert any("after the first section" in f for f in template_faults(late_parameters))
    swapped = _cells(("md", "# T"), ("code", "x", ["parameters"]),
                     *[("md", f"## {s}") for s in reversed(CLOSING_SECTIONS)])
    assert any("closing sections" in f for f in template_faults(swapped))
    old_frame = _cells(("md", "# T"), ("code", "x", ["parameters"]), ("md", "## Exercises"), ("md", "## Summary"),
                       ("md", "## What this chapter checked"))
    assert any("closing sections" in f for f in template_faults(old_frame))
    two_claims = _cells(("md", "# T"), ("code", "x", ["parameters"]), ("md", "## All claims of this chapter"),
                        *[("md", f"## {s}") for s in CLOSING_SECTIONS])
    assert any("also earlier" in f for f in template_faults(two_claims))
    twice = good + _cells(("code", 'table(["margin, as a fraction of the bound", "ours"], rows)'))
    faults = template_faults(twice)
    assert any("margin defined 2 times" in f for f in faults) and any("this book" in f for f in faults)
    assert any("no Parameters" in f for f in template_faults(
        _cells(("md", "# T"), *[("md", f"## {s}") for s in CLOSING_SECTIONS])))


def test_every_chapter_follows_the_template():
    """Issue 25: the chapters closed in three orders, disclosure-risk had two claims sections, Parameters sat in
    different places, *margin* was defined per table, and "(ours)" stood beside "(this book)"."""
    import json

    found = {nb.stem: template_faults(json.loads(nb.read_text(encoding="utf-8"))["cells"],
                                      NO_PAPER_OF_ITS_OWN.get(nb.stem, CLOSING_SECTIONS)) for nb in chapter_notebooks()}
    assert len(found) >= 6 and not any(found.values()), {k: v for k, v in found.items() if v}


# Variants of the book's notation (book/notation.md) that a chapter must not use: an unbarred b₀/bᵢ for the posterior
# beliefs (allowed once where the chapter says how a paper writes it, "Zhao et al. write $b_0$"), s for the semantic
# ε̄, {} for the empty set, a margin formatted to four decimals.
FORBIDDEN_NOTATION = {
    "unbarred posterior b₀, bᵢ (b̄₀, b̄ᵢ)": re.compile(
        r"(?<!\\bar )(?<!\\bar\{)(?<![\w\\̄])b(_0|_i|_\{0\}|_\{i\}|₀|ᵢ)(?![\w])"),
    "s for the semantic ε (ε̄)": re.compile(r"\$\d+s\$|semantic(-privacy)? (ε|epsilon)\s*[,(]?\s*\$?s(?!\w)"),
    "{} for the empty set (∅)": re.compile(r"\(\s*\d+,\s*\{\}\s*\)|\{\}-DP|knows \{\}"),
    "a margin to four decimals (three significant digits)": re.compile(r"margin[\w.\[\]\"']*:\.4f"),
    "x for a database (D; issue 39)": re.compile(r"\\mathcal A\(x\)|𝒜\(x\)|(?<![\w\\])b\[x\]"),
    "x₋ᵢ for the dataset of Game i (D₋ᵢ)": re.compile(r"(?<![\w\\])(?<!\\mathbf )x(_\{-i\}|₋ᵢ)"),
    "Zhao's S for the records an adversary knows (K; S is a set of outputs)": re.compile(
        r"A\((?:i|\d+), ?S\)|(?<![\w\\])[xX]_S(?!\w)"),
}


def forbidden_notation(text: str) -> list[str]:
    """The notation variants ``text`` (a chapter's cell source) uses, each with the words around it."""
    found = []
    for what, pattern in FORBIDDEN_NOTATION.items():
        for m in pattern.finditer(text):
            if "write" not in text[max(0, m.start() - 40):m.start()]:
                found.append(f"{what}: …{text[max(0, m.start() - 30):m.end() + 10]}…")
    return found


@pytest.mark.parametrize("text", [r"$\mathrm{SD}(b_0[\cdot\mid y], b_i[\cdot\mid y])$", "SD(b₀, bᵢ)",
                                  "its semantic ε $s$", "semantic-privacy ε  (s)", "the line $3s$",
                                  "adversary A(1, {})", 'f"{v.margin:.4f}"', r"$\Pr[\mathcal A(x) = t]$", "b̄₀[x | t]·b[x]",
                                  r"$\mathcal A(x_{-i})$", "on x₋ᵢ", r"an adversary $A(i, S)$", r"$L(y \mid x_i, x_S)$"])
def test_forbidden_notation_catches(text):
    assert forbidden_notation(text)


@pytest.mark.parametrize("text", [r"$\mathrm{SD}(\bar b_0[\cdot\mid y], \bar b_i[\cdot\mid y])$", "SD(b̄₀, b̄ᵢ)",
                                  "semantic ε̄", "Zhao et al. write $b_0$, $b_i$", "A(1, ∅)",
                                  "book.number(v.margin, 3)", "prob_0 and x_i",
                                  "a set {1, 2}", "rows = {}",
                                  "at local sensitivity $s$", r"$\Pr[\mathcal A(D) \in S]$", r"$D_{-i}$ (they write $x_{-i}$)",
                                  r"Kazan et al.'s $\mathbf x_{-i}$", r"an adversary $A(i, K)$", r"$\max_S |P(S) - Q(S)|$"])
def test_forbidden_notation_passes(text):
    assert not forbidden_notation(text)


def test_no_forbidden_notation():
    """Issue 25: the chapters drifted between b̄₀ and b₀, ε̄ and s, ∅ and {}, 0.000 and 0.0000."""
    import json

    found = [f"{nb.stem}: {f}" for nb in chapter_notebooks()
             for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]
             for f in forbidden_notation("".join(cell["source"])
                                         + json.dumps(cell["metadata"].get("mystnb", {}), ensure_ascii=False))]
    assert not found, found


def test_punctuation_after_inline_math_stays_with_it():
    """Issue 25: a period after a formula stood alone at the start of a line (Lemma 3.3, item 5).  The build keeps
    inline math and the punctuation after it in one unbreakable span."""
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    from dpsemantics.book.sphinx_extras import _TABLE_RULES, KeepPunctuationWithMath

    document = new_document("sample", get_default_settings(Parser))
    paragraph = nodes.paragraph()
    paragraph += [nodes.Text("have "), nodes.math("x", "x"), nodes.Text(". Then "), nodes.math("y", "y")]
    document += paragraph
    KeepPunctuationWithMath(document).run()
    held = [n for n in document.findall(nodes.inline) if "math-punct" in n["classes"]]
    assert len(held) == 1 and held[0].astext() == "x." and paragraph.astext() == "have x. Then y"
    assert "span.math-punct { white-space: nowrap; }" in _TABLE_RULES


def test_wide_math_script_measures_a_margin_note_against_the_margin(browser):
    """Math in a margin note stands beside the text column by design; it is too wide only past the note's edge."""
    page = browser.new_page()
    page.set_content("<main><article style='width: 300px'><aside class='margin' style='position: absolute; left: 320px;"
                     " width: 120px'><mjx-container style='display: inline-block; width: 60px'>fits</mjx-container>"
                     "<mjx-container style='display: inline-block; width: 400px'>past</mjx-container></aside>"
                     "</article></main>")
    assert page.evaluate(WIDE_MATH_SCRIPT) == ["past"]
    page.close()
