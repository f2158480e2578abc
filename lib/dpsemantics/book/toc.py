"""The book's sources as data: where the repository is, what its table of contents lists, and the release
(version and public repository URL, from ``pyproject.toml``).

The one reader of ``_toc.yml`` for the package (rerun, exercises, the claims page) and the tests.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def docnames(root: Path = ROOT) -> list[str]:
    """The root page and every page listed in ``_toc.yml`` (chapters and their sections), in reading order
    (e.g. ``"book/intro"``, ``"book/api/semantic"``)."""
    toc = _toc(root)
    return [toc["root"]] + [doc for part in toc.get("parts", []) for doc in _pages(part.get("chapters", []))]


def _toc(root: Path) -> dict:
    import yaml  # a book-build dependency: chapters in a fresh Python (Colab) never call this

    return yaml.safe_load((Path(root) / "_toc.yml").read_text())


def _pages(entries):
    """The docnames of ``_toc.yml`` entries and of their sections, in order."""
    for entry in entries:
        yield entry["file"]
        yield from _pages(entry.get("sections", []))


def pages_with_code(root: Path = ROOT) -> list[str]:
    """The listed pages the build executes, by docname, in reading order: the notebooks and the MyST-markdown
    pages with code cells."""
    pages = []
    for doc in docnames(root):
        notebook, markdown = Path(root) / f"{doc}.ipynb", Path(root) / f"{doc}.md"
        if notebook.is_file() or (markdown.is_file() and "```{code-cell}" in markdown.read_text()):
            pages.append(doc)
    return pages


def chapter_notebooks(root: Path = ROOT) -> list[Path]:
    """The listed pages that are Jupyter notebooks, in table-of-contents order: the numbered chapters and the
    unnumbered notebook pages (the opening page, *What ε means for a person*), which follow the same rules."""
    files = [Path(root) / f"{doc}.ipynb" for doc in docnames(root)]
    return [f for f in files if f.exists()]


def numbered_notebooks(root: Path = ROOT) -> list[Path]:
    """The notebooks of the numbered parts of ``_toc.yml`` (``numbered: true``), in order: the chapters that
    carry a number ("Chapter 1" is the first of them, whatever unnumbered page comes before it)."""
    numbered = {doc for part in _toc(root).get("parts", []) if part.get("numbered")
                for doc in _pages(part.get("chapters", []))}
    return [path for path in chapter_notebooks(root)
            if path.relative_to(Path(root)).with_suffix("").as_posix() in numbered]


def chapter_numbers(root: Path = ROOT) -> dict[str, int]:
    """Each numbered chapter notebook's number in the table of contents, by docname (``{"book/intro": 1, ...}``);
    empty where there is no table of contents to read (a chapter opened alone in a fresh Python, as Colab runs it:
    no ``_toc.yml`` beside the installed package, no PyYAML)."""
    try:
        return {path.relative_to(Path(root)).with_suffix("").as_posix(): number
                for number, path in enumerate(numbered_notebooks(root), start=1)}
    except (ImportError, OSError):
        return {}


def chapter_titles(root: Path = ROOT) -> dict[str, str]:
    """Each numbered chapter notebook's title, its first Markdown heading, by docname, numbered as the table of contents
    numbers the chapters (``{"book/intro": "1 What differential privacy says: the definitions", ...}``): the
    one source for a chapter's name anywhere else in the book (the notion map's legend)."""
    import json

    titles = {}
    for number, path in enumerate(numbered_notebooks(root), start=1):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        heading = next(line for c in cells if c["cell_type"] == "markdown"
                       for line in "".join(c["source"]).splitlines() if line.startswith("# "))
        titles[path.relative_to(Path(root)).with_suffix("").as_posix()] = f"{number} {heading[2:].strip()}"
    return titles


def release(root: Path = ROOT) -> dict:
    """The book's release as ``pyproject.toml`` states it: ``{"version": ..., "repository": URL or ""}``.

    The repository URL (``[project.urls] Repository``) is the one place the book's public address lives:
    the build's launch buttons and the chapters' install line are made from it, and left out without it."""
    import tomllib

    project = tomllib.loads((Path(root) / "pyproject.toml").read_text())["project"]
    return {"version": project["version"], "repository": project.get("urls", {}).get("Repository", "").rstrip("/")}
