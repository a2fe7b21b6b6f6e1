"""``manage.py run_bots --tournament ID``: bots register for a Sit & Go, find the table the tournament gives them,
play it over the real sockets, and the winner is paid by the Celery worker (TRN-35, TRN-27)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import pytest
from django.conf import settings

from tests.browser.conftest import PROJECT
from tests.conftest import site_database_url
from tournaments.models import Tournament, TournamentEntry, TournamentKind, TournamentStatus
from tournaments.rules.levels import structure_from_rows
from tournaments.services.catalog import tournament_create

pytestmark = [pytest.mark.slow]

QUICK = structure_from_rows("bots", 300, [(10, 20, 0), (25, 50, 0), (50, 100, 0), (100, 200, 0)], 15)


def test_bots_register_play_and_finish_a_sit_and_go(site: Any) -> None:
    tournament = tournament_create(
        name="Bots' Sit & Go",
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=3,
        table_size=3,
        buy_in=100,
        fee=10,
        structure=QUICK,
        pause_between_hands_milliseconds=500,
    )
    environment = {
        **os.environ,
        "DATABASE_URL": site_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "REDIS_KEY_PREFIX": settings.REDIS_KEY_PREFIX,
        "ENVIRONMENT": "test",
    }
    completed = subprocess.run(
        [
            sys.executable,
            str(PROJECT / "manage.py"),
            "run_bots",
            "--tournament",
            str(tournament.pk),
            "--bots",
            "3",
            "--duration",
            "240",
            "--think",
            "0.05",
            "0.2",
            "--login",
            "session",
            "--prefix",
            "sngbot",
            "--base-url",
            site.url,
        ],
        cwd=PROJECT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    summary = json.loads(completed.stdout.strip().splitlines()[-1])
    assert summary["tournament"] == tournament.pk
    assert summary["actions"] > 0
    finished = Tournament.objects.get(pk=tournament.pk)
    assert finished.status == TournamentStatus.FINISHED
    entries = TournamentEntry.objects.filter(tournament=tournament)
    assert sorted(entries.values_list("place", flat=True)) == [1, 2, 3]
    winner = entries.get(place=1)
    assert winner.prize == 300
    for _ in range(60):  # the Celery worker credits the prize (TRN-27)
        winner.refresh_from_db()
        if winner.prize_transfer_id is not None:
            break
        time.sleep(0.5)
    assert winner.prize_transfer_id is not None
