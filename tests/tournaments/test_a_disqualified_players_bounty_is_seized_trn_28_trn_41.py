"""TRN-28 with TRN-41: a player disqualified in a bounty tournament wins no bounty for anyone — their own current
bounty is seized to the house's seized funds, so the bounty pool still holds exactly the bounties of the players
still in and a later cancellation pays out exactly the money held (CXL-10)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.tournaments.bounty_support import bounty_sit_and_go, entry_of, the_table, user_at
from tests.tournaments.support import cash, register_players
from tournaments.models import EntryStatus
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from tournaments.services.money import bounty_pool_account
from tournaments.services.staff import entry_disqualify
from wallet.models import AccountKind
from wallet.services import system_account

pytestmark = pytest.mark.django_db


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def test_the_disqualified_players_bounty_is_seized_and_the_cancellation_still_pays_exactly_the_money_held() -> None:
    tournament = bounty_sit_and_go(3, kind="progressive", bounty=1_000)
    register_players(tournament, 3)
    table = the_table(tournament)
    cheat, first, second = user_at(table, 1), user_at(table, 2), user_at(table, 3)
    seized = system_account(AccountKind.HOUSE_SEIZED).balance
    entry = entry_disqualify(
        entry_of(tournament, cheat), actor=staff("desk"), reason="chip dumping", forfeit_prize=False
    )
    assert entry.status == EntryStatus.DISQUALIFIED
    assert (entry.bounty, entry.bounty_forfeited) == (0, 1_000)
    assert system_account(AccountKind.HOUSE_SEIZED).balance == seized + 1_000
    assert bounty_pool_account(tournament).balance == 2_000
    before = {user.pk: cash(user) for user in (first, second)}

    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    compensations = {int(row["player"]): row for row in approved.calculation["compensations"]}
    assert compensations[first.pk]["bounty_cents"] == 1_000
    assert compensations[second.pk]["bounty_cents"] == 1_000
    for user in (first, second):
        assert cash(user) - before[user.pk] == compensations[user.pk]["money_cents"]
    assert bounty_pool_account(tournament).balance == 0
    call_command("wallet_reconcile")
