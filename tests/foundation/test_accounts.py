"""Players sign up, log in and out; staff roles are groups with permissions."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from poker_site.accounts.models import User
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF, ensure_role_groups

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"


def test_a_player_signs_up_and_is_logged_in(client: Client) -> None:
    response = client.post(
        reverse("accounts:sign_up"),
        {
            "username": "newplayer",
            "email": "New@Example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "date_of_birth": "1990-05-17",
            "accept_terms": "on",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="newplayer")
    assert user.email == "new@example.com"
    assert client.get(reverse("home")).context["user"] == user


def test_sign_up_explains_what_is_wrong(client: Client) -> None:
    User.objects.create_user("taken", "taken@example.com", PASSWORD)
    response = client.post(
        reverse("accounts:sign_up"),
        {"username": "other", "email": "TAKEN@example.com", "password1": "short", "password2": "short"},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "An account with this email already exists." in body
    assert "too short" in body
    assert not User.objects.filter(username="other").exists()


def test_a_player_logs_in_and_out(client: Client) -> None:
    User.objects.create_user("player", "p@example.com", PASSWORD)
    response = client.post(reverse("accounts:login"), {"username": "player", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    client.post(reverse("accounts:logout"))
    assert "_auth_user_id" not in client.session


def test_log_in_is_locked_after_five_failures_even_with_the_right_password(client: Client) -> None:
    User.objects.create_user("victim", "v@example.com", PASSWORD)
    for _ in range(5):
        response = client.post(reverse("accounts:login"), {"username": "victim", "password": "wrong-guess"})
        assert response.status_code == 200
    response = client.post(reverse("accounts:login"), {"username": "victim", "password": PASSWORD})
    assert response.status_code == 200
    assert "Too many failed log-in attempts. Try again in 15 minutes." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_admin_log_in_is_locked_too(client: Client) -> None:
    User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    for _ in range(5):
        client.post("/admin/login/", {"username": "boss", "password": "nope"})
    client.post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert "_auth_user_id" not in client.session


def test_a_success_before_the_limit_clears_the_count(client: Client) -> None:
    User.objects.create_user("forgetful", "f@example.com", PASSWORD)
    for _ in range(3):
        client.post(reverse("accounts:login"), {"username": "forgetful", "password": "wrong"})
    client.post(reverse("accounts:login"), {"username": "forgetful", "password": PASSWORD})
    assert "_auth_user_id" in client.session


def test_staff_roles_are_groups_with_permissions() -> None:
    ensure_role_groups()
    support = Group.objects.get(name=SUPPORT_STAFF)
    compliance = Group.objects.get(name=COMPLIANCE_REVIEWERS)
    support_codes = set(support.permissions.values_list("codename", flat=True))
    compliance_codes = set(compliance.permissions.values_list("codename", flat=True))
    assert {"view_user", "change_user"} <= support_codes
    assert "view_user" in compliance_codes
    assert "change_user" not in compliance_codes


def test_a_support_agent_can_open_the_admin(client: Client) -> None:
    ensure_role_groups()
    agent = User.objects.create_user("agent", "a@example.com", PASSWORD, is_staff=True)
    agent.groups.add(Group.objects.get(name=SUPPORT_STAFF))
    client.force_login(agent)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/accounts/user/").status_code == 200
