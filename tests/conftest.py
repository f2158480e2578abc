"""Shared fixtures: the book is built once per test session, in the background, and the session's tests share
two cores with it.

The strict build (``jupyter-book build --all -W -n``) is the one execution of the chapters in ``make test``:
every test that needs a built book (``strict_build``) reads its HTML, its executed notebooks
(``_build/jupyter_execute``) or its log.  It takes minutes and keeps about one core busy (the kernel or
Sphinx, in turn), so when the collected tests need it, it is started as soon as collection ends, and, when the
strict build succeeds, the printed editions (``printed_editions``, for the PDF test) are made right after it by
the same background job: the student edition built from the strict build's executed notebooks and printed to
PDF, while the book's edition is printed beside it.  The tests that need the built book or the PDFs are moved to
the end of the run; the ``strict_build`` and ``printed_editions`` fixtures wait for the background job.  In
each of the two phases the longest units of work go first (:data:`LONGEST_UNITS`), so that the workers end
together.

``make test`` runs the tests on two pytest-xdist workers (``-n 2 --dist loadgroup --no-loadscope-reorder``,
with this file's scheduler):
the background job is started by the first worker to finish collecting, its results are files in a folder
that the whole session shares (``DPSEMANTICS_TEST_SESSION``), and the controller stops the job if the session
ends first.  While the build runs, the workers run at a lower priority (``nice``), so that the build, which the
tests of the built book wait for, keeps its core; a worker takes its priority back (where it may) when it first
finds the build done.  Tests that share an expensive fixture or cache go to the
same worker (:func:`unit_of_work`); a plain ``pytest`` run (one process) works the same way.
"""

import inspect
import json
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
SESSION_ENV = "DPSEMANTICS_TEST_SESSION"  # the folder the session's processes share (the background job's files)
WORKER_NICENESS = 3  # how much the test processes yield to the background build while it runs


def _jupyter_book_exe() -> str:
    return shutil.which("jupyter-book", path=str(BIN)) or "jupyter-book"


def jupyter_book(*args, cwd=ROOT, env=None):
    """Run ``jupyter-book build`` from the same environment as the tests; return the CompletedProcess."""
    return subprocess.run([_jupyter_book_exe(), "build", *args], cwd=cwd, capture_output=True, text=True,
                          env=env or os.environ.copy())


def _reuse_build() -> bool:
    return os.environ.get("DPSEMANTICS_REUSE_BUILD") == "1" and (ROOT / "_build" / "html" / "index.html").is_file()


def _needs(item, fixture: str) -> bool:
    return fixture in getattr(item, "fixturenames", ())


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


# ---------------------------------------------------------------------------------------------------------
# Which tests run where, and in which order

#: Modules whose tests are spread over the workers one by one: the browser test's pages are independent visits,
#: each worker with its own Chromium; the generated mutations (tests/claims) evaluate each claim at tightened bounds,
#: which no cache shares, so they leave the registry's worker.
SPLIT_MODULES = {"test_browser.py", "test_mutations_generated.py"}
#: Test modules that evaluate the claims registry: the papers' searches are cached per process
#: (functools.cache), so they share one worker and evaluate each search once; so do the tests elsewhere marked
#: ``registry`` (:data:`MARKERS`).
REGISTRY_MODULES = {"tests/claims", "tests/unit/test_notion_map.py", "tests/unit/test_disclosure.py"}
#: The marks ``make test-fast`` selects by (``-m "not registry and not slow"``); ``make test`` runs every test.
MARKERS = {
    "registry": "evaluates claims of the registry (the papers' searches): run by make test with tests/claims, on "
                "its worker, and left out of make test-fast",
    "slow": "a case of a few seconds whose cheaper variant (same code path, a smaller size) make test-fast runs; "
            "make test runs both",
}
#: Session fixtures made once for several tests (the tests that use one run in one process, which makes it):
#: the intro assignment (which starts the autograder zip's grading), intro rerun with a changed ε, the PDFs read.
SHARED_FIXTURES = {"intro_assignment": "intro-assignment", "changed_run": "rerun-intro", "pdfs": "printed-pdfs"}
REGISTRY_UNIT = "claims-registry"  # the unit of the registry's tests


def unit_of_work(item) -> str | None:
    """The group of tests that must run in one process (one unit of work for pytest-xdist), or None for a test
    that may run anywhere: the tests of a shared fixture (:data:`SHARED_FIXTURES`; the autograder zip's test
    with the intro assignment's), the registry's tests (:data:`REGISTRY_MODULES` and the mark ``registry``),
    otherwise the tests of one module that wait for the same thing (none, the strict build, the printed
    editions), except in :data:`SPLIT_MODULES`: module-scoped fixtures and caches are then made once."""
    path = Path(item.path).relative_to(ROOT).as_posix()
    for fixture, group in SHARED_FIXTURES.items():
        if _needs(item, fixture):
            return group
    if path.startswith("tests/e2e/test_autograder_zip"):
        return SHARED_FIXTURES["intro_assignment"]
    if Path(path).name in SPLIT_MODULES:
        return None
    if any(path == m or path.startswith(m + "/") for m in REGISTRY_MODULES) or item.get_closest_marker("registry"):
        return REGISTRY_UNIT
    return f"{path}#{_stage(item)}"


#: Session fixtures whose one value every process shares through files (the background job's): their tests may
#: run in any unit of work.
CROSS_PROCESS_FIXTURES = {"strict_build", "printed_editions"}


def split_fixtures(items, groups: dict) -> list[str]:
    """The shared fixtures of this folder's tests (session- or module-scoped, defined under tests/) whose tests
    fall into more than one unit of work (``groups``: each test's :func:`unit_of_work`), each with a test from
    each unit: two processes would make such a fixture.  Empty when the grouping is right.  Exempt: the
    fixtures of :data:`CROSS_PROCESS_FIXTURES`, and module-scoped fixtures in :data:`SPLIT_MODULES` (made once
    per worker on purpose)."""
    tests = ROOT / "tests"
    units: dict[str, dict[str, str]] = {}
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        for name, defs in (info.name2fixturedefs.items() if info else ()):
            fixture = defs[-1]
            if fixture.scope not in ("session", "module") or name in CROSS_PROCESS_FIXTURES:
                continue
            if fixture.scope == "module" and Path(item.path).name in SPLIT_MODULES:
                continue
            try:
                source = Path(inspect.getsourcefile(fixture.func)).resolve()
            except TypeError:  # defined in C or generated: not ours
                continue
            if tests in source.parents:
                units.setdefault(name, {}).setdefault(groups[item.nodeid] or item.nodeid, item.nodeid)
    return [f"{name}: {sorted(by_unit.values())}" for name, by_unit in sorted(units.items()) if len(by_unit) > 1]


def _stage(item) -> int:
    return 2 if _needs(item, "printed_editions") else 1 if _needs(item, "strict_build") else 0


#: The longest units of work (:func:`unit_of_work`), longest first: each phase of the run (the tests that do not
#: need the built book, then those that do) sends these out before its other units, and the rest in their
#: collected order, so that what is left for the end of a phase is short units that even out the two workers
#: (longest processing time first).  CPU time of each in one make test on 2 cores (session 10; the unit's
#: process and the subprocesses it waited for): the claims registry 111 s; the intro assignment 77 s (otter's
#: grading, and the autograder zip's grading in a thread that its last test waits for); test_report 50 s; the
#: fresh environment 48 s; test_privacy_loss_attack 26 s; of the built book's tests, the PDFs read 61 s (two
#: processes; they ran last and ended the run 70 s after the other worker) and intro rerun 11 s.  Every other
#: unit took under 17 s; the browser's visits are units of one page each.
LONGEST_UNITS = (REGISTRY_UNIT, "intro-assignment", "tests/unit/test_report.py#0",
                 "tests/e2e/test_fresh_environment.py#0", "tests/unit/test_privacy_loss_attack.py#0",
                 "printed-pdfs", "rerun-intro")


def unknown_units(names=LONGEST_UNITS) -> list[str]:
    """The names in ``names`` that cannot be a unit of :func:`unit_of_work` (a group that no longer exists, a
    module moved): :data:`LONGEST_UNITS` would quietly stop ordering them, so collection fails on any."""
    groups = {*SHARED_FIXTURES.values(), REGISTRY_UNIT}
    return [name for name in names if name not in groups and not (
        "#" in name and (ROOT / name.split("#")[0]).is_file() and name.rsplit("#", 1)[1] in ("0", "1", "2"))]


def _visits_a_page_with_code(item) -> bool:
    """Whether a test of a :data:`SPLIT_MODULES` module visits a page the build executes (a chapter, the
    reproducibility report: the pages with outputs and figures, 5–40 s each in the browser, the others 2–10 s)."""
    doc = getattr(item, "callspec", None) and item.callspec.params.get("doc")
    if not isinstance(doc, str) or Path(item.path).name not in SPLIT_MODULES:
        return False
    md = ROOT / f"{doc}.md"
    return (ROOT / f"{doc}.ipynb").is_file() or (md.is_file() and "```{code-cell}" in md.read_text())


def run_order(stages: dict, unit: str, item) -> tuple[bool, int, bool]:
    """Where ``item`` (of the unit ``unit``) goes in the run: its phase (does it need the built book, from
    ``stages``: each unit's :func:`_stage`, the latest of its tests'), then its unit's place in
    :data:`LONGEST_UNITS` (the others after them), then, of the browser's visits, those of pages with code."""
    rank = LONGEST_UNITS.index(unit) if unit in LONGEST_UNITS else len(LONGEST_UNITS)
    return stages[unit] > 0, rank, not _visits_a_page_with_code(item)


def pytest_collection_modifyitems(session, config, items):
    """The tests that need the built book or the printed editions run last; a group of tests
    (:func:`unit_of_work`) runs when its last member can; in each phase the longest units go first
    (:func:`run_order`), the others in their collected order.  An xdist worker writes each test's group to the
    session's folder, for the controller's scheduler (below)."""
    groups = {item.nodeid: unit_of_work(item) for item in items}
    if unknown_units():
        raise pytest.UsageError(f"LONGEST_UNITS in tests/conftest.py names no unit of work: {unknown_units()}")
    split = split_fixtures(items, groups)
    if split:
        raise pytest.UsageError("tests that share a fixture would run in different processes (add the fixture to "
                                "SHARED_FIXTURES in tests/conftest.py): " + "; ".join(split))
    stage = {}
    for item in items:
        key = groups[item.nodeid] or item.nodeid
        stage[key] = max(stage.get(key, 0), _stage(item))
    items.sort(key=lambda item: run_order(stage, groups[item.nodeid] or item.nodeid, item))  # stable
    if _is_worker(config):
        path = _session(config) / "groups.json"
        tmp = path.with_name(f"groups-{config.workerinput['workerid']}.json")
        tmp.write_text(json.dumps({nodeid: group for nodeid, group in groups.items() if group}))
        tmp.replace(path)  # every worker collects the same tests: the same file


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """(xdist controller) With ``--dist loadgroup``, the groups of :func:`unit_of_work`: each group is one unit of
    work, sent to one worker, and the units go out in the order of the collection.  (pytest-xdist's own
    ``loadgroup`` reads ``xdist_group`` marks and renames the tests, which pytest 9.2 no longer lets it do: the
    nodeid is read-only, so every marked test would be a group of its own.)"""
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
# The background job: the strict build, then the printed editions

def pytest_configure(config):
    for name, meaning in MARKERS.items():
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
MPMATH_DIGITS = 50  # mpmath's working precision at the start of every test (a module needing more says so)


def pytest_collection_finish(session):
    """Start the background job if the session's tests need the built book and no other worker has."""
    _CONFIG[:] = [session.config]
    _SELECTED_FILES.update(Path(item.path) for item in session.items)
    if session.config.option.collectonly or _reuse_build():
        return
    if not any(_needs(item, "strict_build") for item in session.items):
        return
    printed = any(_needs(item, "printed_editions") for item in session.items)
    folder = _session(session.config)
    try:
        os.close(os.open(folder / "claimed", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        pass  # another worker started it
    else:
        _start_job(folder, printed)
    if _is_worker(session.config):
        _PRIORITY[:] = [os.nice(0)]
        os.nice(WORKER_NICENESS)  # after starting the job, which must not inherit it


_PRIORITY: list = []  # a worker's niceness before it yielded to the build


def _restore_priority() -> None:
    """When the build is over, a worker (its thread that runs the tests) takes its priority back if it may (a
    process may raise its own priority only with CAP_SYS_NICE, as root); otherwise it stays lower."""
    if _PRIORITY:
        try:
            os.setpriority(os.PRIO_PROCESS, 0, _PRIORITY.pop())
        except PermissionError:
            pass


def _job_script(folder: Path, printed: bool) -> str:
    """The background job as one shell script: each step's output and exit status are files in ``folder``."""
    def step(name, command):
        log, rc = folder / f"{name}.log", folder / f"{name}.rc"
        return (f"{command} > {shlex.quote(str(log))} 2>&1; echo $? > {shlex.quote(str(rc))}.tmp; "
                f"mv {shlex.quote(str(rc))}.tmp {shlex.quote(str(rc))}")

    script = step("strict", shlex.join([_jupyter_book_exe(), "build", *STRICT_ARGS]))
    if printed:
        strict_rc = shlex.quote(str(folder / "strict.rc"))
        script += f'; if [ "$(cat {strict_rc})" = 0 ]; then {step("printed", _printed_editions_script())}; fi'
    return script + f"; touch {shlex.quote(str(folder / 'done'))}"


def _start_job(folder: Path, printed: bool) -> None:
    from dpsemantics.claims import SHARED_RESULTS_ENV

    (folder / "started").write_text(repr(time.time()))
    # the strict build's reproducibility report evaluates the registry and leaves its results in the session's
    # folder; the student edition's report (its code differs: it is executed again) reads them there, and so do
    # both for the claims whose results the registry's status tests (tests/claims/test_claims.py) left there first
    env = os.environ | {SHARED_RESULTS_ENV: str(folder)}
    # its own process group (session), so that stopping it ends what it started too (kernels, Sphinx, Chromium)
    proc = subprocess.Popen(["sh", "-c", _job_script(folder, printed)], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    (folder / "pid").write_text(str(proc.pid))
    threading.Thread(target=proc.wait, daemon=True).start()  # reap it when it ends


def _job_running(folder: Path) -> bool:
    try:
        pid = int((folder / "pid").read_text())
    except (OSError, ValueError):  # being started by another worker
        return (folder / "claimed").exists()
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_for(name: str, args: list[str]) -> subprocess.CompletedProcess:
    """Wait for the background job's step ``name`` (``strict`` or ``printed``); its CompletedProcess (stdout and
    stderr interleaved in ``stdout``, as a terminal shows them), with the time the job started as ``started``."""
    folder = _session()
    rc = folder / f"{name}.rc"
    while not rc.exists():
        if not _job_running(folder) and not rc.exists():
            raise RuntimeError(f"the background job ended without the {name} step's result ({folder})")
        time.sleep(0.5)
    result = subprocess.CompletedProcess(args, int(rc.read_text()), (folder / f"{name}.log").read_text(), "")
    result.started = float((folder / "started").read_text())  # the executed notebooks older than this are not its
    return result


def _stop_job(folder: Path) -> None:
    """End the background job if the session ends first (an interrupted run, -x): its process group, nothing
    else (only while it has not written ``done``)."""
    try:
        pid = int((folder / "pid").read_text())
    except (OSError, ValueError):
        return
    for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, 5)):
        if (folder / "done").exists():
            return
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:  # it ended, and everything it started
            return
        deadline = time.time() + wait
        while time.time() < deadline and _job_running(folder):
            time.sleep(0.2)


def pytest_sessionfinish(session, exitstatus):
    if _is_worker(session.config):
        return  # the controller stops the job when every worker is done
    folder = session.config._dpsemantics_session
    _stop_job(folder)
    shutil.rmtree(folder, ignore_errors=True)


def printed_result(edition: str) -> Path:
    """Where the printing of ``edition`` (``"book"`` or ``"book-student"``) writes what it printed (JSON)."""
    return PDF_OUT / f"{edition}.json"


def _printed_editions_script() -> str:
    """Write the student edition from the strict build's executed notebooks (``student_edition --executed``: the
    solutions cut, nothing executed again but the reproducibility report, whose code differs) and build it;
    if Chromium is installed, print both editions (``python -m dpsemantics.book.pdf … --json``): the book's
    edition, which needs only the strict build, is printed while the student edition is written and built,
    the student edition when its build ends.  Succeeds when every step does."""
    from dpsemantics.book import pdf

    results = [printed_result("book"), printed_result("book-student")]
    student = [shlex.join([sys.executable, "-m", "dpsemantics.book.student_edition", str(STUDENT_SRC),
                           "--executed", str(ROOT / "_build" / "jupyter_execute")]),
               f"cd {shlex.quote(str(STUDENT_SRC))}",
               shlex.join([_jupyter_book_exe(), "build", ".", "--keep-going"])]
    clear = shlex.join(["rm", "-f", *map(str, results)])
    if pdf.chromium() is None:
        return "(" + " && ".join([clear, *student]) + ")"
    printing = [sys.executable, "-m", "dpsemantics.book.pdf"]
    book = shlex.join([*printing, str(ROOT / "_build" / "html"), str(PDF_OUT / "book.pdf"), "--json", str(results[0])])
    student.append(shlex.join([*printing, str(STUDENT_SRC / "_build" / "html"), str(PDF_OUT / "book-student.pdf"),
                               "--edition", STUDENT_EDITION, "--json", str(results[1])]))
    return (f"({clear} && {{ ({book}) & book=$!; ({' && '.join(student)}); student=$?; wait $book; book=$?; "
            f'[ "$student" = 0 ] && [ "$book" = 0 ]; }})')


def _job_started() -> bool:
    return (_session() / "claimed").exists()


@pytest.fixture(autouse=True)
def _mpmath_precision():
    """Every test starts at ``MPMATH_DIGITS`` digits, whatever the tests before it in the process set and whichever
    modules were collected: the precision is one global per process, and which tests run before which on a worker
    is the scheduler's choice.  (A reference at ``mp.dps = 30`` left by test_report failed two of
    test_disclosure_directed's cases when they followed it; and while modules set ``mp.dps`` when imported, a test
    ran at the precision of the last module collected — test_semantic's mpmath root failed at 60 digits when only a
    few files were run, and passed at the 50 of the whole suite.)  A module that needs more uses ``mp.workdps``."""
    if "mpmath" in sys.modules:
        sys.modules["mpmath"].mp.dps = MPMATH_DIGITS


@pytest.fixture(scope="session")
def strict_build():
    """The whole book built with warnings as errors (-W -n); a notebook that raises fails it.  Started in the
    background when collection ends (above); this fixture waits for it and returns its CompletedProcess.

    ``DPSEMANTICS_REUSE_BUILD=1`` (for working on the browser or PDF tests only) reuses an existing
    ``_build/html`` instead of rebuilding; ``make test`` never sets it."""
    if _reuse_build():
        return subprocess.CompletedProcess(["reused", str(ROOT / "_build" / "html")], 0, "", "")
    if _job_started():
        result = _wait_for("strict", [_jupyter_book_exe(), "build", *STRICT_ARGS])
        _restore_priority()
        return result
    started = time.time()
    result = jupyter_book(*STRICT_ARGS)
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
        return _wait_for("printed", ["sh", "-c", _printed_editions_script()])
    return subprocess.run(["sh", "-c", _printed_editions_script()], capture_output=True, text=True)


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
