"""E-mail addresses that more than one account holds, for the migration that makes an address belong to one account
(``accounts`` 0003, issue 30) and for the operator who must settle them before it can run.

Before 0003 the database allowed two accounts one address (sign-up and the admin checked with a query, which two
requests at once both pass). Which account keeps the address is a decision about people (who owns the mailbox, which
account is in use, whether one is a second account of the same person), so nothing here picks one: the migration
refuses with the list (:class:`EmailDuplicates`), ``manage.py email_duplicates_list`` prints it, and an administrator
gives each other account another address (or none) on its admin page.

The addresses are compared as the index compares them: PostgreSQL's ``lower(email)``, empty addresses apart. The
query reads ``accounts_user`` by SQL, not through the model, so it runs on a database at any migration from 0001 on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.management.base import CommandError

DUPLICATES_QUERY = """
    SELECT lower(email), array_agg(id ORDER BY id), array_agg(username ORDER BY id)
    FROM accounts_user
    WHERE email <> ''
    GROUP BY lower(email)
    HAVING count(*) > 1
    ORDER BY lower(email)
"""


@dataclass(frozen=True)
class SharedAddress:
    """An address (lower-cased) and the accounts that hold it, as (id, username), by id."""

    address: str
    accounts: tuple[tuple[int, str], ...]

    def __str__(self) -> str:
        held = ", ".join(f"account {account_id} ({username})" for account_id, username in self.accounts)
        return f"{self.address}: {held}"


def email_duplicates(connection: Any) -> list[SharedAddress]:
    """Every address more than one account of ``connection``'s database holds, by address."""
    with connection.cursor() as cursor:
        cursor.execute(DUPLICATES_QUERY)
        return [
            SharedAddress(address, tuple(zip(ids, usernames, strict=True)))
            for address, ids, usernames in cursor.fetchall()
        ]


def how_to_settle() -> str:
    return (
        "Decide for each address which account keeps it, and give each other account another address (or none) on "
        "its admin page (/admin/accounts/user/<id>/change/, an administrator). `manage.py email_duplicates_list` "
        "lists the addresses again."
    )


class EmailDuplicates(CommandError):
    """Migration ``accounts`` 0003 cannot make an address belong to one account: some belong to several. A
    ``CommandError``, so ``manage.py migrate`` prints the message alone, without a traceback. Nothing was changed."""

    def __init__(self, duplicates: list[SharedAddress]) -> None:
        self.duplicates = duplicates
        listed = "\n".join(f"  {shared}" for shared in duplicates)
        super().__init__(
            f"Migration accounts 0003 makes an e-mail address belong to one account, but {len(duplicates)} "
            f"address{'es belong' if len(duplicates) > 1 else ' belongs'} to more than one (compared without case):\n"
            f"{listed}\n"
            f"The migration changed nothing. {how_to_settle()} Then migrate again."
        )
