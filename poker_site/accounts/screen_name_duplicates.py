"""Screen names that pass one account for another, for the migration that makes a screen name belong to one account
whatever its case (``accounts`` 0005) and for the operator who must settle them.

Before 0005 the database compared screen names in exact case and nothing compared them with usernames, so a database
may hold screen names that several accounts share in some case ("ALICE" and "alice"), which the migration's unique
index on ``lower(screen_name)`` cannot be built over, and screen names that are another account's username in some
case (a player going by "Support" beside the account "support"), which no index can compare but the forms now refuse
(:mod:`poker_site.accounts.names`). Which account keeps a name is a decision about people, so nothing here picks one:
the migration refuses with the list of shared screen names (:class:`ScreenNameDuplicates`),
``manage.py screen_name_duplicates_list`` prints both lists, and an administrator gives each other account another
screen name, or clears it (the account then goes by its username), on its admin page.

Names are compared as the index compares them: PostgreSQL's ``lower()``; empty screen names (the account goes by its
username) are nobody's. The queries read ``accounts_user`` by SQL, not through the model, so they run on a database at
any migration from 0001 on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.management.base import CommandError

DUPLICATES_QUERY = """
    SELECT lower(screen_name), array_agg(id ORDER BY id), array_agg(screen_name ORDER BY id)
    FROM accounts_user
    WHERE screen_name <> ''
    GROUP BY lower(screen_name)
    HAVING count(*) > 1
    ORDER BY lower(screen_name)
"""

OTHER_USERNAMES_QUERY = """
    SELECT going_by.id, going_by.screen_name, named.id, named.username
    FROM accounts_user AS going_by
    JOIN accounts_user AS named ON lower(named.username) = lower(going_by.screen_name) AND named.id <> going_by.id
    WHERE going_by.screen_name <> ''
    ORDER BY lower(going_by.screen_name), going_by.id
"""


@dataclass(frozen=True)
class SharedScreenName:
    """A screen name (lower-cased) and the accounts that go by it in some case, as (id, screen name), by id."""

    screen_name: str
    accounts: tuple[tuple[int, str], ...]

    def __str__(self) -> str:
        held = ", ".join(f"account {account_id} ({screen_name})" for account_id, screen_name in self.accounts)
        return f"{self.screen_name}: {held}"


@dataclass(frozen=True)
class ScreenNameOfAnotherUsername:
    """An account whose screen name is another account's username in some case."""

    account_id: int
    screen_name: str
    other_account_id: int
    other_username: str

    def __str__(self) -> str:
        return (
            f"account {self.account_id} goes by {self.screen_name}, "
            f"the username of account {self.other_account_id} ({self.other_username})"
        )


def screen_name_duplicates(connection: Any) -> list[SharedScreenName]:
    """Every screen name more than one account of ``connection``'s database goes by in some case, by name."""
    with connection.cursor() as cursor:
        cursor.execute(DUPLICATES_QUERY)
        return [
            SharedScreenName(screen_name, tuple(zip(ids, screen_names, strict=True)))
            for screen_name, ids, screen_names in cursor.fetchall()
        ]


def screen_names_of_other_usernames(connection: Any) -> list[ScreenNameOfAnotherUsername]:
    """Every account of ``connection``'s database whose screen name is another account's username in some case."""
    with connection.cursor() as cursor:
        cursor.execute(OTHER_USERNAMES_QUERY)
        return [ScreenNameOfAnotherUsername(*row) for row in cursor.fetchall()]


def how_to_settle() -> str:
    return (
        "Decide for each name which account keeps it, and give each other account another screen name, or clear it so "
        "that the account goes by its username, on its admin page (/admin/accounts/user/<id>/change/). "
        "`manage.py screen_name_duplicates_list` lists the names again."
    )


class ScreenNameDuplicates(CommandError):
    """Migration ``accounts`` 0005 cannot make a screen name belong to one account: some belong to several. A
    ``CommandError``, so ``manage.py migrate`` prints the message alone, without a traceback. Nothing was changed."""

    def __init__(self, duplicates: list[SharedScreenName]) -> None:
        self.duplicates = duplicates
        listed = "\n".join(f"  {shared}" for shared in duplicates)
        several = len(duplicates) > 1
        super().__init__(
            f"Migration accounts 0005 makes a screen name belong to one account whatever its case, but "
            f"{len(duplicates)} screen name{'s belong' if several else ' belongs'} to more than one (compared without "
            f"case):\n{listed}\nThe migration changed nothing. {how_to_settle()} Then migrate again."
        )
