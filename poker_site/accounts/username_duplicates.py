"""Usernames that more than one account holds in some case ("Pat" and "pat"), for the migration that makes a username
belong to one account whatever its case (``accounts`` 0004) and for the operator who must settle them before it can
run.

Before 0004 the database compared usernames in exact case: the sign-up form compared without case, but two sign-ups at
once both passed its check, and the admin compared in exact case. Which account keeps a name is a decision about people
(which account is in use, which one has the money and the history, whether one is someone passing for another), so
nothing here picks one: the migration refuses with the list (:class:`UsernameDuplicates`),
``manage.py username_duplicates_list`` prints it, and an administrator gives each other account another username on
its admin page.

The names are compared as the index compares them: PostgreSQL's ``lower(username)``. The query reads ``accounts_user``
by SQL, not through the model, so it runs on a database at any migration from 0001 on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.management.base import CommandError

DUPLICATES_QUERY = """
    SELECT lower(username), array_agg(id ORDER BY id), array_agg(username ORDER BY id)
    FROM accounts_user
    GROUP BY lower(username)
    HAVING count(*) > 1
    ORDER BY lower(username)
"""


@dataclass(frozen=True)
class SharedUsername:
    """A username (lower-cased) and the accounts that hold it in some case, as (id, username), by id."""

    username: str
    accounts: tuple[tuple[int, str], ...]

    def __str__(self) -> str:
        held = ", ".join(f"account {account_id} ({username})" for account_id, username in self.accounts)
        return f"{self.username}: {held}"


def username_duplicates(connection: Any) -> list[SharedUsername]:
    """Every username more than one account of ``connection``'s database holds in some case, by name."""
    with connection.cursor() as cursor:
        cursor.execute(DUPLICATES_QUERY)
        return [
            SharedUsername(username, tuple(zip(ids, usernames, strict=True)))
            for username, ids, usernames in cursor.fetchall()
        ]


def how_to_settle() -> str:
    return (
        "Decide for each name which account keeps it, and give each other account another username on its admin page "
        "(/admin/accounts/user/<id>/change/, an administrator), then tell its owner the username they now log in "
        "with. `manage.py username_duplicates_list` lists the names again."
    )


class UsernameDuplicates(CommandError):
    """Migration ``accounts`` 0004 cannot make a username belong to one account: some belong to several. A
    ``CommandError``, so ``manage.py migrate`` prints the message alone, without a traceback. Nothing was changed."""

    def __init__(self, duplicates: list[SharedUsername]) -> None:
        self.duplicates = duplicates
        listed = "\n".join(f"  {shared}" for shared in duplicates)
        several = len(duplicates) > 1
        super().__init__(
            f"Migration accounts 0004 makes a username belong to one account whatever its case, but "
            f"{len(duplicates)} username{'s belong' if several else ' belongs'} to more than one (compared without "
            f"case):\n{listed}\nThe migration changed nothing. {how_to_settle()} Then migrate again."
        )
