"""The book's sources as data: where the repository is and what its table of contents lists.

The one reader of ``_toc.yml`` for the package (rerun, exercises, the claims page) and the tests.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]


def docnames(root: Path = ROOT) -> list[str]:
    """The root page and every chapter listed in ``_toc.yml``, in order (e.g. ``"book/intro"``)."""
    toc = yaml.safe_load((Path(root) / "_toc.yml").read_text())
    return [toc["root"]] + [ch["file"] for part in toc.get("parts", []) for ch in part.get("chapters", [])]


def chapter_notebooks(root: Path = ROOT) -> list[Path]:
    """The listed pages that are Jupyter notebooks, in table-of-contents order."""
    files = [Path(root) / f"{doc}.ipynb" for doc in docnames(root)]
    return [f for f in files if f.exists()]
