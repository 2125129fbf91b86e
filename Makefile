# Two commands on a fresh machine: `make run` and `make test`; `make check` while working.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
ARGS ?=

.PHONY: run install check test bench lint docs screenshots clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Stamps re-run pip only when pyproject.toml changes.
$(VENV)/.runtime: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@ $(VENV)/.runtime

# LOG may hold spaces (the Train at Home folder does): make run LOG="$$HOME/Library/Logs/IOTA Train at Home/"
run: $(VENV)/.runtime
	$(VENV)/bin/tokwatch --open $(if $(LOG),--log "$(LOG)") $(ARGS)

# Installs the `tokwatch` command into .venv/bin without running it.
install: $(VENV)/.runtime

# The pure core and the in-process integration, in under a minute: no browser, no server or
# process of its own or started by the app, nothing measured slow (tests/tiers.py gives each test its tier).
check: $(VENV)/.test
	$(PY) -m pytest -q -m "not browser and not socket and not slow"

# Everything, with Chromium and Prometheus: before stopping, and in CI.
test: $(VENV)/.test
	$(PY) -m pytest -q

lint: $(VENV)/.test
	$(PY) -m ruff check app tests bench run.py
	$(PY) -m mypy

# docs/usage.md's options tables, written from the command's parser (tests/test_docs.py checks them).
docs: $(VENV)/.test
	$(PY) -m tests.docs_options --write

# The bench's own peers (TensorBoard), from PyPI, beside the test tools.
$(VENV)/.bench: pyproject.toml $(VENV)/.test
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,bench]'
	touch $@

bench: $(VENV)/.bench
	$(PY) -m bench $(ARGS)

# The README's and docs' pictures, taken by the browser tests from composed logs in a real
# Chromium: a miner (the DEMO log), the fleet, a machine's page, a trainer, a queued miner, a night
# on the long chart, runs and machines side by side.
screenshots: $(VENV)/.test
	$(PY) -m pytest -q tests/web/test_browser.py -k phone_layout
	$(PY) -m pytest -q tests/web/test_trainer_chart.py tests/web/test_miner_charts.py -k "whole_run or queued"
	$(PY) -m pytest -q tests/hub/test_fleet_page.py tests/hub/test_machine_history.py -k "phone_and_a_desktop or charts_the_history"
	$(PY) -m pytest -q tests/web/test_miner_charts.py -k idle_and_silence_are_told_apart
	$(PY) -m pytest -q tests/web/test_compare_page.py tests/hub/test_machine_compare.py
	cp test-artifacts/desktop-dark.png docs/screenshot-desktop.png
	cp test-artifacts/phone-light.png docs/screenshot-phone.png
	cp test-artifacts/fleet-desktop-light.png docs/screenshot-fleet.png
	cp test-artifacts/machine-history-desktop-light.png docs/screenshot-machine.png
	cp test-artifacts/trainer-desktop-light.png docs/screenshot-trainer.png
	cp test-artifacts/queued-phone-light.png docs/screenshot-queued.png
	cp test-artifacts/night-desktop-dark.png docs/screenshot-night.png
	for shot in compare-desktop-light compare-desktop-dark compare-phone-light compare-phone-dark \
	    compare-weeks-phone-light compare-weeks-desktop-dark compare-machines-phone-light compare-machines-desktop-dark; do \
	  cp test-artifacts/$$shot.png docs/screenshot-$$shot.png; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache test-artifacts bench/out *.egg-info
