"""The beat's sweep (``tournaments_advance_all``, architecture rule 5: levels, breaks and starts advanced by idempotent
beat work; TRN-02 levels, TRN-30 breaks, TRN-04 the first deal) moves a running tournament on only when something
fell due: its level's end, a break, the first deal, a change made through the services, a table waiting after a hand
(a coordination its hand end queued and that was lost), or the safety interval. Between those moments a running
tournament costs the beat nothing (issue 27: a locked coordination of every running Sit & Go each tick was most of
the Celery worker's CPU at 100 tables)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.support import START, fresh, register_players, scheduled, sit_and_go
from tournaments.models import Tournament, TournamentStatus, TournamentTable
from tournaments.services import tournaments_advance_all
from tournaments.services.running import COORDINATION_AT_LEAST_EVERY, FIRST_DEAL_DELAY, coordination_due
from tournaments.services.staff import tournament_pause, tournament_resume

pytestmark = pytest.mark.django_db


def started_sit_and_go() -> Tournament:
    """A three-seat Sit & Go started at ``START`` (the last registration starts it) and coordinated once since."""
    tournament = sit_and_go(3)
    register_players(tournament, 3)
    started = fresh(tournament)
    assert started.status == TournamentStatus.RUNNING
    assert started.started_at == START
    assert tournaments_advance_all(now=START + timedelta(seconds=1))["looked_at"] == 1
    return fresh(started)


def looked_at(moment: datetime) -> int:
    return int(tournaments_advance_all(now=moment)["looked_at"])


def test_a_running_tournament_is_left_alone_until_its_first_deal_falls_due() -> None:
    tournament = started_sit_and_go()
    first_deal = START + FIRST_DEAL_DELAY
    assert tournament.coordination_due_at == first_deal

    assert looked_at(START + timedelta(seconds=2)) == 0
    assert looked_at(first_deal - timedelta(milliseconds=1)) == 0
    assert looked_at(first_deal) == 1


def test_after_the_first_deal_the_tournament_is_looked_at_again_within_the_safety_interval() -> None:
    started_sit_and_go()
    first_deal = START + FIRST_DEAL_DELAY
    assert looked_at(first_deal) == 1

    assert looked_at(first_deal + COORDINATION_AT_LEAST_EVERY - timedelta(milliseconds=1)) == 0
    assert looked_at(first_deal + COORDINATION_AT_LEAST_EVERY) == 1


def test_a_table_waiting_after_its_hand_is_looked_at_by_the_next_sweep() -> None:
    tournament = started_sit_and_go()
    # What a hand's end leaves when the coordination it queued never ran (a lost task, a worker that died).
    TournamentTable.objects.filter(tournament=tournament).update(needs_coordination=True)

    assert looked_at(START + timedelta(seconds=2)) == 1
    assert not TournamentTable.objects.filter(tournament=tournament, needs_coordination=True).exists()
    assert looked_at(START + timedelta(seconds=3)) == 0


def test_a_change_through_the_services_is_looked_at_by_the_next_sweep() -> None:
    tournament = started_sit_and_go()
    staff = get_user_model().objects.create_user(username="floor", password="x", is_staff=True)
    tournament_pause(tournament, actor=staff, reason="network trouble", now=START + timedelta(seconds=2))
    assert fresh(tournament).coordination_due_at is None
    assert looked_at(START + timedelta(seconds=3)) == 1

    tournament_resume(tournament, actor=staff, reason="fixed", now=START + timedelta(seconds=4))
    assert looked_at(START + timedelta(seconds=5)) == 1
    assert looked_at(START + timedelta(seconds=6)) == 0


def test_a_level_end_is_due_and_the_sweep_at_it_records_the_next_level() -> None:
    tournament = started_sit_and_go()
    level_end = tournament.level_ends_at
    assert level_end == START + timedelta(seconds=300)  # QUICK_LEVELS: 300 s a level
    moment = level_end - COORDINATION_AT_LEAST_EVERY / 2
    assert looked_at(moment) == 1  # the safety interval
    assert fresh(tournament).coordination_due_at == level_end
    assert looked_at(level_end - timedelta(milliseconds=1)) == 0

    assert looked_at(level_end) == 1
    assert fresh(tournament).level_number == 2


def test_tournaments_not_started_are_looked_at_every_sweep() -> None:
    """Registration opening, scheduled starts and cancellations for want of players are checked every tick."""
    tournament = scheduled()
    register_players(tournament, 1)
    assert looked_at(START + timedelta(seconds=1)) == 1
    assert looked_at(START + timedelta(seconds=2)) == 1
    assert fresh(tournament).status == TournamentStatus.REGISTERING


def test_the_due_moment_is_the_earliest_of_the_clocks_and_never_in_the_past() -> None:
    now = START + timedelta(minutes=30)
    tournament = Tournament(started_at=START, level_ends_at=now + timedelta(seconds=40))
    assert coordination_due(tournament, now) == now + COORDINATION_AT_LEAST_EVERY

    tournament.level_ends_at = now + timedelta(seconds=3)
    assert coordination_due(tournament, now) == now + timedelta(seconds=3)

    tournament.break_due_at = now + timedelta(seconds=2)  # TRN-30: a break falling due, tables stop dealing then
    assert coordination_due(tournament, now) == now + timedelta(seconds=2)

    tournament.break_due_at = now - timedelta(seconds=5)  # due already, tables finishing their hands: every sweep
    assert coordination_due(tournament, now) == now

    tournament.break_due_at = None
    tournament.break_ends_at = now + timedelta(seconds=1)  # a break ending: the tables are woken
    assert coordination_due(tournament, now) == now + timedelta(seconds=1)
