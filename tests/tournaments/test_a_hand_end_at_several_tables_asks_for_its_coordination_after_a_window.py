"""Issue 27: at a thousand tables some twenty hands end each second, and one coordination deals with every table
waiting for it. A hand end at a tournament of several tables therefore asks for its coordination a short window later
(``TOURNAMENT_COORDINATION_WINDOW_MILLISECONDS``, at most half the pause between hands, so the table deals no later
for it) and the hands that end meanwhile share it (TRN-25 balancing, TRN-22 places); at a single table (a Sit & Go, a
HexaPro game, a final table) there is nothing to share and it is asked for at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings

from tests.tournaments.support import (
    START,
    fold_at_once,
    fresh,
    hand_played,
    open_tables,
    register_players,
    scheduled,
    shove_or_call,
    sit_and_go,
)
from tournaments import table_policy, tasks
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus
from tournaments.services import tournaments_advance_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, float]]:
    requests: list[tuple[int, float]] = []

    def coordinate_soon(tournament_id: int, delay_seconds: float = 0.0) -> None:
        requests.append((tournament_id, delay_seconds))

    monkeypatch.setattr(table_policy, "coordinate_soon", coordinate_soon)
    return requests


def a_hand_ended_at_one_of_two_tables(capture_on_commit_callbacks: Any) -> Tournament:
    """A tournament of two three-seat tables whose first table played a hand that knocked nobody out."""
    tournament = scheduled(table_size=3)
    register_players(tournament, 6)
    assert tournament.starts_at is not None
    tournaments_advance_all(now=tournament.starts_at)
    started = fresh(tournament)
    assert started.tables_running == 2
    with capture_on_commit_callbacks(execute=True):
        hand_played(open_tables(started)[0], tournament.starts_at + timedelta(seconds=10), fold_at_once, seed=1)
    return started


@override_settings(TOURNAMENT_COORDINATION_WINDOW_MILLISECONDS=600)
def test_a_hand_end_at_one_of_several_tables_asks_for_the_coordination_after_the_window(
    asked: list[tuple[int, float]], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = a_hand_ended_at_one_of_two_tables(django_capture_on_commit_callbacks)

    assert asked == [(tournament.pk, 0.6)]


@override_settings(TOURNAMENT_COORDINATION_WINDOW_MILLISECONDS=5_000)
def test_the_window_is_at_most_half_the_pause_between_hands_so_no_table_deals_later_for_it(
    asked: list[tuple[int, float]], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = a_hand_ended_at_one_of_two_tables(django_capture_on_commit_callbacks)

    pause = tournament.pause_between_hands_milliseconds
    assert pause // 2 < 5_000
    assert asked == [(tournament.pk, pause // 2 / 1000)]


@override_settings(TOURNAMENT_COORDINATION_WINDOW_MILLISECONDS=600)
def test_a_knock_out_at_a_single_table_asks_for_the_coordination_at_once(
    asked: list[tuple[int, float]], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = sit_and_go(2)
    register_players(tournament, 2)
    assert fresh(tournament).status == TournamentStatus.RUNNING
    (table,) = open_tables(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        hand_played(table, START + timedelta(seconds=10), shove_or_call, seed=3)

    assert TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).count() == 1
    assert asked == [(tournament.pk, 0.0)]


def test_the_coordination_is_queued_with_the_delay_asked_for_and_once_per_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.conftest import delete_redis_keys_of_this_run

    delete_redis_keys_of_this_run()
    monkeypatch.undo()  # the conftest replaced tournament_coordinate_later; this test checks the real one
    queued: list[tuple[tuple[int], float | None]] = []

    def apply_async(arguments: tuple[int], countdown: float | None = None) -> None:
        queued.append((arguments, countdown))

    monkeypatch.setattr(tasks.tournament_coordinate, "apply_async", apply_async)
    tasks.tournament_coordinate_later(11, 0.6)
    tasks.tournament_coordinate_later(11, 0.6)  # a hand ending within the window shares the one queued
    tasks.tournament_coordinate_later(12)
    assert queued == [((11,), 0.6), ((12,), None)]
    delete_redis_keys_of_this_run()
