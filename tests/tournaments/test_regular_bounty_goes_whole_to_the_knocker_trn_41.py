"""TRN-41: part of each buy-in forms the player's bounty, booked as its own amount and held apart from the prize pool
(FEE-04); in a regular bounty tournament the whole bounty of a knocked-out player is credited at once to the player
who knocked them out (AMB-48)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.event_summaries import event_summary
from tests.tournaments.bounty_support import (
    FIRST_HAND_AT,
    bounty_events,
    bounty_sit_and_go,
    coordinate,
    entry_of,
    play_hand,
    shove,
    the_table,
    user_at,
)
from tests.tournaments.support import cash, fresh, register_players
from tournaments.models import TournamentBountyAward
from tournaments.services.money import bounty_pool_account, prize_pool_account
from wallet.models import AccountKind

pytestmark = pytest.mark.django_db


def test_the_bounty_part_of_the_buy_in_is_booked_as_its_own_amount_in_the_bounty_pool_fee_04() -> None:
    tournament = bounty_sit_and_go(3, kind="regular", bounty=500)
    assert tournament.entry_price == 1_000 + 500 + 100
    (user,) = register_players(tournament, 1)
    assert cash(user) == 100_000 - 1_600
    entry = entry_of(tournament, user)
    assert (entry.prize_contribution, entry.bounty_contribution, entry.bounty, entry.fee) == (1_000, 500, 500, 100)
    assert entry.registration_transfer is not None
    legs = {leg.account.kind: leg.amount for leg in entry.registration_transfer.legs.select_related("account")}
    assert legs == {
        AccountKind.PLAYER_CASH: -1_600,
        AccountKind.TOURNAMENT_PRIZE_POOL: 1_000,
        AccountKind.BOUNTY_POOL: 500,
        AccountKind.HOUSE_FEES: 100,
    }


def test_the_whole_bounty_goes_to_the_knocker_and_the_prize_pool_has_no_bounty_money_trn_41() -> None:
    tournament = bounty_sit_and_go(3, kind="regular", bounty=500)
    register_players(tournament, 3)
    assert fresh(tournament).prize_pool == 3_000  # the bounty parts are not prize money
    table = the_table(tournament)
    a, b = user_at(table, 3), user_at(table, 1)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    assert cash(b) == 100_000 - 1_600 + 500
    assert entry_of(tournament, b).bounty == 500  # a regular bounty does not grow
    award = TournamentBountyAward.objects.get(tournament=tournament)
    assert (award.cash, award.added_to_bounty, award.vip) == (500, 0, 0)
    (event,) = bounty_events(table)
    assert [(winner["user_id"], winner["cash"]) for winner in event["winners"]] == [(b.pk, 500)]
    assert event["user_id"] == a.pk
    # The back office reads the event in words.
    assert event_summary("bounty_won", event) == (
        f"Bounty of Seat 3 ({event['name']}): Seat 1 ({event['winners'][0]['name']}) wins €5.00"
    )
    assert bounty_pool_account(tournament).balance == 1_000
    assert prize_pool_account(tournament).balance == 3_000
    coordinate(FIRST_HAND_AT)
    call_command("wallet_reconcile")


def test_a_bounty_tournament_cancelled_before_the_start_refunds_the_bounty_part_too_cxl_02() -> None:
    from tournaments.services import tournament_unregister

    tournament = bounty_sit_and_go(3, kind="regular", bounty=500)
    (user,) = register_players(tournament, 1)
    tournament_unregister(user, tournament)
    assert cash(user) == 100_000
    assert bounty_pool_account(tournament).balance == 0
    call_command("wallet_reconcile")


def test_a_tournament_without_bounties_never_charges_a_bounty_part() -> None:
    from tests.tournaments.support import sit_and_go

    tournament = sit_and_go(3, buy_in=1_000, fee=100, bounty=500)  # a stray amount with no bounty kind
    assert tournament.entry_price == 1_100
    (user,) = register_players(tournament, 1)
    assert cash(user) == 100_000 - 1_100
    assert entry_of(tournament, user).bounty_contribution == 0
