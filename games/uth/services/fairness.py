"""Provably fair Ultimate Texas Hold'em decks (issue 29, docs/fairness.md).

A round gets its 32-byte server seed when it opens; the commitment is published at once in a ``deck_committed``
event, so before betting closes and before any card; the deck dealt when betting closes is derived from the seed by
:mod:`games.engine.fairness` with the domain ``uth-deck/v1/table/<table id>/round/<round number>`` and no client
seeds (the players' decisions come after the deal, their bets are placed before it: no seed from them is needed to
stop the house choosing a deck after seeing the bets, the commitment does that); the seed is revealed in a
``deck_revealed`` event when the round is settled or cancelled.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import TYPE_CHECKING, Any

from games.engine.cards import PRODUCTION_SHUFFLER, Shuffler
from games.engine.fairness import ALGORITHM, SERVER_SEED_BYTES, DerivedShuffler, commitment, uth_round_domain
from games.uth.models import UthRound

if TYPE_CHECKING:
    from games.uth.services.common import EventLog


def round_seed_fields(table_id: int, round_number: int) -> dict[str, str]:
    """A fresh server seed and its commitment for round ``round_number`` of table ``table_id`` (``UthRound`` fields)."""
    seed = secrets.token_bytes(SERVER_SEED_BYTES)
    return {"server_seed": seed.hex(), "deck_commitment": commitment(uth_round_domain(table_id, round_number), seed)}


def round_commitment_payload(round_: UthRound) -> dict[str, Any]:
    """The public ``deck_committed`` payload: everything but the server seed."""
    return {
        "round_id": round_.pk,
        "game_number": round_.game_number,
        "algorithm": ALGORITHM,
        "domain": uth_round_domain(round_.table_id, round_.number),
        "commitment": round_.deck_commitment,
        "client_seeds": {},
    }


def round_shuffler(round_: UthRound) -> Shuffler:
    """The shuffler that deals the round's committed deck (``secrets.SystemRandom`` for a round opened before rounds
    had seeds)."""
    if not round_.server_seed:
        return PRODUCTION_SHUFFLER
    return DerivedShuffler(bytes.fromhex(round_.server_seed), {}, uth_round_domain(round_.table_id, round_.number))


def round_reveal(events: EventLog, round_: UthRound, now: datetime) -> None:
    """Append the public ``deck_revealed`` event of a round that has ended (nothing for a round without a seed)."""
    if not round_.server_seed:
        return
    events.add(
        "deck_revealed",
        {**round_commitment_payload(round_), "server_seed": round_.server_seed},
        round_=round_,
        at=now,
    )
