"""``manage.py screen_name_duplicates_list``: the screen names more than one account goes by in some case ("ALICE" and
"alice"), each with the accounts' ids and screen names, then the accounts whose screen name is another account's
username in some case, and how to settle them; exits non-zero while there are any. Migration ``accounts`` 0005 (a
screen name belongs to one account whatever its case) refuses to run while there are shared screen names
(:mod:`poker_site.accounts.screen_name_duplicates`); the forms refuse both from then on."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from poker_site.accounts.screen_name_duplicates import (
    how_to_settle,
    screen_name_duplicates,
    screen_names_of_other_usernames,
)


class Command(BaseCommand):
    help = (
        "List the screen names that more than one account goes by in some case, and the screen names that are another "
        "account's username (the accounts' ids and names)."
    )
    # Run before migrating: the checks would read the models of a newer schema than the database's.
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        duplicates = screen_name_duplicates(connection)
        of_other_usernames = screen_names_of_other_usernames(connection)
        if not duplicates and not of_other_usernames:
            self.stdout.write("No screen name passes one account for another.")
            return
        for shared in duplicates:
            self.stdout.write(str(shared))
        for clash in of_other_usernames:
            self.stdout.write(str(clash))
        raise CommandError(
            f"{len(duplicates)} screen name(s) belong to more than one account and {len(of_other_usernames)} "
            f"account(s) go by another account's username. {how_to_settle()}"
        )
