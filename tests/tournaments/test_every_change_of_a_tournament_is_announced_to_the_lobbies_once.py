"""The tournament list pages follow ``tournament_changed`` (LOB-02): every committed change of a tournament is
announced, once per transaction however many times it saved the tournament — staff's too (a cancellation before the
start was not announced: QA found the list unchanged until a reload) — and a coordination that changed nothing
announces nothing (the beat advances every registering tournament every few seconds)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.support import START, player, register_players, scheduled, sit_and_go
from tournaments import realtime as tournament_realtime
from tournaments.services import tournament_advance, tournament_register
from tournaments.services.staff import tournament_cancel

pytestmark = pytest.mark.django_db(transaction=True)  # each service's transaction commits, as on the site


@pytest.fixture
def announced(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The tournaments announced, in order (the notices themselves are not sent in these tests)."""
    calls: list[int] = []
    monkeypatch.setattr(tournament_realtime, "tournament_changed", calls.append)
    return calls


def test_the_registration_that_fills_a_sit_and_go_and_starts_it_is_announced_once(announced: list[int]) -> None:
    tournament = sit_and_go(seats=2, reopens=False)
    register_players(tournament, 1)
    last = player()
    announced.clear()
    tournament_register(last, tournament, now=START)  # it saves the tournament several times: one notice
    assert announced == [tournament.pk]


def test_a_cancellation_by_staff_is_announced(announced: list[int]) -> None:
    tournament = scheduled()
    staff = player()
    announced.clear()
    tournament_cancel(tournament, actor=staff, reason="Not enough interest.", now=START)
    assert announced == [tournament.pk]


def test_a_coordination_that_changes_nothing_announces_nothing_and_a_start_is_announced(announced: list[int]) -> None:
    tournament = scheduled(starts_at=START + timedelta(minutes=30))
    register_players(tournament, 3)
    announced.clear()
    tournament_advance(tournament.pk, now=START + timedelta(minutes=1))  # registering, nothing due
    assert announced == []
    tournament_advance(tournament.pk, now=START + timedelta(minutes=30))  # its start
    assert announced == [tournament.pk]
