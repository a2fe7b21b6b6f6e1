"""TRN-43 / AMB-61: a VIP carries a unique special bounty, added by the operator, credited only to whoever knocks the
VIP out of the tournament (split like any bounty, TRN-44); knocking out anyone else wins no VIP bounty."""

from __future__ import annotations

from datetime import timedelta

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
from tests.tournaments.support import cash, register_players, sit_and_go
from tournaments.models import Tournament, TournamentBountyAward
from wallet.models import AccountKind
from wallet.services import system_account

pytestmark = pytest.mark.django_db


def vip_at_seat_3(tournament: Tournament) -> None:
    """Make the player seated at seat 3 the VIP (the seats are drawn at the start)."""
    table = the_table(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(vip_player=user_at(table, 3), vip_bounty=5_000)


def test_the_vips_knocker_is_credited_the_vip_bounty_from_the_house_with_the_regular_bounty() -> None:
    tournament = bounty_sit_and_go(3, kind="regular", bounty=500)
    register_players(tournament, 3)
    vip_at_seat_3(tournament)
    house = system_account(AccountKind.HOUSE_GUARANTEE).balance
    table = the_table(tournament)
    vip, knocker = user_at(table, 3), user_at(table, 1)
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    assert cash(knocker) == 100_000 - 1_600 + 500 + 5_000
    award = TournamentBountyAward.objects.get(tournament=tournament)
    assert (award.eliminated.user, award.cash, award.vip) == (vip, 500, 5_000)
    assert system_account(AccountKind.HOUSE_GUARANTEE).balance == house - 5_000
    (event,) = bounty_events(table)
    assert event["vip_bounty"] == 5_000
    assert event["winners"][0]["vip"] == 5_000
    call_command("wallet_reconcile")


def test_knocking_out_another_player_wins_no_vip_bounty() -> None:
    tournament = bounty_sit_and_go(3, kind="regular", bounty=500)
    register_players(tournament, 3)
    table = the_table(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(vip_player=user_at(table, 1), vip_bounty=5_000)
    knocker = user_at(table, 1)  # the VIP knocks seat 3 out
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    assert cash(knocker) == 100_000 - 1_600 + 500
    assert TournamentBountyAward.objects.get(tournament=tournament).vip == 0
    call_command("wallet_reconcile")


def test_a_vip_bounty_in_a_tournament_without_bounties_is_paid_only_for_the_vip() -> None:
    tournament = sit_and_go(3, buy_in=1_000, fee=100)
    register_players(tournament, 3)
    table = the_table(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(vip_player=user_at(table, 2), vip_bounty=2_500)
    knocker = user_at(table, 1)
    # Seat 3 (not the VIP) is knocked out: nothing to win.
    play_hand(table, {1: "AsAh", 2: "KcKd", 3: "7c2d"}, "3s8h9dJcQs", shove(3, 1), now=FIRST_HAND_AT, button=3)
    assert cash(knocker) == 100_000 - 1_100
    assert not TournamentBountyAward.objects.filter(tournament=tournament).exists()
    assert bounty_events(table) == []
    coordinate(FIRST_HAND_AT)
    # Heads-up: the button moves to the VIP's seat 2; the VIP shoves and loses to seat 1.
    later = FIRST_HAND_AT + timedelta(seconds=30)
    coordinate(later)
    vip_entry = entry_of(tournament, user_at(table, 2))
    play_hand(table, {1: "AsAh", 2: "7c2d"}, "3s8h9dJcQs", shove(), now=later, button=2)
    assert entry_of(tournament, vip_entry.user).bounty == 0
    award = TournamentBountyAward.objects.get(tournament=tournament)
    assert (award.winner.user, award.cash, award.vip) == (knocker, 0, 2_500)
    assert cash(knocker) == 100_000 - 1_100 + 2_500
    call_command("wallet_reconcile")
