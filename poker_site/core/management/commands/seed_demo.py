"""``manage.py seed_demo``: load the demo data of every app (idempotent) and print the credentials."""

from typing import Any

from django.core.management.base import BaseCommand

from poker_site.core.demo import seed_all


class Command(BaseCommand):
    help = "Create demo players, staff and each app's demo data; safe to run repeatedly."

    def handle(self, *args: Any, **options: Any) -> None:
        # No transaction around the steps: each step calls services that own (durable) transactions,
        # and each step is idempotent, so a failure part-way is fixed by running the command again.
        seed_all(self.stdout.write)
