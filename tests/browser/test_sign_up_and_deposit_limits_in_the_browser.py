"""Responsible gaming in the browser: the sign-up refuses an under-18 date of birth and records an adult's with the
terms (GEN-02, FRD-03); the player sets a daily deposit limit on the responsible-gaming page, the cashier refuses a
deposit over it naming what remains, and the session reminder shows the session's time and net result with buttons
to continue or log out."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import SESSION_START_KEY
from tests.browser.conftest import Pages, requires_chromium
from tests.browser.flows import PASSWORD, deposit
from wallet.models import Account, AccountKind

pytestmark = [pytest.mark.browser, pytest.mark.slow, requires_chromium]


def fill_sign_up(page: Any, username: str, birth: str) -> None:
    page.goto("/accounts/sign-up/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("#id_date_of_birth").fill(birth)
    page.locator("#id_accept_terms").check()
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.get_by_role("button", name="Create account").click()


def cash_of(user: User) -> int:
    account = Account.objects.filter(owner=user, kind=AccountKind.PLAYER_CASH).first()
    return int(account.balance) if account is not None else 0


def test_sign_up_then_a_daily_limit_refuses_a_bigger_deposit_and_the_reminder_shows(site: Any, pages: Pages) -> None:
    page = pages.new()
    too_young = (timezone.localdate() - timedelta(days=365 * 17)).isoformat()
    fill_sign_up(page, "teen", too_young)
    assert "You must be 18 or older to sign up." in page.locator("form.stacked").inner_text()
    assert not User.objects.filter(username="teen").exists()

    fill_sign_up(page, "grownup", "1990-05-17")
    assert page.locator("[data-testid=player-name]").text_content() == "grownup"
    user = User.objects.get(username="grownup")
    assert user.date_of_birth is not None
    assert user.terms_accepted_at is not None

    page.get_by_role("link", name="Play responsibly").click()
    page.locator("#id_limit-period").select_option("day")
    page.locator("#id_limit-amount").fill("20")
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.get_by_role("button", name="Set limit").click()
    assert page.locator("[data-testid=limit-day]").text_content() == "€20.00"
    pages.screenshot(page, "deposit-limits")

    deposit(page, "25")
    alert = page.locator("[role=alert]").first.inner_text()
    assert "Your daily deposit limit is €20.00" in alert
    assert "at most €20.00 more" in alert
    assert cash_of(user) == 0
    deposit(page, "20")
    assert cash_of(user) == 2_000

    # The session started 61 minutes ago: the next page shows the reminder at once.
    session_cookie = next(cookie for cookie in page.context.cookies() if cookie["name"] == settings.SESSION_COOKIE_NAME)
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_cookie["value"])
    store[SESSION_START_KEY] = (timezone.now() - timedelta(minutes=61)).isoformat()
    store.save()
    page.goto("/")
    reminder = page.locator("#session-reminder")
    reminder.wait_for(state="visible")
    assert "You have been logged in for 1 h 1 min. Your net result this session: €0.00." in reminder.inner_text()
    pages.screenshot(page, "session-reminder")
    page.locator("#session-reminder-continue").click()
    reminder.wait_for(state="hidden")
    page.reload()
    page.wait_for_timeout(500)
    assert not reminder.is_visible()
