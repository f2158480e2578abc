"""Shared fixtures: the book is built once per test session, in the background, and the session's tests share
two cores with it.

The strict build (``jupyter-book build --all -W -n``) is the one execution of the chapters in ``make test``:
every test that needs a built book (``strict_build``) reads its HTML, its executed notebooks
(``_build/jupyter_execute``) or its log.  It takes minutes and keeps about one core busy (the kernel or
Sphinx, in turn), so when the collected tests need it, it is started as soon as collection ends, and, when the
strict build succeeds, the printed editions (``printed_editions``, for the PDF test) are made right after it by
the same background job: the student edition built from the strict build's executed notebooks and printed to
PDF, while the book's edition is printed beside it (the job: :mod:`_support.book_build_job`).  The tests that
need the built book or the PDFs are moved to the end of the run; the ``strict_build`` and ``printed_editions``
fixtures wait for the background job.  Tests that share an expensive fixture or cache go to the same worker, and
in each of the two phases the longest units of work go first, so that the workers end together (the units and
the order: :mod:`_support.scheduling`).

``make test`` runs the tests on two pytest-xdist workers (``-n 2 --dist loadgroup --no-loadscope-reorder``,
with this file's scheduler):
the background job is started by the first worker to finish collecting, its results are files in a folder
that the whole session shares (``DPSEMANTICS_TEST_SESSION``), and the controller stops the job if the session
ends first.  While the build runs, the workers run at a lower priority (``nice``), so that the build, which the
tests of the built book wait for, keeps its core; a worker takes its priority back (where it may) when it first
finds the build done.  A plain ``pytest`` run (one process) works the same way.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from _support import book_build_job as job
from _support import scheduling
from _support.book_build_job import ROOT, jupyter_book, printed_result

__all__ = ["ROOT", "SESSION_ENV", "WITH_INTRO_ASSIGNMENT", "Thread", "jupyter_book", "printed_result"]  # for tests

SESSION_ENV = "DPSEMANTICS_TEST_SESSION"  # the folder the session's processes share (the background job's files)
WORKER_NICENESS = 3  # how much the test processes yield to the background build while it runs
MPMATH_DIGITS = 50  # mpmath's working precision at the start of every test (a module needing more says so)


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


# ---------------------------------------------------------------------------------------------------------
# Which tests run where, and in which order (_support.scheduling)

def pytest_collection_modifyitems(session, config, items):
    """The tests that need the built book or the printed editions run last; a group of tests
    (:func:`_support.scheduling.unit_of_work`) runs when its last member can; in each phase the longest units go
    first, the others in their collected order.  An xdist worker writes each test's group to the session's
    folder, for the controller's scheduler (below)."""
    try:
        groups = scheduling.order(items)
    except ValueError as err:
        raise pytest.UsageError(str(err)) from None
    if _is_worker(config):
        path = _session(config) / "groups.json"
        tmp = path.with_name(f"groups-{config.workerinput['workerid']}.json")
        tmp.write_text(json.dumps({nodeid: group for nodeid, group in groups.items() if group}))
        tmp.replace(path)  # every worker collects the same tests: the same file


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """(xdist controller) With ``--dist loadgroup``, the groups of :func:`_support.scheduling.unit_of_work`: each
    group is one unit of work, sent to one worker, and the units go out in the order of the collection.
    (pytest-xdist's own ``loadgroup`` reads ``xdist_group`` marks and renames the tests, which pytest 9.2 no longer
    lets it do: the nodeid is read-only, so every marked test would be a group of its own.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    folder = config._dpsemantics_session

    class ByUnitOfWork(LoadScopeScheduling):
        _groups: dict | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self._groups is None:  # read when the workers have collected (scheduling starts then)
                self._groups = json.loads((folder / "groups.json").read_text())
            return self._groups.get(nodeid) or nodeid

    return ByUnitOfWork(config, log)


# ---------------------------------------------------------------------------------------------------------
# The background job: the strict build, then the printed editions (_support.book_build_job)

def pytest_configure(config):
    for name, meaning in scheduling.MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")
    if not _is_worker(config):  # the controller of an xdist run, or a plain run: this session's folder
        config._dpsemantics_session = Path(tempfile.mkdtemp(prefix="dpsemantics-test-"))
        os.environ[SESSION_ENV] = str(config._dpsemantics_session)  # inherited by the workers it starts


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """(xdist controller) Tell each worker the session's folder."""
    node.workerinput[SESSION_ENV] = str(node.config._dpsemantics_session)


def _session(config=None) -> Path:
    config = config or _CONFIG[0]
    if _is_worker(config):
        return Path(config.workerinput[SESSION_ENV])
    return config._dpsemantics_session


_CONFIG: list = []  # the session's config, for the fixtures
_SELECTED_FILES: set[Path] = set()  # the test files of the session's tests
_PRIORITY: list = []  # a worker's niceness before it yielded to the build


def pytest_collection_finish(session):
    """Start the background job if the session's tests need the built book and no other worker has."""
    _CONFIG[:] = [session.config]
    _SELECTED_FILES.update(Path(item.path) for item in session.items)
    if session.config.option.collectonly or job.reuse_build():
        return
    if not any(scheduling.needs(item, "strict_build") for item in session.items):
        return
    printed = any(scheduling.needs(item, "printed_editions") for item in session.items)
    folder = _session(session.config)
    try:
        os.close(os.open(folder / "claimed", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        pass  # another worker started it
    else:
        job.start_job(folder, printed)
    if _is_worker(session.config):
        _PRIORITY[:] = [os.nice(0)]
        os.nice(WORKER_NICENESS)  # after starting the job, which must not inherit it


def _restore_priority() -> None:
    """When the build is over, a worker (its thread that runs the tests) takes its priority back if it may (a
    process may raise its own priority only with CAP_SYS_NICE, as root); otherwise it stays lower."""
    if _PRIORITY:
        try:
            os.setpriority(os.PRIO_PROCESS, 0, _PRIORITY.pop())
        except PermissionError:
            pass


def pytest_sessionfinish(session, exitstatus):
    if _is_worker(session.config):
        return  # the controller stops the job when every worker is done
    folder = session.config._dpsemantics_session
    job.stop_job(folder)
    shutil.rmtree(folder, ignore_errors=True)


def _job_started() -> bool:
    return (_session() / "claimed").exists()


@pytest.fixture(autouse=True)
def _mpmath_precision():
    """Every test starts at ``MPMATH_DIGITS`` digits, whatever the tests before it in the process set and whichever
    modules were collected: the precision is one global per process, and which tests run before which on a worker
    is the scheduler's choice (a module's ``mp.dps = …`` at import, or a test's, would otherwise set the precision
    of the tests that happen to follow it).  A module that needs more uses ``mp.workdps``."""
    if "mpmath" in sys.modules:
        sys.modules["mpmath"].mp.dps = MPMATH_DIGITS


@pytest.fixture(scope="session")
def strict_build():
    """The whole book built with warnings as errors (-W -n); a notebook that raises fails it.  Started in the
    background when collection ends (above); this fixture waits for it and returns its CompletedProcess.

    ``DPSEMANTICS_REUSE_BUILD=1`` (for working on the browser or PDF tests only) reuses an existing
    ``_build/html`` instead of rebuilding; ``make test`` never sets it."""
    if job.reuse_build():
        return subprocess.CompletedProcess(["reused", str(ROOT / "_build" / "html")], 0, "", "")
    if _job_started():
        result = job.wait_for(_session(), "strict", [job.jupyter_book_exe(), "build", *job.STRICT_ARGS])
        _restore_priority()
        return result
    started = time.time()
    result = jupyter_book(*job.STRICT_ARGS)
    result.started = started
    return result


@pytest.fixture(scope="session")
def printed_editions(strict_build):
    """The student edition built from the strict build's executed notebooks into ``STUDENT_SRC``, then both
    editions printed into ``PDF_OUT`` (when Chromium is installed), what each printing returned in
    :func:`printed_result`; the CompletedProcess of the whole (one log: the edition's writing, its build, the
    printing)."""
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    if strict_build.args[0] != "reused" and _job_started():
        return job.wait_for(_session(), "printed", ["sh", "-c", job.printed_editions_script()])
    return subprocess.run(["sh", "-c", job.printed_editions_script()], capture_output=True, text=True)


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
