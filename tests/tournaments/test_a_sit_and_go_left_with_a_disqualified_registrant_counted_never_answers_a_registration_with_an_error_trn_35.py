"""TRN-35: a Sit & Go starts when all its seats are filled by players who can play. A Sit & Go left as the old
disqualification left it — a registrant disqualified before the start, not refunded, still counted in its entrants —
takes the next registration without an error (it used to answer HTTP 500: 'a tournament needs at least 2 players,
not 1', from the start with one player), waits for the seat the disqualified entry held, and starts with two when it is
filled. A start with fewer than two registrants does not happen and leaves the tournament as it was."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.db import transaction

from tests.tournaments.support import START, fresh, player, register_players, sit_and_go
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus, TournamentTable
from tournaments.services import tournament_register
from tournaments.services.running import start_locked, tournament_lock

pytestmark = pytest.mark.django_db


def test_trn_35_a_sit_and_go_stuck_with_a_disqualified_registrant_counted_takes_registrations_and_starts() -> None:
    tournament = sit_and_go(2)
    (cheat,) = register_players(tournament, 1)
    # What the disqualification did before the fix: status changed, the entry still counted among the entrants.
    TournamentEntry.objects.filter(tournament=tournament, user=cheat).update(
        status=EntryStatus.DISQUALIFIED, eliminated_at=START, disqualification_reason="multi-accounting"
    )
    assert fresh(tournament).entrants == 1

    carol = player("carol")
    tournament_register(carol, tournament, now=START, randomness=random.Random(1))
    waiting = fresh(tournament)
    assert waiting.status == TournamentStatus.REGISTERING
    assert waiting.entrants == 1  # the players who can play: carol

    dave = player("dave")
    tournament_register(dave, tournament, now=START, randomness=random.Random(2))
    started = fresh(tournament)
    assert (started.status, started.players_remaining) == (TournamentStatus.RUNNING, 2)
    call_command("wallet_reconcile")


def test_trn_35_a_start_with_one_registrant_does_not_happen_and_changes_nothing() -> None:
    tournament = sit_and_go(2)
    register_players(tournament, 1)

    with transaction.atomic():
        started = start_locked(tournament_lock(tournament.pk), START, random.Random(1))

    assert started is False
    after = fresh(tournament)
    assert (after.status, after.started_at, after.players_remaining) == (TournamentStatus.REGISTERING, None, 0)
    assert not TournamentTable.objects.filter(tournament=tournament).exists()
    assert TournamentEntry.objects.get(tournament=tournament).status == EntryStatus.REGISTERED
