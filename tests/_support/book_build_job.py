"""The background job of a test session: the strict book build, then the printed editions (tests/conftest.py
starts it when collection ends, and its fixtures ``strict_build`` and ``printed_editions`` wait for it).

The job is one shell script in its own process group; each step's output and exit status are files in the
session's folder, which every process of the session shares (the xdist controller and its workers).
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
STRICT_ARGS = (".", "--all", "-W", "-n", "--keep-going")
STUDENT_SRC = ROOT / "_build" / "student-edition-test"  # beside make pdf's _build/student-src, not over it
PDF_OUT = ROOT / "_build" / "pdf"  # where make pdf puts the PDFs; what each printing returned goes beside them
STUDENT_EDITION = "Student edition: without solutions"


def jupyter_book_exe() -> str:
    return shutil.which("jupyter-book", path=str(BIN)) or "jupyter-book"


def jupyter_book(*args, cwd=ROOT, env=None):
    """Run ``jupyter-book build`` from the same environment as the tests; return the CompletedProcess."""
    return subprocess.run([jupyter_book_exe(), "build", *args], cwd=cwd, capture_output=True, text=True,
                          env=env or os.environ.copy())


def reuse_build() -> bool:
    """``DPSEMANTICS_REUSE_BUILD=1`` and a built ``_build/html``: reuse it (for working on the browser or PDF tests
    only; ``make test`` never sets it)."""
    return os.environ.get("DPSEMANTICS_REUSE_BUILD") == "1" and (ROOT / "_build" / "html" / "index.html").is_file()


def printed_result(edition: str) -> Path:
    """Where the printing of ``edition`` (``"book"`` or ``"book-student"``) writes what it printed (JSON)."""
    return PDF_OUT / f"{edition}.json"


def printed_editions_script() -> str:
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
               shlex.join([jupyter_book_exe(), "build", ".", "--keep-going"])]
    clear = shlex.join(["rm", "-f", *map(str, results)])
    if pdf.chromium() is None:
        return "(" + " && ".join([clear, *student]) + ")"
    printing = [sys.executable, "-m", "dpsemantics.book.pdf"]
    book = shlex.join([*printing, str(ROOT / "_build" / "html"), str(PDF_OUT / "book.pdf"), "--json", str(results[0])])
    student.append(shlex.join([*printing, str(STUDENT_SRC / "_build" / "html"), str(PDF_OUT / "book-student.pdf"),
                               "--edition", STUDENT_EDITION, "--json", str(results[1])]))
    return (f"({clear} && {{ ({book}) & book=$!; ({' && '.join(student)}); student=$?; wait $book; book=$?; "
            f'[ "$student" = 0 ] && [ "$book" = 0 ]; }})')


def job_script(folder: Path, printed: bool) -> str:
    """The background job as one shell script: each step's output and exit status are files in ``folder``."""
    def step(name, command):
        log, rc = folder / f"{name}.log", folder / f"{name}.rc"
        return (f"{command} > {shlex.quote(str(log))} 2>&1; echo $? > {shlex.quote(str(rc))}.tmp; "
                f"mv {shlex.quote(str(rc))}.tmp {shlex.quote(str(rc))}")

    script = step("strict", shlex.join([jupyter_book_exe(), "build", *STRICT_ARGS]))
    if printed:
        strict_rc = shlex.quote(str(folder / "strict.rc"))
        script += f'; if [ "$(cat {strict_rc})" = 0 ]; then {step("printed", printed_editions_script())}; fi'
    return script + f"; touch {shlex.quote(str(folder / 'done'))}"


def start_job(folder: Path, printed: bool) -> None:
    from dpsemantics.claims import SHARED_RESULTS_ENV

    (folder / "started").write_text(repr(time.time()))
    # the strict build's reproducibility report evaluates the registry and leaves its results in the session's
    # folder; the student edition's report (its code differs: it is executed again) reads them there, and so do
    # both for the claims whose results the registry's status tests (tests/claims/test_claims.py) left there first
    env = os.environ | {SHARED_RESULTS_ENV: str(folder)}
    # its own process group (session), so that stopping it ends what it started too (kernels, Sphinx, Chromium)
    proc = subprocess.Popen(["sh", "-c", job_script(folder, printed)], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    (folder / "pid").write_text(str(proc.pid))
    threading.Thread(target=proc.wait, daemon=True).start()  # reap it when it ends


def job_running(folder: Path) -> bool:
    try:
        pid = int((folder / "pid").read_text())
    except (OSError, ValueError):  # being started by another worker
        return (folder / "claimed").exists()
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(folder: Path, name: str, args: list[str]) -> subprocess.CompletedProcess:
    """Wait for the background job's step ``name`` (``strict`` or ``printed``) in the session's ``folder``; its
    CompletedProcess (stdout and stderr interleaved in ``stdout``, as a terminal shows them), with the time the job
    started as ``started``."""
    rc = folder / f"{name}.rc"
    while not rc.exists():
        if not job_running(folder) and not rc.exists():
            raise RuntimeError(f"the background job ended without the {name} step's result ({folder})")
        time.sleep(0.5)
    result = subprocess.CompletedProcess(args, int(rc.read_text()), (folder / f"{name}.log").read_text(), "")
    result.started = float((folder / "started").read_text())  # the executed notebooks older than this are not its
    return result


def stop_job(folder: Path) -> None:
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
        while time.time() < deadline and job_running(folder):
            time.sleep(0.2)
