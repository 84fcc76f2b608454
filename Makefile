PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_DIR ?= .demo-wiki

.PHONY: demo test bench stress screenshots browser-screenshot clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/memkeeper demo $(DEMO_DIR)

# Lint, format and types first (configs: [tool.ruff] and [tool.mypy] in pyproject.toml): a style or type error fails
# before the slower tests run. The suite then runs two workers a core (pytest-xdist; tests/conftest.py says why): the
# Textual snapshot and Pilot tests dominate its time, and a few take half a minute (the whole morning through the
# desk), so an idle worker takes queued tests from a busy one (worksteal) rather than waiting at the end.
test: $(VENV)/.installed-test
	$(BIN)/python -m ruff check .
	$(BIN)/python -m ruff format --check .
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n auto --dist worksteal

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/run.py

# The long crash and contention probes (200 SIGKILLs; 8 writers x 500 captures beside readers). The same probes run
# small in `make test` (tests/core/test_probes.py). Exits 1 when anything is lost, fails or leaves check unclean.
# Then the property tests with fresh random examples (`make test` draws the same ones every run; tests/conftest.py).
PROPERTY_TESTS = tests/core/test_no_silent_merge.py tests/core/test_pagetext.py tests/core/test_pagefmt.py \
	tests/core/test_roundtrip.py tests/core/test_category_patch.py tests/core/test_quiz.py tests/core/test_safety.py
stress: $(VENV)/.installed-test
	$(BIN)/python scripts/stress.py
	MEMKEEPER_HYPOTHESIS=explore $(BIN)/python -m pytest -q -n auto $(PROPERTY_TESTS)

screenshots: $(VENV)/.installed-test
	$(BIN)/python scripts/screenshots.py

# screenshots/browser.png: the desk served by `memkeeper serve`, in Debian's headless chromium (apt-get install chromium).
browser-screenshot: $(VENV)/.installed
	$(BIN)/python scripts/browser_screenshot.py

clean:
	rm -rf $(VENV) $(DEMO_DIR)
