# Two entry points: `make results` and `make test`. Both work from a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: results proofs screenshots test test-fast lint bench serve clean venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

# The main job: every answer, proof, diagram and board picture, then the workbench's screenshots.
results: $(STAMP)
	$(BIN)/powertwo results --out results --force
	$(MAKE) screenshots

# That's My Line solved on the three boards, 16 stones and unlimited (about 2 minutes each on one
# core): the certificates and answers in results/proofs/, which `make results` checks.
proofs: $(STAMP)
	$(BIN)/python -m powertwo.solvers.prove.results_step results

# The browser tests, writing their screenshots into results/ (a plain test run writes them to a
# temporary folder). Skipped, with one line, where Debian's chromium is missing.
screenshots: $(STAMP)
	POWERTWO_SCREENSHOTS=$(CURDIR)/results $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_web_browser.py

# One pytest worker per core (pytest-xdist): the suite is CPU-bound and each test single-threaded.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto

# The quick loop while developing: every test but those marked slow.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n auto -m "not slow"

LINT_STAMP := $(VENV)/.lint-installed

$(LINT_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $(LINT_STAMP)

# ruff and mypy, configured in pyproject.toml ([tool.ruff], [tool.mypy]).
lint: $(LINT_STAMP)
	$(BIN)/ruff check .
	$(BIN)/python tools/typecheck.py

serve: $(STAMP)
	$(BIN)/powertwo serve

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
