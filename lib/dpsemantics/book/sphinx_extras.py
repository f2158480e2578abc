"""Sphinx extension with the book's build adjustments (enabled in ``_config.yml``).

1. Serve MathJax from the book itself, so pages typeset math without internet (below).
2. Drop duplicated inline scripts: Jupyter Book 1 registers sphinx-thebe's configuration script twice,
   and the second copy re-declares ``const THEBE_JS_URL``, an error in every page's console.
3. Tables that fit the text column: cells wrap, identifiers included, and printed cell output wraps its
   long lines (``dpsemantics-tables.css``, written into ``_static``).
6. Accessibility: links in tinted boxes keep AA contrast (CSS above), bibliographies carry no list role
   their entries cannot satisfy, and the sidebar's section toggles have a name.
5. Launch buttons (Binder, Colab) and the repository button only when ``pyproject.toml`` names the book's
   public repository (:func:`dpsemantics.book.toc.release`); without one they are left out rather than
   pointing nowhere (Jupyter Book's own default would point at Jupyter Book's repository).
7. Glued numbers formatted once (:class:`ReaderPasteText`): :func:`dpsemantics.book.notebook.glue` keeps a
   float's every digit, ``{glue:text}`x:.6f``` formats that unrounded value (without padding zeros: ``2.000``
   shows as ``2``), and ``{glue:text}`x``` with no
   format writes it through :func:`dpsemantics.book.number`; every pasted number carries its glue key
   and format as classes (``glue-key-x``, ``glue-format-.6f``) for ``tests/book/test_browser.py``, which checks
   the digits a page shows against the glued values.
4. Theorem boxes titled by one rule: ``Theorem — Name (Paper, Theorem 3.2)`` (``proof_title_format``), and
   cross-references to unnumbered boxes (the book keeps the papers' numbers, so its boxes are
   ``:nonumber:``) show the box's title instead of sphinx-proof's blank "Theorem ".
8. Teach first, then check: a chapter's closing section "How this was checked" is collapsed in HTML (its body in
   ``<details>``, :func:`collapse_checks_sections`; a link into it opens it), and claim links in the reading path
   are superscript marks (:func:`dpsemantics.book.api_reference.claim_role`).
9. Alt text read from the figure (:func:`figure_alt_text`): a figure's ``alt`` is the description
   :func:`dpsemantics.book.plotting.finish` wrote into its SVG (:mod:`dpsemantics.book.alt_text`), after the
   cell's one sentence of intent (``mystnb.image.alt``), which may hold no digit: every number of the alt text
   comes from the drawn data.

Sphinx's default ``mathjax_path`` is a CDN address.  This extension copies MathJax 3 (the ``es5``
bundle shipped by the PyPI package ``django-static-mathjax``, a pinned dependency of the book; it has
no dependencies of its own) into the build's ``_static/mathjax`` folder and points ``mathjax_path`` at
the local copy.  Enabled in ``_config.yml`` under ``sphinx.extra_extensions``.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

LOCAL_PATH = "mathjax/tex-chtml.js"


def mathjax_source() -> Path:
    """The folder holding MathJax's ``es5`` bundle in the installed package."""
    import mathjax  # provided by django-static-mathjax

    folder = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
    if not (folder / "tex-chtml.js").is_file():
        raise FileNotFoundError(f"MathJax bundle not found at {folder}; reinstall the book's dependencies")
    return folder


def _use_local_mathjax(app, config):
    mathjax_source()  # fail early, with a clear message, if the bundle is missing
    config.mathjax_path = LOCAL_PATH


def _copy_mathjax(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    if not (target / "tex-chtml.js").is_file():
        shutil.copytree(mathjax_source(), target, dirs_exist_ok=True)


def _drop_duplicate_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        attributes = getattr(script, "attributes", {}) or {}
        # None and "" both mean inline
        key = (getattr(script, "filename", None) or "", tuple(sorted(attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


TABLE_CSS = "dpsemantics-tables.css"
# The text fonts (Noto Sans, the system's sans-serif) lack the arrows and operators the book prints (⇔ → ≤ ∅ ✗),
# which Chromium then takes from whatever font has them, Liberation Sans' at half size.  One declared symbol font,
# at body size, for exactly those ranges: DejaVu Sans (fonts-dejavu-core, installed by `make system`).
SYMBOL_RANGES = "U+2190-21FF, U+2200-22FF, U+2300-23FF, U+25A0-25FF, U+2700-27BF, U+27F0-27FF, U+2900-297F, U+2A00-2AFF"
_SYMBOL_RULES = f"""\
/* dpsemantics: the book's arrows and operators from one symbol font at body size, not a fallback's */
@font-face {{ font-family: "Book Symbols"; src: local("DejaVu Sans"), local("DejaVuSans"); \
unicode-range: {SYMBOL_RANGES}; }}
@font-face {{ font-family: "Book Symbols"; font-weight: bold; src: local("DejaVu Sans Bold"), local("DejaVuSans-Bold");
  unicode-range: {SYMBOL_RANGES}; }}
@font-face {{ font-family: "Book Symbols Mono"; src: local("DejaVu Sans Mono"), local("DejaVuSansMono"); \
unicode-range: {SYMBOL_RANGES}; }}
:root {{
  --pst-font-family-base: "Book Symbols", var(--pst-font-family-base-system);
  --pst-font-family-heading: "Book Symbols", var(--pst-font-family-base-system);
  --pst-font-family-monospace: "Book Symbols Mono", var(--pst-font-family-monospace-system), "Book Symbols";
}}
"""
_TABLE_RULES = _SYMBOL_RULES + """\
/* dpsemantics: tables fit the text column by wrapping; the theme's container scrolls only as a last resort */
main table { max-width: 100%; font-size: 0.88em; }  /* a book's tables are set a size smaller than its text */
main table td, main table th { hyphens: auto; overflow-wrap: break-word; }
/* identifiers (claim ids, function paths) wrap rather than widen their column: Sphinx's span.pre is nowrap;
   they break after their dots and underscores (<wbr>, break_identifiers_at_dots), inside a word only if a
   piece alone is wider than the column */
main table code, main table code span.pre, main table a { white-space: normal; overflow-wrap: break-word; }
/* claim ids break at their hyphens, never inside a word ("improvemen t") */
main table a.claim-link, main table a.claim-link code, main table a.claim-link span.pre,
main table code.claim-id { overflow-wrap: normal; word-break: normal; }
/* except in the API reference's summary tables, whose first column is one function name per row */
main table.autosummary td:first-child, main table.autosummary td:first-child code,
main table.autosummary td:first-child span.pre, main table.autosummary td:first-child a { \
white-space: nowrap; overflow-wrap: normal; }
/* printed cell output wraps its long lines inside its box instead of scrolling sideways */
main .cell_output pre, main .output pre { white-space: pre-wrap; overflow-wrap: break-word; }
/* a formula and the punctuation after it stay on one line (KeepPunctuationWithMath) */
main span.math-punct { white-space: nowrap; }
/* and so does the code a reader reads: a long line continues on the next, never past the column's edge */
main .cell_input pre { white-space: pre-wrap; overflow-wrap: break-word; }
/* links inside theorem and exercise boxes keep WCAG AA contrast on the boxes' tinted backgrounds */
main div.proof a, main div.admonition a, main aside a { color: #0a4d8c; }
/* on a phone, inline code in running text wraps instead of widening the page past the screen (only there: on a
   wide screen an identifier is never broken inside a word) */
@media (max-width: 600px) {
  main p code.literal, main li code.literal, main dd code.literal, main p code.literal span.pre,
  main li code.literal span.pre, main dd code.literal span.pre, main p a code, main li a code,
  main td code.literal, main td code.literal span.pre { white-space: normal; overflow-wrap: anywhere; }
}
/* a claim mark in the reading path: a small superscript link, like a footnote mark */
main sup.claim-mark { font-size: 0.7em; line-height: 0; }
main sup.claim-mark a { text-decoration: none; }
/* the collapsed "How this was checked" section: a visible, keyboard-reachable summary line */
main details.dps-checks > summary { cursor: pointer; font-weight: 600; padding: 0.4em 0; }
/* the claims page's index tables: one short line per claim where it fits (the details are behind a toggle) */
main div.dps-claims-index table { font-size: 0.8em; line-height: 1.3; }
main div.dps-claims-index td, main div.dps-claims-index th { padding: 0.2em 0.45em; }
main details.dps-claim-details > summary { cursor: pointer; font-weight: 600; padding: 0.3em 0; }
main details.dps-claim-details li { font-size: 0.9em; }
/* on a phone, signatures, headings and the API reference's code wrap instead of widening the page */
@media (max-width: 600px) {
  main dt.sig, main dt.sig *, main h1 code, main h2 code, main h3 code, main h1 span.pre, main h2 span.pre,
  main h3 span.pre, main h1, main h2, main h3 { white-space: normal !important; overflow-wrap: anywhere; }
  main dt.sig { flex-wrap: wrap; }
}
/* a Greek letter of the prose in italic, as MathJax sets it in the formulas beside it (ItalicGreek) */
span.math-var { font-style: italic; }
/* the Key idea box that opens every chapter */
main div.admonition.key-idea { border-left-width: 0.4em; font-size: 1.05em; }
html[data-theme="dark"] main div.proof a, html[data-theme="dark"] main div.admonition a,
html[data-theme="dark"] main aside a { color: #9cc9ff; }
"""


def _write_table_css(app):
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    (static / TABLE_CSS).write_text(_TABLE_RULES)


PROOF_TITLE_FORMAT = " — %t"


def _use_proof_title_format(app, config):
    config.proof_title_format = PROOF_TITLE_FORMAT


def _record_proof_titles(app, doctree):
    """Remember each labelled theorem box's title (sphinx-proof keeps only its number)."""
    prefix, _, suffix = PROOF_TITLE_FORMAT.partition("%t")
    proofs = getattr(app.env, "proof_list", {})
    for node in doctree.findall(lambda n: isinstance(n, nodes.Element) and n.get("realtype") and n.get("label")):
        title = node.get("title", "")
        if title.startswith(prefix) and title.endswith(suffix):
            title = title[len(prefix): len(title) - len(suffix)]
        if node["label"] in proofs:
            proofs[node["label"]]["dpsemantics_title"] = title.strip()


class NameUnnumberedProofReferences(SphinxPostTransform):
    """``{prf:ref}`label``` to a ``:nonumber:`` box reads as the box's title (or its kind, if untitled)."""

    default_priority = 5  # before Sphinx's ReferencesResolver (10)

    def run(self, **kwargs):
        proofs = getattr(self.env, "proof_list", {})
        for ref in list(self.document.findall(addnodes.pending_xref)):
            entry = proofs.get(ref.get("reftarget", ""))
            if ref.get("refdomain") != "prf" or not entry or not entry.get("nonumber"):
                continue
            if ref.astext() != ref["reftarget"]:  # the author gave the link text
                continue
            text = entry.get("dpsemantics_title") or entry["realtype"].title()
            inner = ref[0] if len(ref) and isinstance(ref[0], nodes.Element) else nodes.inline()
            inner.children = []
            inner += nodes.Text(text)
            ref.children = [inner]


def _named_navigation_toggles(app, pagename, templatename, context, doctree):
    """The theme's sidebar opens a chapter's sections with a ``<summary>`` that holds only a chevron icon; a
    summary needs a name (axe-core: summary-name), so it gets one."""
    generate = context.get("generate_toctree_html")
    if generate is None or getattr(generate, "dpsemantics_named", False):
        return

    def named(*args, **kwargs):
        toctree = generate(*args, **kwargs)  # a BeautifulSoup tree for the sidebar
        for summary in toctree.find_all("summary") if hasattr(toctree, "find_all") else ():
            summary.attrs.setdefault("aria-label", "Show or hide its sections")
        return toctree

    named.dpsemantics_named = True
    context["generate_toctree_html"] = named


def _launch_buttons_from_release(app, config):
    from .toc import release

    repository = release(Path(app.confdir))["repository"]
    options = dict(config.html_theme_options or {})
    options["repository_url"] = repository
    options["use_repository_button"] = bool(repository)
    options["launch_buttons"] = {"notebook_interface": "classic", "binderhub_url": "https://mybinder.org",
                                 "colab_url": "https://colab.research.google.com"} if repository else {}
    config.html_theme_options = options


def _edition_in_footer(app, config):
    """Every page's footer names the edition (:mod:`dpsemantics.book.edition`): version, commit, date.  The commit
    is set as code: it is an identifier, not a number (a hash such as 35042e2 reads as 3.5042·10⁶ otherwise)."""
    from .edition import edition

    app.dpsemantics_edition = edition(Path(app.confdir))
    options = dict(config.html_theme_options or {})
    line = html.escape(app.dpsemantics_edition["line"])
    commit = app.dpsemantics_edition["commit"]
    if commit:
        line = line.replace(f"commit {commit}", f"commit <code>{commit}</code>", 1)
    options["extra_footer"] = (options.get("extra_footer") or "") + f'<p class="dpsemantics-edition">{line}</p>'
    config.html_theme_options = options


def _record_edition(app, exception):
    from .edition import write_record

    if exception is None and app.builder.format == "html":
        write_record(Path(app.outdir), app.dpsemantics_edition)


def _citation_list_role(app, pagename, templatename, context, doctree):
    """docutils marks a citation group ``role="list"`` while its entries are ``role="doc-biblioentry"``; a list
    must hold list items (axe-core: aria-required-children), so the group keeps no list role."""
    body = context.get("body")
    if body and 'class="citation-list"' in body:
        context["body"] = body.replace('<div role="list" class="citation-list">', '<div class="citation-list">')


_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_PRE_SPAN = re.compile(r'(<span class="pre">)([^<]*)(</span>)')


def break_identifiers_at_dots(html: str) -> str:
    """Identifiers set as code in tables (``dpsemantics.book.coursework.check_answer``) may break after a dot or
    an underscore (``<wbr>``), so that a narrow column breaks them there and never inside a word
    ("dpsemantics.boo / k.coursework")."""
    def in_table(m):
        return _PRE_SPAN.sub(lambda p: p.group(1) + re.sub(r"(?<=[._])(?=\w)", "<wbr>", p.group(2)) + p.group(3),
                             m.group())

    return _TABLE.sub(in_table, html)


def _identifiers_break_at_dots(app, pagename, templatename, context, doctree):
    body = context.get("body")
    if body and "<table" in body:
        context["body"] = break_identifiers_at_dots(body)


class KeepPunctuationWithMath(SphinxPostTransform):
    """Inline math followed by punctuation (``$…$.``) is kept on one line with it (a ``math-punct`` span, set
    ``nowrap``): otherwise the browser may break between the formula and its period, leaving the period alone
    at the start of a line (issue 25, after Lemma 3.3's item 5)."""

    default_priority = 30

    def run(self, **kwargs):
        for math in list(self.document.findall(nodes.math)):
            parent = math.parent
            if parent is None:
                continue
            index = parent.index(math)
            if index + 1 >= len(parent) or not isinstance(parent[index + 1], nodes.Text):
                continue
            text = parent[index + 1].astext()
            m = re.match(r"[.,;:!?)\]]+", text)
            if not m:
                continue
            holder = nodes.inline(classes=["math-punct"])
            parent.replace(math, holder)
            holder += math
            holder += nodes.Text(m.group())
            rest = text[m.end():]
            if rest:
                parent.replace(parent[index + 1], nodes.Text(rest))
            else:
                parent.remove(parent[index + 1])


#: A lowercase Greek letter of the prose (``ε``, ``δ′``, ``ε̄``: with its combining marks), a variable as in the math.
#: Not beside ``^`` or ``_``: TeX left untypeset (``e^ε``) stays one text for the browser test to find.
_GREEK_VARIABLE = re.compile(r"(?<![\^_])[\u03b1-\u03c9\u03d1\u03d5\u03f5][\u0300-\u036f]*(?![\^_])")
#: Nodes whose text is not prose: code, math, raw HTML.
_NOT_PROSE = (nodes.literal, nodes.literal_block, nodes.math, nodes.math_block, nodes.raw, nodes.comment,
              nodes.doctest_block)


def _in_prose(text) -> bool:
    ancestor = text.parent
    while ancestor is not None:
        if isinstance(ancestor, _NOT_PROSE):
            return False
        ancestor = ancestor.parent
    return True


def italic_greek(node) -> None:
    """Every lowercase Greek letter in the running text under ``node`` (not in code, math or raw HTML) wrapped in
    an ``math-var`` span, which the book's style sheet sets in italic: the ε and δ of a sentence then look like the
    $\\varepsilon$ and $\\delta$ that MathJax sets in the same clause (issue 39), not upright letters beside them."""
    for text in list(node.findall(nodes.Text)):
        parent = text.parent
        if (parent is None or not _GREEK_VARIABLE.search(text.astext()) or "math-var" in parent.get("classes", ())
                or not _in_prose(text)):
            continue
        pieces, last, source = [], 0, text.astext()
        for m in _GREEK_VARIABLE.finditer(source):
            if m.start() > last:
                pieces.append(nodes.Text(source[last:m.start()]))
            pieces.append(nodes.inline(m.group(), m.group(), classes=["math-var"]))
            last = m.end()
        if last < len(source):
            pieces.append(nodes.Text(source[last:]))
        index = parent.index(text)
        parent.remove(text)
        for k, piece in enumerate(pieces):
            parent.insert(index + k, piece)


#: A power of ten written with a centred dot (``2.12·10⁻⁵``), where the book writes a times sign (``2.12×10⁻⁵``).
_DOT_POWER = re.compile(r"(?<=\d)·(?=10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹])")


def times_powers(node) -> None:
    """``2.12·10⁻⁵`` in the running text under ``node`` written ``2.12×10⁻⁵``, as :func:`dpsemantics.book.number`
    writes every other number of the book (issue 39: both forms stood in one chapter)."""
    for text in list(node.findall(nodes.Text)):
        if text.parent is not None and _DOT_POWER.search(text.astext()) and _in_prose(text):
            text.parent.replace(text, nodes.Text(_DOT_POWER.sub("×", text.astext())))


class ItalicGreek(SphinxPostTransform):
    """:func:`times_powers` and :func:`italic_greek` on every page (HTML and the PDF printed from it)."""

    default_priority = 35  # after KeepPunctuationWithMath (30)

    def run(self, **kwargs):
        times_powers(self.document)
        italic_greek(self.document)


class DashExerciseSubtitles(SphinxPostTransform):
    """sphinx-exercise wraps an exercise's title in parentheses ("Exercise 1.1 (Title (Paper, §2))"), doubling
    them whenever the title cites its source; the book's one rule for box titles is a dash instead
    (``Exercise 1.1 — Title (Paper, §2)``), as for theorem boxes."""

    default_priority = 25  # after sphinx-exercise resolves exercise (20) and solution (21, 22) titles

    def run(self, **kwargs):
        for title in list(self.document.findall(nodes.title)):
            if not any(k in type(title.parent).__name__ for k in ("exercise", "solution")):
                continue
            for holder in [title, *title.findall(nodes.reference)]:
                texts = [c for c in holder.children if isinstance(c, nodes.Text)]
                if len(texts) >= 2 and texts[-1].astext() == ")" and holder.children[-1] is texts[-1]:
                    opening = next((c for c in holder.children if isinstance(c, nodes.Text) and c.astext() == " ("),
                                   None)
                    if opening is not None:
                        holder.replace(opening, nodes.Text(" — "))
                        holder.remove(holder.children[-1])


GLUE_KEY_CLASS, GLUE_FORMAT_CLASS = "glue-key-", "glue-format-"


def _reader_paste_text_role():
    from ast import literal_eval

    from myst_nb.core.variables import RetrievalError
    from myst_nb.ext.glue.roles import PasteTextRole
    from myst_nb.ext.glue.utils import retrieve_glue_data

    from .render import number, trimmed

    class ReaderPasteText(PasteTextRole):
        """myst-nb's ``{glue:text}``, with a float glued without a format written as a reader reads it
        (:func:`dpsemantics.book.number`: ``0.1``, ``2.5×10⁻⁶``) instead of its ``repr``, a fixed-point format's
        padding zeros dropped (:func:`dpsemantics.book.render.trimmed`: ``2.000`` → ``2``), and the key and
        format recorded as classes of the pasted text."""

        def run(self):
            pasted, messages = super().run()
            key, fmt = self.text.rsplit(":", 1) if ":" in self.text else (self.text, "")
            for node in pasted:
                if not (isinstance(node, nodes.inline) and "pasted-text" in node["classes"]):
                    continue
                if not fmt:
                    try:
                        value = literal_eval(retrieve_glue_data(self.document, key).data["text/plain"])
                    except (RetrievalError, SyntaxError, ValueError, KeyError):
                        value = None
                    if isinstance(value, float):
                        node.clear()
                        node += nodes.Text(number(value))
                elif fmt.endswith("f") and trimmed(node.astext()) != node.astext():  # 2.000 -> 2, 0.5000 -> 0.5
                    text = trimmed(node.astext())
                    node.clear()
                    node += nodes.Text(text)
                node["classes"] += [GLUE_KEY_CLASS + key, GLUE_FORMAT_CLASS + (fmt or "none")]
            return pasted, messages

    return ReaderPasteText()


#: The summary line of a chapter's collapsed checks section.
CHECKS_SUMMARY = "Show how this chapter's results were checked: claims, searches, certificates and margins"
#: Opens the collapsed checks section when a link (the page's contents, a claim mark) points inside it.
_OPEN_CHECKS_JS = """\
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    for (var e = target; e; e = e.parentElement) { if (e.tagName === "DETAILS") { e.open = true; } }
    if (target) { target.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openTarget);
  document.addEventListener("DOMContentLoaded", openTarget);
})();
""" + """/* tap to zoom: a figure opens at full size on its own
   (on a phone a figure shrinks to the screen, its labels with it) */
(function () {
  function zoomable() {
    document.querySelectorAll("main figure img").forEach(function (img) {
      if (img.closest("a")) { return; }
      var a = document.createElement("a");
      a.href = img.currentSrc || img.src; a.target = "_blank"; a.rel = "noopener";
      a.className = "figure-zoom"; a.title = "Open the figure at full size";
      img.parentNode.insertBefore(a, img); a.appendChild(img);
    });
  }
  document.addEventListener("DOMContentLoaded", zoomable);
})();
"""
#: The book's page script: opens a collapsed "How this was checked" section when a link points inside it, and makes
#: each figure a link to itself at full size (tap to zoom on a phone).
OPEN_CHECKS_JS = "dpsemantics-open-checks.js"


def collapse_checks_sections(doctree) -> int:
    """Wrap the body of every section titled "How this was checked" in ``<details>`` (HTML only), so a chapter's
    checking apparatus is one click away from its reading path; the PDF opens every ``<details>`` before it
    prints.  Returns the number of sections wrapped."""
    from .api_reference import CHECKS_SECTION

    wrapped = 0
    for section in list(doctree.findall(nodes.section)):
        title = section.next_node(nodes.title)
        if title is None or title.astext().strip() != CHECKS_SECTION or title.parent is not section:
            continue
        index = section.index(title)
        section.insert(index + 1, nodes.raw("", f'<details class="dps-checks"><summary>{CHECKS_SUMMARY}'
                                                "</summary>\n", format="html"))
        section.append(nodes.raw("", "</details>\n", format="html"))
        wrapped += 1
    return wrapped


def composed_alt(intent: str | None, svg: str) -> str | None:
    """The alt text of a figure whose SVG is ``svg``: the author's sentence of intent, then the description
    :func:`dpsemantics.book.alt_text.embed` put in the SVG; ``None`` for an SVG without one.  Raises
    ``ValueError`` when the intent holds a digit (a number not read from the figure)."""
    from .alt_text import from_svg

    found = from_svg(svg)
    if found is None:
        return None
    intent = (intent or "").strip()
    if re.search(r"\d", intent):
        raise ValueError(f"intent must hold no number: the numbers of an alt text come from the figure "
                         f"(got intent={intent!r})")
    if intent and not intent.endswith((".", "!", "?")):
        intent += "."
    return f"{intent} {found[0]}".strip()


def figure_alt_text(app, doctree) -> None:
    """Every SVG image of ``doctree`` that carries a description gets it as its ``alt`` (:func:`composed_alt`);
    an intent with a number is a build warning (an error under ``-W``)."""
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    for node in doctree.findall(nodes.image):
        uri = node.get("uri", "")
        if not uri.endswith(".svg") or "://" in uri:
            continue
        # Sphinx's image collector (doctree-read too) rewrites the uri relative to the source folder and keeps the
        # candidates; before it runs, the uri is myst-nb's, relative to the document or, with a leading /, the source
        candidates = [Path(app.srcdir) / c for c in node.get("candidates", {}).values() if isinstance(c, str)]
        candidates.append(Path(app.env.relfn2path(uri, app.env.docname)[1]))
        path = next((c for c in candidates if c.is_file()), None)
        if path is None:
            continue
        try:
            alt = composed_alt(node.get("alt"), path.read_text(encoding="utf-8"))
        except ValueError as err:
            logger.warning(f"figure {uri}: {err}", location=node)
            continue
        if alt is not None:
            node["alt"] = alt


def _collapse_checks(app, doctree, docname):
    if app.builder.format == "html":
        collapse_checks_sections(doctree)


def _write_open_checks_js(app):
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    (static / OPEN_CHECKS_JS).write_text(_OPEN_CHECKS_JS)


def setup(app):
    app.add_role_to_domain("glue", "text", _reader_paste_text_role(), override=True)
    app.add_post_transform(DashExerciseSubtitles)
    app.add_post_transform(KeepPunctuationWithMath)
    app.add_post_transform(ItalicGreek)
    app.connect("html-page-context", _citation_list_role)
    app.connect("html-page-context", _identifiers_break_at_dots)
    app.connect("html-page-context", _named_navigation_toggles, priority=900)  # after the theme sets the function
    app.connect("config-inited", _launch_buttons_from_release)
    app.connect("config-inited", _use_proof_title_format)
    app.connect("config-inited", _edition_in_footer)
    app.connect("build-finished", _record_edition)
    app.connect("doctree-read", _record_proof_titles)
    app.connect("doctree-read", figure_alt_text, priority=400)  # before the image collector rewrites the uri
    app.add_post_transform(NameUnnumberedProofReferences)
    app.connect("builder-inited", _write_table_css)
    app.add_css_file(TABLE_CSS)
    app.connect("doctree-resolved", _collapse_checks)
    app.connect("builder-inited", _write_open_checks_js)
    app.add_js_file(OPEN_CHECKS_JS)
    app.connect("config-inited", _use_local_mathjax, priority=900)
    app.connect("build-finished", _copy_mathjax)
    app.connect("html-page-context", _drop_duplicate_scripts, priority=900)  # after other extensions add theirs
    return {"parallel_read_safe": True, "parallel_write_safe": True}
