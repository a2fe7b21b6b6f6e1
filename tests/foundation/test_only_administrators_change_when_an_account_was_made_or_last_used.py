"""When an account was made (``date_joined``) and last used (``last_login``) are read-only on the user page for every
role but administrators: account age decides freeroll eligibility (TRN-17 entry requirements), so support staff
editing a player's account cannot make it older (issue 25). Compliance reviewers only read accounts anyway."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

LONG_AGO = (timezone.now() - timedelta(days=3 * 365)).replace(microsecond=0)


def player() -> User:
    return User.objects.create_user(username="player-pat", email="pat@example.com", password="pat-old-password-42")


def form_backdating(user: User) -> dict[str, str]:
    """The change form as a browser posts it, with the account's dates set three years back."""
    return {
        "username": user.username,
        "first_name": "",
        "last_name": "",
        "email": user.email,
        "screen_name": "Pat",
        "is_active": "on",
        "date_joined_0": LONG_AGO.strftime("%Y-%m-%d"),
        "date_joined_1": LONG_AGO.strftime("%H:%M:%S"),
        "last_login_0": LONG_AGO.strftime("%Y-%m-%d"),
        "last_login_1": LONG_AGO.strftime("%H:%M:%S"),
    }


def test_support_saving_a_players_account_cannot_backdate_it() -> None:
    pat = player()
    joined = pat.date_joined
    client = logged_in(staff_member(SUPPORT_STAFF))

    page = client.get(f"/admin/accounts/user/{pat.pk}/change/").content.decode()
    response = client.post(f"/admin/accounts/user/{pat.pk}/change/", form_backdating(pat))

    assert 'name="date_joined_0"' not in page
    assert 'name="last_login_0"' not in page
    assert response.status_code == 302  # saved, the other fields changed
    pat.refresh_from_db()
    assert pat.screen_name == "Pat"
    assert (pat.date_joined, pat.last_login) == (joined, None)


def test_compliance_reviewers_cannot_change_an_account_at_all() -> None:
    pat = player()
    joined = pat.date_joined
    client = logged_in(staff_member(COMPLIANCE_REVIEWERS))

    response = client.post(f"/admin/accounts/user/{pat.pk}/change/", form_backdating(pat))

    assert response.status_code == 403
    pat.refresh_from_db()
    assert (pat.date_joined, pat.last_login) == (joined, None)


def test_administrators_may_correct_the_dates() -> None:
    pat = player()
    client = logged_in(staff_member(ADMINISTRATORS))

    page = client.get(f"/admin/accounts/user/{pat.pk}/change/").content.decode()
    response = client.post(f"/admin/accounts/user/{pat.pk}/change/", form_backdating(pat))

    assert 'name="date_joined_0"' in page
    assert response.status_code == 302
    pat.refresh_from_db()
    assert pat.date_joined == LONG_AGO
    assert pat.last_login == LONG_AGO
