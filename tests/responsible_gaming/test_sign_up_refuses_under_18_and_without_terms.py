"""Sign-up records the date of birth (18 or older) and the acceptance of the terms and rules with their version and
time (GEN-02, FRD-03); under 18 or without the acceptance nothing is created. Accounts made before (demo data, test
helpers) keep working with no record."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from poker_site.accounts.forms import age_on
from poker_site.accounts.models import User
from poker_site.core.rules import RULES_VERSION

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"


def sign_up(client: Client, **changes: str) -> tuple[int, str]:
    data = {
        "username": "newcomer",
        "email": "newcomer@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "date_of_birth": "1990-05-17",
        "accept_terms": "on",
        **changes,
    }
    data = {key: value for key, value in data.items() if value != ""}
    response = client.post(reverse("accounts:sign_up"), data)
    return response.status_code, response.content.decode()


def years_ago(years: int, *, days: int = 0) -> date:
    today = timezone.localdate()
    try:
        day = today.replace(year=today.year - years)
    except ValueError:  # 29 February
        day = today.replace(year=today.year - years, day=28)
    return day + timedelta(days=days)


def test_gen_02_frd_03_a_sign_up_records_the_date_of_birth_and_the_terms_version_and_time(client: Client) -> None:
    before = timezone.now()
    status, _body = sign_up(client)
    assert status == 302
    user = User.objects.get(username="newcomer")
    assert user.date_of_birth == date(1990, 5, 17)
    assert user.terms_version == RULES_VERSION
    assert user.terms_accepted_at is not None
    assert before <= user.terms_accepted_at <= timezone.now()


def test_a_player_who_turns_18_today_may_sign_up(client: Client) -> None:
    status, _body = sign_up(client, date_of_birth=years_ago(18).isoformat())
    assert status == 302
    assert User.objects.filter(username="newcomer").exists()


def test_a_player_who_turns_18_tomorrow_is_refused_and_no_account_is_made(client: Client) -> None:
    status, body = sign_up(client, date_of_birth=years_ago(18, days=1).isoformat())
    assert status == 400
    assert "You must be 18 or older to sign up." in body
    assert not User.objects.filter(username="newcomer").exists()


def test_a_sign_up_without_a_date_of_birth_or_with_one_in_the_future_is_refused(client: Client) -> None:
    status, body = sign_up(client, date_of_birth="")
    assert status == 400
    assert "This field is required." in body
    status, body = sign_up(client, date_of_birth=(timezone.localdate() + timedelta(days=3)).isoformat())
    assert status == 400
    assert "Enter your real date of birth." in body
    assert not User.objects.filter(username="newcomer").exists()


def test_gen_02_a_sign_up_without_accepting_the_terms_is_refused_and_no_account_is_made(client: Client) -> None:
    status, body = sign_up(client, accept_terms="")
    assert status == 400
    assert "You must accept the terms of service and the rules to sign up." in body
    assert not User.objects.filter(username="newcomer").exists()


def test_the_sign_up_page_asks_for_the_date_of_birth_and_links_the_rules_version(client: Client) -> None:
    body = client.get(reverse("accounts:sign_up")).content.decode()
    assert 'type="date"' in body
    assert 'name="date_of_birth"' in body
    assert 'name="accept_terms"' in body
    assert f"Version {RULES_VERSION}" in body
    assert reverse("rules:index") in body


def test_accounts_made_without_the_sign_up_form_keep_working_with_no_record(client: Client) -> None:
    user = User.objects.create_user("old-timer", "old@example.com", PASSWORD)
    assert (user.date_of_birth, user.terms_version, user.terms_accepted_at) == (None, "", None)
    assert user.session_reminder_minutes == 60
    assert client.login(username="old-timer", password=PASSWORD)
    assert client.get(reverse("home")).status_code == 200


def test_age_counts_whole_years_and_a_29_february_birthday() -> None:
    assert age_on(date(2008, 11, 25), date(2026, 11, 25)) == 18
    assert age_on(date(2008, 11, 26), date(2026, 11, 25)) == 17
    assert age_on(date(2008, 2, 29), date(2026, 2, 28)) == 17
    assert age_on(date(2008, 2, 29), date(2026, 3, 1)) == 18
