"""Tournament prize pools against the entries' money they hold (issue 30), a check of ``manage.py wallet_reconcile``.

A tournament's prize pool (``tournament_prize_pool`` account ``tournament:<id>``, :mod:`tournaments.services.money`):

* before it starts (announced, registering), holds exactly the prize contributions of its registered entries, plus
  the prize money its Phase 1 flights carried into it (a Phase 2, TRN-45): nothing is paid out or added (the overlay
  and added prize money come at the start) before then;
* once finished or cancelled, holds nothing: every prize was credited, or every contribution refunded, compensated or
  carried to its Phase 2.

A running tournament's pool also moves with re-buys, add-ons, re-entries, the overlay and each prize credited as
players finish; it is not checked here.
"""

from __future__ import annotations

from django.db import connection

from wallet.services.reconcile import difference_problem

_POOL_JOIN = "JOIN wallet_account a ON a.kind = 'tournament_prize_pool' AND a.reference = 'tournament:' || t.id::text "


def prize_pools_reconcile(limit: int) -> list[str]:
    """Each prize pool of a tournament not running against what it must hold (see the module docstring); one
    sentence per pool that differs, naming it and the difference."""
    problems: list[str] = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.id, a.balance, COALESCE(e.total, 0) + t.carried_prize_money, a.currency "
            "FROM tournaments_tournament t " + _POOL_JOIN + "LEFT JOIN (SELECT tournament_id, SUM(prize_contribution) "
            "AS total FROM tournaments_tournamententry WHERE status = 'registered' GROUP BY tournament_id) e "
            "ON e.tournament_id = t.id WHERE t.status IN ('announced', 'registering') "
            "AND a.balance <> COALESCE(e.total, 0) + t.carried_prize_money ORDER BY a.id LIMIT %s",
            [limit],
        )
        for pk, balance, expected, currency in cursor.fetchall():
            problems.append(difference_problem(pk, balance, expected, currency, "its registered entries' buy-ins"))
        cursor.execute(
            "SELECT a.id, a.balance, a.currency FROM tournaments_tournament t "
            + _POOL_JOIN
            + "WHERE t.status IN ('finished', 'cancelled') AND a.balance <> 0 ORDER BY a.id LIMIT %s",
            [limit],
        )
        for pk, balance, currency in cursor.fetchall():
            problems.append(
                difference_problem(pk, balance, 0, currency, "the buy-ins held by its finished or cancelled tournament")
            )
    return problems
