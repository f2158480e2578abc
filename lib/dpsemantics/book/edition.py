"""The book's edition: which release of the package, which commit and which day a build was made from.

Computed, never typed: the version is ``pyproject.toml``'s (:func:`dpsemantics.book.toc.release`), the commit
is ``git rev-parse --short HEAD`` of the sources' checkout and the date is the day of the build (UTC).  The
HTML build writes it into every page's footer (the theme's ``extra_footer``, set by
``dpsemantics.book.sphinx_extras``) and records it in ``edition.json`` beside the pages; the PDF
(``dpsemantics.book.pdf``) prints the edition recorded in the HTML it prints, so both say the same.

The licence is the one the package declares (``[project] license`` of ``pyproject.toml``) or a licence file of
the repository; the book names no other: without either it says "Licence: see the repository".
"""

from __future__ import annotations

import datetime
import json
import subprocess
import tomllib
from pathlib import Path

from .toc import ROOT, release

RECORD = "edition.json"  # in the built HTML folder
LICENCE_FILES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "LICENCE.md", "COPYING")


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def edition(root: Path = ROOT, *, today: datetime.date | None = None) -> dict:
    """``{"version", "commit", "modified", "date", "line"}`` of a build made now from the sources in ``root``.

    ``commit`` is "" outside a git checkout; ``modified`` says the checkout had uncommitted changes to tracked
    files (the build is then not exactly that commit)."""
    root = Path(root)
    commit = _git(root, "rev-parse", "--short", "HEAD")
    modified = bool(commit) and bool(_git(root, "status", "--porcelain", "--untracked-files=no"))
    date = (today or datetime.datetime.now(datetime.timezone.utc).date()).isoformat()
    record = {"version": release(root)["version"], "commit": commit, "modified": modified, "date": date}
    return {**record, "line": line(record)}


def line(record: dict) -> str:
    """The edition in one line, as the title page and the site's footer print it."""
    source = (f"commit {record['commit']}" + (" with local changes" if record["modified"] else "")
              if record["commit"] else "not built from a git checkout")
    return f"Version {record['version']} · {source} · built {record['date']}"


def write_record(html_dir: Path, record: dict) -> Path:
    """Record a build's edition in ``html_dir/edition.json``."""
    path = Path(html_dir) / RECORD
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return path


def recorded(html_dir: Path, root: Path = ROOT) -> dict:
    """The edition the HTML in ``html_dir`` was built as; an HTML build from before editions were recorded is
    given the edition of a build made now from ``root`` (marked ``"recorded": False``)."""
    path = Path(html_dir) / RECORD
    if path.is_file():
        return {**json.loads(path.read_text()), "recorded": True}
    return {**edition(root), "recorded": False}


def licence(root: Path = ROOT) -> str:
    """The licence as the repository states it: the package's declared licence, else the first line of a
    licence file, else "see the repository"."""
    root = Path(root)
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"].get("license", "")
    if isinstance(declared, dict):  # the older table form: {text = "..."} or {file = "..."}
        declared = declared.get("text", "")
    if declared:
        return f"{declared} (the licence the package declares in pyproject.toml)"
    for name in LICENCE_FILES:
        if (root / name).is_file():
            first = next((s.strip() for s in (root / name).read_text().splitlines() if s.strip()), name)
            return f"{first} (the repository's {name})"
    return "see the repository"
