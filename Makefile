# Two commands do everything on a fresh machine:
#   make lab   -- create .venv (if needed), install the course, open it in JupyterLab
#   make test  -- create .venv (if needed), install the course, run every test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test bench

$(STAMP): requirements.txt pyproject.toml binder/overrides.json binder/postBuild
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	PATH="$(abspath $(BIN)):$$PATH" binder/postBuild   # the course's JupyterLab settings
	touch $(STAMP)

# JupyterLab refuses to start as root unless told to (containers and CI run as root).
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--ServerApp.allow_root=True)

lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_FLAGS) notebooks/00_index.ipynb

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
