"""``manage.py tickets_reconcile``: check that every tournament ticket's ledger account holds what the ticket is worth
(its value while usable, nothing once used, expired or voided), next to ``wallet_reconcile``'s check of the ledger
itself; exit non-zero naming every ticket that does not (TRN-37)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.services.tickets import tickets_outstanding, tickets_reconcile


class Command(BaseCommand):
    help = "Check that every tournament ticket's account holds its value while usable and nothing afterwards."

    def handle(self, *args: Any, **options: Any) -> None:
        problems = tickets_reconcile()
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"The tournament tickets do not reconcile: {len(problems)} problem(s) listed above.")
        outstanding = tickets_outstanding()
        self.stdout.write(
            f"Tickets reconciled: usable tickets worth {outstanding // 100}.{outstanding % 100:02d} EUR in all."
        )
