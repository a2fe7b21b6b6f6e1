"""A tournament table waits for the coordinator after a hand only when the hand needs it (issue 27: a Celery round trip
and a locked coordination after every hand at every tournament table): a knock-out (TRN-22 places), more than one
table (TRN-25: balancing moves players between hands), hand-for-hand (TRN-23), a break that fell due (TRN-30),
re-buys (TRN-39), a Phase 1 flight (TRN-45). Any other hand end (one table: a Sit & Go, a HexaPro game, a final
table) leaves the table dealing on by itself after the pause between hands; its levels and breaks come from the clock
(the beat's due moments)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Hand, HandStatus, Table
from games.services import hand_act, hand_start
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
from tournaments import table_policy
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus, TournamentTable
from tournaments.services import tournaments_advance_all
from tournaments.table_policy import hand_end_needs_the_tournament

pytestmark = pytest.mark.django_db

FIRST_DEAL = START + timedelta(seconds=10)


@pytest.fixture
def coordinations_asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    asked: list[int] = []

    def coordinate_soon(tournament_id: int, delay_seconds: float = 0.0) -> None:
        asked.append(tournament_id)

    monkeypatch.setattr(table_policy, "coordinate_soon", coordinate_soon)
    return asked


def heads_up() -> tuple[Tournament, Table]:
    tournament = sit_and_go(2)
    register_players(tournament, 2)
    assert fresh(tournament).status == TournamentStatus.RUNNING
    (table,) = open_tables(tournament)
    return tournament, table


def waiting(table: Table) -> bool:
    return TournamentTable.objects.get(table=table).needs_coordination


def test_a_hand_that_knocks_nobody_out_leaves_the_table_dealing_on_by_itself(
    coordinations_asked: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    _tournament, table = heads_up()
    with django_capture_on_commit_callbacks(execute=True):
        hand_played(table, FIRST_DEAL, fold_at_once, seed=1)

    assert not waiting(table)
    assert coordinations_asked == []
    assert TournamentTable.objects.get(table=table).last_hand_ended_at == FIRST_DEAL
    # No coordination ran, and the next hand is dealt after the pause between hands all the same.
    next_hand = hand_start(table, now=FIRST_DEAL + timedelta(seconds=5), shuffler=random.Random(2))
    assert next_hand is not None


def test_a_hand_that_knocks_a_player_out_makes_the_table_wait_and_asks_for_the_coordinator(
    coordinations_asked: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = heads_up()
    with django_capture_on_commit_callbacks(execute=True):
        hand_played(table, FIRST_DEAL, shove_or_call, seed=3)

    assert TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).count() == 1
    assert waiting(table)
    assert coordinations_asked == [tournament.pk]


def test_during_hand_for_hand_every_hand_end_waits_for_the_tournament_trn_23(
    coordinations_asked: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = heads_up()
    hand = hand_start(table, now=FIRST_DEAL, shuffler=random.Random(1))
    assert hand is not None
    # The bubble arrives elsewhere while this hand is played (TRN-23: the hand in play is finished first).
    Tournament.objects.filter(pk=tournament.pk).update(hand_for_hand=True, hand_for_hand_round=1)
    with django_capture_on_commit_callbacks(execute=True):
        while hand.status == HandStatus.RUNNING and hand.acting_seat is not None:
            user_id = hand.participants[str(hand.acting_seat)]["user"]
            hand_act(table, get_user_model().objects.get(pk=user_id), "fold", now=FIRST_DEAL)
            hand = Hand.objects.get(pk=hand.pk)

    assert waiting(table)
    assert coordinations_asked == [tournament.pk]


def test_the_states_in_which_a_hand_end_waits_for_the_tournament() -> None:
    now = START + timedelta(minutes=20)
    plain = Tournament(status=TournamentStatus.RUNNING)
    assert not hand_end_needs_the_tournament(plain, now)
    assert not hand_end_needs_the_tournament(
        Tournament(status=TournamentStatus.RUNNING, break_due_at=now + timedelta(seconds=1)), now
    )

    assert hand_end_needs_the_tournament(Tournament(status=TournamentStatus.RUNNING, break_due_at=now), now)  # TRN-30
    assert hand_end_needs_the_tournament(Tournament(status=TournamentStatus.RUNNING, hand_for_hand=True), now)
    assert hand_end_needs_the_tournament(Tournament(status=TournamentStatus.RUNNING, rebuy_levels=2), now)  # TRN-39
    assert hand_end_needs_the_tournament(Tournament(status=TournamentStatus.RUNNING, phase_two_id=1), now)  # TRN-45
    assert hand_end_needs_the_tournament(Tournament(status=TournamentStatus.FINISHED), now)


def test_with_more_than_one_table_every_hand_end_waits_for_balancing_trn_25(
    coordinations_asked: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = scheduled(table_size=3)
    register_players(tournament, 6)
    assert tournament.starts_at is not None
    tournaments_advance_all(now=tournament.starts_at)
    tables = open_tables(fresh(tournament))
    assert len(tables) == 2
    with django_capture_on_commit_callbacks(execute=True):
        hand_played(tables[0], tournament.starts_at + timedelta(seconds=10), fold_at_once, seed=1)

    assert waiting(tables[0])
    assert coordinations_asked == [tournament.pk]
