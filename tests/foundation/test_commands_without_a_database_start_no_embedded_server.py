"""``manage.py replay_phh`` and ``uth_rtp`` need no database: with DATABASE_URL and REDIS_URL unset they start no
embedded server, and their stdout is their output alone. A command that does start the embedded servers keeps their
start and stop chatter off its stdout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
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


@pytest.fixture
def variable_directory() -> Iterator[Path]:
    """The commands' ``var/``, outside pytest's temporary directories: the embedded PostgreSQL runs as its own system
    user, which must reach its data directory through every parent, and every pytest session that starts (the suite's
    tests that run pytest in a subprocess) takes the group and other permissions off ``/tmp/pytest-of-<user>`` again.
    A soak run caught one doing so while initdb ran here ("Permission denied" on the new cluster's files)."""
    directory = Path(tempfile.mkdtemp(prefix="poker-command-"))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


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
def test_a_command_with_embedded_servers_keeps_their_chatter_off_stdout(variable_directory: Path) -> None:
    completed = manage_without_services(variable_directory, "check")
    assert completed.returncode == 0, completed.stderr
    assert (variable_directory / "postgres").exists(), "this command did use the embedded servers"
    assert completed.stdout == "System check identified no issues (0 silenced).\n"
