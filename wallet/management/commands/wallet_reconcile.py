"""``manage.py wallet_reconcile``: check that the ledger adds up; exit non-zero naming every problem. With
``--statement``, also print the money statement: every place money is (players' cash, cash tables, prize and bounty
pools, UTH bets in play, tickets, withheld and unresolved funds, withdrawals awaiting payout, the house, the outside
world), its total in the ledger beside what its records say, summing to zero (issue 30)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from wallet.services import ledger_reconcile, ledger_summary
from wallet.services.reconcile import money_statement, money_statement_text


class Command(BaseCommand):
    help = (
        "Check that every account's balance equals the sum of its legs, every currency sums to zero, every "
        "transfer balances, each system and game account holds what its records say (pending withdrawals, chips at "
        "cash tables, prize pools of tournaments not started and running, bounty pools, UTH bets in play, tickets) "
        "and all money in play adds up to zero. Exits with status 1 and lists the problems, naming each account and "
        "the difference, if not."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--statement",
            action="store_true",
            help="Print the money statement: each place money is, in the ledger and in its records.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        problems = ledger_reconcile()
        if options["statement"]:
            self.stdout.write(money_statement_text(money_statement()))
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"The wallet ledger does not reconcile: {len(problems)} problem(s) listed above.")
        self.stdout.write(ledger_summary())
