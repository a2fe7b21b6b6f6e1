"""TRN-22: a knocked-out player takes the last place of the players who were left. A hand's knock-out commits at its
table, outside the coordinator's lock, so one can land while the coordinator runs: the players still in and those
waiting for a place must be read together, or the knocked-out player is counted twice (seen once as a bots' Sit & Go
for three on the live site that gave the places 1, 2 and 4)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from tests.tournaments.support import START, fresh, register_players, sit_and_go
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import running, tournament_advance, tournaments_advance_all

pytestmark = pytest.mark.django_db


def test_a_knock_out_committed_while_the_coordinator_runs_takes_the_last_place_not_one_below_it(
    monkeypatch: Any,
) -> None:
    tournament = sit_and_go(3)
    register_players(tournament, 3)
    tournaments_advance_all(now=START, randomness=random.Random(1))
    started = fresh(tournament)
    assert started.status == TournamentStatus.RUNNING
    assert started.registration_closed_at is not None
    knocked_out = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).first()
    assert knocked_out is not None

    level_clock = running.level_clock

    def level_clock_while_a_hand_ends(*arguments: Any, **keywords: Any) -> Any:
        # A hand ends at the table meanwhile and knocks a player out: committed while the coordinator is mid-way.
        TournamentEntry.objects.filter(pk=knocked_out.pk, status=EntryStatus.PLAYING).update(
            status=EntryStatus.BUSTED, eliminated_at=START + timedelta(seconds=2), chips_at_hand_start=1_000
        )
        return level_clock(*arguments, **keywords)

    monkeypatch.setattr(running, "level_clock", level_clock_while_a_hand_ends)
    # The coordination an earlier hand's end queued (the Celery task runs exactly this).
    tournament_advance(tournament.pk, now=START + timedelta(seconds=3), randomness=random.Random(2))

    assert TournamentEntry.objects.get(pk=knocked_out.pk).place == 3
