"""Provably fair hands at the table runtime (issue 29): the commitment before the first card, the reveal at the end.

Every hand dealt by the runtime without an injected test shuffler (cash, tournament, Sit & Go and HexaPro tables
share :func:`games.runtime.hands.hand_start`) gets:

* a 32-byte server seed from ``secrets.token_bytes``, kept on the hand (``Hand.server_seed``) and sent to no client
  until the hand has ended;
* one client seed per dealt-in seat: the one its occupant sent (``client_seed`` on the table socket, kept on the seat
  for the following hands until replaced) or, when they sent none, 16 bytes generated for them;
* the deck derived from both by :mod:`games.engine.fairness` (domain ``deck/v1/table/<table id>/hand/<hand number>``);
* a public ``deck_committed`` event (commitment, domain, algorithm, client seeds) appended before ``hand_started``,
  so before any card event;
* a ``deck_revealed`` event (the server seed) appended when the hand ends, finished or cancelled, for each player
  dealt in, in full to that player alone (audience ``seat``): the seed gives the whole deck, so folded and mucked hole
  cards too, which spectators, players not dealt in and anyone reading the table later must not learn; everyone else
  receives the event without its payload (its kind tells the browser a hand's seeds were revealed).

``docs/fairness.md`` describes the formats; ``manage.py verify_hand`` and ``docs/verify_hand.py`` check them.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F

from games.engine.cards import FULL_DECK
from games.engine.fairness import (
    ALGORITHM,
    MAXIMUM_CLIENT_SEED_BYTES,
    SERVER_SEED_BYTES,
    DerivedShuffler,
    commitment,
    dealing_order,
    dealt_from,
    deck_domain,
    verification_problems,
)
from games.models import EventAudience, Hand, HandEvent, Seat, Table
from games.runtime.errors import ActionRefused, NotSeated
from games.runtime.events import NewEvent

GENERATED_CLIENT_SEED_BYTES = 16
"""Length of the client seed generated for a player who sent none."""


@dataclass(frozen=True)
class HandFairness:
    """The seeds of one hand about to be dealt; :attr:`shuffler` deals its deck."""

    domain: str
    server_seed: bytes
    client_seeds: dict[int, bytes] = field(default_factory=dict)

    @property
    def commitment(self) -> str:
        return commitment(self.domain, self.server_seed)

    @property
    def shuffler(self) -> DerivedShuffler:
        return DerivedShuffler(self.server_seed, self.client_seeds, self.domain)

    def hand_fields(self) -> dict[str, Any]:
        """The ``Hand`` fields that record the seeds."""
        return {
            "deck_commitment": self.commitment,
            "server_seed": self.server_seed.hex(),
            "client_seeds": {str(seat): seed.hex() for seat, seed in sorted(self.client_seeds.items())},
        }


def hand_fairness_new(table_id: int, hand_number: int, seats: Mapping[int, Seat]) -> HandFairness:
    """Fresh seeds for hand ``hand_number`` at table ``table_id`` dealt to ``seats`` (number → seat row)."""
    client_seeds: dict[int, bytes] = {}
    for number, seat in seats.items():
        contributed = seat.client_seed if seat.client_seed and seat.client_seed_user == seat.user_id else ""
        client_seeds[number] = (
            bytes.fromhex(contributed) if contributed else secrets.token_bytes(GENERATED_CLIENT_SEED_BYTES)
        )
    return HandFairness(deck_domain(table_id, hand_number), secrets.token_bytes(SERVER_SEED_BYTES), client_seeds)


def commitment_event(hand: Hand) -> NewEvent:
    """The public ``deck_committed`` event of ``hand`` (before any card): everything but the server seed."""
    return NewEvent(
        "deck_committed",
        {
            "hand_number": hand.number,
            "algorithm": ALGORITHM,
            "domain": deck_domain(hand.table_id, hand.number),
            "commitment": hand.deck_commitment,
            "client_seeds": dict(hand.client_seeds),
        },
        hand,
    )


def reveal_events(hand: Hand) -> list[NewEvent]:
    """The ``deck_revealed`` events of ``hand`` once it has ended: one per player dealt in, seen in full by that player
    alone (none for a hand without a commitment). The players of the hand verify it; nobody else learns the deck, whose
    folded and mucked hole cards the seed would give away (docs/fairness.md "Who receives the seed")."""
    if not hand.deck_commitment:
        return []
    payload = {
        "hand_number": hand.number,
        "algorithm": ALGORITHM,
        "domain": deck_domain(hand.table_id, hand.number),
        "commitment": hand.deck_commitment,
        "server_seed": hand.server_seed,
        "client_seeds": dict(hand.client_seeds),
    }
    return [
        NewEvent(
            "deck_revealed",
            dict(payload),
            hand,
            EventAudience.SEAT,
            private_to_seat=int(seat),
            private_to_user_id=participant["user"],
        )
        for seat, participant in sorted(hand.participants.items(), key=lambda item: int(item[0]))
    ]


def client_seed_from_text(text: Any) -> str:
    """The client seed in ``text`` (hex, 1 to 64 bytes) as lowercase hex; :class:`ActionRefused` otherwise."""
    refusal = f"A client seed is 2 to {2 * MAXIMUM_CLIENT_SEED_BYTES} hexadecimal digits (1 to 64 bytes)."
    if not isinstance(text, str) or not 2 <= len(text) <= 2 * MAXIMUM_CLIENT_SEED_BYTES or len(text) % 2:
        raise ActionRefused(refusal)
    try:
        return bytes.fromhex(text).hex()
    except ValueError:
        raise ActionRefused(refusal) from None


@transaction.atomic(durable=True)
def seat_client_seed_set(user: Any, table: Table, seed_text: Any) -> None:
    """``user``'s client seed for the next hands they are dealt at ``table`` (until they send another).

    Refused with :class:`NotSeated` when they have no seat there, :class:`ActionRefused` for a seed that is not 1 to 64
    bytes of hex; nothing changes then. A hand already dealt keeps the seeds it was dealt with."""
    seed = client_seed_from_text(seed_text)
    user_id = getattr(user, "pk", None)
    if user_id is None:
        raise NotSeated("You do not have a seat at this table.")
    updated = Seat.objects.filter(table_id=table.pk, user_id=user_id).update(
        client_seed=seed, client_seed_user=user_id, version=F("version") + 1
    )
    if not updated:
        raise NotSeated("You do not have a seat at this table.")


# ---------------------------------------------------------------------------------------------------------------------
# Verification and export (after the hand has ended)


def hand_seeds_revealed(hand: Hand) -> bool:
    """Whether ``hand`` has a commitment and has ended, so its server seed may be shown."""
    return bool(hand.deck_commitment) and hand.status != "running"


def hand_verification(hand: Hand, known_hole: Mapping[int, Sequence[str]], board: Sequence[str]) -> dict[str, Any]:
    """What a player needs to verify ``hand`` without the server (the replayer's "Verify this hand",
    ``docs/fairness.md``): the algorithm, domain, commitment, revealed server seed and client seeds, the dealing
    order and hole-card count, and the cards the player saw (``known_hole`` by seat, the ``board``). Only for an
    ended hand with a commitment."""
    if not hand_seeds_revealed(hand):
        raise ValueError(f"hand {hand.pk} has no revealed seed")
    config = hand.config
    return {
        "algorithm": ALGORITHM,
        "domain": deck_domain(hand.table_id, hand.number),
        "commitment": hand.deck_commitment,
        "server_seed": hand.server_seed,
        "client_seeds": dict(sorted(hand.client_seeds.items(), key=lambda item: int(item[0]))),
        "dealing_order": _dealing_order(hand),
        "hole_card_count": 4 if config.get("variant") == "PO" else 2,
        "known_hole": {str(seat): list(cards) for seat, cards in sorted(known_hole.items())},
        "board": list(board),
    }


def _dealing_order(hand: Hand) -> list[int]:
    config = hand.config
    return dealing_order([int(seat) for seat, _stack in config["players"]], config["button"], config["table_size"])


def hand_verify(hand: Hand) -> list[str]:
    """Check a stored hand (``manage.py verify_hand``): the commitment against the server seed, the deck derived from
    the seeds against the stored deck, and every card the log dealt against its place in that deck. Empty when
    everything matches; otherwise one line per problem."""
    if not hand.deck_commitment:
        return ["this hand has no commitment (dealt before provably fair decks, or by a test shuffler)"]
    client_seeds = {int(seat): bytes.fromhex(text) for seat, text in hand.client_seeds.items()}
    problems = verification_problems(
        domain=deck_domain(hand.table_id, hand.number),
        published_commitment=_published_commitment(hand),
        server_seed=bytes.fromhex(hand.server_seed),
        client_seeds=client_seeds,
        items=[str(card) for card in FULL_DECK],
        dealt=list(hand.deck),
    )
    hole, board = dealt_from(list(hand.deck), _dealing_order(hand), 4 if hand.config.get("variant") == "PO" else 2)
    for row in HandEvent.objects.filter(hand=hand, kind__in=("hole_cards_dealt", "street_dealt")).order_by("sequence"):
        payload = row.payload
        if row.kind == "hole_cards_dealt" and list(payload.get("cards", [])) != hole[int(payload["seat"])]:
            problems.append(
                f"seat {payload['seat']} was dealt {payload.get('cards')}, the deck gives {hole[payload['seat']]}"
            )
        if row.kind == "street_dealt" and list(payload.get("board", [])) != board[: len(payload.get("board", []))]:
            problems.append(f"the board {payload.get('board')} is not the deck's {board[: len(payload['board'])]}")
    return problems


def _published_commitment(hand: Hand) -> str:
    """The commitment as the ``deck_committed`` event published it (the stored field if the event is missing)."""
    row = HandEvent.objects.filter(hand=hand, kind="deck_committed").values_list("payload", flat=True).first()
    return str(row["commitment"]) if row else hand.deck_commitment


def phh_fairness_fields(hand: Hand) -> dict[str, Any]:
    """The PHH user-defined fields of an ended hand's seeds (``docs/fairness.md``): ``_fairness_algorithm``,
    ``_fairness_domain``, ``_deck_commitment``, ``_server_seed`` and ``_client_seeds`` (``"<seat>:<hex>"`` in seat
    order); empty for a hand without a commitment or still running."""
    if not hand_seeds_revealed(hand):
        return {}
    return {
        "_fairness_algorithm": ALGORITHM,
        "_fairness_domain": deck_domain(hand.table_id, hand.number),
        "_deck_commitment": hand.deck_commitment,
        "_server_seed": hand.server_seed,
        "_client_seeds": [
            f"{seat}:{text}" for seat, text in sorted(hand.client_seeds.items(), key=lambda item: int(item[0]))
        ],
    }
