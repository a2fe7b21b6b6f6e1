# One command runs the site, one runs the tests. Both start embedded PostgreSQL and Redis
# when DATABASE_URL / REDIS_URL are not set (see README.md).
# A new .venv is made with the distribution's /usr/bin/python3 when it is Python 3.11 or newer with venv (Debian's
# python3.11, built with profile-guided and link-time optimisation and linked statically), else with python3 from the
# PATH (here pyenv's default build, without either): make test-fast used 13 % less CPU on Debian's (issue 26).
# PYTHON=... chooses another; an existing .venv is kept (remove it to make it anew).
SYSTEM_PYTHON := $(shell /usr/bin/python3 -c 'import ensurepip, sys; print(sys.executable if sys.version_info >= (3, 11) else "")' 2>/dev/null)
PYTHON ?= $(or $(SYSTEM_PYTHON),python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast soak-tests lint venv clean-var

# The suite runs in pytest-xdist workers, each with its own test database (cloned from one migrated template) and Redis
# key prefix. One worker per core plus one: the browser and live-site tests spend most of their time waiting on their
# servers and Chromium, so a third worker on two cores keeps them busy. TEST_WORKERS=0 (or ARGS="-n 0") runs serially.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# Whole files go to one worker: a file's tests share its module fixtures, and the browser packages' live site. Files
# are handed out in collection order, where tests/conftest.py puts the long live-site and browser tests first.
XDIST := -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m poker_site.launcher run

test: $(STAMP)
	$(BIN)/python -m poker_site.launcher test -- $(XDIST) $(ARGS)

# The inner loop: everything but the browser and live-site tests (marker ``live``, set in tests/conftest.py).
test-fast: $(STAMP)
	$(BIN)/python -m poker_site.launcher test -- $(XDIST) -m "not live" $(ARGS)

# The whole suite three times in a row, then once beside two CPU hogs; failures reported per run (scripts/soak_tests).
soak-tests: $(STAMP)
	$(BIN)/python scripts/soak_tests.py -- $(XDIST) $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	# The Django plugin imports settings, which only parse these URLs; nothing connects.
	DATABASE_URL=$${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/poker} REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:6379/0} \
		$(BIN)/mypy poker_site games tournaments wallet compliance

clean-var:
	rm -rf var/postgres var/redis
