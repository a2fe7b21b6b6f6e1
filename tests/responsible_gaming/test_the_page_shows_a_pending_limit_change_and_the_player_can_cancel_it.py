"""The responsible-gaming page shows the pending change of a deposit limit ("€500.00 from <time>", "no limit from
<time>") with a button that cancels it; the limit in force then stays (QA report i, finding 1)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import deposit_limit_in_force, deposit_limit_set, deposit_limits_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture
def user(client: Client) -> User:
    player = User.objects.create_user("pending", "pending@example.com", "x-unused-password")
    client.force_login(player)
    return player


def test_a_pending_removal_reads_no_limit_from_its_time(client: Client, user: User) -> None:
    deposit_limit_set(user, "month", 10_000)
    client.post(reverse("responsible_gaming:deposit_limit"), {"limit-period": "month", "limit-remove": "on"})
    body = client.get(reverse("responsible_gaming:overview")).content.decode()
    (_day, _week, month) = deposit_limits_of(user.pk)
    assert month.pending is not None
    assert f"no limit from {month.pending.effective_at:%Y-%m-%d %H:%M} UTC" in body
    assert 'data-testid="cancel-month"' in body


def test_the_latest_raise_is_shown_and_cancelling_it_keeps_the_limit(client: Client, user: User) -> None:
    deposit_limit_set(user, "day", 10_000)
    client.post(reverse("responsible_gaming:deposit_limit"), {"limit-period": "day", "limit-remove": "on"})
    client.post(reverse("responsible_gaming:deposit_limit"), {"limit-period": "day", "limit-amount": "500"})
    body = client.get(reverse("responsible_gaming:overview")).content.decode()
    assert "€500.00 from" in body
    assert "no limit from" not in body
    response = client.post(reverse("responsible_gaming:deposit_limit_cancel"), {"period": "day"}, follow=True)
    body = response.content.decode()
    assert "The pending change of your daily deposit limit is cancelled." in body
    assert '<td data-testid="pending-day">—</td>' in body
    (day, _week, _month) = deposit_limits_of(user.pk)
    assert (day.in_force, day.pending) == (10_000, None)
    assert deposit_limit_in_force(user.pk, "day") == 10_000
