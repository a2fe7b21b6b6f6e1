"""LOB-05, TRN-03, TRN-08, TRN-26: every player the tournament services seat is told "take your seat" on their player
socket once the change commits, wherever they are on the site: each registrant when a tournament starts (with the
first deal for the countdown), a late registrant, and a player moved by balancing (with the table they leave).
Nothing is sent for a change that rolls back."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tournaments.support import START, player, register_players, scheduled
from tournaments.models import EntryStatus, TournamentEntry
from tournaments.services import tournament_advance, tournament_register
from tournaments.services.running import FIRST_DEAL_DELAY
from tournaments.services.staff import entry_disqualify

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, Any]]]:
    from poker_site.core import player_notices

    notices: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr(player_notices, "player_notify", lambda user_id, notice: notices.append((user_id, notice)))
    return notices


def calls(sent: list[tuple[int, dict[str, Any]]]) -> dict[int, dict[str, Any]]:
    return {user_id: notice for user_id, notice in sent if notice["kind"] == "take_your_seat"}


def test_every_registrant_is_called_to_their_table_when_the_tournament_starts(
    sent: list[tuple[int, dict[str, Any]]], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = scheduled(START, table_size=4)
    users = register_players(tournament, 5, now=START - timedelta(minutes=5))
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tournament_advance(tournament.pk, now=START, randomness=random.Random(3))
    called = calls(sent)
    assert set(called) == {user.pk for user in users}
    for user in users:
        entry = TournamentEntry.objects.get(tournament=tournament, user=user)
        assert called[user.pk]["table_id"] == entry.table_id
        assert called[user.pk]["reason"] == "start"
        assert called[user.pk]["tournament_kind"] == "scheduled"
        assert called[user.pk]["deal_at"] == (START + FIRST_DEAL_DELAY).isoformat()


def test_a_late_registrant_is_called_to_the_table_they_are_given(
    sent: list[tuple[int, dict[str, Any]]], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = scheduled(START, table_size=4, late_registration_levels=2)
    register_players(tournament, 3, now=START - timedelta(minutes=5))
    tournament_advance(tournament.pk, now=START, randomness=random.Random(3))
    late = player()
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tournament_register(late, tournament, now=START + timedelta(seconds=30), randomness=random.Random(1))
    entry = TournamentEntry.objects.get(tournament=tournament, user=late)
    assert calls(sent)[late.pk]["table_id"] == entry.table_id
    assert calls(sent)[late.pk]["reason"] == "late_registration"
    assert [user_id for user_id, _notice in sent if user_id != late.pk] == []


@pytest.mark.parametrize(
    ("table_size", "moves_from"),
    [(3, "big"), (4, "small")],
    ids=["balancing-moves-one-from-the-full-table", "consolidation-breaks-the-small-table"],
)
def test_a_player_moved_by_balancing_or_a_broken_table_is_called_to_the_new_table(
    sent: list[tuple[int, dict[str, Any]]], django_capture_on_commit_callbacks: Any, table_size: int, moves_from: str
) -> None:
    tournament = scheduled(START, table_size=table_size)
    register_players(tournament, 5, now=START - timedelta(minutes=5))
    tournament_advance(tournament.pk, now=START, randomness=random.Random(3))
    by_table: dict[int, list[TournamentEntry]] = {}
    for entry in TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING):
        by_table.setdefault(int(entry.table_id), []).append(entry)
    small, big = sorted(by_table, key=lambda table_id: len(by_table[table_id]))
    assert (len(by_table[small]), len(by_table[big])) == (2, 3)
    entry_disqualify(
        by_table[small][0], actor=staff_member(SUPPORT_STAFF), reason="Collusion", forfeit_prize=False
    )  # 3 against 1: one player moves (to the small table; with four seats, the small table is broken instead)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tournament_advance(tournament.pk, now=START + timedelta(seconds=2), randomness=random.Random(3))
    (moved_id, notice), *others = list(calls(sent).items())
    assert others == []
    moved = TournamentEntry.objects.get(tournament=tournament, user_id=moved_id)
    assert notice["reason"] == "moved"
    source, target = (big, small) if moves_from == "big" else (small, big)
    assert notice["from_table"] == source
    assert notice["table_id"] == target == moved.table_id


def test_a_start_that_rolls_back_calls_nobody(sent: list[tuple[int, dict[str, Any]]]) -> None:
    tournament = scheduled(START, table_size=4)
    register_players(tournament, 3, now=START - timedelta(minutes=5))
    sent.clear()

    from tournaments.services.running import start_locked, tournament_lock

    def start_then_fail() -> None:
        with transaction.atomic():
            start_locked(tournament_lock(tournament.pk), START, random.Random(1))
            raise RuntimeError("abandoned")

    with pytest.raises(RuntimeError):
        start_then_fail()
    assert calls(sent) == {}


def test_the_three_players_of_a_hexapro_game_are_called_when_it_forms(
    sent: list[tuple[int, dict[str, Any]]], django_capture_on_commit_callbacks: Any
) -> None:
    """HEX-04: the third registration at a buy-in forms the game and seats all three at once."""
    from tests.tournaments.hexapro_support import three_players_register

    with django_capture_on_commit_callbacks(execute=True):
        users, game = three_players_register()
    called = calls(sent)
    assert set(called) == {user.pk for user in users}
    assert {notice["tournament_kind"] for notice in called.values()} == {"hexapro"}
    assert {notice["reason"] for notice in called.values()} == {"start"}
    assert {notice["tournament_id"] for notice in called.values()} == {game.tournament_id}
