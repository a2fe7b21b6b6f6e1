"""TRN-43 / AMB-61 with re-buys (docs/decisions.md, D-25-1): in a bounty tournament with re-buys, a re-buy costs a new
bounty part. When the VIP loses every chip in a hand but re-bought during it, the player who won the VIP's chips gets
the VIP's bounty as it stood (a regular bounty here) but not the VIP bounty, and the VIP plays on with the new bounty
part; the VIP bounty goes to whoever knocks the VIP out for good. The bounty pool keeps holding exactly the bounties
of the players still in, and the ledger reconciles."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum

from tests.tournaments.bounty_support import (
    FIRST_HAND_AT,
    bounty_events,
    bounty_sit_and_go,
    coordinate,
    deal_hand,
    entry_of,
    hand_play_out,
    play_hand,
    shove,
    the_table,
    user_at,
)
from tests.tournaments.rebuys_support import REBUY_SETTINGS, chips
from tests.tournaments.support import cash, register_players
from tournaments.models import EntryStatus, Tournament, TournamentBountyAward, TournamentEntry, TournamentPurchase
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from tournaments.services.money import bounty_pool_account, prize_pool_account
from tournaments.services.purchases import entry_rebuy
from wallet.models import AccountKind
from wallet.services import system_account

pytestmark = pytest.mark.django_db

BOARD = "3s8h9dJcQs"


def bounties_still_in(tournament: Tournament) -> int:
    held = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).aggregate(
        total=Sum("bounty")
    )
    return int(held["total"] or 0)


def test_the_vip_rebuying_in_the_hand_that_took_every_chip_is_not_worth_the_vip_bounty_trn_43_amb_61() -> None:
    tournament = bounty_sit_and_go(3, kind="regular", bounty=500, **REBUY_SETTINGS)
    register_players(tournament, 3)
    table = the_table(tournament)
    vip, knocker = user_at(table, 3), user_at(table, 1)
    Tournament.objects.filter(pk=tournament.pk).update(vip_player=vip, vip_bounty=5_000)
    house = system_account(AccountKind.HOUSE_GUARANTEE).balance

    # The VIP (1,000 chips, at the re-buy threshold) re-buys while the hand is dealt, then loses every chip in it.
    hand = deal_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, BOARD, now=FIRST_HAND_AT, button=3)
    purchase = entry_rebuy(vip, tournament, now=FIRST_HAND_AT)
    assert (purchase.prize_contribution, purchase.bounty_contribution, purchase.fee) == (1_000, 500, 100)
    hand_play_out(table, hand, shove(3, 1), now=FIRST_HAND_AT)

    assert entry_of(tournament, vip).status == EntryStatus.PLAYING
    assert chips(vip) == 1_000  # the re-buy's chips, added between hands
    assert cash(vip) == 100_000 - 1_600 - 1_600  # entry and re-buy: €10 + €5 bounty + €1 fee each
    award = TournamentBountyAward.objects.get(tournament=tournament)
    assert (award.eliminated.user, award.winner.user, award.cash, award.vip) == (vip, knocker, 500, 0)
    assert cash(knocker) == 100_000 - 1_600 + 500  # the VIP's bounty as it stood, no VIP bounty
    assert system_account(AccountKind.HOUSE_GUARANTEE).balance == house
    assert entry_of(tournament, vip).bounty == 500  # the re-buy's new bounty part
    assert bounty_pool_account(tournament).balance == bounties_still_in(tournament) == 1_500
    (event,) = bounty_events(table)
    assert (event["user_id"], event["bounty"], event["vip_bounty"], event["rebought"]) == (vip.pk, 500, 0, True)

    # Next hand the VIP loses every chip without a re-buy: the final elimination pays the VIP bounty.
    later = FIRST_HAND_AT + timedelta(seconds=30)
    coordinate(later)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, BOARD, shove(1, 3), now=later, button=1)
    assert entry_of(tournament, vip).status == EntryStatus.BUSTED
    final = TournamentBountyAward.objects.exclude(pk=award.pk).get(tournament=tournament)
    assert (final.eliminated.user, final.winner.user, final.cash, final.vip) == (vip, knocker, 500, 5_000)
    assert cash(knocker) == 100_000 - 1_600 + 500 + 500 + 5_000
    assert system_account(AccountKind.HOUSE_GUARANTEE).balance == house - 5_000
    assert bounty_pool_account(tournament).balance == bounties_still_in(tournament) == 1_000
    assert TournamentPurchase.objects.filter(entry__tournament=tournament).count() == 1
    call_command("wallet_reconcile")


def test_a_rebuy_bought_with_chips_left_adds_its_bounty_part_to_the_players_bounty_and_a_cancellation_pays_it() -> None:
    tournament = bounty_sit_and_go(3, kind="progressive", bounty=500, **REBUY_SETTINGS)
    register_players(tournament, 3)
    table = the_table(tournament)
    buyer = user_at(table, 2)
    entry_rebuy(buyer, tournament, now=FIRST_HAND_AT)  # between hands: chips and bounty part at once
    assert chips(buyer) == 2_000
    assert entry_of(tournament, buyer).bounty == 1_000
    assert bounty_pool_account(tournament).balance == bounties_still_in(tournament) == 2_000

    # Cancelled now (CXL-10): the buyer gets their bounty with the re-buy's part; both pools are emptied exactly.
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    compensations = {int(row["player"]): row for row in approved.calculation["compensations"]}
    assert compensations[buyer.pk]["bounty_cents"] == 1_000
    assert bounty_pool_account(tournament).balance == 0
    assert prize_pool_account(tournament).balance == 0
    call_command("wallet_reconcile")


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)
