# Two commands on a fresh machine with Python 3.11: `make book` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
COURSE_STAMP := $(VENV)/.coursework-installed-stamp
TEST_STAMP := $(VENV)/.test-installed-stamp
WHEELHOUSE := $(VENV)/wheelhouse
WHEELS_STAMP := $(WHEELHOUSE)/.built-stamp

.PHONY: book book-student test test-fast lint setup system browser clean strict-book claims rerun assignments grade pdf report bench

setup: $(STAMP) $(TEST_STAMP) $(WHEELS_STAMP)

# What the book needs: the pinned dependencies, the package and its [book] extra (make book, make rerun, make
# report, ...).  Nothing of the tests: a reader's make book installs this only.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[book]"
	@touch $(STAMP)

# Coursework (make assignments, make grade): otter-grader, the [coursework] extra.
$(COURSE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[book,coursework]"
	@touch $(COURSE_STAMP)

# What the tests need besides: the [test] extra (pytest, the linter, Playwright for the browser test and the PDF)
# and the [coursework] one (the assignments' tests).
$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[book,coursework,test]"
	@touch $(TEST_STAMP) $(COURSE_STAMP)

# What only the tests need: wheels for tests/e2e/test_fresh_environment.py, which runs the first chapter in a fresh
# virtual environment as Colab would, offline (the package's dependencies, a kernel, and the build backend for its
# own wheel) ... and of the assignments' grading environment (otter-grader and the pins its autograder zip lists),
# for the test that grades a submission from the zip alone in a fresh virtual environment, offline.  make book
# does not build them (about a minute of a reader's set-up).
$(WHEELS_STAMP): $(STAMP)
	$(BIN)/python -m pip wheel --quiet --wheel-dir $(WHEELHOUSE) . "ipykernel==7.4.0" "setuptools>=68" wheel
	$(BIN)/python -m dpsemantics.book.assignments requirements > $(VENV)/grading-requirements.txt
	$(BIN)/python -m pip wheel --quiet --wheel-dir $(WHEELHOUSE) -r $(VENV)/grading-requirements.txt
	@touch $(WHEELS_STAMP)

# The reader's build (dpsemantics.book.build): the pages with code executed on every core into Jupyter Book's
# cache (none when nothing changed since the last make book; all of them after any change to the package, the
# book's sources or the environment), then rendered from the cache.  The chapters leave their claims' results for
# the reproducibility report, which reads them.  make strict-book and make test execute inside the build instead.
book: $(STAMP) system
	$(BIN)/python -m dpsemantics.book.build --keep-going
	@echo "Open $(CURDIR)/_build/html/index.html"

# Debian packages the book needs beside Python: Graphviz (lays out the notion map), fonts that cover every
# character the book uses (Noto, Symbola), and headless Chromium for tests/book/test_browser.py.  Without root or
# apt-get they cannot be installed: the notion map then fails with that reason, and the browser test is skipped.
DEBIAN_PACKAGES := chromium graphviz fonts-noto-core fonts-symbola fonts-dejavu-core
system:
	@missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian packages:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null) \
	      || echo "could not install$$missing"; \
	  else echo "missing Debian packages:$$missing (install them as root with apt-get)"; fi; fi

browser: system

# The student edition: every solution removed from a copy of the sources, built from that copy.
book-student: $(STAMP) system
	$(BIN)/python -m dpsemantics.book.student_edition _build/student-src
	$(BIN)/python -m dpsemantics.book.build --root _build/student-src --keep-going
	@echo "Open $(CURDIR)/_build/student-src/_build/html/index.html"

# The whole suite (what CI runs): the linter, then every test, on two pytest-xdist workers.  The strict book build
# is the one execution of the chapters: tests/conftest.py starts it in the background when collection ends, the
# tests that do not need it run meanwhile (the workers yield to the build), and those that read the built book
# (pages, links, browser, PDF) run last.  When the build ends, the book's PDF is printed while the student edition
# is built from the executed notebooks and printed, in the background as well.  --dist loadgroup keeps the tests
# that share a fixture on one worker; --no-loadscope-reorder keeps the order conftest gives (the built book's
# tests last; in each phase the longest units first, LONGEST_UNITS).
test: $(TEST_STAMP) $(WHEELS_STAMP) system lint
	$(BIN)/python -m pytest -n 2 --dist loadgroup --no-loadscope-reorder tests -p no:cacheprovider

# Under two minutes: the linter and tests/unit (the mathematics, the release model, the report) on both cores; no
# book build, no claims registry (the unit tests marked registry), no notebook, no fresh environment, and of the
# cases marked slow only their cheaper variants (tests/_support/scheduling.py, MARKERS).
test-fast: $(TEST_STAMP) lint
	$(BIN)/python -m pytest -n 2 tests/unit -m "not registry and not slow" -p no:cacheprovider

lint: $(TEST_STAMP)
	$(BIN)/ruff check .

strict-book: $(STAMP) system
	$(BIN)/jupyter-book build . --all -W -n --keep-going

# Rerun one chapter with new parameters, e.g. make rerun CHAPTER=intro PARAMS="-p eps 0.5"
rerun: $(STAMP)
	$(BIN)/python -m dpsemantics.book.rerun $(CHAPTER) $(PARAMS)

# Interpret your own release, e.g. make report ARGS="--mechanism laplace --epsilon 0.5 --k 10 --prior 0.5"
report: $(STAMP)
	$(BIN)/python -m dpsemantics.report $(ARGS)

# The printable edition: the built HTML printed by Chromium (from make system) into _build/pdf/book.pdf, and the
# student edition, built from the reader's edition's executed notebooks with the solutions cut (no second
# execution but its reproducibility report's, which reads the claims' results make book's chapters left), into
# _build/pdf/book-student.pdf.  make book-student builds the student edition from the sources.
pdf: book system $(TEST_STAMP)
	$(BIN)/python -m dpsemantics.book.student_edition _build/student-src --executed _build/jupyter_execute
	cd _build/student-src && DPSEMANTICS_CLAIMS_RESULTS=$(CURDIR)/_build/.jupyter_cache/claims-results \
	  $(CURDIR)/$(BIN)/jupyter-book build . --keep-going
	$(BIN)/python -m dpsemantics.book.pdf _build/html _build/pdf/book.pdf
	$(BIN)/python -m dpsemantics.book.pdf _build/student-src/_build/html _build/pdf/book-student.pdf --edition "Student edition: without solutions"

# Coursework: one otter-grader assignment per chapter under _build/assignments/CHAPTER/ (student notebook with
# public checks, solutions notebook, autograder zip with the hidden tests); CHAPTERS="intro causal-view" for some.
SEED ?= 1
assignments: $(COURSE_STAMP)
	$(BIN)/python -m dpsemantics.book.assignments _build/assignments $(CHAPTERS) --seed $(SEED)

# Grade a folder of submitted notebooks without Docker: make grade CHAPTER=intro SUBMISSIONS=dir writes dir/scores.csv
grade: $(COURSE_STAMP)
	@test -n "$(CHAPTER)" -a -n "$(SUBMISSIONS)" || { echo "usage: make grade CHAPTER=intro SUBMISSIONS=folder-of-notebooks"; exit 2; }
	@test -d _build/assignments/$(CHAPTER)/grading || $(BIN)/python -m dpsemantics.book.assignments _build/assignments $(CHAPTER) --seed $(SEED)
	$(BIN)/python -m dpsemantics.book.assignments grade _build/assignments/$(CHAPTER) $(SUBMISSIONS)

claims: $(STAMP)
	$(BIN)/python -m dpsemantics.claims

clean:
	rm -rf _build

# Benchmark against dp-accounting, prv-accountant, autodp and OpenDP (bench/requirements.txt).  They go into
# their own environment, _build/bench-venv, not into .venv: dp-accounting 0.6.0 pins attrs<24, which would
# downgrade the book's.  The result is _build/bench.json (rendered by book/numerics.md) and a copy in
# bench/results.json, the record the book shows when no local run exists.
bench:
	@test -x _build/bench-venv/bin/python || $(PYTHON) -m venv _build/bench-venv
	@if [ ! -f _build/bench-venv/.stamp ] || [ bench/requirements.txt -nt _build/bench-venv/.stamp ] || [ pyproject.toml -nt _build/bench-venv/.stamp ]; then \
		_build/bench-venv/bin/python -m pip install --quiet -r bench/requirements.txt && \
		_build/bench-venv/bin/python -m pip install --quiet --no-deps -e . && \
		touch _build/bench-venv/.stamp; fi
	_build/bench-venv/bin/python bench/compare_accountants.py --out _build/bench.json
	cp _build/bench.json bench/results.json
