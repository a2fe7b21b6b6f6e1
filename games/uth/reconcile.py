"""Ultimate Texas Hold'em bets in play against the hands' stakes (issue 30), a check of ``manage.py wallet_reconcile``
and a place of its money statement.

Every stake moves at once from the player's cash to the round's ``uth_bets_in_play`` account (``uth-round:<id>``);
settlement or a cancellation empties it. So a round not finished (betting, preflop, flop, river) holds exactly the
stakes (ANTE + BLIND + TRIPS + PLAY) of its hands still betting or in play, and a settled or cancelled round holds
nothing.
"""

from __future__ import annotations

from django.db import connection

from wallet.services.reconcile import MoneyPlace, difference_problem

_EXPECTED = (
    "SELECT a.id, a.balance, a.currency, CASE WHEN r.phase IN ('settled', 'cancelled') THEN 0 "
    "ELSE COALESCE(h.total, 0) END AS expected "
    "FROM uth_uthround r JOIN wallet_account a ON a.kind = 'uth_bets_in_play' AND a.reference = 'uth-round:' || r.id "
    "LEFT JOIN (SELECT round_id, SUM(2 * ante + trips + play) AS total FROM uth_uthhand "
    "WHERE status IN ('betting', 'in_play') GROUP BY round_id) h ON h.round_id = r.id"
)


def bets_in_play_reconcile(limit: int) -> list[str]:
    """Each round's bets-in-play account against its hands' stakes (see the module docstring); one sentence per
    account that differs."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, balance, expected, currency FROM ({_EXPECTED}) x WHERE balance <> expected "
            "ORDER BY id LIMIT %s",
            [limit],
        )
        return [
            difference_problem(pk, balance, expected, currency, "the stakes of its round's hands in play")
            for pk, balance, expected, currency in cursor.fetchall()
        ]


def bets_in_play_records() -> int:
    """The stakes of every hand in play at an unfinished round (cents)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT SUM(2 * h.ante + h.trips + h.play) FROM uth_uthhand h JOIN uth_uthround r ON r.id = h.round_id "
            "WHERE h.status IN ('betting', 'in_play') AND r.phase NOT IN ('settled', 'cancelled')"
        )
        (total,) = cursor.fetchone()
    return int(total or 0)


BETS_IN_PLAY = MoneyPlace("UTH bets in play", ("uth_bets_in_play",), bets_in_play_records)
