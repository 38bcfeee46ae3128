# Quick start: `make play` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
# The torch requirement installed first. Pin a CPU build here (CI does): a bare
# `torch` from PyPI is a multi-GB CUDA build. `make TORCH=torch` for the default.
TORCH ?= torch==2.13.0
BIN := $(VENV)/bin

.PHONY: play test install dev bench clean wheel-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q "$(TORCH)"
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed pyproject.toml
	$(BIN)/pip install -q "$(TORCH)" -e ".[dev]"
	touch $@

install: $(VENV)/.installed

dev: $(VENV)/.installed-dev

play: install
	$(BIN)/gammon play

test: dev
	$(BIN)/python -m pytest

# Build the wheel, install it in a fresh virtual environment outside the
# checkout and run play, eval and train from it (needs the package registry).
wheel-check:
	PYTHON="$(PYTHON)" TORCH="$(TORCH)" .ci/wheel-check

bench: dev
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build *.egg-info
