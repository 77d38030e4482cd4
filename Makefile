# Two commands for a newcomer: `make run` (serve a demo league) and `make test` (the whole suite).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-test migrate demo lint format typecheck browser bench clean

$(PY):
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

install: $(PY)
	$(PIP) install --quiet -e .

install-test: $(PY)
	$(PIP) install --quiet -e ".[test]"

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

## Set up the virtual environment, migrate, load the demo league and serve on http://127.0.0.1:8000
run: demo
	$(PY) manage.py runserver $(HOST):$(PORT)

## Install what the tests need (Python packages, Debian's chromium) and run the whole suite
test: install-test browser
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n 2 --dist loadgroup

## Debian's chromium for the Playwright tests (Playwright's own browser download cannot work here)
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium; fi; \
	fi

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

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
