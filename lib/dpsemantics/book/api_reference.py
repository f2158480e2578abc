"""Sphinx extension: the API reference, and the links between the chapters' results and the code.

Enabled in ``_config.yml`` under ``sphinx.extra_extensions``; the pages are ``book/api/<module>.md``.

* ``{api-summary} dpsemantics.<module>`` — a table of the module's public objects (its ``__all__``) with
  their one-line summaries, each linked to its entry below (Sphinx's autosummary, fed from ``__all__`` so
  the list cannot go stale).
* ``{claim}`<id>``` — a link to a claim's row in the reproducibility report: a superscript mark in prose and in
  the margin note of a theorem box, the id itself in a chapter's "How this was checked" section.  An id the
  registry does not know is a build warning (an error under the strict build).
* Every documented function and class gets two lists, computed at build time: **Used in** — the chapter
  sections whose code cells call it (:mod:`dpsemantics.book.api_usage`); **Stated in** — the theorem and
  definition boxes whose "Computed by" line (in the margin note just before the box) links to it.  So a reader
  goes from a result to its code and back, as d2l's "Defined in" notes do.
"""

from __future__ import annotations

import importlib
import inspect
import re
from functools import lru_cache
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.ext.autodoc import DataDocumenter
from sphinx.ext.autosummary import Autosummary
from sphinx.util import logging

from .api_usage import calls_by_section, heading_text, resolve
from .render import _BARE_INDEX, claim_anchor, exponents, typeset_scripts

logger = logging.getLogger(__name__)

#: The modules the API reference documents, in reading order (one page each under ``book/api/``, see :func:`api_page`).
API_MODULES = ("indistinguishability", "mechanisms", "conversions", "composition", "pld", "privacy_loss", "disclosure",
               "semantic", "notions", "causal", "releases", "claims", "claims.notion_map", "report")
API_FOLDER = "book/api/"
CLAIMS_PAGE = "book/claims"


def api_page(module: str) -> str:
    """The docname of a module's API page: ``book/api/`` and the module's last name (``"claims.notion_map"`` →
    ``"book/api/notion_map"``)."""
    return API_FOLDER + module.rsplit(".", 1)[-1]


def public_names(module) -> list[str]:
    """A module's public objects: its ``__all__``, else the functions and classes it defines."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [k for k, v in vars(module).items() if not k.startswith("_")
                 and (inspect.isfunction(v) or inspect.isclass(v)) and v.__module__ == module.__name__]
    return list(names)


def documented_objects() -> set[str]:
    """Dotted paths of every object the API reference documents."""
    return {f"dpsemantics.{m}.{name}" for m in API_MODULES
            for name in public_names(importlib.import_module(f"dpsemantics.{m}"))}


class ApiSummary(Autosummary):
    """``{api-summary} dpsemantics.<module>``: the autosummary table of the module's public objects."""

    required_arguments = 1
    has_content = False
    option_spec = {}

    def run(self):
        module = importlib.import_module(self.arguments[0])
        self.env.ref_context["py:module"] = module.__name__  # the summaries' :func:`name` links are module-relative
        self.content = StringList(public_names(module), source="api-summary")
        self.options = {"nosignatures": True}
        return super().run()

    def get_items(self, names):
        """Each function's and class's summary is :func:`first_sentence` of its docstring (autosummary's own cut
        stops at "eq." and "Sec."); constants keep autosummary's, read from their ``#:`` comment."""
        items = []
        for name, signature, summary, real_name in super().get_items(names):
            module, _, attribute = real_name.rpartition(".")
            obj = getattr(importlib.import_module(module), attribute)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                summary = first_sentence(docstring_for_page((inspect.getdoc(obj) or "").splitlines()))
            items.append((name, signature, summary, real_name))
        return items


_ABBREVIATIONS = re.compile(r"(?:\b(?:eq|eqs|al|Sec|Secs|Thm|Def|Fig|Prop|Cor|cf|vs|resp|p|pp|No|ch)|e\.g|i\.e)\.$")


def first_sentence(lines: list[str]) -> str:
    """The first sentence of a docstring's first paragraph: cut at a full stop followed by a space, unless
    the full stop ends an abbreviation ("eq. (3)", "Zhao, Sec. I", "Kazan et al."); a paragraph that leads
    into a displayed formula ("… is (ε′, δ′)-PDP with:", or "… with" and the formula) ends in an ellipsis."""
    paragraph = []
    for line in lines:
        if not line.strip():
            if paragraph:
                break
            continue
        paragraph.append(line.strip())
    text = " ".join(paragraph)
    for m in re.finditer(r"\.(?=\s)", text):
        if not _ABBREVIATIONS.search(text[: m.end()]):
            return text[: m.end()]
    return text if re.search(r"[.!?)]$", text) else re.sub(r"\s*:$", "", text) + " …"


@lru_cache(maxsize=None)
def _claim_ids() -> frozenset[str]:
    from ..claims import registry

    return frozenset(c.id for c in registry())


def claim_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{claim}`id``` → a link to a claim's row of the reproducibility report.

    In a chapter's reading path it is shown as a small superscript number, like a footnote mark (the id stays in
    the link's title); in the section that shows how the chapter was checked (:data:`CHECKS_SECTION`) the id itself
    is shown, in code style (:func:`_resolve_claim_links` decides, once the page's sections are known)."""
    env = inliner.document.settings.env
    claim_id = text.strip()
    literal = nodes.literal(claim_id, claim_id)
    if claim_id not in _claim_ids():
        logger.warning("unknown claim id %r (not in dpsemantics.claims.registry())", claim_id,
                       location=(env.docname, lineno))
        return [literal], []
    node = nodes.reference(rawtext, "", literal, internal=True, classes=["claim-link"])
    node["dpsemantics_claim"] = claim_id
    return [node], []


#: The title of the closing section of a chapter that shows how its results were checked: collapsed in HTML
#: (:func:`dpsemantics.book.sphinx_extras` wraps its body in ``<details>``), and the one place where claim links
#: show the claim's id.
CHECKS_SECTION = "How this was checked"


def in_checks_section(node) -> bool:
    """Whether a node lies in a section titled :data:`CHECKS_SECTION` (or one of its subsections)."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.section):
            title = parent.next_node(nodes.title)
            if title is not None and title.astext().strip() == CHECKS_SECTION:
                return True
        parent = parent.parent
    return False


def _resolve_claim_links(app, doctree, docname):
    """Point every claim link at its row of the reproducibility report; outside the checks section, show it as
    a superscript mark numbered in order of first appearance on the page (one number per claim)."""
    marks: dict[str, int] = {}
    for ref in list(doctree.findall(nodes.reference)):
        claim_id = ref.get("dpsemantics_claim")
        if not claim_id:
            continue
        if not ref.get("refuri"):
            ref["refuri"] = app.builder.get_relative_uri(docname, CLAIMS_PAGE) + "#" + claim_anchor(claim_id)
        if docname == CLAIMS_PAGE or in_checks_section(ref):
            continue
        number = marks.setdefault(claim_id, len(marks) + 1)
        ref["reftitle"] = f"check {number}: claim {claim_id} in the reproducibility report"
        ref["classes"].append("claim-mark")
        ref.children = []
        ref += nodes.Text(f"[{number}]")
        sup = nodes.superscript("", "", classes=["claim-mark"])
        ref.replace_self(sup)
        sup += ref


_LITERAL = re.compile(r"(``.+?``)", re.S)
# A reST role already in the docstring (:func:`x_y`, :math:`…`) and the script roles made below: left alone.
_ROLE_TEXT = re.compile(r"(:[\w:.-]+:`[^`]*`(?:\\ )?)")
# A word with an underscore that is not an index (``prog_status``, ``delta_prime``, ``prog_𝒜``): a name, set as a
# literal.  An index is one character, or a Greek letter's named index (ε_DP), which _BARE_INDEX takes first.
_NAME = re.compile(r"(?<![\w`\\.])(?:[^\W_]+\.)*[^\W_]{2,}_\w+")


def _as_literal(m) -> str:
    """A name as an inline literal, with an escaped space where reST would not see the literal's start or end
    (``f``\\ (x), a name followed by a parenthesis)."""
    text, at, end = m.string, m.start(), m.end()
    before = "" if at == 0 or text[at - 1].isspace() or text[at - 1] in "-:/'\"<([{" else "\\ "
    after = "" if end == len(text) or text[end].isspace() or text[end] in "-.,:;!?\\/'\")]}>" else "\\ "
    return f"{before}``{m.group()}``{after}"


def _rst_script(tag: str, inner: str) -> str:
    """A superscript or subscript as the ``dps-sub``/``dps-sup`` role, whose text may hold nested scripts as
    ``<sub>…</sub>`` (reST roles do not nest; :func:`script_role` builds the nested nodes)."""
    return f"\\ :dps-{tag}:`{inner}`\\ "


def _html_script(tag: str, inner: str) -> str:
    return f"<{tag}>{inner}</{tag}>"


def _scripts(text: str) -> str:
    """Exponents, braced indices and bare indices (``x_i``, ``δ_g``, ``ε_rr``, ``Σ_{x_U}``) of plain text as
    script roles, nested ones included."""
    def bare(part):
        return _BARE_INDEX.sub(lambda m: m["base"] + _html_script("sub", m["index"]), part)

    html = typeset_scripts(bare(text), lambda tag, inner: _html_script(tag, bare(inner)))
    out, depth, start, tag = [], 0, 0, ""
    for m in re.finditer(r"<(/?)(sub|sup)>", html):
        if not m[1]:
            if depth == 0:
                out.append(html[start:m.start()])
                start, tag = m.end(), m[2]
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                out.append(_rst_script(tag, html[start:m.start()]))
                start = m.end()
    return "".join(out) + html[start:]


def docstring_for_page(lines: list[str]) -> list[str]:
    """The package's docstrings write mathematics as plain text, as in ``help()``: |x|, Pr[A | B], e^{−ε},
    Σ_{x_U}, δ_g, ε_rr.  On a page, outside inline literals and roles, bars are escaped (reStructuredText would
    read ``|…|`` as a substitution), exponents and indices, braced or bare, become superscripts and subscripts,
    nested ones too (:func:`dpsemantics.book.render.typeset_scripts`, the rule the chapters' tables follow),
    names with an underscore (``prog_status``) become literals, and numbers in Python's exponent form are
    written as a reader writes them, ``1e-12`` → 10⁻¹² (:func:`dpsemantics.book.render.exponents`, as in the
    chapters' tables)."""

    def plain(part):
        text = exponents(part).replace("|", "\\|")
        text = _NAME.sub(_as_literal, text)
        return "".join(p if p.startswith("``") else _scripts(p) for p in _LITERAL.split(text))

    def prose(chunk):  # consecutive prose lines at once: a literal may run over a line break
        text = "\n".join(chunk)
        text = "".join(part if part.startswith("``") or _ROLE_TEXT.fullmatch(part) else plain(part)
                       for piece in _LITERAL.split(text) for part in
                       ([piece] if piece.startswith("``") else _ROLE_TEXT.split(piece)))
        return text.split("\n") if chunk else []

    page, chunk, block = [], [], None  # block: the indentation of the paragraph that opened a literal block (::)
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if block is not None and (not line.strip() or indent > block):
            page.append(line)  # code as written
            continue
        block = None
        if line.lstrip().startswith(">>>"):
            page += prose(chunk) + [line]
            chunk = []
            continue
        chunk.append(line)
        if line.rstrip().endswith("::"):
            page += prose(chunk)
            chunk, block = [], indent
    return page + prose(chunk)


def script_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``:dps-sub:`…``` and ``:dps-sup:`…```: a subscript or superscript whose text may hold nested
    ``<sub>``/``<sup>`` (``Σ_{x_U}`` → Σ<sub>x<sub>U</sub></sub>), as nested docutils nodes."""
    root = (nodes.subscript if name.endswith("sub") else nodes.superscript)(rawtext)
    stack, pos = [root], 0
    for m in re.finditer(r"<(/?)(sub|sup)>", text):
        if m.start() > pos:
            stack[-1] += nodes.Text(text[pos:m.start()])
        if m[1]:
            if len(stack) > 1:
                stack.pop()
        else:
            child = (nodes.subscript if m[2] == "sub" else nodes.superscript)()
            stack[-1] += child
            stack.append(child)
        pos = m.end()
    if pos < len(text):
        stack[-1] += nodes.Text(text[pos:])
    return [root], []


def _docstring_for_page(app, what, name, obj, options, lines):
    lines[:] = docstring_for_page(lines)


# ---------------------------------------------------------------------------------------------------------
# Used in / Stated in
# ---------------------------------------------------------------------------------------------------------


def _chapter_notebooks(app) -> dict[str, Path]:
    """Docname → notebook path of every chapter in the book."""
    from .toc import chapter_notebooks

    root = Path(app.srcdir)
    return {str(path.relative_to(root).with_suffix("")): path for path in chapter_notebooks(root)}


def _collect_usage(app, env, docnames):
    """Before reading: which chapter sections call which documented object (``env.dpsemantics_used_in``)."""
    documented = documented_objects()
    used: dict[str, list[tuple[str, str]]] = {}
    for docname, path in _chapter_notebooks(app).items():
        for dotted, sections in calls_by_section(path).items():
            target = resolve(dotted, documented)
            if target is None:
                continue
            entries = used.setdefault(target, [])
            entries.extend((docname, s) for s in sections if (docname, s) not in entries)
    env.dpsemantics_used_in = used


def _section_ids(doctree) -> dict[str, str]:
    """Heading text → section id in a chapter's doctree."""
    ids = {}
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        if title is not None and section["ids"]:
            ids.setdefault(heading_text(title.astext()), section["ids"][0])
    return ids


def box_margin(box):
    """The margin note placed immediately before a theorem box (a ``{margin}`` sidebar), which carries the box's
    "Computed by …" line: beside the box, out of its text; ``None`` when there is none."""
    parent = box.parent
    if parent is None:
        return None
    index = parent.index(box)
    previous = parent[index - 1] if index else None
    if isinstance(previous, nodes.sidebar) and "margin" in previous.get("classes", []):
        return previous
    return None


def _boxes_citing(doctree, docname, proofs) -> dict[str, list[tuple[str, str, str]]]:
    """Documented object → the theorem boxes of one chapter (docname, box id, box title) whose text, or whose
    margin note (:func:`box_margin`), links to it."""
    cited: dict[str, list[tuple[str, str, str]]] = {}
    def is_box(n):
        return isinstance(n, nodes.Element) and n.get("realtype") and n.get("label") in proofs

    for box in doctree.findall(is_box):
        label = box["label"]
        title = proofs[label].get("dpsemantics_title") or proofs[label]["realtype"].title()
        margin = box_margin(box)
        refs = list(box.findall(addnodes.pending_xref)) + (list(margin.findall(addnodes.pending_xref))
                                                            if margin is not None else [])
        for ref in refs:
            if ref.get("refdomain") == "py" and ref.get("reftarget", "").startswith("dpsemantics."):
                boxes = cited.setdefault(ref["reftarget"], [])
                if (docname, label, title) not in boxes:
                    boxes.append((docname, label, title))
    return cited


def _index_chapters(app, env):
    """Once all pages are read: every chapter's section ids and the boxes that cite each object, from one pass
    over each chapter's doctree (``env.dpsemantics_section_ids``, ``env.dpsemantics_cited``)."""
    proofs = getattr(env, "proof_list", {})
    env.dpsemantics_section_ids, env.dpsemantics_cited = {}, {}
    for docname in _chapter_notebooks(app):
        doctree = env.get_doctree(docname)
        env.dpsemantics_section_ids[docname] = _section_ids(doctree)
        for target, boxes in _boxes_citing(doctree, docname, proofs).items():
            env.dpsemantics_cited.setdefault(target, []).extend(boxes)


def _api_pages_follow_chapters(app, env, added, changed, removed):
    """The API pages' backlinks are derived from the chapters: rewrite them whenever a chapter changes."""
    chapters = set(_chapter_notebooks(app))
    if chapters & (set(added) | set(changed) | set(removed)):
        return [d for d in env.found_docs if d.startswith(API_FOLDER)]
    return []


def _numbered(env, docname, anchor, title) -> str:
    """``5.2 Title``: a section's title after its number in the book (or the chapter's, for ``anchor=None``)."""
    number = env.toc_secnumbers.get(docname, {}).get(f"#{anchor}" if anchor else "")
    return f"{'.'.join(map(str, number))} {title}" if number else title


def _chapter(env, docname) -> str:
    """``chapter 5`` (or the page's title, for an unnumbered page)."""
    number = env.toc_secnumbers.get(docname, {}).get("")
    return f"chapter {'.'.join(map(str, number))}" if number else env.titles[docname].astext()


def _link(app, fromdoc, docname, anchor, text):
    uri = app.builder.get_relative_uri(fromdoc, docname) + (f"#{anchor}" if anchor else "")
    return nodes.reference("", text, internal=True, refuri=uri)


def _paragraph(label, links):
    para = nodes.paragraph(classes=["api-backlinks"])
    para += nodes.strong(label, label)
    para += nodes.Text(" ")
    for i, link in enumerate(links):
        if i:
            para += nodes.Text(" · ")
        para += link
    return para


def _usage_links(app, env, docname, fullname):
    links = []
    for chapter, section in getattr(env, "dpsemantics_used_in", {}).get(fullname, []):
        chapter_title = env.titles[chapter].astext()
        if heading_text(chapter_title) == section:
            links.append(_link(app, docname, chapter, None, _numbered(env, chapter, None, chapter_title)))
            continue
        anchor = env.dpsemantics_section_ids.get(chapter, {}).get(section)
        if anchor is None:
            logger.warning("section %r of %s not found for the API backlink of %s", section, chapter, fullname,
                           location=docname)
        links.append(_link(app, docname, chapter, anchor, _numbered(env, chapter, anchor, section)))
    return links


def _add_backlinks(app, doctree, docname):
    if not docname.startswith(API_FOLDER):
        return
    env = app.env
    for desc in doctree.findall(addnodes.desc):
        if desc.get("domain") != "py" or desc.get("objtype") not in ("function", "class"):
            continue
        signature = desc.next_node(addnodes.desc_signature)
        fullname = f"{signature.get('module')}.{signature.get('fullname')}"
        content = desc.next_node(addnodes.desc_content)
        boxes = [_link(app, docname, d, label, f"{title} ({_chapter(env, d)})")
                 for d, label, title in env.dpsemantics_cited.get(fullname, [])]
        if boxes:
            content += _paragraph("Stated in:", boxes)
        links = _usage_links(app, env, docname, fullname)
        if links:
            content += _paragraph("Used in:", links)


class ShortValueDataDocumenter(DataDocumenter):
    """Module constants show their value only when it is short and exact: the repr of a table of notions
    would fill the page with Python syntax, and a float's 17 digits are a repr, not a number for readers (the
    doc comment states the value, e.g. ``EPS_TILDE_LIMIT`` = 2 log 3)."""

    priority = DataDocumenter.priority + 1

    def should_suppress_value_header(self) -> bool:
        text = repr(self.object)
        return super().should_suppress_value_header() or len(text) > 80 or bool(re.search(r"\d\.\d{9,}", text))


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.autosummary")
    app.add_autodocumenter(ShortValueDataDocumenter, override=True)
    app.add_directive("api-summary", ApiSummary)
    app.add_role("claim", claim_role)
    app.add_role("dps-sub", script_role)
    app.add_role("dps-sup", script_role)
    app.connect("autodoc-process-docstring", _docstring_for_page)
    app.connect("env-before-read-docs", _collect_usage)
    app.connect("env-get-outdated", _api_pages_follow_chapters)
    app.connect("env-updated", _index_chapters)
    app.connect("doctree-resolved", _resolve_claim_links)
    app.connect("doctree-resolved", _add_backlinks)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
