"""FRD-19: ``manage.py compliance_scan`` reads only the files it is given, so it starts no embedded database or Redis
(``COMMANDS_WITHOUT_SERVICES``); malformed PHH makes it exit with status 2, print no flag and write nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from poker_site.embedded import COMMANDS_WITHOUT_SERVICES
from tests.foundation.test_commands_without_a_database_start_no_embedded_server import manage_without_services

pytestmark = pytest.mark.slow


def test_a_scan_of_malformed_phh_starts_no_server_and_exits_with_status_2(tmp_path: Path) -> None:
    assert "compliance_scan" in COMMANDS_WITHOUT_SERVICES
    malformed = tmp_path / "malformed.phh"
    malformed.write_text("variant = 'NT'\nplayers = ['ann', 'bea']\nactions = ['d dh p1 ????']\n")
    completed = manage_without_services(tmp_path / "var", "compliance_scan", str(malformed))
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert str(malformed) in completed.stderr
    assert not (tmp_path / "var" / "postgres").exists(), "no embedded PostgreSQL was started"
    assert not (tmp_path / "var" / "redis").exists(), "no embedded Redis was started"
