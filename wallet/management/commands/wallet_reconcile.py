"""``manage.py wallet_reconcile``: check that the ledger adds up; exit non-zero naming every problem."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from wallet.services import ledger_reconcile, ledger_summary


class Command(BaseCommand):
    help = (
        "Check that every account's balance equals the sum of its legs, every currency sums to zero, every "
        "transfer balances, and each system account holds what it must (pending withdrawals, chips at cash tables, "
        "prize pools). Exits with status 1 and lists the problems, naming each account and the difference, if not."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        problems = ledger_reconcile()
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"The wallet ledger does not reconcile: {len(problems)} problem(s) listed above.")
        self.stdout.write(ledger_summary())
