# Two commands do everything on a fresh machine:
#   make lab   -- create .venv (if needed), install the course, open it in JupyterLab
#   make test  -- create .venv (if needed), install the course, run every test
# `make help` lists every target. Each one installs .venv first when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The side environment with real TensorFlow (never a course dependency), for `make test-tf`.
VENV_TF := .venv-tf
STAMP_TF := $(VENV_TF)/.installed
# Notebooks for `make notebooks` and `make test-tf`: all of them unless NB= names some.
NB ?=
LINTED := .  # everything ruff reads: the package, tests, notebooks, tools, and the Python in the Markdown

.PHONY: help lab test test-tf bench notebooks lint site
.DEFAULT_GOAL := help

help: ## list the targets
	@echo "make <target>, where <target> is one of:"
	@awk -F ':.*## ' '/^[a-z-]+:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.txt site/requirements.txt pyproject.toml binder/overrides.json binder/postBuild
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	PATH="$(abspath $(BIN)):$$PATH" binder/postBuild   # the course's JupyterLab settings
	touch $(STAMP)

$(STAMP_TF): requirements-tf.txt
	$(PYTHON) -m venv $(VENV_TF)
	$(VENV_TF)/bin/python -m pip install --quiet --upgrade pip
	$(VENV_TF)/bin/python -m pip install --quiet -r requirements-tf.txt
	touch $(STAMP_TF)

# JupyterLab refuses to start as root unless told to (containers and CI run as root).
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--ServerApp.allow_root=True)

# The learner's edition (tools/learner_edition.py): the notebooks with each prediction's answer
# removed until the learner runs its cell; a copy that already exists is kept as the learner left it.
lab: $(STAMP) ## open the course in JupyterLab (learner/00_index.ipynb, the learner's edition)
	$(BIN)/python tools/learner_edition.py
	$(BIN)/jupyter lab $(LAB_FLAGS) learner/00_index.ipynb

# A notebook's outputs must not depend on the BLAS kernel: `make test` runs the notebooks a second
# time with another OpenBLAS kernel forced (x86-64 only: elsewhere the variable means nothing).
OTHER_BLAS := $(if $(filter x86_64 amd64,$(shell uname -m)),OPENBLAS_CORETYPE=Prescott)

test: $(STAMP) ## lint (ruff, fast, first), then every test: unit, notebooks (nbval, twice on x86-64), Binder, browser, the web edition, the course on TF
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/python -m pytest
	$(if $(OTHER_BLAS),$(OTHER_BLAS) $(BIN)/python -m pytest -p no:cacheprovider notebooks)
	$(MAKE) test-tf

# The course on real TensorFlow (tests/course_on_tf/run.py): every notebook with `import minitape
# as tf` swapped for TF's import, each cell's printed output compared with the committed one.
test-tf: $(STAMP_TF) ## run the notebooks on real TensorFlow 2.21 in .venv-tf, compare their printed output (one: NB=...)
	$(VENV_TF)/bin/python tests/course_on_tf/run.py $(NB)

site: $(STAMP) ## build the web edition of the course into build/site/ (open build/site/index.html)
	$(BIN)/python tools/build_site.py

bench: $(STAMP) ## time minitape against numpy and its peers (benchmarks/README.md)
	$(BIN)/python benchmarks/run.py

notebooks: $(STAMP) ## re-execute the notebooks in place (one: NB=notebooks/05_higher_order.ipynb)
	$(BIN)/python tools/execute_notebooks.py $(NB)

lint: $(STAMP) ## ruff check and ruff format --check: reports, changes nothing
	$(BIN)/ruff check $(LINTED); status=$$?; \
	$(BIN)/ruff format --check $(LINTED) && exit $$status
