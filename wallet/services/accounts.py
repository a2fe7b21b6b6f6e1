"""Finding and creating accounts. Every helper is get-or-create and safe under concurrent calls."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db.models import Sum

from poker_site.core.compiled_sql import CompiledSelect, row_insert_unless_taken
from poker_site.core.prepared_queries import PreparedQuery
from wallet.errors import CurrencyMismatch, UnknownAccount
from wallet.models import (
    DEFAULT_CURRENCY,
    NEGATIVE_BALANCE_KINDS,
    SYSTEM_KINDS,
    SYSTEM_REFERENCE,
    Account,
    AccountKind,
)

if TYPE_CHECKING:
    from poker_site.accounts.models import User

_CURRENCY_PATTERN = re.compile(r"^[A-Z]{3}$")

_ACCOUNT_BY_KEY: CompiledSelect[Account] = CompiledSelect(
    lambda kind, currency, reference: Account.objects.filter(kind=kind, currency=currency, reference=reference),
    3,
    text_values=frozenset({0, 1, 2}),
)
"""The account of a (kind, currency, reference) key, unique by ``wallet_account_unique_reference``: every bet, top-up
and settlement looks its accounts up, and the statement is compiled once instead of by ``get_or_create`` each time."""


def _account_get_or_create(kind: str, currency: str, reference: str, defaults: dict[str, object]) -> Account:
    """The account of the key, created with ``defaults`` when there is none yet (safe under concurrent calls: the
    unique key makes a second creator read the first's row, as ``get_or_create`` does)."""
    account = _ACCOUNT_BY_KEY.first(kind, currency, reference)
    if account is not None:
        return account
    new = Account(kind=kind, currency=currency, reference=reference, **defaults)
    if row_insert_unless_taken(new):
        return new
    # Created by a concurrent caller since the read: its row, committed (the INSERT waited for it).
    account = _ACCOUNT_BY_KEY.first(kind, currency, reference)
    if account is None:
        raise UnknownAccount(f"the {kind} account {reference} ({currency}) was neither created nor found")
    return account


def check_currency(currency: object) -> str:
    if not isinstance(currency, str) or not _CURRENCY_PATTERN.match(currency):
        raise CurrencyMismatch(f"{currency!r} is not a three-letter currency code such as 'EUR'.")
    return currency


def _player_reference(user: User) -> str:
    if user is None or user.pk is None:
        raise UnknownAccount("A wallet account needs a saved user.")
    return f"player:{user.pk}"


def player_cash_account(user: User, currency: str = DEFAULT_CURRENCY) -> Account:
    """The player's cash balance (deposits, withdrawals, buy-ins come from and go back to it)."""
    return _account_get_or_create(
        AccountKind.PLAYER_CASH,
        check_currency(currency),
        _player_reference(user),
        {"owner": user, "may_go_negative": False},
    )


def player_cash_accounts_lock(users: Sequence[User], currency: str = DEFAULT_CURRENCY) -> dict[int, Account]:
    """Lock the cash accounts of ``users`` (``SELECT ... FOR UPDATE``, primary-key order, one query) and return them by
    user id; the caller's transaction holds the locks. A player who has no cash account yet gets one, unlocked and
    empty, as :func:`player_cash_account` would give it.

    Why lock: the caller decides an amount from the balances (a hand's auto top-ups) before ``transfer_create`` moves
    it; unlocked, a withdrawal committed in between would make the transfer fail and the whole hand's end with it.
    Primary-key order keeps two tables that top up the same players from locking them in opposite orders."""
    currency = check_currency(currency)
    by_reference = {_player_reference(user): user for user in users}
    found = {
        by_reference[account.reference].pk: account
        for account in Account.objects.select_for_update()
        .filter(kind=AccountKind.PLAYER_CASH, currency=currency, reference__in=list(by_reference))
        .order_by("pk")
    }
    for user in users:
        if user.pk not in found:
            found[user.pk] = player_cash_account(user, currency)
    return found


def system_account(kind: str, currency: str = DEFAULT_CURRENCY) -> Account:
    """The single house/outside/charity account of ``kind`` in ``currency`` (see ``wallet.models.SYSTEM_KINDS``)."""
    if kind not in SYSTEM_KINDS:
        raise UnknownAccount(
            f"{kind!r} is not a system account kind; use player_cash_account or reference_account for it."
        )
    return _account_get_or_create(
        kind,
        check_currency(currency),
        SYSTEM_REFERENCE,
        {"owner": None, "may_go_negative": kind in NEGATIVE_BALANCE_KINDS},
    )


def reference_account(
    kind: str, reference: str, owner: User | None = None, currency: str = DEFAULT_CURRENCY
) -> Account:
    """The account of ``kind`` for ``reference`` (e.g. ``"table-session:123"``, ``"uth-round:55"``,
    ``"tournament:7"``), created on first use with ``owner``. Asking again with another owner is refused."""
    if kind == AccountKind.PLAYER_CASH or kind in SYSTEM_KINDS or kind not in AccountKind.values:
        raise UnknownAccount(f"{kind!r} is not a per-reference account kind.")
    if not isinstance(reference, str) or not reference.strip() or len(reference) > 200:
        raise UnknownAccount("A reference account needs a non-empty reference of at most 200 characters.")
    if owner is not None and owner.pk is None:
        raise UnknownAccount("A wallet account needs a saved owner.")
    account = _account_get_or_create(
        kind, check_currency(currency), reference, {"owner": owner, "may_go_negative": kind in NEGATIVE_BALANCE_KINDS}
    )
    wanted_owner = owner.pk if owner is not None else None
    if account.owner_id != wanted_owner:
        raise UnknownAccount(f"The {kind} account {reference!r} belongs to another owner.")
    return account


def withheld_account(user: User, currency: str = DEFAULT_CURRENCY) -> Account:
    """Where the player's withheld funds wait for a review decision (one per player and currency)."""
    return reference_account(AccountKind.WITHHELD, _player_reference(user), owner=user, currency=currency)


_PLAYER_CASH_BALANCE = PreparedQuery(
    lambda user_id: Account.objects.filter(
        owner_id=user_id, kind=AccountKind.PLAYER_CASH, currency=DEFAULT_CURRENCY
    ).values_list("balance")[:1],
    [],
    numbers=["user_id"],
)
"""Every page a player opens shows the balance in its header and its player socket's ``hello``: compiled once."""


def player_cash_balance(user_id: int) -> int:
    """The player's cash balance in cents, in the site's currency, as committed; 0 before their first deposit. Read
    only: unlike :func:`player_cash_account`, it never creates the account (a page view must not write)."""
    rows = _PLAYER_CASH_BALANCE.rows(user_id=int(user_id))
    return int(rows[0][0]) if rows else 0


def balance_of(account: Account) -> int:
    """The account's balance in cents as committed (or as written by the current transaction), read afresh."""
    if account.pk is None:
        raise UnknownAccount("The account is not saved.")
    try:
        return Account.objects.values_list("balance", flat=True).get(pk=account.pk)
    except Account.DoesNotExist:
        raise UnknownAccount(f"No wallet account with id #{account.pk}.") from None


def money_at_tables(user: User, currency: str = DEFAULT_CURRENCY) -> int:
    """Cents the player has at cash tables right now (the balances of their table-session accounts)."""
    total = Account.objects.filter(owner=user, kind=AccountKind.TABLE_SESSION, currency=currency).aggregate(
        total=Sum("balance")
    )["total"]
    return int(total or 0)


def withheld_total(user: User, currency: str = DEFAULT_CURRENCY) -> int:
    """Cents of the player's funds withheld pending review."""
    total = Account.objects.filter(owner=user, kind=AccountKind.WITHHELD, currency=currency).aggregate(
        total=Sum("balance")
    )["total"]
    return int(total or 0)
