"""Issue 30: ``wallet_reconcile`` checks each cash table account against the chips at the table: a player dealt into
a running hand holds exactly their start-of-hand stack, an ended table session holds nothing. Money booked onto one
behind the table's back (the ledger still balances) fails the check, naming the account and the difference."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import TableSession
from tests.tables.support import START, deal, left_table_earlier, open_table, player, seat_players
from wallet.models import Account, AccountKind
from wallet.services import TransferLeg, ledger_reconcile, system_account, transfer_create

pytestmark = pytest.mark.django_db


def _book_by_hand(account: Account, cents: int) -> None:
    transfer_create(
        kind="staff_adjustment",
        legs=[TransferLeg(system_account(AccountKind.OUTSIDE_WORLD), -cents), TransferLeg(account, cents)],
        idempotency_key=f"by-hand:{account.pk}",
        reference="test-tampering",
    )


def test_the_chips_of_a_hand_in_play_reconcile_and_money_added_behind_it_fails() -> None:
    table = open_table("holdem", "NL10")
    players = [player() for _ in range(3)]
    seat_players(table, players, 1000)
    deal(table)
    assert ledger_reconcile() == []

    session = TableSession.objects.get(table=table, user=players[0], ended_at__isnull=True)
    _book_by_hand(session.account, 2_00)

    (problem,) = ledger_reconcile()
    assert problem.startswith(f"{session.account.label} holds €12.00 but the chips the player started")
    assert problem.endswith("total €10.00: €2.00 more than it must.")


def test_an_ended_table_session_holding_money_fails() -> None:
    table = open_table("holdem", "NL10")
    user = player()
    session = left_table_earlier(user, table, 1000, START - timedelta(hours=1))
    assert ledger_reconcile() == []

    _book_by_hand(session.account, 5)

    (problem,) = ledger_reconcile()
    assert f"{session.account.label} holds €0.05 but the chips of its ended table session total €0.00" in problem
