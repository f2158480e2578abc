"""Shared fixtures: the strict book build runs once per test session."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def jupyter_book(*args, cwd=ROOT, env=None):
    """Run ``jupyter-book build`` from the same environment as the tests; return the CompletedProcess."""
    exe = shutil.which("jupyter-book", path=str(BIN)) or "jupyter-book"
    return subprocess.run([exe, "build", *args], cwd=cwd, capture_output=True, text=True, env=env or os.environ.copy())


@pytest.fixture(scope="session")
def strict_build():
    """Build the whole book with warnings as errors (-W -n); a notebook that raises fails it.

    ``DPSEMANTICS_REUSE_BUILD=1`` (for working on the browser test only) reuses an existing ``_build/html``
    instead of rebuilding; ``make test`` never sets it."""
    if os.environ.get("DPSEMANTICS_REUSE_BUILD") == "1" and (ROOT / "_build" / "html" / "index.html").is_file():
        return subprocess.CompletedProcess(["reused", str(ROOT / "_build" / "html")], 0, "", "")
    proc = jupyter_book(".", "--all", "-W", "-n", "--keep-going")
    return proc
