"""``manage.py email_duplicates_list``: the e-mail addresses more than one account holds (compared without case),
each with the accounts' ids and usernames, and how to settle them; exits non-zero while there are any. Migration
``accounts`` 0003 (an address belongs to one account) refuses to run until there are none
(:mod:`poker_site.accounts.email_duplicates`)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from poker_site.accounts.email_duplicates import email_duplicates, how_to_settle


class Command(BaseCommand):
    help = "List the e-mail addresses that more than one account holds (the accounts' ids and usernames)."
    # Run before migrating: the checks would read the models of a newer schema than the database's.
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        duplicates = email_duplicates(connection)
        if not duplicates:
            self.stdout.write("No e-mail address belongs to more than one account.")
            return
        for shared in duplicates:
            self.stdout.write(str(shared))
        raise CommandError(f"{len(duplicates)} e-mail address(es) belong to more than one account. {how_to_settle()}")
