"""The compliance desk's incremental detection on the site's stored hands (FRD-19): what a batch costs.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/poker REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python benchmarks/bench_compliance_desk.py [--hands 300] [--state-hands 50000]

Creates and drops a scratch database next to the one DATABASE_URL names (without DATABASE_URL / REDIS_URL it starts
the embedded servers). Plays ``--hands`` six-handed hands through the table services (every player checks or calls
down), then measures:

1. the site's pipeline: ``compliance.services.detection_advance`` batches (``HANDS_PER_BATCH`` each: read the events,
   rebuild each hand, time its decisions, feed the indicators, store the accumulators, cursors and flags) until it
   has caught up — hands per second;
2. peer, the indicators alone: the same hand records fed to a fresh ``compliance.detection.Detector`` in memory —
   what the database and the record building add is the difference;
3. the fixed cost of a batch as the accumulators grow: the accumulators of ``--state-hands`` hands of the detection
   benchmark's simulation (benchmarks/detection_simulation.py) stored as the site's state, then one more stored hand
   read — the milliseconds of that one-hand batch (reading, then writing the state back, and computing every flag).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_wallet import _admin, _scratch_url  # the scratch database, as the wallet benchmark makes it


def play_hands(count: int, prefix: str = "bench") -> list[int]:
    """``count`` hands at two new six-handed NL10 tables of new players (``prefix``) through the services; their
    ids."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Hand, HandStatus, Stake
    from games.runtime.engine_state import hand_engine_state
    from games.services import hand_act, hand_start, seat_take, seed_stakes, table_open
    from wallet.models import AccountKind
    from wallet.services import TransferLeg, player_cash_account, system_account, transfer_create

    seed_stakes()
    stake = Stake.objects.get(game_type__code="holdem", label="NL10")
    moment = timezone.now() - timedelta(days=1)
    tables = []
    for table_number in range(2):
        table = table_open(stake, now=moment)
        for seat_number in range(1, 7):
            user = get_user_model().objects.create_user(f"{prefix}{table_number}-{seat_number}", password=None)
            transfer_create(
                kind="deposit",
                legs=[
                    TransferLeg(system_account(AccountKind.OUTSIDE_WORLD), -(10**8)),
                    TransferLeg(player_cash_account(user), 10**8),
                ],
                idempotency_key=f"bench-deposit:{user.pk}",
                reference=f"bench:{user.pk}",
            )
            seat_take(user, table, 1_000, seat_number=seat_number, now=moment)
        tables.append(table)
    played: list[int] = []
    rng = random.Random(7)
    while len(played) < count:
        for table in tables:
            moment += timedelta(seconds=30)
            hand = hand_start(table, now=moment, shuffler=rng)
            if hand is None:
                continue
            while hand.status == HandStatus.RUNNING:
                legal = hand_engine_state(hand).legal_actions()
                moment += timedelta(seconds=rng.uniform(0.5, 4.0))
                acting = table.seats.get(number=hand.acting_seat).user
                hand = hand_act(table, acting, "check" if legal.check else "call", now=moment)
                hand = Hand.objects.get(pk=hand.pk)
            played.append(hand.pk)
    return played


def simulated_state(hands: int) -> dict[str, Any]:
    """The accumulators after ``hands`` hands of the detection benchmark's simulated population."""
    from detection_simulation import PopulationSize, Room, build_population, preflop_percentiles

    from compliance.detection.detector import Detector

    rng = random.Random(19)
    population = build_population(PopulationSize(), rng)
    room = Room(population, 150, seconds_per_hand=50.0, rng=rng, percentiles=preflop_percentiles(random.Random(20)))
    detector = Detector()
    for records, connections in room.rounds(hands):
        for connection in sorted(connections, key=lambda record: record.at):
            detector.feed_connection(connection)
        for record in records:
            detector.feed_hand(record)
    return detector.state()


def benchmark(hands: int, state_hands: int) -> None:
    import json

    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from compliance.detection.detector import Detector
    from compliance.hand_records import hand_record
    from compliance.models import DetectorState
    from compliance.services import detection_advance
    from games.models import Hand

    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    played = play_hands(hands)
    print(f"played {len(played)} hands through the services in {time.perf_counter() - began:.1f} s")

    later = timezone.now() + timezone.timedelta(minutes=1)
    batches = []
    began = time.perf_counter()
    while True:
        start = time.perf_counter()
        batch = detection_advance(now=later)
        batches.append(time.perf_counter() - start)
        if not batch.more:
            break
    site_seconds = time.perf_counter() - began
    state = DetectorState.objects.get()
    print(
        f"site pipeline (detection_advance): {state.hands_fed} hands in {len(batches)} batches, {site_seconds:.2f} s: "
        f"{state.hands_fed / site_seconds:,.0f} hands/s, {1000 * max(batches):.0f} ms for the longest batch"
    )

    records = [hand_record(hand) for hand in Hand.objects.filter(pk__in=played).order_by("pk")]
    detector = Detector()
    began = time.perf_counter()
    for record in records:
        detector.feed_hand(record)
    pure_seconds = time.perf_counter() - began
    print(f"peer, the indicators alone (Detector.feed_hand): {len(records) / pure_seconds:,.0f} hands/s")

    if state_hands:
        big = simulated_state(state_hands)
        size = len(json.dumps(big))
        DetectorState.objects.filter(pk=state.pk).update(state=big)
        table_hands = play_hands(1, prefix="more")
        began = time.perf_counter()
        batch = detection_advance(now=timezone.now() + timezone.timedelta(minutes=1))
        one = time.perf_counter() - began
        print(
            f"one-hand batch on the accumulators of {state_hands:,} simulated hands ({size / 1e6:.1f} MB of JSON): "
            f"{1000 * one:.0f} ms (fed {batch.hands} hand, {len(table_hands)} played)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=300, help="hands played through the services")
    parser.add_argument("--state-hands", type=int, default=50_000, help="simulated hands behind the large state")
    options = parser.parse_args()
    with ExitStack() as stack:
        if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
            from poker_site.embedded import embedded_services

            stack.enter_context(embedded_services())
        base_url = os.environ["DATABASE_URL"]
        scratch = f"bench_compliance_{os.getpid()}"
        _admin(base_url, f'CREATE DATABASE "{scratch}"')
        try:
            os.environ["DATABASE_URL"] = _scratch_url(base_url, scratch)
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
            os.environ.setdefault("LOG_LEVEL", "WARNING")
            os.environ.setdefault("DATABASE_POOL", "off")
            benchmark(options.hands, options.state_hands)
        finally:
            from django.db import connections

            connections.close_all()
            _admin(base_url, f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
