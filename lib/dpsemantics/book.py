"""The book's sources as data: where the repository is and what its table of contents lists.

The one reader of ``_toc.yml`` for the package (rerun, exercises, the claims page) and the tests.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def docnames(root: Path = ROOT) -> list[str]:
    """The root page and every chapter listed in ``_toc.yml``, in order (e.g. ``"book/intro"``)."""
    toc = yaml.safe_load((Path(root) / "_toc.yml").read_text())
    return [toc["root"]] + [ch["file"] for part in toc.get("parts", []) for ch in part.get("chapters", [])]


def chapter_notebooks(root: Path = ROOT) -> list[Path]:
    """The listed pages that are Jupyter notebooks, in table-of-contents order."""
    files = [Path(root) / f"{doc}.ipynb" for doc in docnames(root)]
    return [f for f in files if f.exists()]


def number(value, digits: int = 4) -> str:
    """A number as a reader sees it: plain Python formatting, never a NumPy repr (``np.float64(...)``).

    Integers (and integral floats up to 1e15) print whole; other values to ``digits`` significant digits,
    in scientific form with a short exponent (``1e-06`` → ``1e-6``) when very large or small."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int) or (value.is_integer() and abs(value) < 1e15):
        return f"{int(value):,}".replace(",", " ") if abs(value) >= 10_000 else str(int(value))
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        text = f"{mantissa}e{int(exp)}"
    return text
