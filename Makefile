# Quick start: `make run` and `make test` work on a fresh machine with Python 3.11.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast mutate bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(VENV)/bin/python pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m companion

# One test process per core (pytest-xdist); a module whose tests share one app run stays in one process
# (tests/conftest.py). WORKERS=0 runs them all in this process, e.g. to read one failure in order.
WORKERS ?= auto
XDIST   := $(if $(filter 0,$(WORKERS)),,-n $(WORKERS) --dist loadgroup)

# UI tests need a screen: start Xvfb ourselves when there is none.
test: $(STAMP)
	@if [ -z "$$DISPLAY" ] && command -v xvfb-run >/dev/null; then \
		xvfb-run -a -s "-screen 0 1280x800x24" $(PY) -m pytest $(XDIST) $(PYTEST_ARGS); \
	else \
		$(PY) -m pytest $(XDIST) $(PYTEST_ARGS); \
	fi

# Everything but the tests marked slow (the kill test): the suite to run while working.
test-fast: $(STAMP)
	@$(MAKE) --no-print-directory test PYTEST_ARGS='-m "not slow" $(PYTEST_ARGS)'

# A sampled mutation pass over the pure modules (bench/mutate.py, docs/testing.md): the score per package.
mutate: $(STAMP)
	nice -n 10 $(PY) bench/mutate.py $(MUTATE_ARGS)

bench: $(STAMP)
	@for b in bench/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info mutants
