# Two commands on a fresh machine with Python 3.11: `make book` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: book test setup clean strict-book claims rerun bench

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[book,test]"
	@touch $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . --keep-going
	@echo "Open $(CURDIR)/_build/html/index.html"

test: $(STAMP)
	$(BIN)/python -m pytest tests book --nbval-lax -p no:cacheprovider

strict-book: $(STAMP)
	$(BIN)/jupyter-book build . --all -W -n --keep-going

claims: $(STAMP)
	$(BIN)/python -m dpsemantics.claims

clean:
	rm -rf _build
