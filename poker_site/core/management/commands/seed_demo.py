"""``manage.py seed_demo [--migrate]``: load the demo data of every app (idempotent) and print the credentials.

With ``--migrate`` it applies the migrations first, in the same process: the launcher starts the site with one Django
start-up instead of two (on a busy machine a start-up costs seconds; seeding an unchanged demo costs well under one)."""

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from poker_site.core.demo import seed_all


class Command(BaseCommand):
    help = "Create demo players, staff and each app's demo data; safe to run repeatedly."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--migrate", action="store_true", help="apply the migrations first")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["migrate"]:
            call_command("migrate", interactive=False, verbosity=options["verbosity"])
        # No transaction around the steps: each step calls services that own (durable) transactions,
        # and each step is idempotent, so a failure part-way is fixed by running the command again.
        seed_all(self.stdout.write)
