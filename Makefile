# One command runs the site, one runs the tests. Both start embedded PostgreSQL and Redis
# when DATABASE_URL / REDIS_URL are not set (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint venv clean-var

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m poker_site.launcher run

test: $(STAMP)
	$(BIN)/python -m poker_site.launcher test -- $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	# The Django plugin imports settings, which only parse these URLs; nothing connects.
	DATABASE_URL=$${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/poker} REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:6379/0} \
		$(BIN)/mypy poker_site games tournaments wallet compliance

clean-var:
	rm -rf var/postgres var/redis
