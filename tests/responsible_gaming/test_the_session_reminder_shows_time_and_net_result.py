"""The session reminder: the log-in stores the session's start; every page says when the reminder is due (the player's
interval, 60 minutes by default, from the start or from the last "continue"); the reminder's figures are the minutes
logged in and the net result from the ledger (play only: deposits and withdrawals do not count)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import (
    REMINDER_SEEN_KEY,
    SESSION_START_KEY,
    ResponsibleGamingError,
    session_net_result,
    session_reminder_set,
)
from tests.tables.support import START, open_table, seat_players
from tests.wallet.conftest import new_key
from wallet.models import AccountKind, AuditEntry
from wallet.services import TransferLeg, deposit_create, player_cash_account, system_account, transfer_create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]

PASSWORD = "a-long-enough-passphrase-42"


@pytest.fixture
def user() -> User:
    return User.objects.create_user("reminded", "reminded@example.com", PASSWORD)


def log_in(client: Client) -> None:
    response = client.post(reverse("accounts:login"), {"username": "reminded", "password": PASSWORD})
    assert response.status_code == 302


def move_session_start(client: Client, minutes_ago: int) -> None:
    session = client.session
    session[SESSION_START_KEY] = (timezone.now() - timedelta(minutes=minutes_ago)).isoformat()
    session.save()


def house_result(user: User, cents: int) -> None:
    """A game result between the player and the house (a UTH settlement), through the ledger."""
    transfer_create(
        kind="uth_settlement",
        legs=[
            TransferLeg(system_account(AccountKind.HOUSE_UTH_RESULT), -cents),
            TransferLeg(player_cash_account(user), cents),
        ],
        idempotency_key=new_key("result"),
        reference="test:uth",
    )


def test_the_log_in_stores_the_session_start_and_the_page_counts_down_the_default_hour(
    client: Client, user: User
) -> None:
    before = timezone.now()
    log_in(client)
    started = datetime.fromisoformat(client.session[SESSION_START_KEY])
    assert before <= started <= timezone.now()
    response = client.get(reverse("home"))
    assert 3_590 <= response.context["session_reminder_due_in"] <= 3_600
    body = response.content.decode()
    assert 'id="session-reminder"' in body
    assert "js/session_reminder.js" in body


def test_nobody_logged_in_gets_no_reminder(client: Client) -> None:
    body = client.get(reverse("home")).content.decode()
    assert 'id="session-reminder"' not in body


def test_the_figures_give_the_minutes_and_the_net_result_without_deposits(client: Client, user: User) -> None:
    log_in(client)
    move_session_start(client, 75)
    deposit_create(user, 5_000, "bank-1", new_key())
    house_result(user, 1_250)
    house_result(user, -2_000)
    figures = client.get(reverse("responsible_gaming:session")).json()
    assert figures["minutes"] == 75
    assert figures["net_result"] == -750
    assert figures["net_result_text"] == "-€7.50"
    assert figures["reminder_in_seconds"] == 0  # 75 minutes > 60: due now


def test_money_taken_to_a_table_is_not_a_loss(user: User) -> None:
    deposit_create(user, 5_000, "bank-1", new_key())
    seat_players(open_table(now=START), [user], 1_000, now=START)
    assert session_net_result(user.pk, timezone.now() - timedelta(days=3650)) == 0


def test_continue_puts_the_next_reminder_one_interval_later(client: Client, user: User) -> None:
    log_in(client)
    move_session_start(client, 61)
    figures = client.post(reverse("responsible_gaming:session_continue")).json()
    assert 3_590 <= figures["reminder_in_seconds"] <= 3_600
    assert REMINDER_SEEN_KEY in client.session
    assert figures["minutes"] == 61


def test_the_player_chooses_the_interval_and_the_change_is_audited(client: Client, user: User) -> None:
    log_in(client)
    response = client.post(reverse("responsible_gaming:session_reminder"), {"reminder-minutes": "30"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.session_reminder_minutes == 30
    assert 1_790 <= client.get(reverse("home")).context["session_reminder_due_in"] <= 1_800
    entry = AuditEntry.objects.get(action="session_reminder_set", player=user)
    assert (entry.before, entry.after) == ({"minutes": 60}, {"minutes": 30})


@pytest.mark.parametrize("minutes", [0, 7, -30, 10_000, "60", None, True])
def test_an_interval_not_offered_is_refused_and_changes_nothing(user: User, minutes: object) -> None:
    with pytest.raises(ResponsibleGamingError, match="Choose a reminder interval of 15, 30"):
        session_reminder_set(user, minutes)
    user.refresh_from_db()
    assert user.session_reminder_minutes == 60
    assert not AuditEntry.objects.filter(action="session_reminder_set").exists()


def test_the_reminder_pages_need_a_logged_in_player(client: Client) -> None:
    assert client.get(reverse("responsible_gaming:session")).status_code == 302
    assert client.post(reverse("responsible_gaming:session_continue")).status_code == 302
