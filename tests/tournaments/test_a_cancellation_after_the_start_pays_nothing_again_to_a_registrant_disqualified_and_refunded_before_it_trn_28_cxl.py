"""TRN-28 with TRN-10 and CXL: a registrant disqualified before the start was refunded then and is out of the field;
when the Sit & Go, started with the players who could play, is cancelled, the cancellation compensates those players
only — not the disqualified registrant a second time — and pays out exactly the money the prize pool holds."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.tournaments.support import START, cash, fresh, player, register_players, sit_and_go
from tournaments.models import TournamentEntry, TournamentStatus
from tournaments.services import tournament_register
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from tournaments.services.money import prize_pool_account
from tournaments.services.staff import entry_disqualify

pytestmark = pytest.mark.django_db


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def test_trn_28_cxl_the_cancellation_compensates_the_players_who_played_and_not_the_refunded_registrant() -> None:
    tournament = sit_and_go(3)
    cheat, honest = register_players(tournament, 2)
    entry = TournamentEntry.objects.get(tournament=tournament, user=cheat)
    disqualified = entry_disqualify(entry, actor=staff("desk"), reason="multi-accounting", forfeit_prize=False)
    assert disqualified.refund_transfer_id is not None
    others = [player(), player()]
    for number, user in enumerate(others):
        tournament_register(user, tournament, now=START, randomness=random.Random(number))
    assert fresh(tournament).status == TournamentStatus.RUNNING
    assert prize_pool_account(tournament).balance == 3_000

    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))

    compensated = {int(row["player"]) for row in approved.calculation["compensations"]}
    assert compensated == {honest.pk, *(user.pk for user in others)}
    assert cash(cheat) == 100_000  # refunded once, at the disqualification
    assert prize_pool_account(tournament).balance == 0
    call_command("wallet_reconcile")
