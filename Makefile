# Two entry points: `make results` and `make test`. Both work from a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: results proofs game-proofs screenshots test test-heavy test-fast lint bench serve clean venv census-moves census-deep

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/powertwo warm
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

# David and Goliath and The Power of Two split one ply below the start into jobs, df-pn on each on a
# LocalCluster of 2 workers (about 20 s a job; 40 minutes in all on 2 cores, resumable): what is
# proven, in results/game-proofs/, which `make results` checks and tabulates.
game-proofs: $(STAMP)
	nice -n 19 $(BIN)/python -m powertwo.solvers.prove.split_results results

# The browser tests, writing their screenshots into results/ (a plain test run writes them to a
# temporary folder). Skipped, with one line, where Debian's chromium is missing.
screenshots: $(STAMP)
	POWERTWO_SCREENSHOTS=$(CURDIR)/results $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_web_browser.py

# One pytest worker per core (pytest-xdist): the suite is CPU-bound and each test single-threaded.
# The heavy tests (tests/conftest.py: the big certificates re-verified, the longest searches and
# cross-checks, half a minute to three minutes each) are left out to keep it within ten minutes on 2 cores.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto -m "not heavy"

# The heavy tests alone (about 5 minutes on 2 idle cores).
test-heavy: $(STAMP)
	$(BIN)/python -m pytest -n auto -m heavy

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

# The English central game by moves, forward and backward (George Bell's tables), their JSON and
# plots in results/, and the fewest-moves table shipped in the package (solvers/census/data/, 2.9 MiB):
# about 30 minutes on 2 cores and 1.5 GB of memory; the two full tables (190 MB each) stay in .census-store/.
census-moves: $(STAMP)
	nice -n 10 $(BIN)/python tools/census_moves.py .census-store

# The Power of Two reverse census (the default position) on disk, as far as the free disk allows:
# hours (level 9 alone is built from 124,581,084 parents, about 15 GB on disk). The levels stay in
# .census-deep/ and a second run goes on from the last level stored; the figures go to
# results/census-power-of-two-reverse.json (at any time: tools/census_deep.py --collect).
CENSUS_MEMORY ?= 6GiB
census-deep: $(STAMP)
	nice -n 19 $(BIN)/python tools/census_deep.py .census-deep --memory $(CENSUS_MEMORY)

serve: $(STAMP)
	$(BIN)/powertwo serve

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
