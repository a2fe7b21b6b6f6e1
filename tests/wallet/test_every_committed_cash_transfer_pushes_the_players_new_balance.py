"""The header balance is live: every transfer that changes a player's cash balance, whoever books it (a cash-out, a
prize, a bounty, a UTH round, a deposit), sends the player's new balance to their player socket once it commits; a
transfer between other accounts, a rolled-back one and an idempotent replay send nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from poker_site.accounts.models import User
from tests.wallet.conftest import new_key
from wallet.models import AccountKind
from wallet.services import TransferLeg, player_cash_account, reference_account, transfer_create


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, Any]]]:
    from poker_site.core import player_notices

    notices: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr(player_notices, "player_notify", lambda user_id, notice: notices.append((user_id, notice)))
    return notices


def buy_in(player: User, cents: int, key: str) -> None:
    session = reference_account(AccountKind.TABLE_SESSION, f"table-session:{player.pk}", owner=player)
    transfer_create(
        kind="cash_buy_in",
        legs=[TransferLeg(player_cash_account(player), -cents), TransferLeg(session, cents)],
        idempotency_key=key,
        reference=f"table-session:{player.pk}",
    )


def test_a_cash_transfer_sends_each_player_their_balance_after_it_on_commit(
    alice: User, bob: User, sent: list[tuple[int, dict[str, Any]]], django_capture_on_commit_callbacks: Any
) -> None:
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        transfer_create(
            kind="staff_adjustment",
            legs=[TransferLeg(player_cash_account(alice), -2_500), TransferLeg(player_cash_account(bob), 2_500)],
            idempotency_key=new_key(),
            reference="test",
        )
        assert sent == []  # not before the commit
    assert sorted(sent) == [
        (alice.pk, {"kind": "balance", "cents": 7_500}),
        (bob.pk, {"kind": "balance", "cents": 7_500}),  # 5,000 + 2,500
    ]


def test_a_transfer_between_other_accounts_a_rollback_and_a_replay_send_nothing(
    alice: User, sent: list[tuple[int, dict[str, Any]]], django_capture_on_commit_callbacks: Any
) -> None:
    key = new_key()
    with django_capture_on_commit_callbacks(execute=True):
        buy_in(alice, 1_000, key)
    assert sent == [(alice.pk, {"kind": "balance", "cents": 9_000})]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        buy_in(alice, 1_000, key)  # the same key: the first transfer comes back, no money moves
        first = reference_account(AccountKind.TABLE_SESSION, f"table-session:{alice.pk}", owner=alice)
        other = reference_account(AccountKind.TABLE_SESSION, "table-session:other", owner=alice)
        transfer_create(
            kind="hand_settlement",
            legs=[TransferLeg(first, -500), TransferLeg(other, 500)],
            idempotency_key=new_key(),
            reference="hand:1",
        )

    def buy_in_then_fail() -> None:
        with transaction.atomic():
            buy_in(alice, 1_000, new_key())
            raise RuntimeError("rolled back")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        buy_in_then_fail()
    assert sent == []
