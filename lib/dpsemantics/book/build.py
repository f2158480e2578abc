"""``make book``, the reader's build: the pages with code executed side by side into Jupyter Book's cache, then
the book rendered from the cache.

``jupyter-book build`` executes the pages one after another while it reads them (``execute_notebooks: force`` in
``_config.yml``; the strict build of ``make test`` keeps that: there every page is executed by the build itself,
warnings are errors).  ``python -m dpsemantics.book.build`` does the same work in three steps:

1. **What the outputs may depend on** is hashed (:func:`inputs_digest`): the package's source, Python and every
   installed distribution (the status page lists versions), ``pyproject.toml``, ``_config.yml``, ``_toc.yml``,
   every file of ``book/`` (the instructors page reads the chapters' exercises) and of ``bench/``, and a local
   benchmark run (``_build/bench.json``, which the numerics page reads).  When the hash differs from the one the
   cache was filled under, the cache is emptied (the claims' results with it) and the render reads every page
   again (``--all``): no page ever shows outputs of other sources.  So an unchanged tree renders without
   executing anything, and any change executes every page again, side by side.
2. **The pages the cache does not hold** (after a change: all of them) are executed on ``--jobs`` processes
   (every core by default), the longest first (by the last execution's times, else by the length of their
   code); a page that raises stops the build, naming the page and the error.  The numbered chapters evaluate
   their papers' claims and leave the results in the cache's folder (``dpsemantics.claims.SHARED_RESULTS_ENV``,
   results keyed by the package's source); the reproducibility report (``book/claims.md``) starts when the
   chapters are done and reads them instead of evaluating the registry a second time.
3. **The render**: ``jupyter-book build`` with ``_config.yml`` changed in one value, ``execute_notebooks: cache``
   (written to ``_build/reader-config.yml``, with the cache's folder), so that each page's outputs are read
   from the cache.

Nothing is written into ``book/``: the executed notebooks live in ``_build/.jupyter_cache``, and in
``_build/jupyter_execute`` as after a build that executes them (:func:`write_executed`).

The other route, notebooks committed with their outputs (compared by nbval in CI, rendered without executing), was
weighed and not taken (issue 39): the outputs are 3.5 MB over the 0.56 MB of sources, 2.3 MB of it the 37 figures as
PNG, which every change of a figure would add to the history again; the numerics page prints timings, which change
at every run; a reader's build would show what a committer's machine computed rather than compute it; and the
book's rule is that numbers are checked in code (claims, asserts), not by comparing stored outputs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from importlib import metadata
from pathlib import Path

import yaml

from .toc import ROOT, numbered_notebooks, pages_with_code

CACHE = Path("_build", ".jupyter_cache")  # under the book's root: jupyter-book's default for execute_notebooks: cache
READER_CONFIG = Path("_build", "reader-config.yml")
CLAIMS_RESULTS = CACHE / "claims-results"  # emptied with the cache
CLAIMS_PAGE = "book/claims"
_FILLED_UNDER = "dpsemantics-inputs"  # the inputs' digest the cache holds outputs of
_RENDERED_UNDER = "dpsemantics-rendered"  # the digest of the last finished render
_SECONDS = Path("_build", "page-seconds.json")  # each page's last execution time, for the order


def inputs_digest(root: Path = ROOT) -> str:
    """SHA-256 of what the pages' outputs depend on besides their own code (step 1 of the module's docstring)."""
    from dpsemantics.claims import _source_digest  # the key of the claims' shared results

    digest = hashlib.sha256()
    digest.update(_source_digest().encode() + b"\0" + sys.version.encode() + b"\0")
    installed = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update("\0".join(installed).encode() + b"\0")
    files = [Path(root) / name for name in ("pyproject.toml", "_config.yml", "_toc.yml", "_build/bench.json")]
    for folder in ("book", "bench"):
        files += sorted(p for p in (Path(root) / folder).rglob("*") if p.is_file()
                        and "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts)
    for path in files:
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def read_page(path: Path):
    """The page as myst-nb reads it for the build (the cache matches it by the code cells of this reading)."""
    from myst_nb.core.config import NbParserConfig
    from myst_nb.core.read import create_nb_reader
    from myst_parser.config.main import MdParserConfig

    text = path.read_text(encoding="utf8")
    reader = create_nb_reader(str(path), MdParserConfig(), NbParserConfig(), text)
    if reader is None:
        raise ValueError(f"path={str(path)!r} is neither a notebook nor a MyST-markdown notebook")
    return reader.read(text)


def _execute(path: str, notebook, timeout: int, claims_results: str):
    """(in a worker process) Execute one page in its folder, its kernel sharing claims' results in
    ``claims_results``; ``(notebook, seconds, error text or None)``."""
    from jupyter_cache.executors.utils import single_nb_execution

    from dpsemantics.claims import SHARED_RESULTS_ENV

    os.environ[SHARED_RESULTS_ENV] = claims_results  # the kernel inherits it

    result = single_nb_execution(notebook, cwd=str(Path(path).parent), timeout=timeout, allow_errors=False)
    error = None if result.err is None else (result.exc_string or repr(result.err))
    return result.nb, result.time, error


def _prepare_cache(root: Path, digest: str):
    """The cache, emptied first when it holds outputs made under other inputs."""
    from jupyter_cache import get_cache

    folder = Path(root) / CACHE
    stamp = folder / _FILLED_UNDER
    if not (stamp.is_file() and stamp.read_text() == digest):
        shutil.rmtree(folder, ignore_errors=True)
    cache = get_cache(str(folder))
    (Path(root) / CLAIMS_RESULTS).mkdir(parents=True, exist_ok=True)
    stamp.write_text(digest)
    return cache


def execute_pages(jobs: int, root: Path = ROOT, log=print) -> list[str]:
    """Step 2: execute, on ``jobs`` processes, the pages the cache does not hold; return their docnames.  A page
    that raises: ``RuntimeError`` naming it, with the error, after the pages under way have finished."""
    from jupyter_cache.base import CacheBundleIn

    cache = _prepare_cache(root, inputs_digest(root))
    timeout = (yaml.safe_load((Path(root) / "_config.yml").read_text()).get("execute") or {}).get("timeout", 600)
    times = Path(root) / _SECONDS
    seconds = json.loads(times.read_text()) if times.is_file() else {}
    chapters = {p.relative_to(root).with_suffix("").as_posix() for p in numbered_notebooks(root)}
    todo = {}
    for doc in pages_with_code(root):
        path = next(p for p in (Path(root) / f"{doc}.ipynb", Path(root) / f"{doc}.md") if p.is_file())
        notebook = read_page(path)
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            todo[doc] = (path, notebook)
    # the chapters first (the report waits for them), each group longest first: by the last execution's time, or,
    # for a page never executed here, by the length of its code
    code = {d: sum(len(c.source) for c in nb.cells if c.cell_type == "code") for d, (_, nb) in todo.items()}
    order = sorted(todo, key=lambda d: (d not in chapters, -seconds.get(d, 0), -code[d]))
    waiting_for = chapters & set(todo)
    pending, running, failures = list(order), {}, []
    results = str((Path(root) / CLAIMS_RESULTS).resolve())
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        while pending or running:
            while pending and len(running) < max(1, jobs) and not failures:
                ready = [d for d in pending if d != CLAIMS_PAGE or not waiting_for]
                if not ready:
                    break
                doc = ready[0]
                pending.remove(doc)
                path, notebook = todo[doc]
                log(f"executing {doc}")
                running[pool.submit(_execute, str(path), notebook, timeout, results)] = doc
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                doc = running.pop(future)
                waiting_for.discard(doc)
                try:
                    executed, spent, error = future.result()
                except Exception as err:  # the kernel died, or could not start
                    executed, spent, error = None, 0.0, f"{type(err).__name__}: {err}"
                if error is not None:
                    failures.append(f"{doc} raised:\n{error}")
                    continue
                seconds[doc] = round(spent, 1)
                cache.cache_notebook_bundle(CacheBundleIn(executed, str(todo[doc][0]),
                                                          data={"execution_seconds": spent}),
                                            check_validity=False, overwrite=True)
                log(f"executed {doc} in {spent:.1f} s")
    times.write_text(json.dumps(seconds, indent=1, sort_keys=True))
    if failures:
        raise RuntimeError("\n\n".join(failures))
    return order


def reader_config(root: Path = ROOT) -> Path:
    """Step 3's configuration: ``_config.yml`` with ``execute_notebooks: cache`` and the cache's folder."""
    config = yaml.safe_load((Path(root) / "_config.yml").read_text())
    config.setdefault("execute", {}).update(execute_notebooks="cache", cache=str((Path(root) / CACHE).resolve()))
    path = Path(root) / READER_CONFIG
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    return path


def render(args: list[str], root: Path = ROOT) -> int:
    """Step 3: ``jupyter-book build`` from the cache (``--all`` when the inputs changed since the last render),
    then the executed notebooks written to ``_build/jupyter_execute`` (:func:`write_executed`)."""
    digest = (Path(root) / CACHE / _FILLED_UNDER).read_text()
    rendered = Path(root) / CACHE / _RENDERED_UNDER
    again = [] if rendered.is_file() and rendered.read_text() == digest else ["--all"]
    exe = shutil.which("jupyter-book", path=str(Path(sys.executable).parent)) or "jupyter-book"
    code = subprocess.call([exe, "build", ".", "--config", str(reader_config(root)), *again, *args], cwd=root)
    if code == 0:
        write_executed(root)
        rendered.write_text(digest)
    return code


def write_executed(root: Path = ROOT) -> None:
    """Write each page with code, with its outputs from the cache, to ``_build/jupyter_execute`` (what ``make
    pdf``'s student edition starts from), as the build does in ``execute_notebooks: force``.  In ``cache`` mode
    myst-nb 1.4.0 writes the page as read there, without its outputs (it writes the notebook it passed to the
    cache, not the one the cache returned)."""
    import nbformat
    from jupyter_cache import get_cache
    from myst_nb.ext.glue import extract_glue_data_cell

    cache = get_cache(str(Path(root) / CACHE))
    for doc in pages_with_code(root):
        path = next(p for p in (Path(root) / f"{doc}.ipynb", Path(root) / f"{doc}.md") if p.is_file())
        _, executed = cache.merge_match_into_notebook(read_page(path))
        for cell in executed.cells:  # the glued values leave their cells, as in the build (NAME.glue.json keeps them)
            if cell.cell_type == "code":
                extract_glue_data_cell(cell)
        out = Path(root) / "_build" / "jupyter_execute" / f"{doc}.ipynb"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(nbformat.writes(executed), encoding="utf8")


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    summary = " ".join(__doc__.split("\n\n")[0].replace("``", "").split())
    parser = argparse.ArgumentParser(prog="python -m dpsemantics.book.build", description=summary)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1  # macOS: none
    parser.add_argument("--jobs", type=int, default=cores,
                        help="pages executed at once (default: the usable cores)")
    parser.add_argument("--root", type=Path, default=root,
                        help="the book's folder (_config.yml, _toc.yml; default: the repository)")
    parser.add_argument("build_args", nargs="*", help="passed to jupyter-book build (e.g. --keep-going)")
    args, extra = parser.parse_known_args(argv)
    if args.jobs < 1:
        parser.error(f"jobs must be at least 1 (got jobs={args.jobs})")
    start = time.perf_counter()
    try:
        executed = execute_pages(args.jobs, args.root)
    except RuntimeError as err:
        print(f"make book: a page raised, the book was not rendered.\n{err}", file=sys.stderr)
        return 1
    print(f"executed {len(executed)} pages on {args.jobs} processes in {time.perf_counter() - start:.0f} s "
          f"(the others from the cache); rendering")
    return render([*args.build_args, *extra], args.root)


if __name__ == "__main__":
    sys.exit(main())
