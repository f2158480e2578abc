"""Shared fixtures: the strict book build runs once per test session, in the background.

The strict build (``jupyter-book build --all -W -n``) is the one execution of the chapters in ``make test``:
every test that needs a built book (``strict_build``) reads its HTML, its executed notebooks
(``_build/jupyter_execute``) or its log.  It takes minutes and keeps about one core busy (the kernel or
Sphinx, in turn), so when the collected tests need it, it is started as soon as collection ends and runs while
the tests that do not need it run on the other core; the tests that need it are moved to the end of the run,
and the ``strict_build`` fixture waits for it.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
STRICT_ARGS = (".", "--all", "-W", "-n", "--keep-going")


def _jupyter_book_exe() -> str:
    return shutil.which("jupyter-book", path=str(BIN)) or "jupyter-book"


def jupyter_book(*args, cwd=ROOT, env=None):
    """Run ``jupyter-book build`` from the same environment as the tests; return the CompletedProcess."""
    return subprocess.run([_jupyter_book_exe(), "build", *args], cwd=cwd, capture_output=True, text=True,
                          env=env or os.environ.copy())


def _reuse_build() -> bool:
    return os.environ.get("DPSEMANTICS_REUSE_BUILD") == "1" and (ROOT / "_build" / "html" / "index.html").is_file()


class _BackgroundBuild:
    """The strict build as a child process whose output goes to a log file; :meth:`result` waits for it."""

    def __init__(self):
        self.log = tempfile.NamedTemporaryFile("w+", prefix="strict-build-", suffix=".log", delete=False)
        self.args = [_jupyter_book_exe(), "build", *STRICT_ARGS]
        self.started = time.time()
        self.proc = subprocess.Popen(self.args, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, text=True)
        self._result = None

    def result(self) -> subprocess.CompletedProcess:
        if self._result is None:
            code = self.proc.wait()
            self.log.seek(0)
            # stdout and stderr interleaved, as a terminal shows them; stderr left empty
            self._result = subprocess.CompletedProcess(self.args, code, self.log.read(), "")
            self._result.started = self.started  # the executed notebooks older than this are not this build's
            self.log.close()
            os.unlink(self.log.name)
        return self._result

    def stop(self) -> None:
        """End the build if the session ends first (an interrupted run, -x): only this child process."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self._result is None:
            self.log.close()
            os.unlink(self.log.name)


_BUILD: _BackgroundBuild | None = None


def _needs_build(item) -> bool:
    return "strict_build" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(session, config, items):
    """The tests that need the built book run last (in their collected order), after everything else."""
    items[:] = [i for i in items if not _needs_build(i)] + [i for i in items if _needs_build(i)]


def pytest_collection_finish(session):
    global _BUILD
    if session.config.option.collectonly or _reuse_build():
        return
    if any(_needs_build(item) for item in session.items):
        _BUILD = _BackgroundBuild()


def pytest_sessionfinish(session, exitstatus):
    if _BUILD is not None:
        _BUILD.stop()


@pytest.fixture(scope="session")
def strict_build():
    """The whole book built with warnings as errors (-W -n); a notebook that raises fails it.  Started in the
    background when collection ends (above); this fixture waits for it and returns its CompletedProcess.

    ``DPSEMANTICS_REUSE_BUILD=1`` (for working on the browser or PDF tests only) reuses an existing
    ``_build/html`` instead of rebuilding; ``make test`` never sets it."""
    if _reuse_build():
        return subprocess.CompletedProcess(["reused", str(ROOT / "_build" / "html")], 0, "", "")
    if _BUILD is not None:
        return _BUILD.result()
    started = time.time()
    proc = jupyter_book(*STRICT_ARGS)
    proc.started = started
    return proc
