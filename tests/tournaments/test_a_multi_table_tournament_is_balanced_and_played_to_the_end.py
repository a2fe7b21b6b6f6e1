"""A scheduled multi-table tournament from its start to the last prize: random seating on balanced tables (TRN-03),
the button at the highest occupied seat (TRN-05), balancing and table breaking between hands (TRN-25, AMB-42) with the
moved players told why (TRN-26), hand-for-hand at the bubble (TRN-23, AMB-43), places by start-of-hand stacks
(TRN-22, TRN-24), prizes at knock-out (TRN-27), the end (TRN-21), the ledger at zero."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta

import pytest
from django.core.management import call_command

from games.models import Hand, HandEvent, Seat, Table
from games.services import hand_start
from tests.tournaments.support import START, fresh, open_tables, play, register_players, scheduled
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus, TournamentTable
from tournaments.services import tournaments_advance_all
from wallet.models import Account, AccountKind

pytestmark = pytest.mark.django_db


def occupied_per_table(tournament: Tournament) -> list[int]:
    counts = Counter(
        Seat.objects.filter(table__in=open_tables(tournament), user__isnull=False).values_list("table_id", flat=True)
    )
    return sorted(counts.get(table.pk, 0) for table in open_tables(tournament))


def test_registrants_are_seated_at_random_on_balanced_tables_the_button_on_the_highest_seat_trn_03_trn_05() -> None:
    tournament = scheduled(table_size=6)
    register_players(tournament, 20)
    assert tournament.starts_at is not None
    tournaments_advance_all(now=tournament.starts_at)
    assert fresh(tournament).status == TournamentStatus.RUNNING
    assert occupied_per_table(tournament) == [5, 5, 5, 5]
    for table in open_tables(tournament):
        hand = hand_start(table, now=tournament.starts_at + timedelta(seconds=10), shuffler=random.Random(table.pk))
        assert hand is not None
        occupied = set(Seat.objects.filter(table=table, user__isnull=False).values_list("number", flat=True))
        assert hand.config["button"] == max(occupied)


def test_a_tournament_is_balanced_broken_down_to_one_table_and_paid_in_full_trn_25_trn_27_trn_21() -> None:
    tournament = scheduled(table_size=3, buy_in=1_000, fee=100)
    users = register_players(tournament, 20)
    seen_hand_for_hand: list[int] = []

    def balanced(current: Tournament, now: datetime) -> None:
        if current.status != TournamentStatus.RUNNING:
            return
        waiting = TournamentTable.objects.filter(tournament=current, needs_coordination=True).exists()
        busy = Table.objects.filter(tournament_link__tournament=current, current_hand__isnull=False).exists()
        sizes = occupied_per_table(current)
        if not waiting and not busy and sizes:
            assert max(sizes) - min(sizes) <= 1, sizes
        if current.hand_for_hand:
            seen_hand_for_hand.append(current.players_remaining)

    assert tournament.starts_at is not None
    play(tournament, start=tournament.starts_at, after_step=balanced)
    finished = fresh(tournament)
    assert finished.status == TournamentStatus.FINISHED
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    assert sorted(entry.place for entry in entries) == list(range(1, 21))
    assert {entry.status for entry in entries} == {EntryStatus.FINISHED}
    # 20 entrants: 50 / 30 / 20 of €200.
    prizes = {entry.place: entry.prize for entry in entries if entry.prize}
    assert prizes == {1: 10_000, 2: 6_000, 3: 4_000}
    assert all(entry.prize_transfer is not None for entry in entries if entry.prize)
    pool = Account.objects.get(kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{tournament.pk}")
    assert pool.balance == 0
    # The bubble (4 left for 3 paid places) was played hand-for-hand while two tables remained (AMB-43).
    assert 4 in seen_hand_for_hand
    moved = HandEvent.objects.filter(table__tournament_link__tournament=tournament, kind="player_moved")
    assert moved.exists()
    assert {event.payload["reason"] for event in moved} <= {"table_broken", "balancing"}
    assert all(event.payload["message"] for event in moved)
    assert TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).count() == 0
    assert len(users) == 20
    call_command("wallet_reconcile")


def test_each_hand_at_a_tournament_table_is_dealt_with_the_level_current_when_it_starts_amb_65() -> None:
    tournament = scheduled(table_size=6)
    register_players(tournament, 6)
    started = START + timedelta(minutes=30)
    play(
        tournament,
        start=started,
        until=lambda current: current.status == TournamentStatus.FINISHED,
        step=timedelta(seconds=40),
    )
    for hand in Hand.objects.filter(table__tournament_link__tournament=tournament).order_by("pk"):
        elapsed = (hand.started_at - started).total_seconds()
        level = min(int(elapsed // 300) + 1, 4)
        expected = {1: (10, 20, 0), 2: (20, 40, 0), 3: (50, 100, 10), 4: (100, 200, 20)}[level]
        config = hand.config
        assert (config["small_blind"], config["big_blind"], config["ante"]) == expected, hand.started_at
        assert hand.level_number == level
