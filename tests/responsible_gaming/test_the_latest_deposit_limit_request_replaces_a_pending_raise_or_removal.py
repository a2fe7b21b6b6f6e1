"""The latest request for a period decides (QA report i, finding 1): a raise or removal the player has since replaced
never takes effect. A lower limit applies at once and drops any pending raise or removal; a new raise or removal
replaces the pending one and waits 24 hours from the latest request. Times are explicit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import (
    deposit_limit_cancel_pending,
    deposit_limit_in_force,
    deposit_limit_set,
    deposit_limits_of,
)

pytestmark = pytest.mark.django_db

T = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def at(hours: float) -> datetime:
    return T + timedelta(hours=hours)


@pytest.fixture
def player() -> User:
    return User.objects.create_user("changer", "changer@example.com", "x-unused-password")


def test_a_removal_replaced_by_a_raise_never_takes_effect(player: User) -> None:
    deposit_limit_set(player, "month", 10_000, now=at(-48))
    deposit_limit_set(player, "month", None, now=at(-20))  # a removal due at +4 h
    deposit_limit_set(player, "month", 50_000, now=at(-10))  # replaced by €500, due at +14 h
    assert deposit_limit_in_force(player.pk, "month", at(5)) == 10_000
    assert deposit_limit_in_force(player.pk, "month", at(13)) == 10_000
    assert deposit_limit_in_force(player.pk, "month", at(14)) == 50_000


def test_a_second_raise_replaces_the_first_and_waits_24_hours_from_itself(player: User) -> None:
    deposit_limit_set(player, "day", 10_000, now=at(0))
    deposit_limit_set(player, "day", 50_000, now=at(1))  # due at +25 h
    second = deposit_limit_set(player, "day", 30_000, now=at(2))
    assert second is not None
    assert second.effective_at == at(26)
    assert deposit_limit_in_force(player.pk, "day", at(25)) == 10_000
    assert deposit_limit_in_force(player.pk, "day", at(26)) == 30_000
    assert deposit_limit_in_force(player.pk, "day", at(100)) == 30_000


def test_a_lower_limit_applies_at_once_and_the_pending_raise_never_does(player: User) -> None:
    deposit_limit_set(player, "week", 10_000, now=at(0))
    deposit_limit_set(player, "week", 50_000, now=at(1))
    deposit_limit_set(player, "week", 5_000, now=at(2))
    assert deposit_limit_in_force(player.pk, "week", at(2)) == 5_000
    assert deposit_limit_in_force(player.pk, "week", at(30)) == 5_000


def test_a_lower_limit_cancels_a_pending_removal(player: User) -> None:
    deposit_limit_set(player, "week", 10_000, now=at(0))
    deposit_limit_set(player, "week", None, now=at(1))
    deposit_limit_set(player, "week", 8_000, now=at(2))
    assert deposit_limit_in_force(player.pk, "week", at(30)) == 8_000


def test_the_page_state_shows_only_the_latest_pending_change(player: User) -> None:
    deposit_limit_set(player, "month", 10_000, now=at(-48))
    deposit_limit_set(player, "month", None, now=at(-20))
    deposit_limit_set(player, "month", 50_000, now=at(-10))
    (_day, _week, month) = deposit_limits_of(player.pk, at(5))
    assert month.in_force == 10_000
    assert month.pending is not None
    assert (month.pending.amount, month.pending.effective_at) == (50_000, at(14))


def test_asking_again_for_the_pending_change_keeps_its_time(player: User) -> None:
    deposit_limit_set(player, "day", 10_000, now=at(0))
    deposit_limit_set(player, "day", 50_000, now=at(1))
    assert deposit_limit_set(player, "day", 50_000, now=at(5)) is None
    assert deposit_limit_in_force(player.pk, "day", at(25)) == 50_000


def test_cancelling_a_pending_raise_keeps_the_limit_in_force(player: User) -> None:
    deposit_limit_set(player, "day", 10_000, now=at(0))
    deposit_limit_set(player, "day", 50_000, now=at(1))
    assert deposit_limit_cancel_pending(player, "day", now=at(2)) is not None
    assert deposit_limit_in_force(player.pk, "day", at(30)) == 10_000
    (day, _week, _month) = deposit_limits_of(player.pk, at(3))
    assert day.pending is None
    assert deposit_limit_cancel_pending(player, "day", now=at(4)) is None


def test_cancelling_a_pending_removal_keeps_the_limit_in_force(player: User) -> None:
    deposit_limit_set(player, "month", 10_000, now=at(0))
    deposit_limit_set(player, "month", None, now=at(1))
    deposit_limit_cancel_pending(player, "month", now=at(2))
    assert deposit_limit_in_force(player.pk, "month", at(30)) == 10_000
