# The two commands of README.md: `make run` and `make test`.
# The virtual environment is bootstrapped on first use and re-installed when pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-slow lemmas reference hunt campaign bench quick clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/olr-verify run

quick: $(STAMP)
	$(BIN)/olr-verify run --quick --out reports/quick

# two workers (pytest-xdist), one test file per worker: a module's fixtures (the quick run of every check) run once
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

lemmas: $(STAMP)
	$(BIN)/python -m pytest -m lemmas

reference: $(STAMP)
	$(BIN)/python -m pytest -m reference

hunt: $(STAMP)
	$(BIN)/python -m pytest -m hunt_long

campaign: $(STAMP)
	$(BIN)/olr-verify hunt --budget 10m

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) reports/quick

# Mutation testing of algorithms/ (mutmut, in a scratch copy of the tree; ~30 min on 2 busy cores): prints the score.
.PHONY: mutation
mutation: $(STAMP)
	$(BIN)/python benchmarks/mutation.py
