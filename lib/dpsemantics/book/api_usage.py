"""Which chapter section calls which function of the package: the index behind the API reference's "Used in".

The book's chapters call the package from their code cells.  :func:`calls_by_section` reads a chapter
notebook as a reader sees it (markdown headings open sections, code cells run in order), follows the cells'
imports (``from dpsemantics import semantic as S``, ``from dpsemantics.disclosure import posterior_bounds``,
``import dpsemantics.conversions``) and records every package object a cell names, under the section that
holds the cell.  Nothing is executed; a cell that is not valid Python after its IPython magics are blanked
raises ``ValueError`` (the chapters are executed by the build, so that cannot go unnoticed).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

PACKAGE = "dpsemantics"
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~|:::)")
_MAGIC = re.compile(r"^(\s*)[%!].*$", re.MULTILINE)


def heading_text(markdown_heading: str) -> str:
    """A heading's words as a doctree shows them: math dollars, backticks and emphasis marks removed, and
    typographic quotes (docutils' smart quotes) read as straight ones."""
    text = re.sub(r"[$`*]", "", markdown_heading)
    return text.translate(str.maketrans("‘’“”", "''\"\"")).strip()


def _sections_and_code(cells):
    """Yield ``(section title, code)`` for each code cell, the title being the latest heading above it."""
    section = ""
    for cell in cells:
        source = "".join(cell.get("source", ""))
        if cell.get("cell_type") == "markdown":
            in_fence = False
            for line in source.splitlines():
                if _FENCE.match(line):
                    in_fence = not in_fence
                    continue
                m = _HEADING.match(line)
                if m and not in_fence:
                    section = heading_text(m.group(2))
        elif cell.get("cell_type") == "code":
            yield section, source


class _Names(ast.NodeVisitor):
    """Resolve the names a piece of code uses to dotted paths inside the package."""

    def __init__(self, aliases: dict[str, str]):
        self.aliases = aliases  # local name -> dotted path in the package, kept across cells
        self.used: list[str] = []

    def visit_Import(self, node):
        for alias in node.names:
            if alias.name.split(".")[0] == PACKAGE:
                if alias.asname:
                    self.aliases[alias.asname] = alias.name
                else:
                    self.aliases[PACKAGE] = PACKAGE

    def visit_ImportFrom(self, node):
        if node.level == 0 and node.module and node.module.split(".")[0] == PACKAGE:
            for alias in node.names:
                path = f"{node.module}.{alias.name}"
                self.aliases[alias.asname or alias.name] = path
                self.used.append(path)

    def _dotted(self, node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.aliases:
            return ".".join([self.aliases[node.id], *reversed(parts)])
        return None

    def visit_Attribute(self, node):
        path = self._dotted(node)
        if path is None:
            self.generic_visit(node)
        else:
            self.used.append(path)

    def visit_Name(self, node):
        if node.id in self.aliases:
            self.used.append(self.aliases[node.id])


def calls_by_section(notebook: Path | str) -> dict[str, list[str]]:
    """Every dotted package path the notebook's code names, mapped to the section titles (in order, no
    repeats) whose code cells name it.  Paths are as written (``dpsemantics.semantic.games``); a path may
    reach past a function into an attribute of its result, so callers match paths against the objects
    they document (:func:`resolve`)."""
    cells = json.loads(Path(notebook).read_text(encoding="utf-8"))["cells"]
    aliases: dict[str, str] = {}
    usage: dict[str, list[str]] = {}
    for section, code in _sections_and_code(cells):
        try:
            tree = ast.parse(_MAGIC.sub(lambda m: m.group(1) + "pass", code))
        except SyntaxError as error:
            raise ValueError(f"notebook {notebook}: a code cell is not valid Python ({error})") from error
        visitor = _Names(aliases)
        visitor.visit(tree)
        for path in visitor.used:
            sections = usage.setdefault(path, [])
            if section not in sections:
                sections.append(section)
    return usage


def resolve(path: str, documented: set[str]) -> str | None:
    """The documented object that a used path names: the path itself or its longest documented prefix
    (``dpsemantics.semantic.games.posteriors`` → ``dpsemantics.semantic.games``); ``None`` if there is none
    below module level (a module alone is not a use of any one function)."""
    parts = path.split(".")
    for end in range(len(parts), 2, -1):
        candidate = ".".join(parts[:end])
        if candidate in documented:
            return candidate
    return None
