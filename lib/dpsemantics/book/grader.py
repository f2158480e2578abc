"""Grading a class's notebooks where no student's code can reach the score (``make grade``).

Two processes per submission, and the grader's own:

1. :mod:`dpsemantics.book.run_submission` runs the notebook (in its own process and process group, in an
   empty temporary folder, with a wall-clock timeout and an address-space limit) only to collect its answers
   as plain data — numbers, lists of numbers, a formula's values at points it is given, error strings — in a
   JSON file.  It is given the answer variables and the formula points, never a reference value.
2. This module, in the process that called :func:`grade` and that never runs student code, reads that file
   (as data: ``json`` with a size limit, every value type-checked) and compares it with the *hidden checks*,
   reference intervals written into ``CHAPTER/grading/hidden-checks.json`` when the assignment was generated
   and read into memory before the first notebook runs.

Nothing a notebook does — overwriting otter's test files, patching otter's ``GradingResults``, patching
builtins, answers whose ``__float__`` inspects the caller's frame — reaches step 2: the only thing that crosses
is the data the notebook answers with.  A notebook that crashes, exits (``os._exit``), hangs, exhausts memory,
breaks its interpreter or lacks otter's metadata gets a row of its own with the reason; every other row is
written.

The student's code still runs with the permissions of whoever runs the grader (it could read or delete their
files); :func:`container_runtime` says whether Docker or podman is present, and ``book/instructors.md`` says
how to grade in a container or an unprivileged account.
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HIDDEN_CHECKS = Path("grading") / "hidden-checks.json"
MAX_ANSWER_BYTES = 1_000_000


# --------------------------------------------------------------------------------------------------------
# The hidden checks: written at generation, read by the grader
# --------------------------------------------------------------------------------------------------------

def hidden_checks(exercises, references) -> list[dict]:
    """The hidden checks of a chapter's auto-graded exercises: per question its points and, per answer
    variable, either an interval (``lo``, ``hi``), or a formula's test points with an interval per point, or the
    Definition 7 counterexample check.  ``references(ex)`` gives an exercise's references (the generator's)."""
    out = []
    for ex in exercises:
        if not (ex.check and ex.answer):
            continue
        q = {"name": ex.label, "points": ex.points, "answers": []}
        if ex.check_name == "check_definition7_counterexample":
            mechanism, population = ex.answer
            q["answers"] = [{"var": mechanism, "kind": "mechanism", "part": "counterexample"},
                            {"var": population, "kind": "table", "part": "counterexample"}]
            q["rule"] = "definition7"
        else:
            refs = references(ex)
            if len(refs) != len(ex.answer):
                raise ValueError(f"{ex.label}: {len(ex.answer)} answer variables for {len(refs)} references")
            for var, ref in zip(ex.answer, refs):
                if hasattr(ref, "points"):
                    cases = [[float(w - max(ref.atol, ref.rtol * abs(w))), float(w + max(ref.atol, ref.rtol * abs(w)))]
                             for w in ref.values]
                    q["answers"].append({"var": var, "kind": "formula", "part": ref.part,
                                         "points": [[float(a) for a in args] for args in ref.points],
                                         "intervals": cases})
                else:
                    lo, hi = ref.interval()
                    q["answers"].append({"var": var, "kind": "number", "part": ref.part,
                                         "interval": [float(lo), float(hi)]})
        out.append(q)
    return out


def runner_spec(checks: list[dict]) -> dict:
    """What the notebook's run is told: the answer variables, their kinds and a formula's points; no reference."""
    answers = []
    for q in checks:
        for a in q["answers"]:
            answers.append({k: a[k] for k in ("var", "kind", "points") if k in a})
    return {"answers": answers}


# --------------------------------------------------------------------------------------------------------
# Comparing data with the checks (no student code: only json-decoded lists, floats and strings)
# --------------------------------------------------------------------------------------------------------

def _is_number(x) -> bool:
    return type(x) in (int, float) and math.isfinite(x)


def _inside(x, interval) -> bool:
    return _is_number(x) and interval[0] <= x <= interval[1]


def definition7_separates(matrix, databases, population, value):
    """Whether Definition 7 holds at ``population`` with a smaller ε than differential privacy needs (Tschantz et
    al., Proposition 4), for a mechanism on two binary data points: ``matrix[k]`` is the output distribution on
    ``databases[k]`` (the four databases (0, 0), (0, 1), (1, 0), (1, 1), once each) and ``population[a][b]`` the
    probability of database (a, b).  Definition 7 via Lemma 2: Pr[O | do(D_i = v)] = Σ_w Pr[D_-i = w] A(v, w);
    Definition 1: neighbours differ in one data point.  Ratios are compared, not their logarithms.
    ``value(x)`` turns one entry into a float, or None when it is not a number.

    The one source of this check: the grader calls it on an answer's plain data, and the autograder zip's hidden
    test carries its source text (:func:`definition7_source`), so it is written for that test's rules: no
    builtin name, no module, no import; any malformed input is False."""
    INF = 1e308 * 10.0

    def ratio(r1, r2):
        best, j = 1.0, 0
        for x in r1:
            y = r2[j]
            j = j + 1
            if x > 0.0 and y > 0.0:
                if x / y > best:
                    best = x / y
                if y / x > best:
                    best = y / x
            elif x > 0.0 or y > 0.0:
                return INF
        return best

    try:
        rows, k = {}, 0
        for db in databases:
            row = []
            for x in matrix[k]:
                row.append(value(x))
            rows[(value(db[0]), value(db[1]))] = row
            k = k + 1
        assert k == 4
        size = None
        for key in ((0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)):
            total, count = 0.0, 0
            for x in rows[key]:
                assert x is not None and x >= 0.0
                total, count = total + x, count + 1
            assert count > 0 and -1e-9 <= total - 1.0 <= 1e-9 and (size is None or size == count)
            size = count
        pop, total = {}, 0.0
        for a in (0, 1):
            for b in (0, 1):
                w = value(population[a][b])
                assert w is not None and w >= 0.0
                pop[(a + 0.0, b + 0.0)], total = w, total + w
        assert -1e-9 <= total - 1.0 <= 1e-9
        dp = 1.0
        for u in (0.0, 1.0):
            for r in (ratio(rows[(0.0, u)], rows[(1.0, u)]), ratio(rows[(u, 0.0)], rows[(u, 1.0)])):
                if r > dp:
                    dp = r
        d7 = 1.0
        for i in (0, 1):
            effect = []
            for v in (0.0, 1.0):
                acc = [0.0] * size
                for w in (0.0, 1.0):
                    key = (v, w) if i == 0 else (w, v)
                    weight = pop[(0.0, w)] + pop[(1.0, w)] if i == 0 else pop[(w, 0.0)] + pop[(w, 1.0)]
                    j = 0
                    for x in rows[key]:
                        acc[j] = acc[j] + weight * x
                        j = j + 1
                effect.append(acc)
            r = ratio(effect[0], effect[1])
            if r > d7:
                d7 = r
        return d7 < INF and d7 * (1.0 + 1e-9) < dp
    except:  # noqa: E722 - malformed data of any kind is not a counterexample
        return False


def definition7_source() -> str:
    """The source text of :func:`definition7_separates`, for the hidden test that embeds it."""
    import inspect

    return inspect.getsource(definition7_separates)


def _json_number(x):
    return float(x) if _is_number(x) else None


def _definition7(mechanism, population) -> bool:
    """:func:`definition7_separates` on an answer's plain data (a dict with ``matrix`` and ``databases``, a table)."""
    if not (isinstance(mechanism, dict) and isinstance(population, list)):
        return False
    matrix, databases = mechanism.get("matrix"), mechanism.get("databases")
    if not (isinstance(matrix, list) and isinstance(databases, list) and len(matrix) == len(databases)):
        return False
    if not all(isinstance(db, list) and len(db) == 2 for db in databases):
        return False
    return definition7_separates(matrix, databases, population, _json_number) is True


def score_question(q: dict, answers: dict) -> tuple[float, list[str]]:
    """(points, the parts not right with why) of one question, from the answers' plain data."""
    wrong = []
    if q.get("rule") == "definition7":
        mech, pop = (answers.get(a["var"]) for a in q["answers"])
        if not _definition7(mech, pop):
            wrong.append("counterexample: " + (mech if isinstance(mech, str) else pop if isinstance(pop, str)
                                               else "Definition 7 does not need a smaller ε than DP here"))
    else:
        for a in q["answers"]:
            got = answers.get(a["var"], "not collected")
            if a["kind"] == "number":
                if not _inside(got, a["interval"]):
                    wrong.append(f"{a['part']}: " + (got if isinstance(got, str) else "not within the tolerance"))
            else:
                if not (isinstance(got, list) and len(got) == len(a["intervals"])
                        and all(_inside(x, iv) for x, iv in zip(got, a["intervals"]))):
                    wrong.append(f"{a['part']}: " + (got if isinstance(got, str) else "differs at a test point"))
    return (0 if wrong else q["points"]), wrong


# --------------------------------------------------------------------------------------------------------
# Running one notebook
# --------------------------------------------------------------------------------------------------------

def container_runtime() -> str | None:
    """``docker`` or ``podman`` when one is on the PATH *and* answers (``info`` succeeds within 15 s: a Docker
    client without a running daemon is no container runtime), else None."""
    for name in ("docker", "podman"):
        if shutil.which(name) is None:
            continue
        try:
            if subprocess.run([name, "info"], capture_output=True, timeout=15).returncode == 0:
                return name
        except (OSError, subprocess.TimeoutExpired):
            continue
    return None


_SANDBOX = ["unshare", "--user", "--map-root-user", "--mount", "--net", "--pid", "--fork", "--mount-proc"]
_HIDE = 'while [ "$1" != -- ]; do mount -t tmpfs none "$1" || exit 97; shift; done; shift; exec "$@"'


def sandbox_available() -> bool:
    """Whether unprivileged Linux namespaces work here (``unshare``): then each notebook runs without network,
    without sight of the grader's process or of other processes, and with the assignment's folder and the
    submissions folder hidden under empty file systems."""
    if shutil.which("unshare") is None or shutil.which("sh") is None:
        return False
    try:
        return subprocess.run(_SANDBOX + ["sh", "-c", "mount -t tmpfs none /mnt && true"], capture_output=True,
                              timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _limits(memory_mb: int):
    def apply():
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_notebook(notebook: Path, spec: dict, *, timeout: float, memory_mb: int,
                 hide: tuple[Path, ...] | None = None, name: str = "submission.ipynb",
                 package: Path | None = None) -> tuple[dict | None, str]:
    """Run a notebook in its own process (group) and read its answers: (answers, the cells that raised, if any)
    or (None, the reason there are no answers).  ``hide``: folders to hide from the notebook in a sandbox
    (:func:`sandbox_available`); None runs it without one.  ``name``: the file name it runs under (the
    assignment's, which otter's ``Notebook`` in its first cell looks for).  ``package``: the folder holding the
    ``dpsemantics`` the notebook runs with (the assignment's, copied into the run's folder; default: the
    grader's own)."""
    with tempfile.TemporaryDirectory(prefix="dps-grade-") as tmp:
        work = Path(tmp)
        if Path(name).name != name or not name.endswith(".ipynb") or name in ("spec.json", "answers.json"):
            raise ValueError(f"name must be a notebook file name, got {name!r}")
        shutil.copy2(notebook, work / name)
        (work / "spec.json").write_text(json.dumps(spec))
        out = work / "answers.json"
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "VIRTUAL_ENV")}
        package_root = str(Path(__file__).resolve().parents[2])  # the dpsemantics this grader is part of
        if package is not None:
            shutil.copytree(package, work / "package")
            package_root = str(work / "package")
        env["PYTHONPATH"] = os.pathsep.join([package_root] + [str(Path(x).resolve()) for x in
                                                              env.get("PYTHONPATH", "").split(os.pathsep) if x])
        env.update(HOME=str(work), MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                   MKL_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
        cmd = [sys.executable, "-m", "dpsemantics.book.run_submission", name, "spec.json",
               "answers.json"]
        if hide is not None:
            needed = [Path(sys.prefix).resolve(), Path(package_root).resolve(), work.resolve()]
            hidden = [str(d) for d in hide if d.is_dir() and not any(n.is_relative_to(d) for n in needed)]
            cmd = _SANDBOX + ["sh", "-c", _HIDE, "sh", *hidden, "--", *cmd]
        with open(work / "stderr.txt", "wb") as err:
            proc = subprocess.Popen(cmd, cwd=work, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
                                    preexec_fn=_limits(memory_mb))
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_group(proc.pid)
                proc.wait()
                return None, f"timed out after {timeout:g} s (the notebook's run was stopped)"
            finally:
                _kill_group(proc.pid)  # anything the notebook left running in its process group
        tail = (work / "stderr.txt").read_bytes()[-2000:].decode("utf-8", "replace")
        if not out.is_file():
            if hide is not None and code == 97:
                return None, "the sandbox could not hide the grader's folders (not graded)"
            if code < 0 or code == 137:
                return None, f"the notebook's run was killed by signal {-code} (out of memory or a crash)"
            why = "MemoryError" if "MemoryError" in tail else f"exit code {code}, e.g. os._exit, sys.exit or a crash"
            return None, f"the notebook's run ended before its answers were collected ({why})"
        if out.stat().st_size > MAX_ANSWER_BYTES:
            return None, "the answers file is larger than any answer needs"
        try:
            data = json.loads(out.read_text())
            answers, errors = data["answers"], data.get("errors", [])
            if not (isinstance(answers, dict) and isinstance(errors, list)):
                raise TypeError
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return None, "the answers file is not the grader's format"
        raised = "; ".join(str(e)[:80] for e in errors[:5]) + (" ..." if len(errors) > 5 else "")
        return answers, (f"{len(errors)} cells raised ({raised})" if errors else "")


def _metadata_error(notebook: Path, assignment: str) -> str:
    try:
        nb = json.loads(notebook.read_text())
        name = nb.get("metadata", {}).get("otter", {}).get("assignment_name")
    except (ValueError, UnicodeDecodeError, AttributeError):
        return "not a readable notebook (JSON)"
    if name != assignment:
        return f"not a submission for assignment {assignment!r} (its notebook metadata names {name!r})"
    return ""


def grade(chapter_dir: Path, submissions: Path, csv_path: Path | None = None, results: dict | None = None, *,
          timeout: float = 300.0, memory_mb: int = 4096, manual: dict[str, int] | None = None,
          sandbox: bool | None = None) -> list[dict]:
    """Grade every ``*.ipynb`` in ``submissions`` against ``CHAPTER_DIR/grading/hidden-checks.json``: one row
    per submission (``status`` graded or error, ``reason``, a score per question, ``total``, ``possible``, an
    empty column per written question with its points, ``written_possible``), written to ``csv_path`` when given.
    ``results`` receives, per submission, the parts not right per question (for the instructor).  ``sandbox``:
    run each notebook in Linux namespaces hiding the assignment and the submissions (None: when available)."""
    if timeout <= 0:
        raise ValueError(f"timeout must be positive seconds, got {timeout!r}")
    if memory_mb < 256:
        raise ValueError(f"memory_mb must be at least 256, got {memory_mb!r}")
    path = Path(chapter_dir) / HIDDEN_CHECKS
    if not path.is_file():
        raise FileNotFoundError(f"no {HIDDEN_CHECKS} under {chapter_dir}: run the assignments command first")
    checks = json.loads(path.read_text())  # read once, before any student code runs
    assignment, questions = checks["assignment"], checks["questions"]
    spec = runner_spec(questions)
    possible = sum(q["points"] for q in questions)
    manual = checks.get("manual", {}) if manual is None else manual
    if sandbox is None:
        sandbox = sandbox_available()
    hide = (Path(chapter_dir).resolve(), Path(submissions).resolve()) if sandbox else None
    package = Path(chapter_dir) / "grading" / "package"
    package = package if (package / "dpsemantics").is_dir() else None  # the assignment's, without the answers
    rows = []
    for nb in sorted(Path(submissions).glob("*.ipynb")):
        row = {"submission": nb.name, "status": "graded", "reason": ""}
        reason = _metadata_error(nb, assignment)
        answers = None
        if not reason:
            started = time.monotonic()
            answers, reason = run_notebook(nb, spec, timeout=timeout, memory_mb=memory_mb, hide=hide,
                                           name=f"{assignment}.ipynb", package=package)
            row["seconds"] = round(time.monotonic() - started, 1)
        if answers is not None:
            row["reason"] = reason  # graded; the cells that raised, if any, for the instructor
        if answers is None:
            row.update(status="error", reason=reason)
            row.update({q["name"]: "" for q in questions})
            row.update(total="", possible=possible)
        else:
            feedback = {}
            for q in questions:
                row[q["name"]], feedback[q["name"]] = score_question(q, answers)
            row.update(total=sum(row[q["name"]] for q in questions), possible=possible)
            if results is not None:
                results[nb.name] = feedback
        row.update({f"{name} (written, of {pts})": "" for name, pts in manual.items()})
        row["written_possible"] = sum(manual.values())
        rows.append(row)
    if csv_path is not None:
        fields = list(dict.fromkeys(k for row in rows for k in row))
        with open(csv_path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
    return rows
