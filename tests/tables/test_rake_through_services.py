"""Rake taken by the table services at the end of a hand (RAKE-02..RAKE-08, ENG-25)."""

from __future__ import annotations

import pytest

from games.models import HandEvent, HandStatus
from games.runtime.engine_state import hand_engine_state
from tests.tables.support import (
    act,
    check_or_call_down,
    current_hand,
    deal,
    open_table,
    player,
    seat_at,
    seat_players,
    stack,
)
from wallet.models import AccountKind
from wallet.services import balance_of, ledger_reconcile, system_account

pytestmark = pytest.mark.django_db


def everyone_all_in(table: object, players: int) -> None:
    """Every player puts their whole stack in (all-in when allowed, otherwise calling the all-in)."""
    for _ in range(players * 2):
        hand = current_hand(table)
        if hand is None or hand.status != HandStatus.RUNNING:
            return
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        act(table, "all_in" if legal.all_in_amount is not None else "call")
    raise AssertionError("the hand did not end")


def test_rake_02_rake_03_an_all_in_preflop_hand_is_run_out_and_raked_capped_at_the_regular_cap() -> None:
    """NL10, 4 players all-in for €10.00: pot €40.00 → 3.5 % = €1.40, capped at €1.00 (RAKE-02 example)."""
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(4)]
    seat_players(table, users, 1000)
    hand = deal(table)
    everyone_all_in(table, 4)
    hand.refresh_from_db()
    assert hand.street_reached == "river"
    assert (hand.pot_total, hand.rake, hand.rake_cap_applied, hand.players_dealt_in) == (4000, 100, 100, 4)
    assert balance_of(system_account(AccountKind.HOUSE_RAKE)) == 100
    assert sum(stack(table, user) for user in users) == 3900
    assert ledger_reconcile() == []


def test_rake_06_three_players_use_the_reduced_cap() -> None:
    """NL50, 3 players, all-in for €50.00 each: pot €150.00, 5.5 % = €8.25 → 2–3-player cap €1.50."""
    table = open_table("holdem", "NL50")
    seat_players(table, [player() for _ in range(3)], 5000)
    hand = deal(table)
    everyone_all_in(table, 3)
    hand.refresh_from_db()
    assert (hand.pot_total, hand.rake, hand.rake_cap_applied, hand.rake_rate_basis_points) == (15_000, 150, 150, 550)


def test_rake_04_a_tiny_raked_pot_pays_one_cent() -> None:
    """NL4, 5 players limp and check down: pot €0.20 → 2 % = €0.004 → rounds to 0 → minimum €0.01."""
    table = open_table("holdem", "NL4")
    seat_players(table, [player() for _ in range(5)], 400)
    hand = deal(table)
    check_or_call_down(table)
    hand.refresh_from_db()
    assert (hand.pot_total, hand.rake) == (20, 1)


def test_rake_07_side_pots_pay_rake_in_proportion_and_the_hand_balances() -> None:
    """NL10, stacks €5.00, €10.00, €10.00 all-in: main pot 1500, side pot 1000, rake 3.5 % of 2500 = 87.5 → 88 cents,
    taken 53 from the main pot and 35 from the side pot (largest remainder, AMB-25)."""
    table = open_table("holdem", "NL10")
    short, big_one, big_two = player(), player(), player()
    seat_at(table, {1: short}, 500)
    seat_at(table, {2: big_one, 3: big_two}, 1000)
    hand = deal(table)
    everyone_all_in(table, 3)
    hand.refresh_from_db()
    assert (hand.pot_total, hand.rake) == (2500, 88)
    settled = HandEvent.objects.get(hand=hand, kind="hand_settled")
    assert settled.payload["rake_per_pot"] == [53, 35]
    assert sum(settled.payload["net"].values()) == -88
    assert stack(table, short) + stack(table, big_one) + stack(table, big_two) == 2500 - 88
    assert ledger_reconcile() == []


def test_rake_08_each_hand_records_what_reporting_needs() -> None:
    table = open_table("omaha", "PL25")
    seat_players(table, [player() for _ in range(3)], 2500)
    hand = deal(table)
    check_or_call_down(table)
    hand.refresh_from_db()
    assert hand.rake_rate_basis_points == 300
    assert hand.rake_cap_applied == 150  # three players dealt in
    assert hand.players_dealt_in == 3
    assert hand.pot_total == 75
    assert hand.rake == 2  # 3 % of 75 = 2.25 → 2
    assert hand.settlement is not None
