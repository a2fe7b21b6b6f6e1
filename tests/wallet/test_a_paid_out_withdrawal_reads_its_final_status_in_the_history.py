"""The cashier history's row of a withdrawal reads the withdrawal's status now: "Withdrawal: completed" once paid
out, "Withdrawal: pending payout" while it waits, not "Withdrawal requested" for ever. The payout moves the money out
of the pending-withdrawals account, not the player's cash account, so the history's only row of a withdrawal is the
request's (QA report i, finding 2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from wallet.services import withdrawal_complete, withdrawal_request

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


def test_a_paid_out_withdrawal_reads_completed(make_player: Callable[..., User], client: Client) -> None:
    player = make_player("paid", 5_000)
    client.force_login(player)
    withdrawal = withdrawal_request(player, 2_000, "payout-1")
    body = client.get(reverse("wallet:cashier")).content.decode()
    assert '<td data-kind="withdrawal">Withdrawal: pending payout</td>' in body
    withdrawal_complete(withdrawal, provider_reference="bank-1")
    body = client.get(reverse("wallet:cashier")).content.decode()
    assert '<td data-kind="withdrawal">Withdrawal: completed</td>' in body
    assert "Withdrawal requested" not in body
    assert f'data-testid="cashier-status-{withdrawal.pk}">completed' in body
