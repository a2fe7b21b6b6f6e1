"""Celery runs the tournaments' clocks and payouts (the product card): the beat task and the payout task are idempotent,
so a task run twice, or killed part-way and run again, leaves the same state; a worker restart loses nothing because
every deadline is a row in PostgreSQL (architecture rule 5)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings

from games.models import Seat, Table
from poker_site.celery import app
from tests.tournaments.support import START, fresh, play, register_players, scheduled, sit_and_go
from tournaments import tasks
from tournaments.models import Tournament, TournamentEntry, TournamentTable
from tournaments.services import running, tournaments_advance_all
from wallet.models import Transfer

pytestmark = pytest.mark.django_db


def state_of(tournament: Tournament) -> dict[str, Any]:
    """Everything a coordination may change, read back from the database."""
    current = fresh(tournament)
    return {
        "tournament": {
            field: getattr(current, field)
            for field in (
                "status",
                "registration_closed_at",
                "prize_pool",
                "prizes",
                "players_remaining",
                "tables_running",
                "hand_for_hand",
                "hand_for_hand_round",
                "break_due_at",
                "break_ends_at",
                "level_number",
            )
        },
        "entries": sorted(
            TournamentEntry.objects.filter(tournament=tournament).values_list(
                "pk", "status", "place", "prize", "table_id"
            )
        ),
        "seats": sorted(
            Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False).values_list(
                "table_id", "number", "user_id", "chips"
            )
        ),
        "tables": sorted(
            TournamentTable.objects.filter(tournament=tournament).values_list("pk", "players", "broken_at")
        ),
        "transfers": Transfer.objects.count(),
    }


def test_the_beat_schedule_runs_the_advance_task_every_few_seconds() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-advance"]
    assert entry["task"] == "tournaments.tasks.tournaments_advance"
    assert entry["schedule"] <= 5
    assert "tournaments.tasks.tournaments_advance" in app.tasks
    assert "tournaments.tasks.entry_prize_credit" in app.tasks


def test_the_advance_task_run_twice_at_the_same_moment_changes_nothing_the_second_time(monkeypatch: Any) -> None:
    tournament = scheduled(starts_at=START + timedelta(minutes=30), table_size=6)
    register_players(tournament, 13)
    moment = START + timedelta(minutes=30)
    monkeypatch.setattr(running.timezone, "now", lambda: moment)
    tasks.tournaments_advance.apply()
    after_first = state_of(tournament)
    tasks.tournaments_advance.apply()
    assert state_of(tournament) == after_first
    assert after_first["tournament"]["status"] == "running"


def test_a_coordination_killed_part_way_leaves_nothing_behind_and_runs_again(monkeypatch: Any) -> None:
    tournament = scheduled(starts_at=START + timedelta(minutes=30), table_size=3)
    register_players(tournament, 9)
    started = START + timedelta(minutes=30)
    # Play until a table must be broken or balanced, then stop before that coordination.
    play(tournament, start=started, until=lambda current: current.players_remaining <= 6)
    before = state_of(tournament)

    def killed(*args: Any, **kwargs: Any) -> None:
        raise SystemExit("the worker was killed")

    monkeypatch.setattr(running, "_level_update", killed)
    with pytest.raises(SystemExit):
        running.tournament_advance(tournament.pk, now=started + timedelta(hours=1))
    assert state_of(tournament) == before
    monkeypatch.undo()
    running.tournament_advance(tournament.pk, now=started + timedelta(hours=1))
    again = state_of(tournament)
    assert running.tournament_advance(tournament.pk, now=started + timedelta(hours=1)).changed is False
    assert state_of(tournament) == again


def test_a_prize_credit_task_run_twice_pays_once_trn_27() -> None:
    tournament = sit_and_go(seats=2)
    register_players(tournament, 2)
    play(tournament, until=lambda current: current.status == "finished")
    winner = TournamentEntry.objects.get(tournament=tournament, place=1)
    transfers = Transfer.objects.count()
    assert tasks.entry_prize_credit.apply(args=[winner.pk]).result is False  # already paid by the sweep
    assert Transfer.objects.count() == transfers
    assert Transfer.objects.filter(idempotency_key=f"tournament-entry:{winner.pk}:prize").count() == 1


def test_a_prize_left_unpaid_by_a_dead_worker_is_paid_by_the_next_beat(monkeypatch: Any) -> None:
    tournament = sit_and_go(seats=2)
    register_players(tournament, 2)
    never_queued: list[int] = []  # the worker that would have paid died before it ran the task
    monkeypatch.setattr(running, "_prize_credit_after_commit", lambda entry: never_queued.append(entry.pk))
    play(tournament, until=lambda current: current.status == "finished")
    winner = TournamentEntry.objects.get(tournament=tournament, place=1)
    assert winner.pk in never_queued
    assert winner.prize_transfer is not None  # the beat's sweep paid it
    assert tournaments_advance_all()["prizes_paid"] == 0
    assert Table.objects.filter(tournament_link__tournament=tournament, status="open").count() == 0


def test_hand_ends_queue_one_coordination_at_a_time(monkeypatch: Any) -> None:
    """At a thousand tables some thirty hands end each second: one queued coordination serves them all, and the next
    is queued only once it has started (a Redis flag the task clears)."""
    from tests.conftest import delete_redis_keys_of_this_run

    delete_redis_keys_of_this_run()
    monkeypatch.undo()  # the conftest replaced tournament_coordinate_later; this test checks the real one
    queued: list[int] = []

    def apply_async(arguments: tuple[int], countdown: float | None = None) -> None:
        queued.append(arguments[0])

    monkeypatch.setattr(tasks.tournament_coordinate, "apply_async", apply_async)
    for _ in range(30):
        tasks.tournament_coordinate_later(7, 1.0)
    assert queued == [7]
    from tournaments import services

    monkeypatch.setattr(services, "tournament_advance", lambda tournament_id: running.Step())
    tasks.tournament_coordinate.run(7)
    tasks.tournament_coordinate_later(7)
    assert queued == [7, 7]
    delete_redis_keys_of_this_run()
