"""Ticking "No limit" for a period that has no limit and nothing pending records nothing and says there is no limit
(QA report i, finding 7); before, it recorded a pending "No limit from tomorrow"."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from poker_site.responsible_gaming.models import DepositLimitChange
from poker_site.responsible_gaming.services import deposit_limit_set
from wallet.models import AuditEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


def test_the_service_records_nothing() -> None:
    player = User.objects.create_user("nolimit", "nolimit@example.com", "x-unused-password")
    assert deposit_limit_set(player, "week", None) is None
    assert not DepositLimitChange.objects.filter(user=player).exists()
    assert not AuditEntry.objects.filter(action="deposit_limit_set", player=player).exists()


def test_the_page_says_there_is_no_limit(client: Client) -> None:
    player = User.objects.create_user("nolimit", "nolimit@example.com", "x-unused-password")
    client.force_login(player)
    response = client.post(
        reverse("responsible_gaming:deposit_limit"), {"limit-period": "week", "limit-remove": "on"}, follow=True
    )
    body = response.content.decode()
    assert "You have no weekly deposit limit." in body
    assert '<td data-testid="pending-week">—</td>' in body
    assert not DepositLimitChange.objects.filter(user=player).exists()
