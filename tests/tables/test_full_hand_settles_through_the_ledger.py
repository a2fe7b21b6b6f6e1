"""A whole hand played through the services moves money once, with the rake, and the ledger reconciles
(RAKE-01..07, CASH-23, GEN-07)."""

from __future__ import annotations

import pytest

from games.models import Hand, HandEvent, HandStatus
from tests.tables.support import (
    check_or_call_down,
    deal,
    money_in_table_accounts,
    open_table,
    player,
    seat_players,
    stack,
)
from wallet.models import AccountKind, Transfer
from wallet.services import balance_of, ledger_reconcile, system_account

pytestmark = pytest.mark.django_db


def test_a_hand_checked_down_to_showdown_is_raked_and_settled_in_one_transfer() -> None:
    """RAKE-02/05: NL10 at 3.5 %, three players each put in 10 cents preflop: pot 30, rake round(1.05) = 1 cent."""
    table = open_table("holdem", "NL10")
    players = [player() for _ in range(3)]
    seat_players(table, players, 1000)
    deal(table)
    hand = check_or_call_down(table)
    hand.refresh_from_db()
    assert hand.status == HandStatus.FINISHED
    assert hand.rules_version == "2.7"  # GEN-02
    assert hand.street_reached == "river"
    assert hand.pot_total == 30
    assert hand.rake == 1
    assert balance_of(system_account(AccountKind.HOUSE_RAKE)) == 1
    assert sum(stack(table, user) for user in players) == 3000 - 1
    assert money_in_table_accounts() == 3000 - 1
    settlements = Transfer.objects.filter(reference=f"hand:{hand.pk}")
    assert settlements.count() == 1
    assert settlements.get().idempotency_key == f"cash-hand:{hand.pk}:settlement"
    assert ledger_reconcile() == []


def test_a_hand_won_preflop_is_not_raked() -> None:
    """RAKE-03: no flop, no drop."""
    table = open_table("holdem", "NL10")
    players = [player() for _ in range(3)]
    seat_players(table, players, 1000)
    hand = deal(table)
    from tests.tables.support import act

    act(table, "fold")
    act(table, "fold")
    hand.refresh_from_db()
    assert hand.status == HandStatus.FINISHED
    assert hand.rake == 0
    assert hand.street_reached == "preflop"
    assert money_in_table_accounts() == 3000
    assert ledger_reconcile() == []


def test_every_event_of_the_hand_is_numbered_in_order_without_gaps() -> None:
    """GEN-07: the hand's log is complete and sequence numbers per table increase by one."""
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1000)
    deal(table)
    check_or_call_down(table)
    sequences = list(HandEvent.objects.filter(table=table).order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, len(sequences) + 1))
    hand = Hand.objects.get(table=table)
    kinds = list(HandEvent.objects.filter(hand=hand).order_by("sequence").values_list("kind", flat=True))
    assert kinds[0] == "hand_started"
    assert "deck_recorded" in kinds
    assert kinds.count("hole_cards_dealt") == 3
    assert kinds[-1] == "hand_settled"
