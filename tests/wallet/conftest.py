"""Fixtures for the wallet tests: players with funded cash accounts and the house accounts."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from poker_site.accounts.models import User
from wallet.models import Account, AccountKind, Leg, Transfer
from wallet.services import TransferLeg, player_cash_account, system_account, transfer_create

_keys = itertools.count(1)


def new_key(prefix: str = "test") -> str:
    """A fresh idempotency key."""
    return f"{prefix}-{next(_keys)}"


def fund(account: Account, cents: int) -> Transfer:
    """Put ``cents`` on ``account`` from the outside world (as a deposit would)."""
    outside = system_account(AccountKind.OUTSIDE_WORLD, account.currency)
    return transfer_create(
        kind="deposit",
        legs=[TransferLeg(outside, -cents), TransferLeg(account, cents)],
        idempotency_key=new_key("fund"),
        reference=f"test-funding:{account.pk}",
    )


def ledger_row_counts() -> tuple[int, int, int]:
    """(accounts, transfers, legs): asserted unchanged after a refused operation."""
    return Account.objects.count(), Transfer.objects.count(), Leg.objects.count()


@pytest.fixture
def make_player(db: None) -> Callable[..., User]:
    counter = itertools.count(1)

    def make(username: str | None = None, cents: int = 0) -> User:
        user = User.objects.create_user(username=username or f"player{next(counter)}", password="x-unused-password")
        if cents:
            fund(player_cash_account(user), cents)
        return user

    return make


@pytest.fixture
def alice(make_player: Callable[..., User]) -> User:
    """A player with €100.00 in her cash account."""
    return make_player("alice", 10_000)


@pytest.fixture
def bob(make_player: Callable[..., User]) -> User:
    """A player with €50.00 in his cash account."""
    return make_player("bob", 5_000)


def _staff(username: str, role: str) -> User:
    from django.contrib.auth.models import Group

    from poker_site.accounts.roles import ensure_role_groups

    ensure_role_groups()
    user = User.objects.create_user(username=username, password="x-unused-password", is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    return User.objects.get(pk=user.pk)  # fresh instance: no cached permissions


@pytest.fixture
def support(db: None) -> User:
    """A member of the "Support staff" group (may adjust balances)."""
    from poker_site.accounts.roles import SUPPORT_STAFF

    return _staff("support-agent", SUPPORT_STAFF)


@pytest.fixture
def reviewer(db: None) -> User:
    """A member of the "Compliance reviewers" group (may withhold, release and seize)."""
    from poker_site.accounts.roles import COMPLIANCE_REVIEWERS

    return _staff("compliance-reviewer", COMPLIANCE_REVIEWERS)


@pytest.fixture
def second_support(db: None) -> User:
    """Another member of the "Support staff" group: the second pair of eyes on a colleague's proposal."""
    from poker_site.accounts.roles import SUPPORT_STAFF

    return _staff("support-colleague", SUPPORT_STAFF)


@pytest.fixture
def administrator(db: None) -> User:
    """An administrator: administrators are superusers (docs/roles.md)."""
    return User.objects.create_superuser("administrator", "administrator@example.com", "x-unused-password")


@pytest.fixture
def second_administrator(db: None) -> User:
    return User.objects.create_superuser("administrator-2", "administrator-2@example.com", "x-unused-password")
