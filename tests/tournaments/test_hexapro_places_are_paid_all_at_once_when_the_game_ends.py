"""HEX-18: the first player eliminated is 3rd, the next 2nd (same-hand eliminations by TRN-22); HEX-10 / AMB-58: no
prize is credited at a knock-out — every place is credited at once when the game ends; an eliminated player cannot
act in the game any more (a clear error, nothing changed)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Hand, HandStatus
from games.runtime.errors import NotSeated
from games.services import hand_act
from tests.tournaments.hexapro_support import pool_balance, three_players_register
from tests.tournaments.support import cash, fresh, one_shove_a_hand, open_tables, play
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import entry_prize_pay, tournaments_advance_all

pytestmark = pytest.mark.django_db


def test_hex_18_hex_10_the_third_place_waits_for_the_end_of_the_game_to_be_paid() -> None:
    users, game = three_players_register(1_000, multiplier=250)  # 80/12/8 of €250
    tournament = game.tournament
    play(
        tournament,
        policy=one_shove_a_hand,
        until=lambda current: TournamentEntry.objects.filter(tournament=current, place=3).exists(),
    )
    third = TournamentEntry.objects.get(tournament=tournament, place=3)
    assert third.status == EntryStatus.FINISHED
    assert third.prize == 2_000
    assert third.prize_transfer is None
    assert cash(third.user) == 100_000 - 1_000
    assert not entry_prize_pay(third.pk)  # not even when asked: the game is still running
    tournaments_advance_all()
    assert fresh(tournament).status == TournamentStatus.RUNNING
    assert TournamentEntry.objects.get(pk=third.pk).prize_transfer is None
    assert pool_balance(game) == 25_000

    # The eliminated player's actions are refused and change nothing.
    (table,) = open_tables(tournament)
    hand = Hand.objects.filter(table=table).order_by("-pk").first()
    before = (hand.pk, hand.status, hand.acting_seat) if hand else None
    with pytest.raises(NotSeated, match="You do not have a seat at this table"):
        hand_act(table, third.user, "fold")
    hand = Hand.objects.filter(table=table).order_by("-pk").first()
    assert ((hand.pk, hand.status, hand.acting_seat) if hand else None) == before

    play(tournament, policy=one_shove_a_hand)
    entries = list(TournamentEntry.objects.filter(tournament=tournament).order_by("place"))
    assert [entry.place for entry in entries] == [1, 2, 3]
    assert [entry.prize for entry in entries] == [20_000, 3_000, 2_000]
    assert all(entry.prize_transfer is not None for entry in entries)
    assert cash(third.user) == 100_000 - 1_000 + 2_000
    assert pool_balance(game) == 0
    assert not Hand.objects.filter(table__tournament_link__tournament=tournament, status=HandStatus.RUNNING).exists()
    assert sorted(cash(user) for user in users) == sorted(99_000 + entry.prize for entry in entries)
    call_command("wallet_reconcile")


def test_hex_09_a_winner_takes_all_game_pays_nothing_to_second_and_third() -> None:
    users, game = three_players_register(500, multiplier=100)  # 10x of €5: €50 to the winner
    play(game.tournament)
    entries = list(TournamentEntry.objects.filter(tournament=game.tournament).order_by("place"))
    assert [entry.prize for entry in entries] == [5_000, 0, 0]
    assert [entry.prize_transfer is not None for entry in entries] == [True, False, False]
    assert sorted(cash(user) for user in users) == [99_500, 99_500, 99_500 + 5_000]
