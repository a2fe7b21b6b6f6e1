"""Synchronized breaks in a running tournament (TRN-30, AMB-41): due at :55, taken once every table finished its hand,
level clocks stopped for the break, no break in the first level; and a player moved to another table cannot act at
the one they left (TRN-25, TRN-26)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Hand, HandEvent
from games.services import NotSeated, hand_act, hand_start
from tests.tournaments.support import fresh, open_tables, play, register_players, scheduled
from tournaments.models import TournamentBreak
from tournaments.rules.levels import structure_from_rows
from tournaments.services import tournaments_advance_all

pytestmark = pytest.mark.django_db

LONG_LEVELS = structure_from_rows("long", 100_000, [(10, 20, 0), (20, 40, 0), (30, 60, 0), (40, 80, 0)], 15 * 60)


def folding(state, seat):  # type: ignore[no-untyped-def]
    legal = state.legal_actions()
    return ("check", None) if "check" in legal.kinds else ("fold", None)


def test_a_synchronized_break_starts_at_55_once_every_table_finished_its_hand_trn_30() -> None:
    starts = datetime(2026, 3, 2, 7, 25, tzinfo=UTC)
    tournament = scheduled(starts_at=starts, synchronized_breaks=True, table_size=3, structure=LONG_LEVELS)
    register_players(tournament, 6, now=starts - timedelta(hours=1))
    play(
        tournament,
        start=starts,
        step=timedelta(seconds=20),
        policy=folding,
        until=lambda current: current.break_ends_at is not None,
    )
    (pause,) = TournamentBreak.objects.filter(tournament=tournament)
    assert pause.started_at >= datetime(2026, 3, 2, 7, 55, tzinfo=UTC)
    assert pause.ends_at - pause.started_at == timedelta(minutes=5)
    # No hand was dealt from the moment the break fell due until it ended.
    hands = Hand.objects.filter(table__tournament_link__tournament=tournament)
    assert not hands.filter(
        started_at__gte=datetime(2026, 3, 2, 7, 55, tzinfo=UTC), started_at__lt=pause.ends_at
    ).exists()
    # The level clock stood still: level 3 (the level current at 07:55) ends the break's length later.
    current = fresh(tournament)
    assert current.break_due_at == datetime(2026, 3, 2, 8, 55, tzinfo=UTC)


def test_a_tournament_still_in_its_first_level_at_55_takes_no_break_then_trn_30() -> None:
    starts = datetime(2026, 3, 2, 7, 50, tzinfo=UTC)
    ten_minutes = structure_from_rows("ten", 100_000, [(10, 20, 0), (20, 40, 0)], 10 * 60)
    tournament = scheduled(starts_at=starts, synchronized_breaks=True, table_size=3, structure=ten_minutes)
    register_players(tournament, 3, now=starts - timedelta(hours=1))
    tournaments_advance_all(now=starts)
    assert fresh(tournament).break_due_at == datetime(2026, 3, 2, 8, 55, tzinfo=UTC)


def test_a_player_moved_to_another_table_cannot_act_at_the_one_they_left_trn_26() -> None:
    tournament = scheduled(table_size=3)
    register_players(tournament, 7)
    assert tournament.starts_at is not None
    play(
        tournament,
        start=tournament.starts_at,
        until=lambda current: HandEvent.objects.filter(
            table__tournament_link__tournament=current, kind="player_moved"
        ).exists(),
    )
    moved = HandEvent.objects.filter(table__tournament_link__tournament=tournament, kind="player_moved").first()
    assert moved is not None
    old_table = moved.table
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(pk=moved.payload["user_id"])
    if old_table in open_tables(tournament):
        hand_start(old_table, now=tournament.starts_at + timedelta(hours=1), shuffler=random.Random(1))
    with pytest.raises(NotSeated):
        hand_act(old_table, user, "fold", now=tournament.starts_at + timedelta(hours=1))
    assert moved.payload["to_table"] != old_table.pk
    assert "moved" in moved.payload["message"]
