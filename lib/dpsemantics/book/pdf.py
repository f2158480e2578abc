"""The printable edition: the built HTML book printed by headless Chromium into one PDF that works as a book.

    python -m dpsemantics.book.pdf HTML_DIR OUT.pdf [--edition "Student edition"] [--json RESULT.json]

``make pdf`` prints ``_build/html`` (the reader's edition, solutions unfolded) into ``_build/pdf/book.pdf``
and the student edition's ``_build/student-src/_build/html`` (solutions removed at the source) into
``_build/pdf/book-student.pdf``.

Why this route: Jupyter Book's LaTeX builder needs TeX Live from Debian (about 2 GB with texlive-fonts-extra,
for bbm.sty, and about 9 minutes on 2 cores), and its HTML-to-PDF builder crashes on sphinx-exercise nodes
and downloads its own browser.  Printing the HTML with the Chromium the browser test already uses costs
about a minute per edition on 2 idle cores (more on a busy machine) and nothing new to install beyond ``pypdf``
(pure Python): the math is the same MathJax
typesetting readers see, the figures the same images, the chapter and figure numbers the same.

How: the pages of the table of contents (without the API reference and the build's status page, which are read
online: :data:`ONLINE_ONLY`) are joined into
**one** document before printing, so that every link between them is a link inside the PDF.  Each page's
element ids are prefixed with its name (``intro--reading-the-parameters``) and every link is rewritten:

* to a printed page: ``#page--id`` (a cross-reference, a citation, a claim id, an entry of the contents);
* to a built page that is not printed (the API reference, sources): the same page on the public site, the
  ``Documentation`` (else ``Homepage``) address of ``pyproject.toml``'s ``[project.urls]``; without one the
  link is removed and its text kept — never a link to the local server the pages were loaded from;
* to the web: unchanged.

The document then gets front matter: a title page (with the five source documents and the edition: the
version, commit and date the HTML build recorded, :mod:`dpsemantics.book.edition`), a page with the
copyright, licence and how to cite, and a contents page (chapters and their sections, linked); MathJax
typesets it, folded solutions are unfolded, code cells the book hides stay hidden (and so do the margin notes,
links to the API reference), and Chromium prints it to A4 with its outline (bookmarks from the headings:
chapters, sections, subsections, in decreasing sizes).  Headings, and paragraphs that end with a colon, are kept
with what follows them (``break-after: avoid``) and never split (``break-inside: avoid``); a table or box is kept
on one page unless it is taller than :data:`KEEP_SHARE` of a page (measured in the print layout), when it may
break — a tall box moved whole to the next page would leave the page before it short (issue 39: no page more
than 30 % empty but a chapter's last).  A kept block that still leaves a page short may break after all (code,
a box, a table: :data:`UNKEEP`).  A figure is never split from its caption; one that leaves a page short
moves down past the paragraphs, code and boxes that fill it (:data:`FLOAT_FIGURES`) — past a block that
overflows the page too, which then breaks, or into a long table, which goes on after it — and where nothing can
fill the page, it shrinks, with the figures before it on that page; a long table that breaks is cut where
the pages break it, each piece after the first headed "Table N.M (continued)" (:data:`MARK_TABLES`): the book is
printed :data:`FLOAT_ROUNDS` + 2 times, each printing read for where the pages broke (:data:`MARK_BLOCKS`).
Each chapter starts on a new page.
Finally the running heads (the chapter's title, and the page number) and the contents' page
numbers (read from the PDF's own named destinations) are drawn on an overlay printed by the same Chromium
and merged onto the pages with ``pypdf``, which then compresses each page's content stream again.  Shadows
are not printed (Chromium rasterises each one), so the PDF stays under :data:`MAX_MB`.
"""

from __future__ import annotations

import argparse
import functools
import html
import http.server
import io
import json
import logging
import shutil
import sys
import tempfile
import threading
import time
import tomllib
from contextlib import contextmanager
from pathlib import Path

import yaml

from .edition import licence, recorded
from .toc import ROOT, docnames, release

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PAGE_MM = (210, 297)  # A4
MARGIN_MM = {"top": 20, "bottom": 18, "left": 18, "right": 18}
HEAD_MM = 10  # the running head's baseline, from the top edge
PX_PER_MM = 96 / 25.4
MAX_MB = 10  # the printed book's size limit (issue 39)
KEEP_SHARE = 0.3  # a block at most this share of the text area's height is kept on one page (issue 39: no page
#                   more than 30 % empty but a chapter's last)
FIGURE_MM = 150  # the tallest a figure's image is printed (the text area is 259 mm tall)
FLOAT_ROUNDS = 3  # printings that move figures down and let the blocks that leave a page short break (MARK_BLOCKS)
# a figure floats past the block that overflows the page it left short (FLOAT_FIGURES) when the blocks that fit
# leave more than ROOM_SHARE of the text area empty and the block ends at most SPILL_SHARE into the next page
ROOM_SHARE, SPILL_SHARE = 0.15, 0.5

PRINT_CSS = """
@page { size: A4; }
html, body { background: white !important; }
/* Chromium prints a shadow as a 300 ppi JPEG mask: 341 of them were 3.3 MB of the PDF (the theme's boxes set
   theirs with !important, which NO_SHADOWS overrides on the element itself) */
*, *::before, *::after { box-shadow: none !important; text-shadow: none !important; }
body { font-size: 10pt; }
.bd-main .bd-content, .bd-article-container, .bd-page-width, .bd-container, .bd-container__inner, .bd-main,
.bd-content .bd-article-container, .bd-main .bd-content .bd-article-container .bd-article {
  max-width: none !important; width: auto !important; padding: 0 !important; margin: 0 !important;
  display: block !important; }  /* the theme's flex boxes break across pages badly: tall blocks jumped a page */
.headerlink, button, .copybtn, .toggle-button { display: none !important; }
/* the margin notes ("Code and checks": links to the API reference, which is read online) are not printed: the
   theme floats them beside the text, so Chromium laid each page out a third wider to take them in and shrank it
   to the paper (10 pt text printed at 7.4 pt), then cut them off at the paper's edge anyway */
aside.margin { display: none !important; }
.toggle-hidden, .toggle-details__container { display: block !important; visibility: visible !important;
  height: auto !important; opacity: 1 !important; }
.pst-scrollable-table-container, .table-wrapper, .cell_output, .output, div.highlight, .bd-article {
  overflow: visible !important; }
pre { white-space: pre-wrap !important; word-break: break-word; }
img { max-width: 100% !important; height: auto !important; }
/* the theme hides the page's own title in print and shows an unnumbered copy with a contents list instead */
.bd-main .bd-content .bd-article h1:first-of-type { display: block !important; }
.print-doc { break-before: page; }
/* heading sizes in the outline's order (the theme's h2 and h3, 25.5 and 21 pt in print, outgrew the chapter's
   title) */
.print-doc > section > h1 { font-size: 22pt; margin: 0 0 0.8em; }
.print-doc h2 { font-size: 15pt; margin: 1.1em 0 0.5em; }
.print-doc h3 { font-size: 12.5pt; margin: 1em 0 0.4em; }
.print-doc h4 { font-size: 11pt; margin: 0.9em 0 0.3em; }
h1, h2, h3, h4, h5, h6, .rubric, p.admonition-title, table > caption {
  break-after: avoid-page !important; break-inside: avoid-page !important; }
p, li { orphans: 2; widows: 2; }
pre { orphans: 3; widows: 3; }  /* a code box never starts or ends a page with an empty edge */
img, svg, tr, mjx-container[display="true"] { break-inside: avoid-page; }
/* a figure is never split from its caption, and is at most FIGURE_MM tall, so that it always fits on a page */
figure { break-inside: avoid-page !important; }
figure img { max-height: FIGURE_MMmm !important; width: auto !important; }
/* a paragraph that ends with a colon introduces what follows it, and stays on its page */
.print-leadin { break-after: avoid-page !important; }
.print-keep { break-inside: avoid-page !important; }
.print-breakable { break-inside: auto !important; }
table { font-size: 8.5pt; }
table.print-dense { font-size: 7.5pt; line-height: 1.3; }  /* KEEP_OR_BREAK: a table with very tall rows */
table.print-dense td, table.print-dense th { padding: 3pt 4pt !important; }
thead { display: table-header-group; break-after: avoid-page; }  /* column heads never end a page */
tbody > tr:first-child { break-before: avoid-page; }
tr.print-continued { visibility: hidden; }  /* MARK_TABLES: shown where a table continues on a new page */
tr.print-continued > th { text-align: left; font-weight: normal; font-style: italic; border: 0 !important;
  background: none !important; padding: 0 0 2pt !important; }
/* the pieces of a cut table end and begin at page breaks as the whole table did: no margin (a forced break keeps
   the one after it) or border of its own there */
table.print-continuation { break-before: page; margin-top: 0 !important; border-top-width: 0 !important; }
table.print-cut { margin-bottom: 0 !important; border-bottom-width: 0 !important; }
table.print-continuation tr.print-continued, table.print-resumed tr.print-continued { visibility: visible; }
/* the reproducibility report: one dense table per paper */
.print-doc[data-doc="book/claims"] table { font-size: 7pt; line-height: 1.25; }
.print-doc[data-doc="book/claims"] td, .print-doc[data-doc="book/claims"] th { padding: 1.5pt 3pt !important; }
.print-doc[data-doc="book/claims"] td p, .print-doc[data-doc="book/claims"] th p { margin: 0 !important; }
.print-doc[data-doc="book/claims"] code { font-size: 6.5pt; }
.print-doc[data-doc="book/claims"] h2.rubric { font-size: 14pt; margin: 1.2em 0 0.4em; }
/* the bibliography: author-year, as the citations in the text (the list's alphabetic labels are dropped) */
div.citation > span.label { display: none !important; }
div.citation { display: block !important; margin: 0 0 0.5em 1.5em !important; text-indent: -1.5em; }
div.citation > p { margin: 0; }
/* front matter */
.print-title { height: 240mm; display: flex; flex-direction: column; justify-content: center; text-align: center; }
.print-title h1 { font-size: 28pt; margin: 0 0 8mm; border: 0; }
.print-title p { font-size: 14pt; margin: 2mm; }
.print-title .print-sources { font-size: 10pt; margin: 4mm auto 0; max-width: 140mm; text-align: left; }
.print-title .print-sources li { margin: 1mm 0; }
.print-title .print-edition { font-size: 10pt; margin-top: 10mm; }
.print-colophon { break-before: page; display: flex; flex-direction: column; justify-content: flex-end;
  height: 240mm; font-size: 9.5pt; }
.print-colophon p { margin: 0 0 3mm; }
.print-contents { break-before: page; }
.print-contents h2 { font-size: 18pt; margin: 0 0 4mm; }
.print-contents ol { list-style: none; padding: 0; margin: 0; }
.print-contents li { margin: 0; padding: 0; }
.print-contents a { display: block; text-decoration: none; color: inherit; padding: 1mm 14mm 1mm 0;
  border-bottom: 1px dotted #bbb; break-inside: avoid; }
.print-contents .level-0 > a { font-weight: 600; margin-top: 2.5mm; }
.print-contents .level-1 > a { padding-left: 8mm; font-size: 9.5pt; }
"""

# Joins the printed pages into the open page's article (see the module's docstring); returns what it did.
ASSEMBLE = r"""async ({docs, site, frontMatter}) => {
  const base = new URL('/', location.href);
  const printed = new Set(docs);
  const slug = d => d.replace(/^book\//, '').replace(/[^A-Za-z0-9_-]+/g, '-');
  const anchor = (d, frag) => frag ? `${slug(d)}--${frag}` : `doc-${slug(d)}`;
  const article = document.createElement('article');
  article.className = 'bd-article';
  const offsite = [], removed = [];
  const local = /^(localhost|.*\.localhost|127\.[0-9.]+|0\.0\.0\.0|\[::1?\]|10\.[0-9.]+|192\.168\.[0-9.]+)$/;
  for (const doc of docs) {
    const url = new URL(doc + '.html', base);
    const page = new DOMParser().parseFromString(await (await fetch(url)).text(), 'text/html');
    const body = page.querySelector('article.bd-article');
    // code the book hides behind 'Show code cell source' stays out of print; scripts are not needed
    body.querySelectorAll('script, .headerlink, details.above-input').forEach(e => e.remove());
    body.querySelectorAll('[id]').forEach(e => { e.id = anchor(doc, e.id); });
    body.querySelectorAll('[src]').forEach(e => e.setAttribute('src', new URL(e.getAttribute('src'), url).href));
    body.querySelectorAll('img').forEach(i => { i.loading = 'eager'; });  // measured below, so loaded now
    body.querySelectorAll('a[href]').forEach(a => {
      const target = new URL(a.getAttribute('href'), url);
      const path = decodeURIComponent(target.pathname).replace(/^\//, '');
      const name = path.replace(/\.html$/, '');
      if (target.origin !== base.origin && !local.test(target.hostname) && target.protocol !== 'file:') {
        return;  // the web (and mailto:) stays as it is
      } else if (target.origin === base.origin && path.endsWith('.html') && printed.has(name)) {
        a.setAttribute('href', '#' + anchor(name, decodeURIComponent(target.hash.slice(1))));
      } else if (site && target.origin === base.origin) {
        a.setAttribute('href', site + '/' + path + target.hash);
        offsite.push(path);
      } else {  // no public address, or some other local server: the text stays, the link goes
        const span = document.createElement('span');
        span.className = a.className;
        span.append(...a.childNodes);
        a.replaceWith(span);
        removed.push(target.href);
      }
    });
    const wrap = document.createElement('div');
    wrap.className = 'print-doc';
    wrap.id = anchor(doc, '');
    wrap.dataset.doc = doc;
    wrap.append(...document.adoptNode(body).childNodes);
    article.append(wrap);
  }
  // the headings (the outline), the contents (every page, and the sections of the numbered chapters)
  const esc = s => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const plain = h => h.textContent.replace(/\\\(|\\\)/g, '').replace(/\s+/g, ' ').trim();
  const headings = [], entries = [];
  for (const wrap of article.querySelectorAll(':scope > .print-doc')) {
    for (const h of wrap.querySelectorAll('h1, h2, h3, h4')) {
      const level = Number(h.tagName[1]) - 1;
      // a heading's own id, not its section's: a section can begin at the foot of a page whose heading is kept
      // with what follows it on the next, and the bookmark would point at the page before the heading
      if (level > 0 && !h.id && h.parentElement.id) h.id = h.parentElement.id + '-heading';
      const id = level === 0 ? wrap.id : h.id;
      if (!id) continue;
      headings.push({level, id, title: plain(h), doc: wrap.dataset.doc});
      const numbered = wrap.querySelector('h1 .section-number');
      if (level === 0 || (level === 1 && numbered && !h.classList.contains('rubric'))) {
        entries.push({level, id, html: h.innerHTML});
      }
    }
  }
  // Chromium writes a named destination for every element a link of the document points to: these hidden
  // links give each heading one, for the outline
  const dests = document.createElement('div');
  dests.hidden = true;
  dests.innerHTML = headings.map(h => `<a href="#${h.id}"></a>`).join('');
  article.append(dests);
  const front = document.createElement('div');
  front.className = 'print-front';
  front.innerHTML = `${frontMatter}
    <div class="print-contents" id="print-contents"><h2>Contents</h2><ol>${entries.map(e =>
      `<li class="level-${e.level}"><a href="#${e.id}" data-level="${e.level}">${e.html}</a></li>`
    ).join('')}</ol></div>`;
  article.prepend(front);
  // the page becomes the book: the theme's chrome (navigation, sidebars, the print-only contents) is dropped
  const shell = document.createElement('div');
  shell.innerHTML = '<div class="bd-container"><div class="bd-container__inner bd-page-width"><main class="bd-main">' +
    '<div class="bd-content"><div class="bd-article-container"></div></div></main></div></div>';
  shell.querySelector('.bd-article-container').append(article);
  document.body.replaceChildren(...shell.childNodes);
  document.querySelectorAll('details').forEach(d => d.open = true);
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
  const broken = [...article.querySelectorAll('a[href^="#"]')]
    .map(a => decodeURIComponent(a.getAttribute('href').slice(1)))
    .filter(id => !document.getElementById(id));
  // the numbered figures and tables, their captions and tables' column heads as text (before MathJax typesets them)
  const numbered = (e, caption) => {
    const number = caption && caption.querySelector('.caption-number');
    const text = caption && caption.querySelector('.caption-text');
    return number ? {number: plain(number), caption: text ? plain(text) : ''} : null;
  };
  const figures = [...article.querySelectorAll('figure')]
    .map(f => numbered(f, f.querySelector('figcaption'))).filter(Boolean);
  const tables = [...article.querySelectorAll('table')].map(t => {
    const entry = numbered(t, t.querySelector(':scope > caption'));
    const head = t.querySelector(':scope > thead > tr:last-child');
    return entry && {...entry, head: head ? [...head.children].map(plain) : []};
  }).filter(Boolean);
  await Promise.all([...document.images].filter(i => !i.complete)
    .map(i => new Promise(r => { i.onload = i.onerror = r; })));
  if (window.MathJax && MathJax.typesetPromise) { MathJax.typesetClear(); await MathJax.typesetPromise(); }
  const titles = [...article.querySelectorAll(':scope > .print-doc')].map(w => {
    const h1 = w.querySelector('h1');
    return {doc: w.dataset.doc, id: w.id, title: h1 ? plain(h1) : w.dataset.doc,
            images: w.querySelectorAll('img').length};
  });
  return {docs: titles, headings, figures, tables, broken, offsite: [...new Set(offsite)], removed: removed.length};
}"""

# The shadows a stylesheet sets with !important (the theme's admonitions) go too: an element's own style wins.
NO_SHADOWS = """() => {
  let removed = 0;
  document.querySelectorAll('*').forEach(e => {
    if (getComputedStyle(e).boxShadow !== 'none') { e.style.setProperty('box-shadow', 'none', 'important'); removed++; }
  });
  return removed;
}"""

# In the print layout: a block taller than KEEP_SHARE of a page may break across pages, a shorter one is kept
# whole (a figure is always kept whole: PRINT_CSS caps its height); a paragraph that ends with a colon is kept
# with what it introduces.
KEEP_OR_BREAK = r"""(limit) => {
  let breakable = 0;
  // a table with a row taller than the limit is set smaller, its columns as wide as the square root of their text's
  // length (the auto layout gave a column of 500 characters a quarter of the width, and rows 60 % of a page)
  document.querySelectorAll('.print-doc table').forEach(t => {
    if (![...t.rows].some(r => r.getBoundingClientRect().height > limit)) return;
    const columns = Math.max(...[...t.rows].map(r => r.cells.length));
    const rows = [...t.rows].filter(r => r.cells.length === columns);
    if (!rows.length) return;
    const weight = [...rows[0].cells].map((_, k) =>
      Math.max(3, Math.sqrt(rows.reduce((n, r) => n + r.cells[k].textContent.trim().length, 0) / rows.length)));
    const total = weight.reduce((a, b) => a + b, 0);
    const colgroup = document.createElement('colgroup');
    weight.forEach(w => { const col = document.createElement('col'); col.style.width = `${100 * w / total}%`;
                          colgroup.append(col); });
    t.querySelectorAll(':scope > colgroup').forEach(c => c.remove());
    (t.querySelector(':scope > caption') || {after: x => t.prepend(x)}).after(colgroup);
    t.classList.add('print-dense');
    t.style.tableLayout = 'fixed';
    t.style.width = '100%';
  });
  // div[class*=highlight-] and div.literal-block-wrapper: the theme's print style keeps these code wrappers whole
  document.querySelectorAll('.admonition, table, tr, div.cell, div.cell_input, div.cell_output, div.highlight, '
                            + 'div[class*=highlight-], div.literal-block-wrapper, .proof, .solution, details, '
                            + '.math-wrapper')
    .forEach(e => {
      const tall = e.getBoundingClientRect().height > limit;
      e.classList.add(tall ? 'print-breakable' : 'print-keep');
      breakable += tall;
    });
  document.querySelectorAll('.print-doc p').forEach(p => {
    if (/:\s*$/.test(p.textContent) && p.nextElementSibling) p.classList.add('print-leadin');
  });
  return breakable;
}"""


#: Pages of the table of contents read online only: the API reference, and the build's status page (when each
#: notebook last ran and the package versions: a fact about one build of the web edition, not about the book).
ONLINE_ONLY = ("book/api/", "book/status")


def printed_docs(root: Path = ROOT) -> list[str]:
    """The pages of the table of contents that the PDF prints, in order (all but :data:`ONLINE_ONLY`)."""
    return [d for d in docnames(root) if not d.startswith(ONLINE_ONLY)]


# A table that may break across pages (KEEP_OR_BREAK's print-breakable) gets, as the first row of its column
# heads, a line "Table N.M (continued)" that is printed only where the table continues on a new page, and
# column widths fixed at those of the layout; each of its body rows gets a named destination, so that the printed
# PDF tells on which page each row landed.  Chromium repeats the column heads on every page a table runs onto, the
# line included, invisible (visibility: hidden keeps its height); CONTINUE_TABLES then cuts the table where the
# pages broke it, and in each piece after the first shows the line: the pieces and the heights are the ones
# printed, so the pages break where they broke.  Marks the tables that may break and are not marked yet (a table
# kept whole may be let break later: UNKEEP) and returns every marked table.
MARK_TABLES = r"""() => {
  let links = document.getElementById('print-row-links');
  if (!links) {
    links = document.createElement('div');
    links.hidden = true;
    links.id = 'print-row-links';
    document.querySelector('.bd-article').append(links);
  }
  let i = document.querySelectorAll('table[data-print-table]').length;
  document.querySelectorAll('.print-doc table.print-breakable:not([data-print-table])').forEach(t => {
    const rows = [...t.tBodies].flatMap(b => [...b.rows]);
    if (rows.length < 2) return;
    i += 1;
    const width = r => [...r.cells].reduce((n, c) => n + c.colSpan, 0);
    const columns = Math.max(...[...t.rows].map(width));
    const plain = [...t.rows].find(r => r.cells.length === columns);
    if (plain) {  // the widths the layout gave the columns, kept by every piece
      const colgroup = document.createElement('colgroup');
      for (const cell of plain.cells) {
        const col = document.createElement('col');
        col.style.width = `${cell.getBoundingClientRect().width}px`;
        colgroup.append(col);
      }
      t.querySelectorAll(':scope > colgroup').forEach(c => c.remove());
      t.style.width = `${t.getBoundingClientRect().width}px`;
      t.style.tableLayout = 'fixed';
      (t.querySelector(':scope > caption') || {after: x => t.prepend(x)}).after(colgroup);
    }
    const number = t.querySelector(':scope > caption .caption-number');
    if (!t.querySelector(':scope > thead > tr.print-continued')) {  // a table resumed after a figure has its line
      const line = document.createElement('tr');
      line.className = 'print-continued';
      const cell = document.createElement('th');
      cell.colSpan = columns;
      cell.textContent = (number ? number.textContent.trim() + ' ' : '') + '(continued)';
      line.append(cell);
      (t.tHead || t.createTHead()).prepend(line);
    }
    t.dataset.printTable = String(i);
    const ids = rows.map((r, k) => (r.id = r.id || `print-table-${i}-row-${k}`));
    ids.forEach(id => { const a = document.createElement('a'); a.href = '#' + id; links.append(a); });
  });
  // every marked table as it is now (a figure may have floated into one: FLOAT_FIGURES); a row taller than
  // KEEP_SHARE may break (KEEP_OR_BREAK): the page after it begins inside it, not at a cut
  return [...document.querySelectorAll('table[data-print-table]')].map(t => {
    const rows = [...t.tBodies].flatMap(b => [...b.rows]);
    return {table: t.dataset.printTable, rows: rows.map(r => r.id),
            split: rows.map(r => r.classList.contains('print-breakable'))};
  });
}"""

# A block kept whole (KEEP_OR_BREAK's print-keep) that does not fit in what is left of a page moves to the next and
# leaves the rest empty; so does a figure, which never breaks.  Each printing of the float rounds is read for the
# pages left short (more than KEEP_SHARE empty: :func:`page_gaps`) and for what begins the page after each: each
# figure's block (the child of its section that holds it) and each outermost kept block gets a named destination.
MARK_BLOCKS = r"""() => {
  const links = document.createElement('div');
  links.hidden = true;
  links.id = 'print-block-links';
  const link = e => { const a = document.createElement('a'); a.href = '#' + e.id; links.append(a); return e.id; };
  const figures = [], seen = new Set();
  document.querySelectorAll('.print-doc figure').forEach((f, i) => {
    let block = f;
    while (block.parentElement && !block.parentElement.matches('section, .print-doc')) block = block.parentElement;
    if (seen.has(block)) return;
    seen.add(block);
    const before = block.previousElementSibling;
    block.id = block.id || `print-figure-${i}`;
    // one just after a heading or a lead-in stays there (it would leave them at the foot of the page)
    const floats = !!before && !before.classList.contains('print-leadin') && !/^H\d$/.test(before.tagName);
    figures.push({block: link(block), floats});
  });
  // a block holding a figure cannot break where the figure is; a row stays whole
  const kept = [...document.querySelectorAll('.print-doc .print-keep')]
    .filter(e => !e.matches('tr') && !e.parentElement.closest('.print-keep') && !e.querySelector('figure'))
    .map((e, i) => { e.id = e.id || `print-kept-${i}`; return link(e); });
  document.querySelector('.bd-article').append(links);
  return {figures, kept};
}"""

# Lets a kept block break, and the kept blocks inside it (not a table's rows): code, a box, a table (which
# MARK_TABLES then marks, to be cut where the pages break it).
_UNKEEP = r"""const unkeep = e => [e, ...e.querySelectorAll('.print-keep')].filter(x => !x.matches('tr'))
  .forEach(x => { x.classList.remove('print-keep'); x.classList.add('print-breakable'); });"""

# Each kept block ({ids}) that begins a page after a short one may break: it fills the short page and goes on on the
# next, as a book breaks a code listing or a long box.  Drops the blocks' links; returns how many.
UNKEEP = r"""(ids) => {
  UNKEEP_JS
  ids.forEach(id => unkeep(document.getElementById(id)));
  document.getElementById('print-block-links').remove();
  return ids.length;
}""".replace("UNKEEP_JS", _UNKEEP)

# Moves each figure's block ({block id: [the height in px left empty before it, the blocks of the figures on that
# page]}) after the paragraphs, lists, tables and boxes that follow it and fit in that height together, and, when
# these leave more than ROOM px of it empty, after the block that overflows it too if that ends at most SPILL px
# into the next page: that block breaks (it may be kept whole no more) and fills the page, and the figure follows it.
# Where nothing follows (a heading, or another figure), the figure's image is shrunk, to no less than SHRINK_LEAST
# of its height, to fit in the empty height itself; if that is not enough, the images of the figures before it on
# that page shrink with it, by the same share: two tall figures in a row share the page.  Returns how many figures
# moved, how many shrank and how many of those moved floated into a table.
FLOAT_FIGURES = r"""([gaps, kept, room, spill]) => {
  UNKEEP_JS
  let moved = 0, shrunk = 0, into = 0;
  // a figure floats into a table only where the printing read is the page as it is: nothing changed before it in
  // its chapter in this round (a figure moved or shrunk, a kept block let break: UNKEEP's ids, ``kept``)
  const changed = new Set(), unkept = kept.map(id => document.getElementById(id)).filter(Boolean);
  const exact = (doc, block) => !changed.has(doc) && !unkept.some(k => doc.contains(k)
    && (k.compareDocumentPosition(block) & Node.DOCUMENT_POSITION_FOLLOWING));
  const outer = e => {
    const s = getComputedStyle(e);
    return e.getBoundingClientRect().height + parseFloat(s.marginTop) + parseFloat(s.marginBottom);
  };
  // the one long table that a block holds is cut after the rows that fit in the height left: the rest, in copies
  // of the block and the wrappers around the table, follows the block, headed "Table N.M (continued)"
  const intoTable = (next, left) => {
    const tables = next.matches('table') ? [next] : [...next.querySelectorAll('table')];
    if (tables.length !== 1 || !tables[0].matches('[data-print-table]')) return false;
    const t = tables[0], rows = [...t.tBodies].flatMap(b => [...b.rows]);
    const top = next.getBoundingClientRect().top - parseFloat(getComputedStyle(next).marginTop);
    const k = rows.filter(r => r.getBoundingClientRect().bottom - top <= left - 16).length;
    if (k < 2 || k > rows.length - 2) return false;
    const piece = t.cloneNode(false);
    piece.removeAttribute('id');
    piece.removeAttribute('data-print-table');
    piece.classList.add('print-resumed');
    t.querySelectorAll(':scope > colgroup, :scope > thead').forEach(e => piece.append(e.cloneNode(true)));
    const body = document.createElement('tbody');
    body.append(...rows.slice(k));
    piece.append(body);
    let inner = t, rest = piece;
    while (inner !== next) {
      const copy = inner.parentElement.cloneNode(false);
      copy.removeAttribute('id');
      copy.append(rest);
      while (inner.nextSibling) copy.append(inner.nextSibling);
      inner = inner.parentElement;
      rest = copy;
    }
    next.after(rest);
    return true;
  };
  for (const [id, [gap, partners]] of Object.entries(gaps)) {
    const block = document.getElementById(id);
    let last = null, used = 0;
    // text, tables and boxes follow; a numbered figure also floats on past the end of its section into the
    // next one's first blocks, as a printed book's do (never after a heading, which stays with what follows it)
    const heading = e => /^H\d$/.test(e.tagName) || e.matches('.rubric');
    const text = e => e && !heading(e) && !e.matches('figure, section, .print-doc') && !e.querySelector('figure');
    const following = e => {
      if (e.nextElementSibling) return e.nextElementSibling;
      const up = e.parentElement;
      return up && up.matches('section') && !up.matches('.print-doc > section') ? following(up) : null;
    };
    const numbered = !!block.querySelector('figure .caption-number');
    const doc = block.closest('.print-doc'), now = exact(doc, block);
    for (let next = following(block); next; ) {
      if (numbered && next.matches('section')) { next = next.firstElementChild; continue; }
      const before = used;
      used += outer(next);
      if (used > gap) {
        if (gap - before > room && text(next) && !next.classList.contains('print-leadin')
            && (used - gap <= spill || (now && intoTable(next, gap - before) && ++into))) {
          unkeep(next);
          last = next;
        }
        break;
      }
      if (heading(next)) { if (!numbered) break; next = following(next); continue; }
      if (!text(next)) break;
      last = next;
      next = following(next);
    }
    if (last && !last.classList.contains('print-leadin')) {
      last.after(block);
      moved++;
      changed.add(doc);
      continue;
    }
    const images = [block, ...partners.map(p => document.getElementById(p))].filter(Boolean)
      .flatMap(b => [...b.querySelectorAll('figure img')]).map(img => [img, img.getBoundingClientRect().height]);
    const total = images.reduce((n, [, h]) => n + h, 0);
    const needed = outer(block) - gap + 16;  // 16 px to spare
    if (total > 0 && needed <= (1 - SHRINK_LEAST) * total) {
      images.forEach(([img, h]) => img.style.setProperty('max-height', `${h * (1 - needed / total)}px`, 'important'));
      shrunk++;
      changed.add(doc);
    }
  }
  return [moved, shrunk, into];
}""".replace("SHRINK_LEAST", "0.6").replace("UNKEEP_JS", _UNKEEP)


def page_gaps(blocks: dict, reader, least: float) -> dict:
    """What the float rounds change after a printing (``blocks``: :data:`MARK_BLOCKS`'s), for each page whose text
    area is empty more than ``least`` points above its foot (below the lowest thing it prints: :mod:`.pdf_marks`)
    and whose next page begins with a figure or a kept block (its destination at the page's top, or in the text
    area's first lines): ``figures``, for :data:`FLOAT_FIGURES`, ``{figure's block: [that empty height in CSS px,
    the blocks of the figures on the short page]}`` (a figure that may float), and ``kept``, for :data:`UNKEEP`, the
    kept blocks."""
    from .pdf_marks import lowest_mark

    dests = destinations(reader)
    foot = MARGIN_MM["bottom"] * 72 / 25.4
    top = (PAGE_MM[1] - MARGIN_MM["top"]) * 72 / 25.4

    @functools.cache
    def empty(page: int) -> float:
        lowest = lowest_mark(reader.pages[page], reader, foot, top)
        return 0.0 if lowest is None else lowest - foot

    def short_before(block: str) -> int | None:
        """The short page before the page that ``block`` begins, if it does."""
        page, at = dests.get(block, (0, 0.0))
        return page - 1 if page > 0 and at > top - 12 and empty(page - 1) > least else None

    on_page = {}
    for f in blocks["figures"]:
        if f["block"] in dests:
            on_page.setdefault(dests[f["block"]][0], []).append(f["block"])
    figures, kept, shorts = {}, [], set()
    for f in blocks["figures"]:
        short = short_before(f["block"])
        if short is not None:
            shorts.add(short)
            if f["floats"]:
                figures[f["block"]] = [empty(short) / 0.75, on_page.get(short, [])]
    for block in blocks["kept"]:
        short = short_before(block)
        if short is not None and short not in shorts:
            kept.append(block)
    return {"figures": figures, "kept": kept}


# Cuts each table before the rows that begin a page ({table: [row index, …]}); drops the rows' destinations.
CONTINUE_TABLES = r"""(cuts) => {
  for (const [i, at] of Object.entries(cuts)) {
    const t = document.querySelector(`table[data-print-table="${i}"]`);
    const rows = [...t.tBodies].flatMap(b => [...b.rows]);
    let after = t;
    t.classList.add('print-cut');
    at.forEach((k, j) => {
      const piece = t.cloneNode(false);
      piece.removeAttribute('id');
      piece.removeAttribute('data-print-table');
      piece.classList.add('print-continuation');
      piece.classList.toggle('print-cut', j + 1 < at.length);
      t.querySelectorAll(':scope > colgroup, :scope > thead').forEach(e => piece.append(e.cloneNode(true)));
      const body = document.createElement('tbody');
      body.append(...rows.slice(k, j + 1 < at.length ? at[j + 1] : rows.length));
      piece.append(body);
      after.after(piece);
      after = piece;
    });
  }
  return Object.values(cuts).reduce((n, at) => n + at.length, 0);
}"""

# A cut made from one printing can drift in the next: a row that ended the page before the cut may no longer fit
# there, spill onto a page of its own and leave that page nearly empty before the forced break.  Each such row
# (its id, and the id of the row that begins the piece after it) joins that piece, and the row links go.
RECUT_TABLES = r"""(moves) => {
  for (const [row, first] of moves) {
    const r = document.getElementById(row), f = document.getElementById(first);
    f.parentElement.prepend(r);
  }
  document.getElementById('print-row-links').remove();
  return moves.length;
}"""


def table_breaks(tables: list[dict], dests: dict[str, tuple[int, float]]) -> dict[str, list[int]]:
    """For each table of :data:`MARK_TABLES` that the pages break, the indices of the rows that begin a page (but a
    row after one that may break, which may have begun the page before and ended on the row's)."""
    cuts = {}
    for table in tables:
        pages = [dests[r][0] if r in dests else None for r in table["rows"]]
        at = [k for k in range(1, len(pages)) if None not in pages[k - 1:k + 1] and pages[k] > pages[k - 1]
              and not table["split"][k - 1]]
        if at:
            cuts[table["table"]] = at
    return cuts


def spilled_rows(tables: list[dict], cuts: dict[str, list[int]], dests: dict[str, tuple[int, float]]) \
        -> list[tuple[str, str]]:
    """``(row id, id of the row after it)`` for each cut of :func:`table_breaks` whose row before it landed, in the
    printing with the cuts made, on a page of its own: alone after the rows before it (a page break between rows
    k − 2 and k − 1) and before the forced break to row k."""
    moves = []
    for table in tables:
        rows = table["rows"]
        for k in cuts.get(table["table"], []):
            if k < 2 or any(r not in dests for r in rows[k - 2:k + 1]):
                continue
            before, spilled, cut = (dests[r][0] for r in rows[k - 2:k + 1])
            if before < spilled < cut:
                moves.append((rows[k - 1], rows[k]))
    return moves


def chromium() -> str | None:
    """The system Chromium (Debian's package, installed by ``make system``), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def public_site(root: Path = ROOT) -> str:
    """The book's public address, ``[project.urls] Documentation`` (else ``Homepage``) of ``pyproject.toml``;
    "" when there is none."""
    project = tomllib.loads((Path(root) / "pyproject.toml").read_text())["project"]
    urls = project.get("urls", {})
    return (urls.get("Documentation") or urls.get("Homepage") or "").rstrip("/")


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


def front_matter(config: dict, edition: dict, *, label: str = "", root: Path = ROOT, site: str = "") -> str:
    """The title page (title, author, the five source documents, the edition) and the page behind it
    (copyright, licence, how to cite), as HTML."""
    from ..claims import PAPERS

    esc = html.escape
    title, author = config.get("title", "The book"), config.get("author", "")
    year = str(config.get("copyright", "") or edition["date"][:4])
    sources = "".join(f"<li>{esc(paper)}</li>" for paper in PAPERS.values())
    where = f" {site}." if site else ""
    commit = f", commit {edition['commit']}" if edition["commit"] else ""
    cite = f"{esc(author)}. <em>{esc(title)}</em>. Version {esc(edition['version'])}{esc(commit)}, {edition['date']}."
    return (f'<div class="print-title"><h1>{esc(title)}</h1><p>executable papers</p><p>{esc(author)}</p>'
            '<p class="print-follows">A reading of these source documents, every printed number recomputed:</p>'
            f'<ol class="print-sources">{sources}</ol>'
            + (f"<p><em>{esc(label)}</em></p>" if label else "")
            + f'<p class="print-edition" id="print-edition">{esc(edition["line"])}</p></div>'
            f'<div class="print-colophon" id="print-colophon"><p>© {esc(year)} {esc(author)}</p>'
            f"<p>Licence: {esc(licence(root))}.</p>"
            f"<p>Edition: {esc(edition['line'])}"
            + ("" if edition.get("recorded", True) else
               " (the HTML build recorded no edition: this is the checkout its sources were in when printed)")
            + ".</p>"
            f"<p>How to cite: {cite}{esc(where)}</p></div>")


def destinations(reader) -> dict[str, tuple[int, float]]:
    """Every named destination of a PDF as ``{name: (page index, top in points)}``."""
    pages = {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages)}
    found = {}
    for name, dest in reader.named_destinations.items():
        page = dest.page
        index = pages.get(page.idnum) if hasattr(page, "idnum") else page
        if index is not None:
            found[_name(name)] = (index, float(dest.top or 0))
    return found


def _name(name) -> str:
    """A destination's name as the link wrote it: pypdf reads a PDF name object with its leading slash."""
    name = str(name)
    return name[1:] if name.startswith("/") else name


def _overlay(heads: list[tuple[str, int]], numbers: dict[int, list[tuple[float, int]]],
             size: tuple[float, float]) -> str:
    """One overlay page per PDF page: the running head (chapter title and page number) and the contents'
    page numbers at the heights (in points from the bottom) of their entries."""
    width, height = size
    pages = []
    for i, (head, number) in enumerate(heads):
        parts = []
        if head:
            parts.append(f'<div class="head"><span>{html.escape(head)}</span><span>{number}</span></div>')
        elif number:
            parts.append(f'<div class="foot">{number}</div>')
        for bottom, target in numbers.get(i, []):
            parts.append(f'<div class="n" style="bottom:{bottom + 3.5:.1f}pt">{target}</div>')
        pages.append(f'<div class="pg">{"".join(parts)}</div>')
    m = MARGIN_MM
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
@page {{ size: {width}pt {height}pt; margin: 0; }}
body {{ margin: 0; font-family: 'Noto Sans', 'DejaVu Sans', sans-serif; font-size: 8.5pt; color: #444; }}
.pg {{ width: {width}pt; height: {height}pt; position: relative; overflow: hidden; break-after: page; }}
.head {{ position: absolute; left: {m['left']}mm; right: {m['right']}mm; top: {HEAD_MM - 4}mm; display: flex;
  justify-content: space-between; border-bottom: 0.5pt solid #999; padding-bottom: 1mm; }}
.head span:first-child {{ font-style: italic; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
                          margin-right: 6mm; }}
.foot {{ position: absolute; bottom: 9mm; width: 100%; text-align: center; }}
.n {{ position: absolute; right: {m['right']}mm; font-size: 10pt; color: #222; }}
</style></head><body>{"".join(pages)}</body></html>"""


def _add_outline(writer, headings: list[dict], dests: dict[str, tuple[int, float]]) -> None:
    """The PDF's bookmarks: each page's title, its sections and their subsections, at their headings."""
    from pypdf.generic import Fit

    parents = {}
    for h in headings:
        if h["id"] not in dests:
            continue
        index, top = dests[h["id"]]
        parent = next((parents[k] for k in range(h["level"] - 1, -1, -1) if k in parents), None)
        parents[h["level"]] = writer.add_outline_item(title=h["title"], page_number=index, parent=parent,
                                                      fit=Fit.xyz(top=top), is_open=False)
        for deeper in [k for k in parents if k > h["level"]]:
            del parents[deeper]


def print_book(html_dir: Path, out: Path, *, edition: str = "", root: Path | None = None) -> dict:
    """Print every page of the table of contents from ``html_dir`` into ``out``; return what was printed.

    ``root`` holds the sources the HTML was built from (``_toc.yml``, ``_config.yml``); by default the folder
    that holds ``html_dir`` as ``_build/html`` when it has a ``_toc.yml`` (the student edition's copy, whose
    contents leave the instructors page out), else the repository."""
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader, PdfWriter

    exe = chromium()
    if exe is None:
        raise RuntimeError("Chromium is not installed (Debian: apt-get install chromium, or make system): no PDF")
    html_dir, out = Path(html_dir), Path(out)
    if root is None:
        source = html_dir.resolve().parents[1]
        root = source if (source / "_toc.yml").is_file() else ROOT
    docs = printed_docs(root)
    missing = [d for d in docs if not (html_dir / f"{d}.html").is_file()]
    if missing:
        raise FileNotFoundError(f"{html_dir} lacks {missing}: build the book first (make book / make book-student)")
    config = yaml.safe_load((root / "_config.yml").read_text())
    title, author = config.get("title", "The book"), config.get("author", "")
    margin = {k: f"{v}mm" for k, v in MARGIN_MM.items()}
    content_mm = (PAGE_MM[0] - MARGIN_MM["left"] - MARGIN_MM["right"],
                  PAGE_MM[1] - MARGIN_MM["top"] - MARGIN_MM["bottom"])
    start = time.perf_counter()
    timings = {}
    with _serve(html_dir) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": round(content_mm[0] * PX_PER_MM), "height": 1200})
        page.goto(f"{url}/{docs[0]}.html", wait_until="load")
        page.evaluate("async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }")
        page.emulate_media(media="print")
        built = recorded(html_dir, root)
        site = public_site(root) or release(root)["repository"]
        front = front_matter(config, built, label=edition, root=root, site=site)
        info = page.evaluate(ASSEMBLE, {"docs": docs, "site": public_site(root), "frontMatter": front})
        page.add_style_tag(content=PRINT_CSS.replace("FIGURE_MM", str(FIGURE_MM)))
        info["shadows_removed"] = page.evaluate(NO_SHADOWS)
        info["breakable"] = page.evaluate(KEEP_OR_BREAK, KEEP_SHARE * content_mm[1] * PX_PER_MM)
        timings["assemble"] = round(time.perf_counter() - start, 1)
        logging.getLogger("pypdf").setLevel(logging.ERROR)  # Chromium's trailer counts fewer objects than it writes
        # printed FLOAT_ROUNDS + 2 times: to see which figures left a page short, then where the pages break the
        # long tables, then with the figures moved and the tables cut
        tables = page.evaluate(MARK_TABLES)  # first: its hidden lines take room on the pages the figures see
        least, info["floated"], info["unkept"] = KEEP_SHARE * content_mm[1] * 72 / 25.4, [0, 0, 0], 0
        area = content_mm[1] * PX_PER_MM
        for _ in range(FLOAT_ROUNDS):  # a figure moved or shrunk, or a block let break, can leave the next one short
            blocks = page.evaluate(MARK_BLOCKS)
            gaps = page_gaps(blocks, PdfReader(io.BytesIO(page.pdf(format="A4", margin=margin,
                                                                    print_background=True))), least)
            done = page.evaluate(FLOAT_FIGURES, [gaps["figures"], gaps["kept"], ROOM_SHARE * area, SPILL_SHARE * area])
            info["floated"] = [a + b for a, b in zip(info["floated"], done)]
            info["unkept"] += page.evaluate(UNKEEP, gaps["kept"])
            tables = page.evaluate(MARK_TABLES)  # and the tables let break
        timings["figures"] = round(time.perf_counter() - start, 1)
        rows = destinations(PdfReader(io.BytesIO(page.pdf(format="A4", margin=margin, print_background=True))))
        cuts = table_breaks(tables, rows)
        info["continued"] = page.evaluate(CONTINUE_TABLES, cuts)
        if cuts:  # the printing with the cuts made, to see whether a cut drifted
            rows = destinations(PdfReader(io.BytesIO(page.pdf(format="A4", margin=margin, print_background=True))))
        info["recut"] = page.evaluate(RECUT_TABLES, spilled_rows(tables, cuts, rows))
        timings["tables"] = round(time.perf_counter() - start, 1)
        printed = page.pdf(format="A4", margin=margin, print_background=True)
        body = PdfReader(io.BytesIO(printed))
        timings["print"] = round(time.perf_counter() - start, 1)
        dests = destinations(body)
        size = (float(body.pages[0].mediabox.width), float(body.pages[0].mediabox.height))
        # the running head of a page: the title of the last chapter starting on or before it (none on the
        # front matter and on a chapter's first page); the contents' numbers next to their entries
        starts = sorted((dests[d["id"]][0], d["title"]) for d in info["docs"] if d["id"] in dests)
        first_body = starts[0][0] if starts else len(body.pages)
        heads = []
        for i in range(len(body.pages)):
            current = [t for p, t in starts if p <= i]
            opening = any(p == i for p, _ in starts)
            heads.append(("" if i < first_body or opening else current[-1], i + 1 if i >= 1 else 0))
        numbers = {}
        for i in range(first_body):
            for annot in body.pages[i].get("/Annots") or []:
                annot = annot.get_object()
                dest = annot.get("/Dest")
                if dest is not None and _name(dest) in dests:
                    numbers.setdefault(i, []).append((float(annot["/Rect"][1]), dests[_name(dest)][0] + 1))
        page.set_content(_overlay(heads, numbers, size), wait_until="load")
        overlay = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
        browser.close()
    timings["overlay"] = round(time.perf_counter() - start, 1)
    writer = PdfWriter(clone_from=body)
    for target, stamp in zip(writer.pages, overlay.pages):
        target.merge_page(stamp)
        target.compress_content_streams()  # merge_page writes the page's text uncompressed: 31 MB of 37
    _add_outline(writer, info["headings"], dests)
    writer.add_metadata({"/Title": title, "/Author": author, "/Subject": ", ".join(filter(None, [edition,
                                                                                              built["line"]]))})
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=out.parent, suffix=".pdf", delete=False) as f:
        writer.write(f)
    Path(f.name).chmod(0o644)  # a temporary file is private; the edition is not
    Path(f.name).replace(out)
    timings["write"] = round(time.perf_counter() - start, 1)
    for d in info["docs"]:
        d["page"] = dests[d["id"]][0] + 1 if d["id"] in dests else None
    return {"pdf": str(out), "pages": len(writer.pages), "seconds": round(time.perf_counter() - start, 1),
            "timings": timings, "edition": built, **info}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m dpsemantics.book.pdf", description=__doc__.split("\n\n")[0])
    p.add_argument("html_dir", type=Path, help="a built book, e.g. _build/html")
    p.add_argument("out", type=Path, help="the PDF to write")
    p.add_argument("--edition", default="", help='a label for the title page, e.g. "Student edition" (the '
                   "version, commit and date are the HTML build's, always printed)")
    p.add_argument("--json", type=Path, help="also write what was printed (print_book's result) to this JSON file")
    a = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        result = print_book(a.html_dir, a.out, edition=a.edition)
    except (RuntimeError, FileNotFoundError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if a.json:
        a.json.write_text(json.dumps(result, indent=1, ensure_ascii=False))
    print(f"{result['pdf']}: {result['pages']} pages in {result['seconds']} s {result['timings']}")
    if result["broken"]:
        print(f"warning: {len(result['broken'])} links to ids no page has: {result['broken'][:10]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
