"""Checks other apps register to refuse a player's deposit (e.g. responsible gaming: the player's own deposit limits
and self-exclusion).

A check is a function of the player, the amount in cents, the currency and the moment, returning ``None`` (no
objection) or the refusal in words the player may read. ``amount`` is the new deposit alone; a check that limits what
a player deposits over time counts the deposits already made itself, and must count the pending ones too: a pending
deposit is the cashier's reservation while the payment provider is asked to charge (``deposit_reserve``), it may
already be charged, and it becomes completed with its reservation time unchanged (or is deleted if declined). So the
amount a limit checks is ``amount`` + the completed deposits + the pending deposits of its window, each deposit once
(:func:`poker_site.responsible_gaming.services.deposits_since` sums both in one statement).

``check_deposit_limits`` asks every registered check under the player's cashier lock (``deposit_reserve``,
``deposit_create``), and every change of a player's deposits (reserve, complete, release) takes that lock, so a
refusal changes nothing and two deposits cannot both pass a limit. Apps register their checks once, in their
``AppConfig.ready``.
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
