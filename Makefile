# Two commands for a newcomer: `make run` (serve a demo league) and `make test` (the whole suite).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

# Python keeps its compiled modules, and pytest its rewritten test modules, in __pycache__ even
# where the environment says not to (PYTHONDONTWRITEBYTECODE=1): compiling them again on every
# run costs each test worker about six seconds, and each server or command the tests start more.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run serve smoke test install install-test migrate demo lint format typecheck browser node bench clean

$(PY):
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

## Installed again only when pyproject.toml changes (the stamp files say when it last was)
install: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) install --quiet -e .
	@touch $@

install-test: $(VENV)/.installed-test
$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[test]"
	@touch $@ $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py rebuild_standings --missing
	$(PY) manage.py settle_walkovers

demo: migrate
	$(PY) manage.py seed_demo --accounts

## Set up the virtual environment, migrate, load the demo league and serve on http://127.0.0.1:8000
## (the links in the e-mails it prints on the console lead to the same address and port)
run: demo
	SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}" $(PY) manage.py runserver $(HOST):$(PORT)

## The production server: gunicorn with DJANGO_DEBUG=0 and collected, compressed static files.
## Reads PORT, WEB_CONCURRENCY, DATABASE_URL, REDIS_URL, SECRET_KEY, ALLOWED_HOSTS (README).
serve: export DJANGO_DEBUG = 0
serve: install
	$(PY) manage.py check --deploy --fail-level WARNING
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py migrate --noinput
	$(PY) manage.py rebuild_standings --missing
	exec $(VENV)/bin/gunicorn --config config/gunicorn.py config.wsgi

## The production server on PostgreSQL and Redis with the demo, every public page type fetched
## and a hand recorded over HTTP (SMOKE_DATABASE_URL, SMOKE_REDIS_URL: .ci/smoke.py)
smoke: install-test
	$(PY) .ci/smoke.py

## Install what the tests need (Python packages, Debian's chromium) and run the whole suite
## (--dist worksteal: a worker that runs out takes half of another's queue; by plain load
## scheduling the slow browser tests, last in the collection, queued on one worker for a minute
## while the other stood idle)
test: install-test browser node axe
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n auto --dist worksteal

## Debian's chromium for the Playwright tests (Playwright's own browser download cannot work here)
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium; fi; \
	fi

## Node.js runs the browser-side rules in the agreement test (tests/rules/test_rules_js.py)
node:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nodejs npm; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq nodejs npm; fi; \
	fi

## axe-core (pinned in tests/axe/package-lock.json) for the accessibility checks of the browser tests
axe: tests/axe/node_modules/axe-core/axe.min.js

tests/axe/node_modules/axe-core/axe.min.js: tests/axe/package.json tests/axe/package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed for the accessibility tests (Node.js 18 or later)"; exit 1; }
	npm ci --prefix tests/axe --no-audit --no-fund --loglevel=error
	@touch $@

lint:
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format:
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

typecheck:
	$(PY) -m mypy

bench: install-test
	$(PY) bench/hand_entry.py
	$(PY) bench/standings.py
	$(PY) bench/live_night.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache tests/axe/node_modules
