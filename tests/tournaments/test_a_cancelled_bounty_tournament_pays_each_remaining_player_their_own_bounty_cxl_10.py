"""CXL-10: a cancelled bounty tournament gives each remaining player their own bounty (the current value of a
progressive bounty); bounties already won stay won; and the cancellation pays out exactly the money held — prize
pool, bounties and the remaining players' fees — leaving the tournament's pools empty."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.tournaments.bounty_support import (
    FIRST_HAND_AT,
    bounty_sit_and_go,
    coordinate,
    entry_of,
    play_hand,
    shove,
    the_table,
    user_at,
)
from tests.tournaments.support import cash, fresh, register_players
from tournaments.models import TournamentStatus
from tournaments.services.cancellation import (
    tournament_at_cancellation,
    tournament_cancellation_approve,
    tournament_cancellation_propose,
)
from tournaments.services.money import bounty_pool_account, prize_pool_account

pytestmark = pytest.mark.django_db


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def test_each_remaining_player_receives_their_current_progressive_bounty_and_exactly_the_money_held_is_paid() -> None:
    tournament = bounty_sit_and_go(3, kind="progressive", bounty=1_000)
    register_players(tournament, 3)
    table = the_table(tournament)
    a, b, c = user_at(table, 3), user_at(table, 1), user_at(table, 2)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    coordinate(FIRST_HAND_AT)
    assert (entry_of(tournament, b).bounty, entry_of(tournament, c).bounty) == (1_500, 1_000)
    before = {user.pk: cash(user) for user in (a, b, c)}

    described = tournament_at_cancellation(fresh(tournament))
    assert {player.player: player.bounty_cents for player in described.remaining} == {
        str(b.pk): 1_500,
        str(c.pk): 1_000,
    }
    assert described.bounties_paid_cents == 500  # A's bounty: €5 credited to B, which stays won

    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    assert "CXL-10" in proposal.calculation["rules"]
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    assert fresh(tournament).status == TournamentStatus.CANCELLED
    compensations = {int(row["player"]): row for row in approved.calculation["compensations"]}
    assert compensations[b.pk]["bounty_cents"] == 1_500
    assert compensations[c.pk]["bounty_cents"] == 1_000
    for user in (a, b, c):
        assert cash(user) - before[user.pk] == compensations.get(user.pk, {}).get("money_cents", 0)
    # Exactly the money held: the €30 prize pool, the €25 of bounties still held, the remaining players' €2 of fees.
    assert sum(row.get("money_cents", 0) for row in compensations.values()) == 3_000 + 2_500 + 200
    assert approved.kept_by_house == 100  # the eliminated player's fee
    assert bounty_pool_account(tournament).balance == 0
    assert prize_pool_account(tournament).balance == 0
    call_command("wallet_reconcile")
