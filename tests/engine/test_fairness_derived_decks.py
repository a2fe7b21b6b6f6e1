"""Provably fair decks (issue 29): the deck order is derived from a committed server seed and the client seeds.

The derivation (``games.engine.fairness``, documented in ``docs/fairness.md``) is deterministic, depends on every
client seed and on the domain, and a server seed altered after the commitment fails verification. The known-answer
test pins the algorithm: ``docs/verify_hand.py`` and the browser's Web Crypto code must give the same deck.
"""

from __future__ import annotations

import hashlib
import hmac

import pytest

from games.engine.cards import FULL_DECK, shuffled_deck
from games.engine.config import HandConfig, Variant
from games.engine.fairness import (
    DerivedShuffler,
    FairnessError,
    KeyedStream,
    commitment,
    deck_domain,
    derived_integer,
    derived_order,
    seed_material,
    verification_problems,
)
from games.engine.state import HandState

SERVER_SEED = bytes(range(32))
CLIENT_SEEDS = {1: b"alice's browser", 4: bytes.fromhex("00ff10")}
DOMAIN = deck_domain(17, 342)


def test_the_same_seeds_and_domain_always_give_the_same_deck() -> None:
    first = derived_order(FULL_DECK, SERVER_SEED, CLIENT_SEEDS, DOMAIN)
    second = shuffled_deck(DerivedShuffler(SERVER_SEED, dict(CLIENT_SEEDS), DOMAIN))
    assert tuple(first) == second
    assert sorted(first) == sorted(FULL_DECK)


def test_every_client_seed_changes_the_deck() -> None:
    base = derived_order(FULL_DECK, SERVER_SEED, CLIENT_SEEDS, DOMAIN)
    assert derived_order(FULL_DECK, SERVER_SEED, {1: b"alice's browser", 4: b"\x00\xff\x11"}, DOMAIN) != base
    assert derived_order(FULL_DECK, SERVER_SEED, {1: b"alice's browser"}, DOMAIN) != base
    assert derived_order(FULL_DECK, SERVER_SEED, {}, DOMAIN) != base
    # The seat is part of the material: the same seed from another seat is another deck.
    assert derived_order(FULL_DECK, SERVER_SEED, {2: b"alice's browser", 4: b"\x00\xff\x10"}, DOMAIN) != base


def test_the_server_seed_and_the_domain_change_the_deck() -> None:
    base = derived_order(FULL_DECK, SERVER_SEED, CLIENT_SEEDS, DOMAIN)
    assert derived_order(FULL_DECK, bytes(32), CLIENT_SEEDS, DOMAIN) != base
    assert derived_order(FULL_DECK, SERVER_SEED, CLIENT_SEEDS, deck_domain(17, 343)) != base


def test_the_commitment_is_sha_256_of_the_framed_domain_and_the_server_seed() -> None:
    domain = DOMAIN.encode()
    expected = hashlib.sha256(len(domain).to_bytes(4, "big") + domain + SERVER_SEED).hexdigest()
    assert commitment(DOMAIN, SERVER_SEED) == expected
    assert commitment(deck_domain(17, 343), SERVER_SEED) != expected


def test_the_stream_is_hmac_sha_256_of_the_material_and_a_counter_keyed_with_the_server_seed() -> None:
    material = seed_material(DOMAIN, CLIENT_SEEDS)
    domain = DOMAIN.encode()
    assert material == (
        len(domain).to_bytes(4, "big")
        + domain
        + (2).to_bytes(4, "big")
        + (1).to_bytes(4, "big")
        + len(b"alice's browser").to_bytes(4, "big")
        + b"alice's browser"
        + (4).to_bytes(4, "big")
        + (3).to_bytes(4, "big")
        + b"\x00\xff\x10"
    )
    stream = KeyedStream(SERVER_SEED, material)
    blocks = [hmac.new(SERVER_SEED, material + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(3)]
    assert stream.read(40) == b"".join(blocks)[:40]
    assert stream.read(56) == b"".join(blocks)[40:96]


def test_a_known_answer_pins_the_algorithm_for_outside_verifiers() -> None:
    """The first cards of the deck for the seeds above; docs/fairness.md quotes the same example."""
    deck = derived_order(FULL_DECK, SERVER_SEED, CLIENT_SEEDS, DOMAIN)
    assert commitment(DOMAIN, SERVER_SEED) == KNOWN_COMMITMENT
    assert " ".join(str(card) for card in deck[:10]) == KNOWN_FIRST_TEN


def test_a_server_seed_altered_after_the_commitment_fails_verification() -> None:
    published = commitment(DOMAIN, SERVER_SEED)
    dealt = derived_order(FULL_DECK, SERVER_SEED, CLIENT_SEEDS, DOMAIN)
    ok = verification_problems(
        domain=DOMAIN,
        published_commitment=published,
        server_seed=SERVER_SEED,
        client_seeds=CLIENT_SEEDS,
        items=FULL_DECK,
        dealt=dealt,
    )
    assert ok == []
    altered = bytes([SERVER_SEED[0] ^ 1]) + SERVER_SEED[1:]
    problems = verification_problems(
        domain=DOMAIN,
        published_commitment=published,
        server_seed=altered,
        client_seeds=CLIENT_SEEDS,
        items=FULL_DECK,
        dealt=dealt,
    )
    assert len(problems) == 2
    assert "is not SHA-256 of the revealed seed" in problems[0]
    assert problems[1].startswith("card 1 of the deck is")
    # A deck dealt in another order than the seeds give is caught even when the commitment matches.
    swapped = [dealt[1], dealt[0], *dealt[2:]]
    problems = verification_problems(
        domain=DOMAIN,
        published_commitment=published,
        server_seed=SERVER_SEED,
        client_seeds=CLIENT_SEEDS,
        items=FULL_DECK,
        dealt=swapped,
    )
    assert problems == [f"card 1 of the deck is {dealt[1]}, the seeds give {dealt[0]}"]


def test_the_engine_deals_the_derived_deck_when_the_shuffler_is_injected() -> None:
    config = HandConfig.create(
        variant=Variant.NO_LIMIT_HOLDEM,
        stacks={1: 1000, 2: 1000, 3: 1000},
        button=1,
        small_blind_seat=2,
        big_blind_seat=3,
        small_blind=5,
        big_blind=10,
        table_size=6,
    )
    state = HandState.create(config, shuffler=DerivedShuffler(SERVER_SEED, CLIENT_SEEDS, DOMAIN))
    assert list(state.deck) == derived_order(FULL_DECK, SERVER_SEED, CLIENT_SEEDS, DOMAIN)


def test_seeds_of_the_wrong_shape_are_refused_with_the_reason() -> None:
    with pytest.raises(FairnessError, match="exactly 32 bytes"):
        commitment(DOMAIN, b"short")
    with pytest.raises(FairnessError, match="1 to 64 bytes"):
        derived_order(FULL_DECK, SERVER_SEED, {1: b""}, DOMAIN)
    with pytest.raises(FairnessError, match="1 to 64 bytes"):
        DerivedShuffler(SERVER_SEED, {1: bytes(65)}, DOMAIN)


def test_a_single_draw_uses_as_many_bytes_as_the_bound_needs_and_rejects_the_biased_tail() -> None:
    material = seed_material("draw/v1", {})
    stream = KeyedStream(SERVER_SEED, material)
    raw = stream.read(64)
    expected = None
    for offset in range(0, 64, 3):
        value = int.from_bytes(raw[offset : offset + 3], "big")
        if value < 2**24 - 2**24 % 100_000:
            expected = value % 100_000
            break
    assert derived_integer(100_000, SERVER_SEED, {}, "draw/v1") == expected


def test_a_plain_reading_of_the_documented_steps_gives_the_same_deck() -> None:
    """Steps 3-6 of docs/fairness.md written out naively (one byte per draw for a 52-card deck)."""
    material = seed_material(DOMAIN, CLIENT_SEEDS)
    stream = b"".join(
        hmac.new(SERVER_SEED, material + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(10)
    )
    deck = list(FULL_DECK)
    position = 0
    for i in range(51, 0, -1):
        while True:
            byte = stream[position]
            position += 1
            if byte < 256 - 256 % (i + 1):
                break
        j = byte % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert deck == derived_order(FULL_DECK, SERVER_SEED, CLIENT_SEEDS, DOMAIN)


KNOWN_COMMITMENT = "d08a071ffd81e55f6a29618ceb019f57d4bad970d4f43dafb32245a8b7f2086a"
KNOWN_FIRST_TEN = "2d Qh 7s Qd Qs Jd 4d 8d 4s 6s"
