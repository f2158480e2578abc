"""Which tests run where, and in which order: the units of work that pytest-xdist sends to one worker each, and the
order of the run (tests/conftest.py applies both, in ``pytest_collection_modifyitems`` and its xdist scheduler).

Tests that share an expensive fixture or cache go to the same worker (:func:`unit_of_work`); the tests that need
the built book or the printed editions run last; in each of the two phases the longest units of work go first
(:data:`LONGEST_UNITS`), so that the workers end together.
"""

from __future__ import annotations

import inspect
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Modules whose tests are spread over the workers one by one: the browser test's pages are independent visits,
#: each worker with its own Chromium; the generated mutations (tests/claims) evaluate each claim at tightened bounds,
#: which no cache shares, so they leave the registry's worker.
SPLIT_MODULES = {"test_browser.py", "test_mutations_generated.py"}
#: Test modules that evaluate the claims registry: the papers' searches are cached per process
#: (functools.cache), so they share one worker and evaluate each search once; so do the tests elsewhere marked
#: ``registry`` (:data:`MARKERS`).
REGISTRY_MODULES = {"tests/claims", "tests/unit/test_notion_map.py", "tests/unit/disclosure/test_disclosure.py"}
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
#: Session fixtures whose one value every process shares through files (the background job's): their tests may
#: run in any unit of work.
CROSS_PROCESS_FIXTURES = {"strict_build", "printed_editions"}
#: The longest units of work (:func:`unit_of_work`), longest first: each phase of the run (the tests that do not
#: need the built book, then those that do) sends these out before its other units, and the rest in their
#: collected order, so that what is left for the end of a phase is short units that even out the two workers
#: (longest processing time first).  CPU time of each in one make test on 2 cores (session 10; the unit's
#: process and the subprocesses it waited for): the claims registry 111 s; the intro assignment 77 s (otter's
#: grading, and the autograder zip's grading in a thread that its last test waits for); test_report 50 s; the
#: fresh environment 48 s; test_privacy_loss_outward 26 s; of the built book's tests, the PDFs read 61 s (two
#: processes; they ran last and ended the run 70 s after the other worker) and intro rerun 11 s.  Every other
#: unit took under 17 s; the browser's visits are units of one page each.
LONGEST_UNITS = (REGISTRY_UNIT, "intro-assignment", "tests/unit/report/test_report.py#0",
                 "tests/e2e/test_fresh_environment.py#0", "tests/unit/privacy_loss/test_privacy_loss_outward.py#0",
                 "printed-pdfs", "rerun-intro")


def needs(item, fixture: str) -> bool:
    return fixture in getattr(item, "fixturenames", ())


def stage(item) -> int:
    """What the test waits for: 0 nothing, 1 the strict build, 2 the printed editions."""
    return 2 if needs(item, "printed_editions") else 1 if needs(item, "strict_build") else 0


def unit_of_work(item) -> str | None:
    """The group of tests that must run in one process (one unit of work for pytest-xdist), or None for a test
    that may run anywhere: the tests of a shared fixture (:data:`SHARED_FIXTURES`; the autograder zip's test
    with the intro assignment's), the registry's tests (:data:`REGISTRY_MODULES` and the mark ``registry``),
    otherwise the tests of one module that wait for the same thing (none, the strict build, the printed
    editions), except in :data:`SPLIT_MODULES`: module-scoped fixtures and caches are then made once."""
    path = Path(item.path).relative_to(ROOT).as_posix()
    for fixture, group in SHARED_FIXTURES.items():
        if needs(item, fixture):
            return group
    if path.startswith("tests/e2e/test_autograder_zip"):
        return SHARED_FIXTURES["intro_assignment"]
    if Path(path).name in SPLIT_MODULES:
        return None
    if any(path == m or path.startswith(m + "/") for m in REGISTRY_MODULES) or item.get_closest_marker("registry"):
        return REGISTRY_UNIT
    return f"{path}#{stage(item)}"


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
    ``stages``: each unit's :func:`stage`, the latest of its tests'), then its unit's place in
    :data:`LONGEST_UNITS` (the others after them), then, of the browser's visits, those of pages with code."""
    rank = LONGEST_UNITS.index(unit) if unit in LONGEST_UNITS else len(LONGEST_UNITS)
    return stages[unit] > 0, rank, not _visits_a_page_with_code(item)


def order(items) -> dict:
    """Sort ``items`` in place for the run (:func:`run_order`; a group of tests runs when its last member can, the
    others keep their collected order) and return each test's unit of work by nodeid.  Raises ValueError, with
    what to fix, when :data:`LONGEST_UNITS` names no unit or tests that share a fixture would be split."""
    groups = {item.nodeid: unit_of_work(item) for item in items}
    if unknown_units():
        raise ValueError(f"LONGEST_UNITS in tests/_support/scheduling.py names no unit of work: {unknown_units()}")
    split = split_fixtures(items, groups)
    if split:
        raise ValueError("tests that share a fixture would run in different processes (add the fixture to "
                         "SHARED_FIXTURES in tests/_support/scheduling.py): " + "; ".join(split))
    stages = {}
    for item in items:
        key = groups[item.nodeid] or item.nodeid
        stages[key] = max(stages.get(key, 0), stage(item))
    items.sort(key=lambda item: run_order(stages, groups[item.nodeid] or item.nodeid, item))  # stable
    return groups
