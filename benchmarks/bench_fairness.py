"""Provably fair deck derivation speed (issue 29): ``games.engine.fairness`` beside ``secrets.SystemRandom().shuffle``.

Run standalone: ``.venv/bin/python benchmarks/bench_fairness.py [--decks N] [--repeat R]``.

Both are timed in the same run on the same machine, per 52-card deck, best of ``--repeat`` runs:

* ``derived``: ``derived_order(FULL_DECK, server_seed, client_seeds, domain)`` with a fresh 32-byte server seed and six
  16-byte client seeds per deck (material framing, the HMAC-SHA-256 stream, rejection sampling and Fisher-Yates);
* ``derived + commitment``: the same plus the SHA-256 commitment, i.e. all the hand start does for fairness;
* ``SystemRandom``: ``secrets.SystemRandom().shuffle`` of a copy of the deck (the shuffler it replaces).

The seeds are made before timing (``secrets.token_bytes`` is not part of the derivation). Target: under 50 µs per deck.
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.cards import FULL_DECK
from games.engine.fairness import commitment, deck_domain, derived_order

TARGET_MICROSECONDS = 50.0


def best_per_item(run: Callable[[], None], items: int, repeat: int) -> float:
    """Best of ``repeat`` runs of ``run`` (which handles ``items`` decks), in microseconds per deck."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best / items * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decks", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    arguments = parser.parse_args()
    decks = arguments.decks
    seeds = [
        (secrets.token_bytes(32), {seat: secrets.token_bytes(16) for seat in range(1, 7)}, deck_domain(1, number))
        for number in range(decks)
    ]
    system_random = secrets.SystemRandom()

    def derive() -> None:
        for server_seed, client_seeds, domain in seeds:
            derived_order(FULL_DECK, server_seed, client_seeds, domain)

    def derive_and_commit() -> None:
        for server_seed, client_seeds, domain in seeds:
            commitment(domain, server_seed)
            derived_order(FULL_DECK, server_seed, client_seeds, domain)

    def system_shuffle() -> None:
        for _ in range(decks):
            deck = list(FULL_DECK)
            system_random.shuffle(deck)

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores (shared machine)")
    print(f"{decks:,} decks per run, best of {arguments.repeat} runs")
    results = {
        "derived (HMAC-SHA-256 stream, rejection sampling, Fisher-Yates)": best_per_item(
            derive, decks, arguments.repeat
        ),
        "derived + commitment (what a hand start adds)": best_per_item(derive_and_commit, decks, arguments.repeat),
        "secrets.SystemRandom().shuffle": best_per_item(system_shuffle, decks, arguments.repeat),
    }
    for name, microseconds in results.items():
        print(f"  {name:<66} {microseconds:8.2f} µs per deck")
    derived = results["derived + commitment (what a hand start adds)"]
    verdict = "met" if derived < TARGET_MICROSECONDS else "NOT met"
    print(f"target < {TARGET_MICROSECONDS:.0f} µs per deck: {verdict}")


if __name__ == "__main__":
    main()
