"""A Sit & Go from the last registration to the winner's payout (TRN-35, TRN-22, TRN-27, TRN-21, FEE-04, RAKE-09)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Hand, HandStatus, TableKind
from tests.tournaments.support import cash, fresh, open_tables, play, register_players, sit_and_go
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from wallet.models import Account, AccountKind

pytestmark = pytest.mark.django_db


def test_a_sit_and_go_starts_when_its_last_seat_fills_trn_35() -> None:
    tournament = sit_and_go(seats=3)
    register_players(tournament, 2)
    assert fresh(tournament).status == TournamentStatus.REGISTERING
    assert open_tables(tournament) == []
    register_players(tournament, 1)
    started = fresh(tournament)
    assert started.status == TournamentStatus.RUNNING
    (table,) = open_tables(tournament)
    assert table.kind == TableKind.TOURNAMENT
    assert sorted(seat.chips for seat in table.seats.filter(user__isnull=False)) == [1_000, 1_000, 1_000]


def test_buy_in_and_fee_are_booked_as_two_amounts_fee_04() -> None:
    tournament = sit_and_go(seats=3, buy_in=1_000, fee=100)
    (user,) = register_players(tournament, 1)
    assert cash(user) == 100_000 - 1_100
    entry = TournamentEntry.objects.get(tournament=tournament, user=user)
    legs = {leg.account.kind: leg.amount for leg in entry.registration_transfer.legs.select_related("account")}
    assert legs == {
        AccountKind.PLAYER_CASH: -1_100,
        AccountKind.TOURNAMENT_PRIZE_POOL: 1_000,
        AccountKind.HOUSE_FEES: 100,
    }


def test_the_sit_and_go_is_played_to_the_end_and_the_winner_takes_the_pool() -> None:
    tournament = sit_and_go(seats=3, buy_in=1_000, fee=100)
    users = register_players(tournament, 3)
    play(tournament)
    finished = fresh(tournament)
    assert finished.status == TournamentStatus.FINISHED
    entries = list(TournamentEntry.objects.filter(tournament=tournament).order_by("place"))
    assert [entry.place for entry in entries] == [1, 2, 3]
    assert all(entry.status == EntryStatus.FINISHED for entry in entries)
    # 3 entrants: winner takes all (the default template for 2-4 entrants) of 3 x €10.
    assert entries[0].prize == 3_000
    assert entries[0].prize_transfer is not None
    winner = entries[0].user
    assert cash(winner) == 100_000 - 1_100 + 3_000
    assert sorted(cash(user) for user in users) == [98_900, 98_900, 101_900]
    pool = Account.objects.get(kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{tournament.pk}")
    assert pool.balance == 0
    assert not Hand.objects.filter(table__tournament_link__tournament=tournament, status=HandStatus.RUNNING).exists()
    assert all(hand.rake == 0 for hand in Hand.objects.filter(table__tournament_link__tournament=tournament))
    assert open_tables(tournament) == []
    call_command("wallet_reconcile")
