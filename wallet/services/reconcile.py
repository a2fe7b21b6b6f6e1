"""Reconciliation: prove the ledger adds up. Every problem is named so someone can go and look.

Checks, each one aggregate query (fine on millions of legs; run it off-peak on a replica if it ever is not):
1. every account's balance equals the sum of its legs;
2. the balances of all accounts of a currency sum to zero (double entry);
3. every transfer has at least two legs and its legs sum to zero;
4. every leg is in its transfer's currency;
5. no account that may not go negative is below zero;
6. every WITHHELD account holds exactly the funds of its undecided holds, every open unresolved-game account
   exactly its case's funds;
7. each system account holds what the records outside the ledger say it must (issue 30): the withdrawals awaiting
   payout exactly the pending withdrawals, and the checks the other apps register with :func:`reconcile_check_register`
   (games: table accounts = chips at cash tables; tournaments: prize pools = entries' money held, running ones
   included, bounty pools = the bounties of the players still in, tickets = their value while usable; UTH: each
   round's bets in play = the stakes of its hands in play). A figure changed behind the ledger's back, or a booking by
   hand on such an account, fails here naming the account and the difference;
8. all money is accounted for (issue 30): every account kind belongs to one place money can be
   (:func:`money_place_register`: players' cash, cash tables, prize and bounty pools, UTH bets in play, tickets,
   withheld and unresolved funds, withdrawals awaiting payout, the house, the outside world...). The money statement
   (:func:`money_statement`) gives each place's total in the ledger beside what its own records say it holds; the
   places sum to zero. When every account checks out and a place's total still differs from its records (money on
   an account that no record names), that fails here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from wallet.errors import format_cents
from wallet.models import Account


def _rows(sql: str) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return list(cursor.fetchall())


def _account_name(pk: int) -> str:
    account = Account.objects.select_related("owner").filter(pk=pk).first()
    return account.label if account is not None else f"account #{pk}"


ReconcileCheck = Callable[[int], list[str]]
"""A check of system accounts against what they must hold: given the most problems to list, each as a sentence."""

_checks: list[ReconcileCheck] = []


def reconcile_check_register(check: ReconcileCheck) -> ReconcileCheck:
    """Add ``check`` to :func:`ledger_reconcile` (an app registers its own in ``AppConfig.ready``; the wallet knows
    no game's tables). Registering the same function twice keeps one."""
    if check not in _checks:
        _checks.append(check)
    return check


def difference_problem(pk: int, balance: int, expected: int, currency: str, what: str) -> str:
    """One account's difference as a sentence: its name, what it holds, what ``what`` total and the difference."""
    balance, expected = int(balance), int(expected)  # SUM() comes back as a Decimal
    difference = balance - expected
    direction = "more" if difference > 0 else "less"
    return (
        f"{_account_name(pk)} holds {format_cents(balance, currency)} but {what} total "
        f"{format_cents(expected, currency)}: {format_cents(abs(difference), currency)} {direction} than it must."
    )


def pending_withdrawals_reconcile(limit: int) -> list[str]:
    """The withdrawals-awaiting-payout account of each currency holds exactly the pending withdrawals' amounts."""
    return [
        difference_problem(pk, balance, expected, currency, "the pending withdrawals")
        for pk, balance, expected, currency in _rows(
            "SELECT a.id, a.balance, COALESCE(w.total, 0), a.currency FROM wallet_account a "
            "LEFT JOIN (SELECT currency, SUM(amount) AS total FROM wallet_cashiertransaction "
            "WHERE direction = 'withdrawal' AND status = 'pending' GROUP BY currency) w ON w.currency = a.currency "
            "WHERE a.kind = 'pending_withdrawals' AND a.balance <> COALESCE(w.total, 0) "
            f"ORDER BY a.id LIMIT {int(limit)}"
        )
    ]


reconcile_check_register(pending_withdrawals_reconcile)


@dataclass(frozen=True)
class MoneyPlace:
    """One place money can be (issue 30): the account kinds that hold it and, when records outside the ledger say
    how much it must hold, a function giving that total in cents (``None``: the accounts are the only record, as a
    player's cash or the house's)."""

    label: str
    kinds: tuple[str, ...]
    records: Callable[[], int] | None = field(default=None, repr=False)


_places: dict[str, MoneyPlace] = {}


def money_place_register(place: MoneyPlace) -> MoneyPlace:
    """Add a place to the money statement (an app registers its own in ``AppConfig.ready``); the same label again
    replaces it. An account kind belongs to one place."""
    _places[place.label] = place
    return place


@dataclass(frozen=True)
class StatementLine:
    label: str
    ledger: int  # the place's accounts' balances, summed
    records: int | None  # what its records say it holds (None: no other record)

    @property
    def difference(self) -> int:
        return 0 if self.records is None else self.ledger - self.records


def _kind_totals() -> dict[str, int]:
    return {kind: int(total) for kind, total in _rows("SELECT kind, SUM(balance) FROM wallet_account GROUP BY kind")}


def _sum_of(sql: str, params: Iterable[Any] = ()) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        (total,) = cursor.fetchone()
    return int(total or 0)


def money_statement() -> list[StatementLine]:
    """Every place money is, in the order registered: its total in the ledger and in its records. Account kinds no
    place claims come last, one line each ("other: <kind>"), so that the lines always sum to the ledger's total
    (zero). One query per place with records, plus one over the accounts."""
    totals = _kind_totals()
    lines: list[StatementLine] = []
    claimed: set[str] = set()
    for place in _places.values():
        claimed.update(place.kinds)
        ledger = sum(totals.get(kind, 0) for kind in place.kinds)
        lines.append(StatementLine(place.label, ledger, place.records() if place.records is not None else None))
    for kind in sorted(set(totals) - claimed):
        lines.append(StatementLine(f"other: {kind}", totals[kind], None))
    return lines


def _statement_problems(lines: list[StatementLine]) -> list[str]:
    problems = []
    for line in lines:
        if line.difference:
            direction = "more" if line.difference > 0 else "less"
            problems.append(
                f"Money in play: {line.label} hold {format_cents(line.ledger)} in the ledger but their records say "
                f"{format_cents(line.records or 0)}: {format_cents(abs(line.difference))} {direction} than they must."
            )
    total = sum(line.ledger for line in lines)
    if total:
        problems.append(f"Money in play: the places sum to {format_cents(total)} instead of zero.")
    return problems


def money_statement_text(lines: list[StatementLine]) -> str:
    """The statement as a table for the command's output: each place, the ledger, the records, the difference."""
    width = max([len(line.label) for line in lines] + [len("total")])
    rows = [f"{'where the money is':<{width}}  {'ledger':>16}  {'records':>16}  {'difference':>14}"]
    for line in lines:
        records = format_cents(line.records) if line.records is not None else "—"
        rows.append(
            f"{line.label:<{width}}  {format_cents(line.ledger):>16}  {records:>16}  "
            f"{format_cents(line.difference):>14}"
        )
    rows.append(f"{'total':<{width}}  {format_cents(sum(line.ledger for line in lines)):>16}")
    return "\n".join(rows)


def _held_holds() -> int:
    return _sum_of("SELECT SUM(amount) FROM wallet_hold WHERE status = 'held'")


def _open_cases() -> int:
    return _sum_of("SELECT SUM(amount) FROM wallet_unresolvedgamefunds WHERE status = 'open'")


def _pending_withdrawals() -> int:
    return _sum_of(
        "SELECT SUM(amount) FROM wallet_cashiertransaction WHERE direction = 'withdrawal' AND status = 'pending'"
    )


money_place_register(MoneyPlace("players' cash", ("player_cash",)))
money_place_register(MoneyPlace("withheld for review", ("withheld",), _held_holds))
money_place_register(MoneyPlace("unresolved game funds", ("unresolved_game",), _open_cases))
money_place_register(MoneyPlace("withdrawals awaiting payout", ("pending_withdrawals",), _pending_withdrawals))
money_place_register(
    MoneyPlace(
        "the house and charity",
        (
            "house_rake",
            "house_fees",
            "house_uth_result",
            "house_guarantee",
            "house_seized",
            "house_adjustments",
            "charity",
        ),
    )
)
money_place_register(MoneyPlace("demo bankroll", ("demo_bankroll",)))
money_place_register(MoneyPlace("the outside world (deposits less withdrawals)", ("outside_world",)))


def ledger_reconcile(*, limit: int = 100) -> list[str]:
    """Every inconsistency in the ledger as a sentence (at most ``limit`` per check); empty when all is well."""
    problems: list[str] = []
    for pk, balance, legs_sum in _rows(
        "SELECT a.id, a.balance, COALESCE(l.total, 0) FROM wallet_account a "
        "LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM wallet_leg GROUP BY account_id) l "
        "ON l.account_id = a.id WHERE a.balance <> COALESCE(l.total, 0) ORDER BY a.id "
        f"LIMIT {int(limit)}"
    ):
        problems.append(f"{_account_name(pk)} has balance {balance} cents but its legs sum to {legs_sum} cents.")
    for currency, total in _rows(
        "SELECT currency, SUM(balance) FROM wallet_account GROUP BY currency HAVING SUM(balance) <> 0 ORDER BY currency"
    ):
        problems.append(f"The {currency} accounts sum to {total} cents instead of zero.")
    for pk, legs_sum, legs in _rows(
        "SELECT t.id, COALESCE(SUM(l.amount), 0), COUNT(l.id) FROM wallet_transfer t "
        "LEFT JOIN wallet_leg l ON l.transfer_id = t.id GROUP BY t.id "
        f"HAVING COALESCE(SUM(l.amount), 0) <> 0 OR COUNT(l.id) < 2 ORDER BY t.id LIMIT {int(limit)}"
    ):
        problems.append(f"Transfer #{pk} does not balance: {legs} legs summing to {legs_sum} cents.")
    for leg_pk, transfer_pk, account_currency, transfer_currency in _rows(
        "SELECT l.id, t.id, a.currency, t.currency FROM wallet_leg l "
        "JOIN wallet_transfer t ON t.id = l.transfer_id JOIN wallet_account a ON a.id = l.account_id "
        f"WHERE a.currency <> t.currency ORDER BY l.id LIMIT {int(limit)}"
    ):
        problems.append(
            f"Leg #{leg_pk} of transfer #{transfer_pk} is on a {account_currency} account in a {transfer_currency} "
            "transfer."
        )
    for pk, balance, currency in _rows(
        "SELECT id, balance, currency FROM wallet_account WHERE NOT may_go_negative AND balance < 0 "
        f"ORDER BY id LIMIT {int(limit)}"
    ):
        problems.append(f"{_account_name(pk)} is negative ({format_cents(balance, currency)}) but may not be.")
    for pk, balance, held in _rows(
        "SELECT a.id, a.balance, COALESCE(h.total, 0) FROM wallet_account a "
        "LEFT JOIN (SELECT withheld_account_id, SUM(amount) AS total FROM wallet_hold WHERE status = 'held' "
        "GROUP BY withheld_account_id) h ON h.withheld_account_id = a.id "
        f"WHERE a.kind = 'withheld' AND a.balance <> COALESCE(h.total, 0) ORDER BY a.id LIMIT {int(limit)}"
    ):
        problems.append(f"{_account_name(pk)} holds {balance} cents but its undecided holds total {held} cents.")
    for pk, balance, expected in _rows(
        "SELECT a.id, a.balance, CASE WHEN u.status = 'open' THEN u.amount ELSE 0 END "
        "FROM wallet_account a JOIN wallet_unresolvedgamefunds u ON u.account_id = a.id "
        "WHERE a.balance <> CASE WHEN u.status = 'open' THEN u.amount ELSE 0 END "
        f"ORDER BY a.id LIMIT {int(limit)}"
    ):
        problems.append(f"{_account_name(pk)} holds {balance} cents but its case should hold {expected} cents.")
    for check in _checks:
        problems.extend(check(limit))
    if not problems:
        # Every account checks out: a place whose total still differs from its records holds money no record names
        # (e.g. on an account of no tournament or round). Otherwise the accounts named above explain the difference.
        problems.extend(_statement_problems(money_statement()))
    return problems


def ledger_summary() -> str:
    """A one-line count of what was reconciled."""
    ((accounts, transfers, legs),) = _rows(
        "SELECT (SELECT COUNT(*) FROM wallet_account), (SELECT COUNT(*) FROM wallet_transfer), "
        "(SELECT COUNT(*) FROM wallet_leg)"
    )
    return (
        f"Ledger reconciled: {accounts} accounts, {transfers} transfers, {legs} legs; every balance equals its legs, "
        "every transfer balances, every currency sums to zero."
    )
