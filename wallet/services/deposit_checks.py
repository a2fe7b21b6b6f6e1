"""Checks other apps register to refuse a player's deposit (e.g. responsible gaming: the player's own deposit limits
and self-exclusion).

A check is a function of the player, the amount in cents, the currency and the moment, returning ``None`` (no
objection) or the refusal in words the player may read. ``check_deposit_limits`` asks every registered check; inside
``deposit_create`` that is after the player's cashier lock, so a refusal changes nothing and two deposits cannot both
pass a limit. Apps register their checks once, in their ``AppConfig.ready``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from wallet.errors import DepositRefused

if TYPE_CHECKING:
    from poker_site.accounts.models import User

DepositCheck = Callable[["User", int, str, datetime], str | None]

_checks: list[DepositCheck] = []


def deposit_check_register(check: DepositCheck) -> None:
    """Add ``check`` (registering the same function again does nothing)."""
    if check not in _checks:
        _checks.append(check)


def deposit_checks_pass(user: User, amount: int, currency: str, now: datetime) -> None:
    """Raise :class:`~wallet.errors.DepositRefused` with the first objection of a registered check."""
    for check in _checks:
        refusal = check(user, amount, currency, now)
        if refusal:
            raise DepositRefused(refusal)
