"""Shared fixtures: the book is built once per test session, in the background.

The strict build (``jupyter-book build --all -W -n``) is the one execution of the chapters in ``make test``:
every test that needs a built book (``strict_build``) reads its HTML, its executed notebooks
(``_build/jupyter_execute``) or its log.  It takes minutes and keeps about one core busy (the kernel or
Sphinx, in turn), so when the collected tests need it, it is started as soon as collection ends and runs while
the tests that do not need it run on the other core; the tests that need it are moved to the end of the run,
and the ``strict_build`` fixture waits for it.  As soon as the strict build is done (a thread watches it), the
printed editions (``printed_editions``, for the PDF test) are made in the background on the core it leaves
free: the student edition built from the strict build's executed notebooks, then both editions printed to PDF.
The tests that do not need the book and the other tests of the built book run meanwhile; the tests that need
the PDFs run last.
"""

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
STRICT_ARGS = (".", "--all", "-W", "-n", "--keep-going")
STUDENT_SRC = ROOT / "_build" / "student-edition-test"  # beside make pdf's _build/student-src, not over it
PDF_OUT = ROOT / "_build" / "pdf"  # where make pdf puts the PDFs; what each printing returned goes beside them
STUDENT_EDITION = "Student edition: without solutions"


def _jupyter_book_exe() -> str:
    return shutil.which("jupyter-book", path=str(BIN)) or "jupyter-book"


def jupyter_book(*args, cwd=ROOT, env=None):
    """Run ``jupyter-book build`` from the same environment as the tests; return the CompletedProcess."""
    return subprocess.run([_jupyter_book_exe(), "build", *args], cwd=cwd, capture_output=True, text=True,
                          env=env or os.environ.copy())


def _reuse_build() -> bool:
    return os.environ.get("DPSEMANTICS_REUSE_BUILD") == "1" and (ROOT / "_build" / "html" / "index.html").is_file()


class _Background:
    """A command run as a child process whose output goes to a log file; :meth:`result` waits for it and
    returns a CompletedProcess (stdout and stderr interleaved in ``stdout``, as a terminal shows them) with the
    time it started as ``started``."""

    def __init__(self, args, cwd=ROOT):
        self.log = tempfile.NamedTemporaryFile("w+", prefix="dpsemantics-build-", suffix=".log", delete=False)
        self.args = list(args)
        self.started = time.time()
        # its own process group, so that stop() ends what it started too (kernels, Sphinx, Chromium, sh -c steps)
        self.proc = subprocess.Popen(self.args, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        self._result = None

    def result(self) -> subprocess.CompletedProcess:
        if self._result is None:
            code = self.proc.wait()
            self.log.seek(0)
            self._result = subprocess.CompletedProcess(self.args, code, self.log.read(), "")
            self._result.started = self.started  # the executed notebooks older than this are not this build's
            self._close()
        return self._result

    def stop(self) -> None:
        """End the command if the session ends first (an interrupted run, -x): this child process and the
        processes it started (its process group), nothing else."""
        if self.proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
        if self._result is None:
            self._close()

    def _signal(self, sig) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:  # it ended meanwhile, and everything it started
            pass

    def _close(self):
        self.log.close()
        os.unlink(self.log.name)


_STRICT: _Background | None = None
_PRINTED: _Background | None = None
_WANTS_PRINTED = False
_LOCK = threading.Lock()  # the watcher thread and the fixtures both may start the printed editions
_STOPPING = False
_SELECTED_FILES: set[Path] = set()  # the test files of the session's tests
_WATCHER: threading.Thread | None = None


def _needs(item, fixture: str) -> bool:
    return fixture in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(session, config, items):
    """The tests that need the built book run last, those that need the printed editions after them (each in
    their collected order)."""
    def stage(item):
        return 2 if _needs(item, "printed_editions") else 1 if _needs(item, "strict_build") else 0

    items.sort(key=stage)  # stable


def pytest_collection_finish(session):
    global _STRICT, _WANTS_PRINTED, _WATCHER
    _SELECTED_FILES.update(Path(item.path) for item in session.items)
    if session.config.option.collectonly or _reuse_build():
        return
    _WANTS_PRINTED = any(_needs(item, "printed_editions") for item in session.items)
    if any(_needs(item, "strict_build") for item in session.items):
        _STRICT = _Background([_jupyter_book_exe(), "build", *STRICT_ARGS])
        if _WANTS_PRINTED:  # start the printed editions the moment the strict build ends, not when a test asks
            _WATCHER = threading.Thread(target=_watch, args=(_STRICT.proc, _printed_editions_command()), daemon=True)
            _WATCHER.start()


def _watch(strict: subprocess.Popen, command: list[str]) -> None:
    """The watcher thread: when the strict build ends, start the printed editions; when they are printed, run
    the readers the PDF test registered (``WHEN_PRINTED``), while the main thread runs the browser test."""
    _start_printed_editions(strict.wait(), command)
    job = _PRINTED
    if job is not None and job.proc.wait() == 0:
        for module, read in WHEN_PRINTED:
            if Path(module) in _SELECTED_FILES:
                try:
                    read()
                except Exception:  # the test that reads the PDFs meets the same error itself
                    pass


#: Readers of the printed PDFs to run in the watcher thread as soon as they are printed (a test module appends
#: ``(__file__, function)``; it caches what it read): reading both PDFs with pypdf takes a minute.
WHEN_PRINTED: list = []


def wait_for_printed_readers() -> None:
    """Wait until the watcher thread has printed the editions and run ``WHEN_PRINTED`` (if there is one)."""
    if _WATCHER is not None:
        _WATCHER.join()


def pytest_sessionfinish(session, exitstatus):
    global _STOPPING
    with _LOCK:
        _STOPPING = True
    for job in (_PRINTED, _STRICT):
        if job is not None:
            job.stop()


def printed_result(edition: str) -> Path:
    """Where the printing of ``edition`` (``"book"`` or ``"book-student"``) writes what it printed (JSON)."""
    return PDF_OUT / f"{edition}.json"


def _printed_editions_command() -> list[str]:
    """Write the student edition from the strict build's executed notebooks (``student_edition --executed``: the
    solutions cut, nothing executed again but the reproducibility report, whose code differs) and build it;
    then, if Chromium is installed, print both editions (``python -m dpsemantics.book.pdf … --json``)."""
    from dpsemantics.book import pdf

    results = [printed_result("book"), printed_result("book-student")]
    steps = [shlex.join(["rm", "-f", *map(str, results)]),
             shlex.join([sys.executable, "-m", "dpsemantics.book.student_edition", str(STUDENT_SRC),
                         "--executed", str(ROOT / "_build" / "jupyter_execute")]),
             f"cd {shlex.quote(str(STUDENT_SRC))}",
             shlex.join([_jupyter_book_exe(), "build", ".", "--keep-going"])]
    if pdf.chromium() is not None:
        printing = [sys.executable, "-m", "dpsemantics.book.pdf"]
        steps += [shlex.join([*printing, str(ROOT / "_build" / "html"), str(PDF_OUT / "book.pdf"),
                              "--json", str(results[0])]),
                  shlex.join([*printing, str(STUDENT_SRC / "_build" / "html"), str(PDF_OUT / "book-student.pdf"),
                              "--edition", STUDENT_EDITION, "--json", str(results[1])])]
    return ["sh", "-c", " && ".join(steps)]


def _start_printed_editions(strict_returncode: int, command: list[str] | None = None) -> None:
    global _PRINTED
    with _LOCK:
        if _PRINTED is None and _WANTS_PRINTED and strict_returncode == 0 and not _STOPPING:
            _PRINTED = _Background(command or _printed_editions_command())


@pytest.fixture(scope="session")
def strict_build():
    """The whole book built with warnings as errors (-W -n); a notebook that raises fails it.  Started in the
    background when collection ends (above); this fixture waits for it and returns its CompletedProcess.

    ``DPSEMANTICS_REUSE_BUILD=1`` (for working on the browser or PDF tests only) reuses an existing
    ``_build/html`` instead of rebuilding; ``make test`` never sets it."""
    if _reuse_build():
        return subprocess.CompletedProcess(["reused", str(ROOT / "_build" / "html")], 0, "", "")
    if _STRICT is not None:
        result = _STRICT.result()
    else:
        started = time.time()
        result = jupyter_book(*STRICT_ARGS)
        result.started = started
    _start_printed_editions(result.returncode)  # if the watcher has not already
    return result


@pytest.fixture(scope="session")
def printed_editions(strict_build):
    """The student edition built from the strict build's executed notebooks into ``STUDENT_SRC``, then both
    editions printed into ``PDF_OUT`` (when Chromium is installed), what each printing returned in
    :func:`printed_result`; the CompletedProcess of the whole (one log: the edition's writing, its build, the
    printing)."""
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    if _PRINTED is None:  # the strict build was reused, or the session did not know it would need this
        return subprocess.run(_printed_editions_command(), capture_output=True, text=True)
    return _PRINTED.result()


@pytest.fixture(scope="session")
def intro_assignment(tmp_path_factory):
    """The intro chapter's otter assignment (student notebook, autograder, zip), made once for the tests that
    grade with it (tests/book/test_assignments.py, tests/e2e/test_autograder_zip.py)."""
    from dpsemantics.book import assignments

    intro = next(nb for nb in assignments.chapters_with_exercises() if nb.stem == "intro")
    folder = assignments.make_assignment(intro, tmp_path_factory.mktemp("assignments"), run_tests=False)
    for module, start in WITH_INTRO_ASSIGNMENT:
        if Path(module) in _SELECTED_FILES:
            start(folder, tmp_path_factory)
    return folder


#: Work to start in the background as soon as ``intro_assignment`` is made, if the session runs tests of the
#: module that asks for it (a test module appends ``(__file__, function of the assignment's folder and
#: tmp_path_factory)``): the autograder-zip grading, mostly pip and otter in subprocesses, then overlaps the tests
#: that run before it.
WITH_INTRO_ASSIGNMENT: list = []


class Thread(threading.Thread):
    """A thread whose :meth:`result` waits for it and returns what its target returned, or raises what it
    raised (an AssertionError in it fails the test that asks for the result)."""

    def __init__(self, target, *args):
        super().__init__(daemon=True)
        self._call, self._value, self._error = (target, args), None, None

    def run(self):
        target, args = self._call
        try:
            self._value = target(*args)
        except BaseException as err:  # handed to the test that asks for the result
            self._error = err

    def result(self):
        self.join()
        if self._error is not None:
            raise self._error
        return self._value
