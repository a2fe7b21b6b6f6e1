"""TRN-28 with TRN-09, TRN-10, TRN-14 and TRN-35: staff disqualify a player who is only registered in a Sit & Go
that has not started. The entry leaves the field — its seat is free for the next registrant and the lobby counts one
player fewer — and its buy-in, bounty part and fee come back to the player through the ledger as an unregistration's
do (TRN-10: nothing is forfeited before the start, TRN-14; what TRN-28 lets the house forfeit is winnings, and there
are none yet). The bar, when ticked, stays; without it the player still does not come back into this tournament. The
next registration fills the seat and the Sit & Go starts with the players who can play; the ledger reconciles."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.tournaments.bounty_support import bounty_sit_and_go
from tests.tournaments.support import START, cash, fresh, player, register_players, sit_and_go
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import NotAllowedNow, tournament_register
from tournaments.services.errors import AlreadyRegistered
from tournaments.services.money import bounty_pool_account, prize_pool_account
from tournaments.services.staff import entry_disqualify

pytestmark = pytest.mark.django_db


def staff(name: str = "desk") -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def entry_of(tournament: Any, user: Any) -> TournamentEntry:
    return TournamentEntry.objects.get(tournament=tournament, user=user)


def test_trn_28_trn_10_the_disqualified_registrant_is_refunded_and_two_more_registrations_start_it() -> None:
    tournament = sit_and_go(3)
    cheat, honest = register_players(tournament, 2)
    assert cash(cheat) == 100_000 - 1_100

    entry = entry_disqualify(
        entry_of(tournament, cheat), actor=staff(), reason="multi-accounting", forfeit_prize=False, bar=True, now=START
    )

    assert entry.status == EntryStatus.DISQUALIFIED
    assert entry.refund_transfer_id is not None
    assert cash(cheat) == 100_000  # buy-in and fee back (TRN-10, TRN-14: the tournament had not started)
    after = fresh(tournament)
    assert (after.status, after.entrants) == (TournamentStatus.REGISTERING, 1)  # the seat is free again
    assert prize_pool_account(tournament).balance == 1_000  # only the honest player's buy-in

    newcomer = player()
    tournament_register(newcomer, tournament, now=START, randomness=random.Random(1))
    assert (fresh(tournament).status, fresh(tournament).entrants) == (TournamentStatus.REGISTERING, 2)
    last = player()
    tournament_register(last, tournament, now=START, randomness=random.Random(2))

    started = fresh(tournament)
    assert started.status == TournamentStatus.RUNNING
    assert (started.entrants, started.players_remaining, started.prize_pool) == (3, 3, 3_000)
    playing = set(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).values_list("user", flat=True)
    )
    assert playing == {honest.pk, newcomer.pk, last.pk}
    assert entry_of(tournament, cheat).table_id is None
    call_command("wallet_reconcile")


def test_trn_28_trn_10_a_heads_up_sit_and_go_takes_the_next_registration_without_an_error_and_starts_with_two() -> None:
    """The QA case: heads-up, the only registrant disqualified; the next registration is taken (it used to be a 500:
    'a tournament needs at least 2 players, not 1') and the one after starts the game."""
    tournament = sit_and_go(2)
    (cheat,) = register_players(tournament, 1)
    entry_disqualify(entry_of(tournament, cheat), actor=staff(), reason="multi-accounting", forfeit_prize=False)

    carol = player("carol")
    tournament_register(carol, tournament, now=START, randomness=random.Random(1))
    waiting = fresh(tournament)
    assert (waiting.status, waiting.entrants) == (TournamentStatus.REGISTERING, 1)

    dave = player("dave")
    tournament_register(dave, tournament, now=START, randomness=random.Random(2))
    started = fresh(tournament)
    assert (started.status, started.players_remaining) == (TournamentStatus.RUNNING, 2)
    assert cash(cheat) == 100_000
    call_command("wallet_reconcile")


def test_trn_28_trn_09_a_player_disqualified_before_the_start_and_not_barred_does_not_register_again() -> None:
    tournament = sit_and_go(3)
    (cheat,) = register_players(tournament, 1)
    entry_disqualify(entry_of(tournament, cheat), actor=staff(), reason="abusive chat", forfeit_prize=False)

    with pytest.raises((NotAllowedNow, AlreadyRegistered)):
        tournament_register(cheat, tournament, now=START, randomness=random.Random(1))
    assert fresh(tournament).entrants == 0
    assert cash(cheat) == 100_000


def test_trn_28_trn_41_a_bounty_registrant_disqualified_before_the_start_gets_the_bounty_part_back_too() -> None:
    tournament = bounty_sit_and_go(3, kind="progressive", bounty=1_000)
    cheat, _honest = register_players(tournament, 2)
    assert cash(cheat) == 100_000 - 2_100

    entry = entry_disqualify(entry_of(tournament, cheat), actor=staff(), reason="collusion", forfeit_prize=False)

    assert (entry.bounty, entry.bounty_forfeited) == (0, 0)  # nothing seized: the whole entry price is refunded
    assert cash(cheat) == 100_000
    assert bounty_pool_account(tournament).balance == 1_000  # the bounty of the one player still registered
    call_command("wallet_reconcile")
