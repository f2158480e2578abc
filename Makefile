# Two commands on a fresh machine with Python 3.11: `make book` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: book book-student test setup browser clean strict-book claims rerun bench

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[book,test]"
	@touch $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . --keep-going
	@echo "Open $(CURDIR)/_build/html/index.html"

# Headless Chromium for tests/test_browser.py (Debian's package). Without root or apt-get the browser
# test is skipped, and says so.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the browser test"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "could not install chromium: the browser test will be skipped"; \
	  else echo "chromium is not installed and cannot be installed here: the browser test will be skipped"; fi; }

# The student edition: every solution removed from a copy of the sources, built from that copy.
book-student: $(STAMP)
	$(BIN)/python -m dpsemantics.book.student_edition _build/student-src
	cd _build/student-src && $(CURDIR)/$(BIN)/jupyter-book build . --all --keep-going
	@echo "Open $(CURDIR)/_build/student-src/_build/html/index.html"

test: $(STAMP) browser
	$(BIN)/python -m pytest tests book --nbval-lax -p no:cacheprovider

strict-book: $(STAMP)
	$(BIN)/jupyter-book build . --all -W -n --keep-going

# Rerun one chapter with new parameters, e.g. make rerun CHAPTER=intro PARAMS="-p eps 0.5"
rerun: $(STAMP)
	$(BIN)/python -m dpsemantics.book.rerun $(CHAPTER) $(PARAMS)

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
