# Two commands on a fresh clone:  make book  (install into .venv, build the site)
#                                  make test  (install what the checks need, run every check)
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3.11
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export PYTHONHASHSEED := 0

BOOK_STAMP := $(VENV)/.book-installed
TEST_STAMP := $(VENV)/.test-installed

.PHONY: book test install notebooks standin benchmarks clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# torch==2.13.0 is pinned in pyproject.toml: pip takes the CPU build from this machine's disk
$(BOOK_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[book]'
	touch $@

# factgenie is installed without its web-app dependencies: the tests run its f1 code only
$(TEST_STAMP): pyproject.toml $(BOOK_STAMP)
	$(PY) -m pip install -q -e '.[book,test,dev]'
	$(PY) -m pip install -q --no-deps factgenie==1.2.1
	touch $@

install: $(BOOK_STAMP)

# Re-reads every page (so warnings always surface) but executes only changed notebooks
# (Jupyter Book's execution cache); warnings are errors. The cache is keyed on notebook code
# only, so it is dropped whenever the package, the data or the dependencies change.
SOURCES_HASH := $(shell cat pyproject.toml $$(find src data -type f -not -name '*.pyc' | LC_ALL=C sort) | sha256sum | cut -c1-16)
book: $(BOOK_STAMP)
	@mkdir -p _build
	@if [ "$$(cat _build/.sources-hash 2>/dev/null)" != "$(SOURCES_HASH)" ]; then \
	  echo "package or data changed: re-executing every chapter"; rm -rf _build/.jupyter_cache; fi
	$(VENV)/bin/jupyter-book build . --all --builder html -W -n --keep-going
	@echo "$(SOURCES_HASH)" > _build/.sources-hash

test: $(TEST_STAMP) book
	$(PY) -m pytest tests notebooks --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg

# Re-execute the paired notebooks from their .py sources and strip volatile metadata.
notebooks: $(TEST_STAMP)
	cd notebooks && for f in *.py; do ../$(VENV)/bin/jupytext --to ipynb --execute "$$f" || exit 1; done
	$(VENV)/bin/nbstripout --keep-output --keep-count notebooks/*.ipynb

standin: $(BOOK_STAMP)
	$(VENV)/bin/hotelcheckspan standin --out data/hotelcheckspan --force
	cd data && find hotelcheckspan -type f | LC_ALL=C sort | xargs sha256sum > SHA256SUMS

benchmarks: $(TEST_STAMP)
	$(PY) benchmarks/span_f1.py

clean:
	rm -rf _build .cache
