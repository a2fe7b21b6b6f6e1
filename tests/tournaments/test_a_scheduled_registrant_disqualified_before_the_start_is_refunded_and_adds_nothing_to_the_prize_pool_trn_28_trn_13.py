"""TRN-28 with TRN-10, TRN-13, TRN-14 and TRN-06: a player disqualified while only registered for a scheduled
tournament is refunded buy-in and fee through the ledger (nothing is forfeited before the start) and leaves the field:
the lobby counts one entrant fewer, the provisional prize pool and the final one at the start hold only the buy-ins of
the players who can play, and the tournament starts with them. The ledger reconciles."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.tournaments.support import START, cash, fresh, player, scheduled
from tournaments.definitions import payouts_now
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import tournament_register
from tournaments.services.money import prize_pool_account
from tournaments.services.running import tournament_advance
from tournaments.services.staff import entry_disqualify

pytestmark = pytest.mark.django_db


def staff() -> Any:
    return get_user_model().objects.create_user(username="desk", password="x", is_staff=True)


def test_trn_28_trn_13_the_disqualified_registrants_buy_in_goes_back_and_the_pool_at_the_start_is_the_others() -> None:
    """A multi-buy-in tournament (TRN-38), so the pool is summed from the entries, not entrants × buy-in."""
    tournament = scheduled(
        buy_in=900, fee=100, starting_stack=10_000, buy_in_minimum=500, buy_in_maximum=5_000, buy_in_step=500
    )
    first, second, cheat = player(), player(), player()
    tournament_register(first, tournament, now=START)
    tournament_register(second, tournament, now=START)
    entry = tournament_register(cheat, tournament, now=START, buy_in=2_500)
    assert cash(cheat) == 100_000 - 2_500

    disqualified = entry_disqualify(entry, actor=staff(), reason="multi-accounting", forfeit_prize=False, now=START)

    assert disqualified.status == EntryStatus.DISQUALIFIED
    assert cash(cheat) == 100_000  # TRN-10 / TRN-14: refunded, the tournament had not started
    lobby = fresh(tournament)
    assert lobby.entrants == 2
    assert payouts_now(lobby).pool == 1_800  # the provisional pool: the two buy-ins still in
    assert prize_pool_account(tournament).balance == 1_800

    tournament_advance(tournament.pk, now=tournament.starts_at + timedelta(seconds=1), randomness=random.Random(3))

    started = fresh(tournament)
    assert started.status == TournamentStatus.RUNNING
    assert (started.entrants, started.players_remaining, started.prize_pool) == (2, 2, 1_800)
    assert set(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).values_list("user", flat=True)
    ) == {first.pk, second.pk}
    call_command("wallet_reconcile")
