"""Provably fair decks and draws: an order derived from a committed server seed and the players' client seeds.

The algorithm (``hmac-sha256-fisher-yates/v1``; ``docs/fairness.md`` states it for outside developers):

1. **Domain tag**: a text naming what is being shuffled, e.g. ``deck/v1/table/17/hand/342`` (table id and the hand's
   number at that table) — so the same seed can never serve two hands. Encoded as UTF-8.
2. **Commitment** (published before play): ``SHA-256(frame(domain) || server_seed)`` as lowercase hex, where
   ``frame(b)`` is the 4-byte big-endian length of ``b`` followed by ``b``. The server seed is 32 bytes from
   ``secrets.token_bytes``.
3. **Material**: ``frame(domain) || u32(count) || for each client seed in increasing seat order: u32(seat) ||
   frame(client_seed)`` (``u32``/``u64`` are big-endian unsigned integers).
4. **Keyed byte stream**: block ``i`` (i = 0, 1, 2, ...) is ``HMAC-SHA-256(key=server_seed, message=material ||
   u64(i))``; the stream is the blocks one after another (32 bytes each), read from the first byte on.
5. **Uniform integer below n** (rejection sampling, no modulo bias): take ``k`` = the fewest bytes with
   ``256**k >= n``; read ``k`` bytes as a big-endian number ``r``; accept when ``r < limit`` where ``limit = 256**k -
   (256**k mod n)`` and answer ``r mod n``; otherwise discard those bytes and read the next ``k``.
6. **Shuffle** (Fisher–Yates, Durstenfeld): start from the items in their fixed order (the deck: 2c 2d 2h 2s 3c ...
   As, :data:`games.engine.cards.FULL_DECK`); for ``i`` from ``len - 1`` down to 1: ``j`` = uniform integer below
   ``i + 1``; swap items ``i`` and ``j``. The result is the dealing order.

Contracts: the same server seed, client seeds and domain always give the same order; changing any of them gives an
unrelated one; :class:`DerivedShuffler` plugs the derivation into the engine wherever a
:class:`~games.engine.cards.Shuffler` is injected (``shuffle`` works on a list in its fixed order, so the caller
passes the deck in :data:`~games.engine.cards.FULL_DECK` order, as :func:`~games.engine.cards.shuffled_deck` does).

Standard library only (the engine is pure).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, Final

ALGORITHM: Final[str] = "hmac-sha256-fisher-yates/v1"
"""The name of this derivation, stored and published beside every commitment."""

SERVER_SEED_BYTES: Final[int] = 32
"""A server seed is exactly this many bytes (``secrets.token_bytes(32)``)."""

MAXIMUM_CLIENT_SEED_BYTES: Final[int] = 64
"""A client seed is 1 to this many bytes."""

_BLOCK_BYTES: Final[int] = 32


class FairnessError(ValueError):
    """A seed or input of the wrong shape (the message says which)."""


def deck_domain(table_id: int, hand_number: int) -> str:
    """The domain tag of the deck of hand number ``hand_number`` at table ``table_id`` (poker: cash, tournaments,
    Sit & Go, HexaPro)."""
    return f"deck/v1/table/{int(table_id)}/hand/{int(hand_number)}"


def uth_round_domain(table_id: int, round_number: int) -> str:
    """The domain tag of the deck of Ultimate Texas Hold'em round ``round_number`` at table ``table_id``."""
    return f"uth-deck/v1/table/{int(table_id)}/round/{int(round_number)}"


def _frame(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _check_server_seed(server_seed: bytes) -> None:
    if not isinstance(server_seed, bytes) or len(server_seed) != SERVER_SEED_BYTES:
        raise FairnessError(f"a server seed is exactly {SERVER_SEED_BYTES} bytes")


def check_client_seed(client_seed: bytes) -> None:
    """Refuse a client seed that is not 1..:data:`MAXIMUM_CLIENT_SEED_BYTES` bytes."""
    if not isinstance(client_seed, bytes) or not 1 <= len(client_seed) <= MAXIMUM_CLIENT_SEED_BYTES:
        raise FairnessError(f"a client seed is 1 to {MAXIMUM_CLIENT_SEED_BYTES} bytes")


def commitment(domain: str, server_seed: bytes) -> str:
    """``SHA-256(frame(domain) || server_seed)`` in lowercase hex: published before play, checked after the reveal."""
    _check_server_seed(server_seed)
    return hashlib.sha256(_frame(domain.encode("utf-8")) + server_seed).hexdigest()


def seed_material(domain: str, client_seeds: Mapping[int, bytes]) -> bytes:
    """The HMAC message prefix: the framed domain, then every client seed in increasing seat order with its seat."""
    parts = [_frame(domain.encode("utf-8")), len(client_seeds).to_bytes(4, "big")]
    for seat in sorted(client_seeds):
        seed = client_seeds[seat]
        check_client_seed(seed)
        if not isinstance(seat, int) or not 0 <= seat < 2**32:
            raise FairnessError(f"a client seed's seat must be a whole number, not {seat!r}")
        parts.append(seat.to_bytes(4, "big"))
        parts.append(_frame(seed))
    return b"".join(parts)


class KeyedStream:
    """The keyed byte stream of step 4: HMAC-SHA-256 blocks under the server seed over ``material || u64(counter)``."""

    __slots__ = ("_buffer", "_counter", "_mac", "_position")

    def __init__(self, server_seed: bytes, material: bytes) -> None:
        _check_server_seed(server_seed)
        self._mac = hmac.new(server_seed, material, hashlib.sha256)
        self._counter = 0
        self._buffer = b""
        self._position = 0

    def _block(self) -> bytes:
        mac = self._mac.copy()
        mac.update(self._counter.to_bytes(8, "big"))
        self._counter += 1
        return mac.digest()

    def read(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        while len(self._buffer) - self._position < count:
            self._buffer = self._buffer[self._position :] + self._block()
            self._position = 0
        start = self._position
        self._position += count
        return self._buffer[start : self._position]

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 .. bound - 1`` by rejection sampling (step 5)."""
        if bound < 1:
            raise FairnessError("the bound of a uniform draw must be at least 1")
        width = max(1, (bound - 1).bit_length() + 7 >> 3)
        span = 1 << (8 * width)
        limit = span - span % bound
        while True:
            value = int.from_bytes(self.read(width), "big")
            if value < limit:
                return value % bound


def _shuffle_in_place(items: MutableSequence[Any], stream: KeyedStream) -> None:
    if len(items) <= 256:
        # The deck's fast path: one byte per draw, blocks read straight from the HMAC (same stream as ``below``).
        mac = stream._mac
        counter = 0
        buffer = b""
        position = 0
        for index in range(len(items) - 1, 0, -1):
            bound = index + 1
            limit = 256 - 256 % bound
            while True:
                if position == len(buffer):
                    block = mac.copy()
                    block.update(counter.to_bytes(8, "big"))
                    buffer = block.digest()
                    counter += 1
                    position = 0
                value = buffer[position]
                position += 1
                if value < limit:
                    break
            other = value % bound
            items[index], items[other] = items[other], items[index]
        return
    for index in range(len(items) - 1, 0, -1):
        other = stream.below(index + 1)
        items[index], items[other] = items[other], items[index]


def derived_order(
    items: Sequence[Any], server_seed: bytes, client_seeds: Mapping[int, bytes], domain: str
) -> list[Any]:
    """``items`` (in their fixed order) shuffled by steps 3–6: a new list, the dealing order."""
    order = list(items)
    _shuffle_in_place(order, KeyedStream(server_seed, seed_material(domain, client_seeds)))
    return order


def derived_integer(bound: int, server_seed: bytes, client_seeds: Mapping[int, bytes], domain: str) -> int:
    """The first uniform integer below ``bound`` of the stream (a single draw, e.g. a HexaPro ticket)."""
    return KeyedStream(server_seed, seed_material(domain, client_seeds)).below(bound)


def dealing_order(seats: Sequence[int], button: int, table_size: int) -> list[int]:
    """The seats dealt in, in dealing order: clockwise from the first seat after the ``button`` (the PHH order)."""
    return sorted(seats, key=lambda seat: (seat - button - 1) % table_size)


def dealt_from(
    deck: Sequence[Any], order: Sequence[int], hole_card_count: int
) -> tuple[dict[int, list[Any]], list[Any]]:
    """Who gets which card of ``deck`` (dealing order, no burns): hole card ``r`` of the ``i``-th seat of ``order``
    is ``deck[r * len(order) + i]`` (one card at a time, clockwise), the five board cards follow the hole cards.
    Returns (hole cards by seat, board)."""
    count = len(order)
    hole = {
        seat: [deck[round_ * count + index] for round_ in range(hole_card_count)] for index, seat in enumerate(order)
    }
    start = count * hole_card_count
    return hole, list(deck[start : start + 5])


class DerivedShuffler:
    """A :class:`~games.engine.cards.Shuffler` whose ``shuffle`` applies the derivation: inject it into
    ``HandState.create`` / ``shuffled_deck``. Each ``shuffle`` call restarts the stream, so shuffling the same fixed
    list twice gives the same order (a hand uses it once)."""

    __slots__ = ("client_seeds", "domain", "server_seed")

    def __init__(self, server_seed: bytes, client_seeds: Mapping[int, bytes], domain: str) -> None:
        _check_server_seed(server_seed)
        seed_material(domain, client_seeds)  # refuses bad client seeds now rather than at the deal
        self.server_seed = server_seed
        self.client_seeds = dict(client_seeds)
        self.domain = domain

    @property
    def commitment(self) -> str:
        return commitment(self.domain, self.server_seed)

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        _shuffle_in_place(x, KeyedStream(self.server_seed, seed_material(self.domain, self.client_seeds)))


def verification_problems(
    *,
    domain: str,
    published_commitment: str,
    server_seed: bytes,
    client_seeds: Mapping[int, bytes],
    items: Sequence[Any],
    dealt: Sequence[Any],
) -> list[str]:
    """What does not match when a revealed hand is checked: the commitment against the revealed server seed, and the
    order derived from the seeds against the ``dealt`` order (a prefix is enough: the cards seen). Empty = verified."""
    problems: list[str] = []
    try:
        recomputed = commitment(domain, server_seed)
    except FairnessError as error:
        return [str(error)]
    if not hmac.compare_digest(recomputed, published_commitment.lower()):
        problems.append(f"the commitment {published_commitment} is not SHA-256 of the revealed seed ({recomputed})")
    order = derived_order(items, server_seed, client_seeds, domain)
    for position, (expected, actual) in enumerate(zip(order, dealt, strict=False)):
        if expected != actual:
            problems.append(f"card {position + 1} of the deck is {actual}, the seeds give {expected}")
            break
    if len(dealt) > len(order):
        problems.append("more cards were dealt than the deck holds")
    return problems


__all__ = [
    "ALGORITHM",
    "MAXIMUM_CLIENT_SEED_BYTES",
    "SERVER_SEED_BYTES",
    "DerivedShuffler",
    "FairnessError",
    "KeyedStream",
    "check_client_seed",
    "commitment",
    "dealing_order",
    "dealt_from",
    "deck_domain",
    "derived_integer",
    "derived_order",
    "seed_material",
    "uth_round_domain",
    "verification_problems",
]
