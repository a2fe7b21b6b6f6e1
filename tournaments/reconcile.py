"""Tournament money against the records that say where it must be (issue 30): checks of ``manage.py wallet_reconcile``
and places of its money statement.

A tournament's prize pool (``tournament_prize_pool`` account ``tournament:<id>``, :mod:`tournaments.services.money`)
holds:

* before it starts (announced, registering), exactly the prize contributions of its registered entries, plus the
  prize money its Phase 1 flights carried into it (a Phase 2, TRN-45): nothing is paid out or added (the overlay and
  added prize money come at the start) before then;
* running, its registration still open (late registration): the prize contributions of every paid entry, re-entry,
  re-buy and add-on, plus the carried prize money, less the prizes that left it;
* running, its registration closed: the prize pool fixed then (``Tournament.prize_pool``: contributions, overlay and
  added money, a late satellite winner's buy-in; a HexaPro game's drawn pool), less the prizes that left it;
* once finished or cancelled, nothing: every prize was credited, or every contribution refunded, compensated or
  carried to its Phase 2; but for the prizes withheld while their forfeiture awaits a second staff member's decision
  (TRN-28, issue 30, :mod:`tournaments.forfeiture_changes`), which stay in the pool until it is approved or rejected.

A prize left the pool when its transfer is recorded on the entry (credited, to a satellite ticket, or in part seized
on a disqualification) or it was forfeited whole. A HexaPro product's waiting buy-ins (``hexapro-waiting:<product>:
<buy-in>``, the same account kind) are the buy-ins of its waiting registrations.

A bounty pool (``bounty_pool`` account ``tournament:<id>:bounties``) holds exactly the current bounties of the
players still in (registered or playing); a ticket's account its value while usable
(:func:`tournaments.services.tickets.tickets_reconcile`).
"""

from __future__ import annotations

from django.db import connection

from wallet.services.reconcile import MoneyPlace, difference_problem

_LIVE = "('registered', 'playing')"
_NOT_PAID = "('unregistered', 'refunded')"

_EXPECTED_POOLS = (
    "SELECT a.id, a.balance, a.currency, CASE "
    "WHEN t.status IN ('finished', 'cancelled') THEN COALESCE(held.total, 0) "
    "WHEN t.status IN ('announced', 'registering') THEN COALESCE(reg.total, 0) + t.carried_prize_money "
    "WHEN t.registration_closed_at IS NOT NULL THEN COALESCE(t.prize_pool, 0) - COALESCE(won.total, 0) "
    "ELSE COALESCE(paid.total, 0) + COALESCE(bought.total, 0) + t.carried_prize_money - COALESCE(won.total, 0) "
    "END AS expected, t.status "
    "FROM tournaments_tournament t "
    "JOIN wallet_account a ON a.kind = 'tournament_prize_pool' AND a.reference = 'tournament:' || t.id::text "
    "LEFT JOIN (SELECT tournament_id, SUM(prize_contribution) AS total FROM tournaments_tournamententry "
    "WHERE status = 'registered' GROUP BY tournament_id) reg ON reg.tournament_id = t.id "
    "LEFT JOIN (SELECT tournament_id, SUM(prize_contribution) AS total FROM tournaments_tournamententry "
    f"WHERE status NOT IN {_NOT_PAID} GROUP BY tournament_id) paid ON paid.tournament_id = t.id "
    "LEFT JOIN (SELECT e.tournament_id, SUM(p.prize_contribution) AS total FROM tournaments_tournamentpurchase p "
    f"JOIN tournaments_tournamententry e ON e.id = p.entry_id WHERE e.status NOT IN {_NOT_PAID} "
    "GROUP BY e.tournament_id) bought ON bought.tournament_id = t.id "
    "LEFT JOIN (SELECT tournament_id, SUM(prize) AS total FROM tournaments_tournamententry "
    "WHERE prize_transfer_id IS NOT NULL OR (prize_forfeited AND prize_forfeited_cents > 0) "
    "GROUP BY tournament_id) won ON won.tournament_id = t.id "
    "LEFT JOIN (SELECT e.tournament_id, SUM(e.prize) AS total FROM tournaments_tournamententry e "
    "WHERE e.prize > 0 AND e.prize_transfer_id IS NULL AND NOT e.prize_forfeited AND EXISTS (SELECT 1 FROM "
    "core_rulechangeproposal p WHERE p.kind = 'tournament_prize_forfeiture' AND p.status = 'pending' "
    "AND p.target = 'tournaments.tournamententry:' || e.id::text) "
    "GROUP BY e.tournament_id) held ON held.tournament_id = t.id"
)

_EXPECTED_WAITING = (
    "SELECT a.id, a.balance, a.currency, COALESCE(w.total, 0) AS expected, '' AS status FROM wallet_account a "
    "LEFT JOIN (SELECT 'hexapro-waiting:' || product_code || ':' || buy_in_cents::text AS reference, "
    "SUM(buy_in_cents) AS total FROM tournaments_hexaproregistration WHERE status = 'waiting' "
    "GROUP BY product_code, buy_in_cents) w ON w.reference = a.reference "
    "WHERE a.kind = 'tournament_prize_pool' AND a.reference LIKE 'hexapro-waiting:%%'"
)

_EXPECTED_BOUNTIES = (
    "SELECT a.id, a.balance, a.currency, COALESCE(b.total, 0) AS expected, t.status "
    "FROM tournaments_tournament t "
    "JOIN wallet_account a ON a.kind = 'bounty_pool' AND a.reference = 'tournament:' || t.id::text || ':bounties' "
    "LEFT JOIN (SELECT tournament_id, SUM(bounty) AS total FROM tournaments_tournamententry "
    f"WHERE status IN {_LIVE} GROUP BY tournament_id) b ON b.tournament_id = t.id"
)

_WHAT_POOLS_HOLD = {
    "announced": "its registered entries' buy-ins",
    "registering": "its registered entries' buy-ins",
    "running": "the prize pool of the running tournament less the prizes paid",
    "finished": "the buy-ins held by its finished or cancelled tournament",
    "cancelled": "the buy-ins held by its finished or cancelled tournament",
}


def _differing(sql: str, limit: int) -> list[tuple[int, int, str, int, str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, balance, currency, expected, status FROM ({sql}) x WHERE balance <> expected "
            "ORDER BY id LIMIT %s",
            [limit],
        )
        return list(cursor.fetchall())


def _total(sql: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT SUM(expected) FROM ({sql}) x", [])
        (total,) = cursor.fetchone()
    return int(total or 0)


def prize_pools_reconcile(limit: int) -> list[str]:
    """Each prize pool against what it must hold (see the module docstring), running tournaments' included, and each
    HexaPro product's waiting buy-ins; one sentence per account that differs, naming it and the difference."""
    problems = [
        difference_problem(pk, balance, expected, currency, _WHAT_POOLS_HOLD.get(status, "its tournament's entries"))
        for pk, balance, currency, expected, status in _differing(_EXPECTED_POOLS, limit)
    ]
    problems += [
        difference_problem(pk, balance, expected, currency, "the buy-ins of its waiting HexaPro registrations")
        for pk, balance, currency, expected, _ in _differing(_EXPECTED_WAITING, limit)
    ]
    return problems


def bounty_pools_reconcile(limit: int) -> list[str]:
    """Each bounty pool against the current bounties of its tournament's players still in."""
    return [
        difference_problem(pk, balance, expected, currency, "the current bounties of the players still in")
        for pk, balance, currency, expected, _ in _differing(_EXPECTED_BOUNTIES, limit)
    ]


def tickets_check(limit: int) -> list[str]:
    """Each ticket's account against the ticket's value while usable (nothing once used, expired or voided)."""
    from tournaments.services.tickets import tickets_reconcile

    return tickets_reconcile()[:limit]


def prize_pools_records() -> int:
    return _total(_EXPECTED_POOLS) + _total(_EXPECTED_WAITING)


def bounty_pools_records() -> int:
    return _total(_EXPECTED_BOUNTIES)


def tickets_records() -> int:
    from tournaments.services.tickets import tickets_outstanding

    return tickets_outstanding()


PRIZE_POOLS = MoneyPlace(
    "tournament prize pools and HexaPro waiting buy-ins",
    ("tournament_prize_pool",),
    prize_pools_records,
)
BOUNTY_POOLS = MoneyPlace("tournament bounty pools", ("bounty_pool",), bounty_pools_records)
TICKETS = MoneyPlace("tournament tickets outstanding", ("tournament_ticket",), tickets_records)
