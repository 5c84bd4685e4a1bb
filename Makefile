# Partscore: `make run` serves the embedded default with demo data; `make test` runs the checks.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
TEST_ENV := DJANGO_SETTINGS_MODULE=config.test_settings

.PHONY: run test lint migrations-check bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet ".[dev]"
	touch $(VENV)/.installed $@

run: export DEBUG ?= 1
run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py setup_demo --port $(PORT)
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

migrations-check: $(VENV)/.installed-dev
	$(TEST_ENV) $(BIN)/python manage.py check
	$(TEST_ENV) $(BIN)/python manage.py makemigrations --check --dry-run

test: lint migrations-check
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis build *.egg-info
