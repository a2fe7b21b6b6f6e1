"""Checks other apps register to refuse a player's withdrawal (e.g. the compliance desk: an account under review can
play but cannot withdraw, FRD-04, FRD-18).

A check is a function of the player returning ``None`` (no objection) or the refusal in words the player may read.
``withdrawal_request`` asks every registered check inside its transaction, after the player's cashier lock, so a
refusal changes nothing. Apps register their checks once, in their ``AppConfig.ready``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from wallet.errors import WithdrawalRefused

if TYPE_CHECKING:
    from poker_site.accounts.models import User

WithdrawalCheck = Callable[["User"], str | None]

_checks: list[WithdrawalCheck] = []


def withdrawal_check_register(check: WithdrawalCheck) -> None:
    """Add ``check`` (registering the same function again does nothing)."""
    if check not in _checks:
        _checks.append(check)


def withdrawal_checks_pass(user: User) -> None:
    """Raise :class:`~wallet.errors.WithdrawalRefused` with the first objection of a registered check."""
    for check in _checks:
        refusal = check(user)
        if refusal:
            raise WithdrawalRefused(refusal)
