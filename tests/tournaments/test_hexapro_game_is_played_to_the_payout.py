"""A HexaPro game from three registrations to the payout: formed at once (HEX-04), the draw's prize pool funded in one
transfer (HEX-05, HEX-07, FEE-06), the drawn multiplier's stack, levels and timebank (HEX-11, HEX-13, HEX-15), the
places (HEX-18) and every prize credited when the game ends (HEX-09, HEX-10)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.tournaments.hexapro_support import pool_balance, three_players_register
from tests.tournaments.support import cash, fresh, open_tables, play
from tournaments.models import EntryStatus, TournamentEntry, TournamentKind, TournamentStatus

pytestmark = pytest.mark.django_db


def test_a_25x_game_pays_80_12_8_of_250_euros_when_it_ends_hex_09_hex_10() -> None:
    users, game = three_players_register(1_000, multiplier=250)
    tournament = game.tournament
    assert tournament.kind == TournamentKind.HEXAPRO
    assert fresh(tournament).status == TournamentStatus.RUNNING
    assert game.prize_pool_cents == 25_000
    assert pool_balance(game) == 25_000
    (table,) = open_tables(tournament)
    assert sorted(seat.chips for seat in table.seats.filter(user__isnull=False)) == [500, 500, 500]
    play(tournament)
    entries = list(TournamentEntry.objects.filter(tournament=tournament).order_by("place"))
    assert [entry.place for entry in entries] == [1, 2, 3]
    assert [entry.prize for entry in entries] == [20_000, 3_000, 2_000]
    assert all(entry.status == EntryStatus.FINISHED for entry in entries)
    assert all(entry.prize_transfer is not None for entry in entries)
    assert sorted(cash(user) for user in users) == sorted(100_000 - 1_000 + entry.prize for entry in entries)
    assert pool_balance(game) == 0
    call_command("wallet_reconcile")
