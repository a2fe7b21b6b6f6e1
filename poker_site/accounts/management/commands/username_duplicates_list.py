"""``manage.py username_duplicates_list``: the usernames more than one account holds in some case ("Pat" and "pat"),
each with the accounts' ids and usernames, and how to settle them; exits non-zero while there are any. Migration
``accounts`` 0004 (a username belongs to one account whatever its case) refuses to run until there are none
(:mod:`poker_site.accounts.username_duplicates`)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from poker_site.accounts.username_duplicates import how_to_settle, username_duplicates


class Command(BaseCommand):
    help = "List the usernames that more than one account holds in some case (the accounts' ids and usernames)."
    # Run before migrating: the checks would read the models of a newer schema than the database's.
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        duplicates = username_duplicates(connection)
        if not duplicates:
            self.stdout.write("No username belongs to more than one account.")
            return
        for shared in duplicates:
            self.stdout.write(str(shared))
        raise CommandError(f"{len(duplicates)} username(s) belong to more than one account. {how_to_settle()}")
