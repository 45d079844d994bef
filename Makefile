# Every target creates .venv itself: a fresh clone needs nothing but Python >= 3.11 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint typecheck unit bench emulator lint-terraform clean

install: $(STAMP)

# pip prints each package as it goes (no --quiet): a first install takes a minute or two.
$(STAMP): pyproject.toml
	@echo "==> creating $(VENV) (once)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade --progress-bar on pip
	@echo "==> installing adk-memory and its dev tools into $(VENV)"
	$(BIN)/python -m pip install --progress-bar on -e ".[dev]"
	touch $(STAMP)
	@echo "==> installed: try 'make demo' or '$(BIN)/adk-memory --help'"

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
