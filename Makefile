# Every target creates .venv itself: a fresh clone needs nothing but Python >= 3.11 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint typecheck unit bench emulator lint-terraform clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

demo: install
	$(BIN)/adk-memory demo

lint: install
	$(BIN)/ruff check adk_memory tests bench agents
	$(BIN)/ruff format --check adk_memory tests bench agents

typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest

test: lint typecheck unit

bench: install
	$(BIN)/python -m bench.run_all

emulator: install
	$(BIN)/adk-memory emulator

# checkov lives in its own venv (.venv-checkov): its pins would fight the package's.
lint-terraform:
	bash scripts/lint_terraform.sh

clean:
	rm -rf $(VENV) .venv-checkov .pytest_cache .mypy_cache .ruff_cache
