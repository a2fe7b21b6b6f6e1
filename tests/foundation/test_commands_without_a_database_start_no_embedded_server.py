"""``manage.py replay_phh`` and ``uth_rtp`` need no database: with DATABASE_URL and REDIS_URL unset they start no
embedded server, and their stdout is their output alone. A command that does start the embedded servers keeps their
start and stop chatter off its stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from poker_site.embedded import COMMANDS_WITHOUT_SERVICES, PROJECT_DIRECTORY

FIXTURE = "tests/engine/fixtures/engine_exported.phhs"


def manage_without_services(variable_directory: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {name: value for name, value in os.environ.items() if name not in {"DATABASE_URL", "REDIS_URL"}}
    environment["POKER_VAR_DIR"] = str(variable_directory)
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=PROJECT_DIRECTORY,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_replay_phh_starts_no_server_and_prints_only_json_lines(tmp_path: Path) -> None:
    assert {"replay_phh", "uth_rtp"} <= COMMANDS_WITHOUT_SERVICES
    completed = manage_without_services(tmp_path, "replay_phh", FIXTURE)
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines, "the hands were replayed"
    assert all(json.loads(line)["file"] == FIXTURE for line in lines)
    assert not (tmp_path / "postgres").exists(), "no embedded PostgreSQL was started"
    assert not (tmp_path / "redis").exists(), "no embedded Redis was started"


@pytest.mark.slow
def test_a_command_with_embedded_servers_keeps_their_chatter_off_stdout(tmp_path: Path) -> None:
    completed = manage_without_services(tmp_path, "check")
    assert completed.returncode == 0, completed.stderr
    assert (tmp_path / "postgres").exists(), "this command did use the embedded servers"
    assert completed.stdout == "System check identified no issues (0 silenced).\n"
