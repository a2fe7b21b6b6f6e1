"""TRN-42 / AMB-18: in a progressive bounty tournament (50/50 by default), B with a €10 bounty knocks out A with a
€10 bounty: B is credited €5 at once (AMB-48) and B's own bounty becomes €15; the table is told who won what."""

from __future__ import annotations

import pytest
from django.core.management import call_command

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
from tests.tournaments.support import cash, register_players
from tournaments.models import EntryStatus, TournamentBountyAward
from tournaments.services.money import bounty_pool_account
from wallet.models import AccountKind
from wallet.services import TransferKind

pytestmark = pytest.mark.django_db


def test_b_knocks_out_a_and_is_credited_5_euros_and_his_bounty_becomes_15_trn_42() -> None:
    tournament = bounty_sit_and_go(3, kind="progressive", bounty=1_000)
    assert (tournament.bounty_credited_percent, tournament.bounty_added_percent) == (50, 50)  # AMB-18 default
    register_players(tournament, 3)
    table = the_table(tournament)
    a, b, c = user_at(table, 3), user_at(table, 1), user_at(table, 2)
    assert entry_of(tournament, b).bounty == 1_000
    assert entry_of(tournament, a).bounty == 1_000

    # Button at seat 3 (A): A shoves, B (small blind) calls with aces, C folds; A has no chips left.
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)

    assert entry_of(tournament, a).status == EntryStatus.BUSTED
    assert cash(b) == 100_000 - 2_100 + 500  # credited €5 at the knock-out
    assert cash(a) == 100_000 - 2_100
    assert entry_of(tournament, b).bounty == 1_500  # B's bounty becomes €15
    assert entry_of(tournament, a).bounty == 0
    assert entry_of(tournament, c).bounty == 1_000
    award = TournamentBountyAward.objects.get(tournament=tournament)
    assert (award.eliminated.user, award.winner.user, award.cash, award.added_to_bounty) == (a, b, 500, 500)
    assert award.transfer is not None
    assert award.transfer.kind == TransferKind.BOUNTY
    assert award.transfer.idempotency_key == f"tournament-entry:{award.eliminated_id}:bounty:{award.winner_id}"
    legs = {leg.account.kind: leg.amount for leg in award.transfer.legs.select_related("account")}
    assert legs == {AccountKind.PLAYER_CASH: 500, AccountKind.BOUNTY_POOL: -500}
    # The bounty pool holds exactly the bounties of the players still in.
    assert bounty_pool_account(tournament).balance == 1_500 + 1_000

    (event,) = bounty_events(table)
    assert event["user_id"] == a.pk
    assert event["bounty"] == 1_000
    assert event["kind"] == "progressive"
    assert event["winners"] == [
        {
            "seat": 1,
            "user_id": b.pk,
            "name": event["winners"][0]["name"],
            "cash": 500,
            "added_to_bounty": 500,
            "vip": 0,
            "bounty_now": 1_500,
        }
    ]
    coordinate(FIRST_HAND_AT)
    assert entry_of(tournament, a).place == 3
    call_command("wallet_reconcile")


def test_the_percentages_are_configurable_per_tournament_amb_18() -> None:
    tournament = bounty_sit_and_go(
        3, kind="progressive", bounty=1_000, bounty_credited_percent=30, bounty_added_percent=70
    )
    register_players(tournament, 3)
    table = the_table(tournament)
    b = user_at(table, 1)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    assert cash(b) == 100_000 - 2_100 + 300
    assert entry_of(tournament, b).bounty == 1_700
    call_command("wallet_reconcile")
