"""A player's deposit limit per day, week or month: a cut (or the same amount) takes effect at once, a raise or a
removal 24 hours later; a cut drops a pending raise; every change is an append-only row with its effective time,
audited; bad input changes nothing. Times are explicit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from poker_site.accounts.models import User
from poker_site.responsible_gaming.models import DepositLimitChange
from poker_site.responsible_gaming.services import (
    MAXIMUM_LIMIT_CENTS,
    ResponsibleGamingError,
    deposit_limit_in_force,
    deposit_limit_set,
    deposit_limits_of,
)
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def player() -> User:
    return User.objects.create_user("limited", "limited@example.com", "x-unused-password")


def later(hours: float) -> datetime:
    return START + timedelta(hours=hours)


def test_a_first_limit_applies_at_once(player: User) -> None:
    change = deposit_limit_set(player, "day", 10_000, now=START)
    assert change.effective_at == START
    assert deposit_limit_in_force(player.pk, "day", START) == 10_000
    assert deposit_limit_in_force(player.pk, "week", START) is None


def test_a_cut_applies_at_once(player: User) -> None:
    deposit_limit_set(player, "week", 50_000, now=START)
    deposit_limit_set(player, "week", 20_000, now=later(1))
    assert deposit_limit_in_force(player.pk, "week", later(1)) == 20_000


def test_a_raise_applies_only_24_hours_after_it_was_asked_for(player: User) -> None:
    deposit_limit_set(player, "month", 20_000, now=START)
    change = deposit_limit_set(player, "month", 90_000, now=later(2))
    assert change.effective_at == later(26)
    assert deposit_limit_in_force(player.pk, "month", later(25.99)) == 20_000
    assert deposit_limit_in_force(player.pk, "month", later(26)) == 90_000
    (_day, _week, month) = deposit_limits_of(player.pk, later(3))
    assert (month.in_force, month.pending.amount if month.pending else None) == (20_000, 90_000)


def test_removing_a_limit_applies_only_24_hours_later(player: User) -> None:
    deposit_limit_set(player, "day", 10_000, now=START)
    change = deposit_limit_set(player, "day", None, now=later(1))
    assert change.effective_at == later(25)
    assert deposit_limit_in_force(player.pk, "day", later(24)) == 10_000
    assert deposit_limit_in_force(player.pk, "day", later(25)) is None


def test_a_cut_during_a_pending_raise_applies_at_once_and_drops_the_raise(player: User) -> None:
    deposit_limit_set(player, "day", 10_000, now=START)
    deposit_limit_set(player, "day", 50_000, now=later(1))  # due at +25 h
    deposit_limit_set(player, "day", 8_000, now=later(2))
    assert deposit_limit_in_force(player.pk, "day", later(2)) == 8_000
    assert deposit_limit_in_force(player.pk, "day", later(30)) == 8_000
    (day, _week, _month) = deposit_limits_of(player.pk, later(3))
    assert day.pending is None


def test_setting_the_same_limit_again_cancels_a_pending_raise(player: User) -> None:
    deposit_limit_set(player, "week", 10_000, now=START)
    deposit_limit_set(player, "week", 40_000, now=later(1))
    deposit_limit_set(player, "week", 10_000, now=later(2))
    assert deposit_limit_in_force(player.pk, "week", later(48)) == 10_000


def test_each_change_is_a_new_row_and_an_audit_entry(player: User) -> None:
    deposit_limit_set(player, "day", 10_000, now=START)
    deposit_limit_set(player, "day", 30_000, now=later(1))
    rows = list(DepositLimitChange.objects.filter(user=player).order_by("pk").values_list("amount", "effective_at"))
    assert rows == [(10_000, START), (30_000, later(25))]
    entries = AuditEntry.objects.filter(action="deposit_limit_set", player=player).order_by("pk")
    assert [(entry.before, entry.after) for entry in entries] == [
        ({"amount": None}, {"amount": 10_000}),
        ({"amount": 10_000}, {"amount": 30_000}),
    ]
    assert entries[1].details["takes_effect_at"] == later(25).isoformat()


@pytest.mark.parametrize(
    ("period", "amount", "message"),
    [
        ("year", 1_000, "Choose a daily, weekly or monthly limit."),
        ("day", 0, "A deposit limit is a positive amount of whole cents."),
        ("day", -500, "A deposit limit is a positive amount of whole cents."),
        ("day", 10.5, "A deposit limit is a positive amount of whole cents."),
        ("day", "1000", "A deposit limit is a positive amount of whole cents."),
        ("day", True, "A deposit limit is a positive amount of whole cents."),
        ("day", MAXIMUM_LIMIT_CENTS + 1, "A deposit limit can be at most"),
    ],
)
def test_a_bad_limit_is_refused_and_changes_nothing(player: User, period: object, amount: object, message: str) -> None:
    deposit_limit_set(player, "day", 10_000, now=START)
    with pytest.raises(ResponsibleGamingError, match=message):
        deposit_limit_set(player, period, amount, now=later(1))
    assert DepositLimitChange.objects.filter(user=player).count() == 1
    assert AuditEntry.objects.filter(action="deposit_limit_set").count() == 1
    assert deposit_limit_in_force(player.pk, "day", later(30)) == 10_000
