"""``make test`` (``python -m poker_site.launcher test``) runs pytest with bytecode caches written even when the
environment turns them off (``PYTHONDONTWRITEBYTECODE``): otherwise every xdist worker compiles the project and
rewrites the assertions of every test module again on each run (issue 26, docs/test-suite.md); every other variable
reaches pytest unchanged."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from poker_site import launcher


def test_pytest_runs_without_pythondontwritebytecode_and_with_the_rest_of_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs: list[tuple[list[str], dict[str, str]]] = []

    @contextlib.contextmanager
    def services_already_running() -> Iterator[None]:
        monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/set_by_the_services")
        yield

    def run(command: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
        runs.append((command, options["env"]))
        return subprocess.CompletedProcess(command, 3)

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("SOME_SETTING", "kept")
    monkeypatch.setattr(launcher, "embedded_services", services_already_running)
    monkeypatch.setattr(launcher.subprocess, "run", run)

    assert launcher.main(["test", "--", "-q", "tests/foundation"]) == 3

    [(command, environment)] = runs
    assert command[1:] == ["-m", "pytest", "-q", "tests/foundation"]
    assert "PYTHONDONTWRITEBYTECODE" not in environment
    assert environment["SOME_SETTING"] == "kept"
    assert environment["DATABASE_URL"].endswith("/set_by_the_services")
