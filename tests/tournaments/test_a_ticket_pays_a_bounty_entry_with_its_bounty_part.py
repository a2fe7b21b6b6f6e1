"""A ticket worth buy-in + bounty + fee pays a bounty tournament's registration (TRN-37, TRN-41): its value goes to
the prize pool, the bounty pool and the house fees, each its own amount (FEE-04); unregistering puts it back on the
ticket. A ticket worth only buy-in + fee is refused, nothing changed."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.tournaments.bounty_support import bounty_sit_and_go, entry_of
from tests.tournaments.support import START, player
from tests.tournaments.tickets_support import ticket_for
from tournaments.models import TicketStatus
from tournaments.services import TournamentError, tournament_register, tournament_unregister
from tournaments.services.money import bounty_pool_account
from wallet.models import AccountKind

pytestmark = pytest.mark.django_db


def test_a_ticket_of_the_full_price_pays_the_bounty_part_into_the_bounty_pool() -> None:
    tournament = bounty_sit_and_go(3, kind="regular", bounty=500)
    user = player()
    ticket = ticket_for(user, value=1_600, tournament=tournament)
    tournament_register(user, tournament, ticket=ticket.pk, now=START)
    entry = entry_of(tournament, user)
    assert entry.registration_transfer is not None
    legs = {leg.account.kind: leg.amount for leg in entry.registration_transfer.legs.select_related("account")}
    assert legs == {
        AccountKind.TOURNAMENT_TICKET: -1_600,
        AccountKind.TOURNAMENT_PRIZE_POOL: 1_000,
        AccountKind.BOUNTY_POOL: 500,
        AccountKind.HOUSE_FEES: 100,
    }
    assert entry.bounty == 500
    tournament_unregister(user, tournament, now=START)
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.RETURNED
    assert bounty_pool_account(tournament).balance == 0
    call_command("wallet_reconcile")


def test_a_ticket_without_the_bounty_part_is_refused() -> None:
    tournament = bounty_sit_and_go(3, kind="regular", bounty=500)
    user = player()
    ticket = ticket_for(user, value=1_100, tournament=tournament)
    with pytest.raises(TournamentError, match=r"costs €16\.00"):
        tournament_register(user, tournament, ticket=ticket.pk, now=START)
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.AVAILABLE
    assert bounty_pool_account(tournament).balance == 0
