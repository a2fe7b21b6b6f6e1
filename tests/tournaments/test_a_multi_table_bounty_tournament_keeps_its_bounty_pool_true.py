"""A multi-table bounty tournament played with all-in pressure (multi-way all-ins, side pots, several knock-outs in
one hand, tables broken and balanced): after every step the bounty pool holds exactly the current bounties of the
players still in (TRN-41..TRN-44); played to the end everything is paid out, and cancelled half-way each remaining
player gets their own bounty and the pools are emptied exactly (CXL-10). The wallet reconciles."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum

from tests.tournaments.support import cash, fresh, play, register_players, scheduled
from tournaments.models import EntryStatus, Tournament, TournamentBountyAward, TournamentEntry, TournamentStatus
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from tournaments.services.money import bounty_pool_account, prize_pool_account

pytestmark = pytest.mark.django_db

PLAYERS = 10


def bounty_mtt(kind: str) -> Tournament:
    return scheduled(table_size=4, buy_in=1_000, fee=100, bounty_kind=kind, bounty=777)


def pool_matches_the_bounties_still_in(tournament: Tournament, _now: datetime) -> None:
    held = (
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).aggregate(
            total=Sum("bounty")
        )["total"]
        or 0
    )
    assert bounty_pool_account(tournament).balance == held


@pytest.mark.parametrize("kind", ["regular", "progressive"])
def test_played_to_the_end_every_bounty_is_paid_and_the_pool_stays_true(kind: str) -> None:
    tournament = bounty_mtt(kind)
    users = register_players(tournament, PLAYERS)
    assert tournament.starts_at is not None
    play(tournament, start=tournament.starts_at, after_step=pool_matches_the_bounties_still_in)
    assert fresh(tournament).status == TournamentStatus.FINISHED
    paid = TournamentBountyAward.objects.filter(tournament=tournament).aggregate(total=Sum("cash"))["total"]
    assert paid == PLAYERS * 777
    assert bounty_pool_account(tournament).balance == 0
    assert prize_pool_account(tournament).balance == 0
    assert sum(cash(user) for user in users) == PLAYERS * (100_000 - 100)
    call_command("wallet_reconcile")


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


@pytest.mark.parametrize("kind", ["regular", "progressive"])
def test_cancelled_half_way_each_remaining_player_gets_their_own_bounty_and_the_pools_are_emptied(kind: str) -> None:
    tournament = bounty_mtt(kind)
    users = register_players(tournament, PLAYERS)
    assert tournament.starts_at is not None
    play(
        tournament,
        start=tournament.starts_at,
        until=lambda current: current.players_remaining <= 5,
        after_step=pool_matches_the_bounties_still_in,
    )
    bounties = dict(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).values_list(
            "user_id", "bounty"
        )
    )
    before = {user.pk: cash(user) for user in users}
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    compensations = {int(row["player"]): row for row in approved.calculation["compensations"]}
    for user_id, bounty in bounties.items():
        assert compensations[user_id]["bounty_cents"] == bounty
    for user in users:
        assert cash(user) - before[user.pk] == compensations.get(user.pk, {}).get("money_cents", 0)
    assert bounty_pool_account(tournament).balance == 0
    assert prize_pool_account(tournament).balance == 0
    call_command("wallet_reconcile")
