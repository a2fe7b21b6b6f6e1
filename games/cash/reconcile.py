"""Cash tables' accounts against the chips at the tables (issue 30), a check of ``manage.py wallet_reconcile``.

A player's chips at a cash table are the balance of their table session's account; during a hand it stays at the
player's start-of-hand stack (the settlement moves the result when the hand ends). So:

* the account of a player dealt into a running hand holds exactly their ``start_stack`` in that hand;
* the account of a session that ended (the player left, the table closed) holds nothing: the chips went back to the
  player's cash. (A table-session account without a session, which only the wallet's own tests make, is not
  checked.)
"""

from __future__ import annotations

from django.db import connection

from wallet.services.reconcile import difference_problem


def table_accounts_reconcile(limit: int) -> list[str]:
    """Each table-session account against the chips it must hold (see the module docstring); one sentence per
    account that differs, naming it and the difference."""
    problems: list[str] = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.id, a.balance, hp.start_stack, a.currency FROM games_handplayer hp "
            "JOIN games_hand h ON h.id = hp.hand_id JOIN games_tablesession s ON s.id = hp.session_id "
            "JOIN wallet_account a ON a.id = s.account_id "
            "WHERE h.status = 'running' AND a.balance <> hp.start_stack ORDER BY a.id LIMIT %s",
            [limit],
        )
        for pk, balance, stack, currency in cursor.fetchall():
            problems.append(
                difference_problem(pk, balance, stack, currency, "the chips the player started the hand in play with")
            )
        cursor.execute(
            "SELECT a.id, a.balance, a.currency FROM wallet_account a "
            "JOIN games_tablesession s ON s.account_id = a.id "
            "WHERE a.kind = 'table_session' AND a.balance <> 0 AND s.ended_at IS NOT NULL "
            "ORDER BY a.id LIMIT %s",
            [limit],
        )
        for pk, balance, currency in cursor.fetchall():
            problems.append(difference_problem(pk, balance, 0, currency, "the chips of its ended table session"))
    return problems
