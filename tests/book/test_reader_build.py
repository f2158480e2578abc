"""``make book`` (``dpsemantics.book.build``): the pages executed side by side into Jupyter Book's cache, the book
rendered from it without executing again, nothing executed when nothing changed, everything after a change, and a
raising page stops the build naming it.  On a two-page project with the book's configuration; the book itself is
built by ``make test``'s strict build, which executes inside the build."""

import json

import yaml

from conftest import ROOT
from dpsemantics.book import build

KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}


def _notebook(title: str, *sources: str) -> str:
    cells = [{"id": "title", "cell_type": "markdown", "metadata": {}, "source": [f"# {title}\n"]}]
    cells += [{"id": f"code-{i}", "cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
               "source": [source]} for i, source in enumerate(sources)]
    return json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": KERNEL}})


# each execution of a page leaves a line in runs.txt, beside book/ (the kernel runs in the page's folder)
RECORD = "open('../runs.txt', 'a').write('run\\n')\n"


def _project(tmp_path, first_cell="x = 6 * 7\n"):
    """A book of a notebook and a MyST-markdown page with code, with the book's configuration."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    config.get("html", {}).pop("favicon", None)
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config))
    for name in ("pyproject.toml", "references.bib"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/first\nparts:\n  - caption: Chapters\n"
                                       "    numbered: true\n    chapters:\n      - file: book/report\n")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "first.ipynb").write_text(_notebook("First", first_cell, RECORD, "print(f'answer {x}')\n"))
    (tmp_path / "book" / "report.md").write_text(
        "---\njupytext:\n  text_representation:\n    extension: .md\n    format_name: myst\n"
        "kernelspec:\n  name: python3\n  display_name: Python 3\n---\n\n# Report\n\n"
        "```{code-cell} ipython3\n" + RECORD + "print('report ' + str(2 ** 10))\n```\n")
    return tmp_path


def test_pages_execute_once_into_the_cache_and_render_from_it(tmp_path):
    project = _project(tmp_path)
    assert build.main(["--jobs", "2", "--keep-going"], root=project) == 0
    runs = project / "runs.txt"
    assert runs.read_text().count("run") == 2, "each page executed once, by the pre-execution, not by the render"
    html = (project / "_build" / "html" / "book" / "first.html").read_text()
    assert "answer 42" in html
    assert "report 1024" in (project / "_build" / "html" / "book" / "report.html").read_text()
    # the executed notebooks, outputs and all, where make pdf's student edition reads them
    executed = json.loads((project / "_build" / "jupyter_execute" / "book" / "first.ipynb").read_text())
    assert any("answer 42" in "".join(o.get("text", "")) for c in executed["cells"] for o in c.get("outputs", []))
    assert yaml.safe_load((project / build.READER_CONFIG).read_text())["execute"]["execute_notebooks"] == "cache"
    # nothing changed: nothing executed again; any change to the book's sources: every page executed again
    assert build.execute_pages(2, project) == []
    (project / "book" / "notes.txt").write_text("a file a page could read\n")
    assert sorted(build.execute_pages(2, project)) == ["book/first", "book/report"]
    assert runs.read_text().count("run") == 4


def test_a_raising_page_stops_the_build_naming_the_page(tmp_path, capsys):
    project = _project(tmp_path, first_cell="raise RuntimeError('boom in the first cell')\n")
    assert build.main(["--jobs", "2"], root=project) == 1
    err = capsys.readouterr().err
    assert "book/first raised" in err and "boom in the first cell" in err
    assert not (project / "_build" / "html").exists(), "the book was rendered although a page raised"
