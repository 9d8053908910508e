# Dead Drop: `make run` serves the product, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# `make run HOST=0.0.0.0 PORT=8080`: set on make's command line (not read from the environment,
# where some shells already export a HOST of their own).
HOST := 127.0.0.1
PORT := 8000
# `make test WORKERS=4`: pytest-xdist workers. Much of the suite waits (servers and browsers
# started, processes stopped), so more workers than the cores keep them busy; WORKERS=0 runs
# every test in pytest's own process.
WORKERS := 3

.PHONY: run test lint types imports pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Dead Drop needs Python 3.11 or newer")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/deaddrop serve --host $(HOST) --port $(PORT)

test: lint types imports pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests tools
	$(BIN)/ruff format --check src tests tools
	$(BIN)/python tools/check_sizes.py

types: $(STAMP)
	$(BIN)/mypy

imports: $(STAMP)
	$(BIN)/python tools/check_engine_imports.py

pytest: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) --dist loadfile

bench: $(STAMP)
	$(BIN)/deaddrop station bench tests/scenarios/station

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
