"""Provably fair HexaPro multiplier draws (issue 29, HEX-05, HEX-06, HEX-22; docs/fairness.md).

* Every product and buy-in queue holds one unused :class:`HexaProDrawCommitment`: a 32-byte server seed from
  ``secrets.token_bytes`` and its commitment ``SHA-256(frame(domain) || seed)``, domain
  ``hexapro-draw/v1/<product code>/<buy-in cents>/<commitment id>``. The players waiting in the queue see the
  commitment (HexaPro page, ``GET /api/tournaments/hexapro/mine/``).
* The next game formed in the queue draws its ticket ``0 <= ticket < total weight`` as the first uniform integer of
  the seed's keyed stream (no client seeds; ``games.engine.fairness.derived_integer``: rejection sampling over
  3-byte numbers for 100,000 tickets) and the ticket falls on a multiplier row by the public mapping of HEX-06 /
  HEX-22 (the rows in their stored order, largest multiplier first, each covering ``weight`` tickets). The seed is
  revealed with the game, and a fresh commitment is made for the queue.

The caller holds the queue lock (``tournaments.hexapro.registration.queue_lock``), so a queue's commitment is made
and used once.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from games.engine.fairness import SERVER_SEED_BYTES, commitment, derived_integer
from tournaments.hexapro.models import HexaProDrawCommitment, HexaProGame


class CommittedTicket:
    """An ``IntegerSource`` whose ``randrange(total)`` is the committed draw's ticket (one draw only)."""

    def __init__(self, committed: HexaProDrawCommitment) -> None:
        self.committed = committed
        self.used = False

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is not None or step != 1 or self.used:
            raise ValueError("a committed draw gives one ticket, randrange(total weight)")
        self.used = True
        return draw_ticket(self.committed, start)


def draw_ticket(committed: HexaProDrawCommitment, total_weight: int) -> int:
    """The ticket the committed seed gives for a draw over ``total_weight`` tickets."""
    return derived_integer(total_weight, bytes.fromhex(committed.server_seed), {}, committed.domain)


def draw_commitment_for_queue(product_code: str, buy_in_cents: int, now: datetime) -> HexaProDrawCommitment:
    """The queue's unused commitment, made now if there is none (the caller holds the queue lock)."""
    existing = (
        HexaProDrawCommitment.objects.select_for_update()
        .filter(product_code=product_code, buy_in_cents=buy_in_cents, game__isnull=True)
        .first()
    )
    if existing is not None:
        return existing
    seed = secrets.token_bytes(SERVER_SEED_BYTES)
    made = HexaProDrawCommitment.objects.create(
        product_code=product_code, buy_in_cents=buy_in_cents, server_seed=seed.hex(), committed_at=now
    )
    made.commitment = commitment(made.domain, seed)
    made.save(update_fields=["commitment"])
    return made


def draw_commitment_use(committed: HexaProDrawCommitment, game: HexaProGame) -> None:
    """Record that ``game`` was drawn from ``committed`` (its seed is revealed from now on)."""
    committed.game = game
    committed.save(update_fields=["game"])


def queue_commitments(queues: set[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The unused commitment (hex) of each (product code, buy-in) queue that has one."""
    rows = HexaProDrawCommitment.objects.filter(game__isnull=True).values_list(
        "product_code", "buy_in_cents", "commitment"
    )
    return {(code, int(buy_in)): text for code, buy_in, text in rows if (code, int(buy_in)) in queues}


def game_draw_proof(game: HexaProGame) -> dict[str, Any] | None:
    """The revealed draw of ``game``: domain, commitment, server seed, ticket and tickets; None for a game drawn
    before draws were committed (or by a test's draw source)."""
    committed = HexaProDrawCommitment.objects.filter(game=game).first()
    if committed is None:
        return None
    return {
        "domain": committed.domain,
        "commitment": committed.commitment,
        "server_seed": committed.server_seed,
        "committed_at": committed.committed_at.isoformat(),
        "ticket": game.draw_ticket,
        "tickets": game.draw_total_weight,
    }
