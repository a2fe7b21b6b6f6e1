"""The player's responsible-gaming page (/responsible-gaming/): deposit limits in euros with what is in force and
pending, the reminder interval, and self-exclusion with a confirmation box; bad input answers 400 with the reason and
changes nothing. Staff see the records read-only in the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from poker_site.accounts.roles import SUPPORT_STAFF, ensure_role_groups
from poker_site.responsible_gaming.models import DepositLimitChange, SelfExclusion
from poker_site.responsible_gaming.services import deposit_limit_set, self_exclusion_start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture
def user(client: Client) -> User:
    player = User.objects.create_user("pager", "pager@example.com", "x-unused-password")
    client.force_login(player)
    return player


def test_a_limit_in_euros_is_set_and_shown(client: Client, user: User) -> None:
    response = client.post(
        reverse("responsible_gaming:deposit_limit"), {"limit-period": "week", "limit-amount": "150.50"}
    )
    assert response.status_code == 302
    assert DepositLimitChange.objects.get(user=user).amount == 15_050
    body = client.get(reverse("responsible_gaming:overview")).content.decode()
    assert "Your weekly deposit limit is now €150.50." in body
    assert '<td data-testid="limit-week">€150.50</td>' in body


def test_a_raise_is_shown_as_pending_with_its_time(client: Client, user: User) -> None:
    deposit_limit_set(user, "day", 1_000)
    client.post(reverse("responsible_gaming:deposit_limit"), {"limit-period": "day", "limit-amount": "20"})
    body = client.get(reverse("responsible_gaming:overview")).content.decode()
    assert "Your daily deposit limit will be €20.00 from" in body
    assert '<td data-testid="limit-day">€10.00</td>' in body
    assert "€20.00 from" in body


def test_removing_a_limit_says_when(client: Client, user: User) -> None:
    deposit_limit_set(user, "month", 1_000)
    client.post(reverse("responsible_gaming:deposit_limit"), {"limit-period": "month", "limit-remove": "on"})
    body = client.get(reverse("responsible_gaming:overview")).content.decode()
    assert "Your monthly deposit limit will be removed at" in body


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"limit-period": "day", "limit-amount": ""}, "Give a limit in euros, or tick “No limit”."),
        (
            {"limit-period": "day", "limit-amount": "10", "limit-remove": "on"},
            "Either give a limit or tick “No limit”, not both.",
        ),
        ({"limit-period": "day", "limit-amount": "-5"}, "The amount must be positive."),
        ({"limit-period": "decade", "limit-amount": "5"}, "Select a valid choice."),
    ],
)
def test_bad_limit_input_answers_400_and_changes_nothing(
    client: Client, user: User, data: dict[str, str], message: str
) -> None:
    response = client.post(reverse("responsible_gaming:deposit_limit"), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not DepositLimitChange.objects.exists()


def test_self_exclusion_needs_the_confirmation_box(client: Client, user: User) -> None:
    response = client.post(reverse("responsible_gaming:self_exclusion"), {"exclusion-period": "7d"})
    assert response.status_code == 400
    assert "Tick the box to confirm the self-exclusion." in response.content.decode()
    assert not SelfExclusion.objects.exists()


def test_a_confirmed_self_exclusion_starts_and_the_pages_say_so(client: Client, user: User) -> None:
    response = client.post(
        reverse("responsible_gaming:self_exclusion"), {"exclusion-period": "7d", "exclusion-confirm": "on"}
    )
    assert response.status_code == 302
    assert SelfExclusion.objects.filter(user=user).count() == 1
    body = client.get(reverse("responsible_gaming:overview")).content.decode()
    assert "Your self-exclusion has started." in body
    assert 'data-testid="self-exclusion-status"' in body
    assert 'action="/responsible-gaming/self-exclusion/"' not in body  # no second form
    lobby = client.get(reverse("home")).content.decode()
    assert "You cannot play or deposit: you have excluded yourself until" in lobby
    assert "Withdrawals remain possible." in lobby


def test_the_page_needs_a_logged_in_player(client: Client) -> None:
    response = client.get(reverse("responsible_gaming:overview"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_support_sees_self_exclusions_and_limits_read_only_in_the_admin(client: Client) -> None:
    player = User.objects.create_user("excluded", "excluded@example.com", "x-unused-password")
    deposit_limit_set(player, "day", 1_000)
    exclusion = self_exclusion_start(player, "30d", confirmed=True).exclusion
    ensure_role_groups()
    agent = User.objects.create_user("agent", "agent@example.com", "x-unused-password", is_staff=True)
    agent.groups.add(Group.objects.get(name=SUPPORT_STAFF))
    client.force_login(agent)
    listing = client.get(reverse("admin:responsible_gaming_selfexclusion_changelist"))
    assert listing.status_code == 200
    assert "excluded" in listing.content.decode()
    page = client.get(reverse("admin:responsible_gaming_selfexclusion_change", args=[exclusion.pk]))
    assert page.status_code == 200
    assert 'name="ends_at' not in page.content.decode()  # shown, not editable
    response = client.post(
        reverse("admin:responsible_gaming_selfexclusion_change", args=[exclusion.pk]), {"period": "24h"}
    )
    assert response.status_code == 403
    assert client.get(reverse("admin:responsible_gaming_depositlimitchange_changelist")).status_code == 200
    assert client.get(reverse("admin:responsible_gaming_selfexclusion_delete", args=[exclusion.pk])).status_code == 403
    assert SelfExclusion.objects.get(pk=exclusion.pk).period == "30d"
