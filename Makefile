# Partscore: `make run` serves the embedded default with demo data; `make test` runs the checks.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
TEST_ENV := DJANGO_SETTINGS_MODULE=config.test_settings

.PHONY: run test lint typecheck migrations-check lock bench clean messages compilemessages docs

# Translations: the four catalogs under locale/ (English is the source language). The ignore
# list is the one tests/web/test_catalogs.py uses to find strings missing from the catalogs.
LOCALES := el pl es nl
MESSAGES_IGNORE := bench tests build docs var staticfiles node_modules docker

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installed from the locks (every package of the tree, pinned, with its hashes), with plain pip;
# reinstalled only when a lock changes. requirements-dev.txt holds the runtime lock's pins too.
$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.txt
	touch $(VENV)/.installed $@

# The locks, compiled from pyproject.toml's dependencies by uv (from PyPI, into the venv) for
# every platform and Python the project supports. A pin moves only when a range no longer
# allows it; `make lock UPGRADE=1` takes the newest versions the ranges allow.
LOCK := $(BIN)/uv pip compile --quiet --universal --generate-hashes \
	--custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) pyproject.toml
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv
	$(LOCK) -o requirements.txt
	$(LOCK) --extra dev --constraint requirements.txt -o requirements-dev.txt

# Local settings for manage.py, written once and git-ignored: DEBUG on and a random SECRET_KEY,
# so that `.venv/bin/python manage.py createsuperuser` (or any command) works as typed.
.env:
	$(PYTHON) -c 'import secrets; open(".env", "x").write(f"DEBUG=1\nSECRET_KEY={secrets.token_urlsafe(50)}\n")'

run: export DEBUG ?= 1
run: $(VENV)/.installed .env compilemessages
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py setup_demo --port $(PORT)
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# pyproject.toml's [tool.mypy]: strict over every app, but for a list of exceptions that only shrinks.
typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

migrations-check: $(VENV)/.installed-dev
	$(TEST_ENV) $(BIN)/python manage.py check
	$(TEST_ENV) $(BIN)/python manage.py makemigrations --check --dry-run

# Update the catalogs with every marked string (then translate what is new in each).
# gettext wraps at 79 columns; the catalogs are kept at 100 (polib) without the empty bug-report
# header, so a run shows only real changes.
messages: $(VENV)/.installed-dev
	$(TEST_ENV) $(BIN)/python manage.py makemessages --add-location=file --no-obsolete \
		$(addprefix -l ,$(LOCALES)) $(addprefix --ignore=,$(MESSAGES_IGNORE))
	$(BIN)/python -c "import glob, polib; \
		pos = [polib.pofile(f, wrapwidth=100) for f in glob.glob('locale/*/LC_MESSAGES/django.po')]; \
		[(po.metadata.pop('Report-Msgid-Bugs-To', None), po.save()) for po in pos]"

# The compiled catalogs (.mo) are build output, not in git. Compiled in Python (polib), so
# `make run` and `make test` need no GNU gettext; only `make messages` does.
compilemessages: $(VENV)/.installed
	$(TEST_ENV) $(BIN)/python manage.py compile_catalogs

# The suite runs in one worker per core (pytest-xdist), a test file at a time per worker (its
# module fixtures built once); each worker has its own test database and Redis database
# (config/test_settings.py). `pytest tests/...` alone runs in one process, and so does
# `make test PYTEST_WORKERS=0`.
PYTEST_WORKERS ?= auto
test: lint typecheck migrations-check compilemessages docs
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile

# The documentation site (mkdocs.yml, docs/) into build/site/, git-ignored. Strict: a broken
# link, a missing anchor or a page left out of the navigation fails it, and so `make test`.
docs: $(VENV)/.installed-dev
	$(BIN)/mkdocs build --strict --site-dir build/site

# Benchmarks, not part of `make test` (bench/README.md): PostgreSQL on 127.0.0.1:5432 holds
# the 1,000,000-deal history (generated into BENCH_DATABASE_URL once, then reused); the API,
# query-count and fault benchmarks start their own Redis, gunicorn and Celery processes on
# 127.0.0.1 and install wrk from Debian if it is missing; the slow-client one starts gunicorn
# behind nginx (from Debian, needed); the busy night its own database. About 30 minutes.
BENCH_DATABASE_URL ?= postgresql://postgres@127.0.0.1:5432/partscore_bench
bench: $(VENV)/.installed
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/movements.py
	$(BIN)/python bench/common.py ensure-history --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/ladder.py --reuse --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/query_counts.py --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/query_counts.py --database sqlite --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/api_load.py --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/pages.py --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/player_statistics.py --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/exports.py --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/night_prints.py
	$(BIN)/python bench/night.py
	$(BIN)/python bench/polls.py
	$(BIN)/python bench/nightly.py
	$(BIN)/python bench/history_import.py --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/faults.py --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python bench/slow_clients.py

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .mypy_cache .hypothesis build *.egg-info
