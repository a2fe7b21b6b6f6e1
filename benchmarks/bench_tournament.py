"""Tournaments at scale, in process, through the real services and database (no sockets, no Celery).

    .venv/bin/python benchmarks/bench_tournament.py freezeout [--entrants 10000] [--level-seconds 60] [--profile]
    .venv/bin/python benchmarks/bench_tournament.py burst [--registrations 2000] [--clients 50]
    .venv/bin/python benchmarks/bench_tournament.py balancing [--tables 10,100,1000]
    .venv/bin/python benchmarks/bench_tournament.py sweep [--tournaments 10,50]

Each run creates its own database ``bench_tournament_<pid>`` beside the one DATABASE_URL names (without DATABASE_URL
and REDIS_URL it starts the embedded servers like ``make run``), migrates it and drops it at the end
(``--keep-database`` keeps it). Live updates and Celery are off: nothing listens, and the benchmark does the
workers' jobs itself — it calls the coordinator (``tournament_advance``) where the beat task and the hand ends would
queue it, and pays each prize (``entry_prize_pay``) where the place's after-commit hook would queue the task. Players
count as present (``TOURNAMENT_SITS_OUT_ABSENT_PLAYERS`` off: with no sockets every bot would be absent, TRN-04).

**freezeout**: a scheduled freezeout with ``--entrants`` bots (9-max, 10,000 chips, the default multi-table blinds
with ``--level-seconds`` levels and a break every ``--break-every`` levels), registered through
``tournament_register``, started and seated by the coordinator, and played to the last place at simulated times:
every step (``--step-seconds``) the coordinator runs, every idle table deals (``hand_start``) and the hands are
played by acting round-robin across the tables (``hand_act``), so that coordinations also see tables in the middle
of a hand; each ``--hands-per-coordination`` hand ends the coordinator runs once more (a hand end asks for it); with
``--as-production`` it runs as on the site: a hand end that makes its table wait queues a coordination after the delay
the site asks for (``tournaments.table_policy.coordination_window_seconds``) unless one is queued, and it runs when the
clock of the live site modelled reaches that moment (every table acts once every ``--action-seconds``: the hand ends
of that span share it); each step the coordinator runs only when the beat's sweep would find the tournament due. Bots
play an all-in-heavy policy (shove with ``--shove``, call a bet with ``--call``) that keeps the hand count down.
Printed: wall time, hands, hands/s, the time of each kind of work — tournament work (registration, the start and
seating, the coordinations: places, balancing, breaking, hand-for-hand, breaks and levels, and the prize payments)
against hand work (``hand_start`` and ``hand_act``, settlement and knock-outs included) and the bots' own reads —,
balancing moves and tables broken, the largest difference in players between tables after each coordination that
found every table between hands, and the checks: places 1..N each given once, every prize paid, the prize pool
account at zero, the fees in the house account, the ledger reconciled (``wallet_reconcile``). Peer, in the same
run: ``--cash-hands`` hands of the same policy on cash tables through the same services (``hand_start``,
``hand_act``, the ledger settlement).

**burst**: ``--registrations`` players registering for one tournament from ``--clients`` concurrent clients (threads,
each with its own database connection); every player is sent twice, by two clients at the same moment, so the
second must be refused. Peer: the same number of registrations in a serial loop, for another tournament. Checks:
one live entry per player, the entry count, the prize pool and the house fees account hold exactly what was paid,
every player paid exactly once, the ledger reconciles.

**balancing**: for each table count, a freeroll seated on that many full 9-max tables; timed: the start (seating), a
coordination with nothing to do, balancing rounds (two tables lose two players each: four places, two moves) and a
round that breaks a table; with the SQL statements each ran. Peer: the same round at the smallest table count.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import os
import pstats
import random
import statistics
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from benchmarks.bench_tables import with_database  # noqa: E402 - the project is on the path from here on
from benchmarks.bench_wallet import _admin  # noqa: E402 - a statement on the server's maintenance database

TABLE_SIZE = 9
BUY_IN = 1_000
FEE = 100
BUSY_RETRIES = 20
"""A burst client sends a registration again when no database connection was free (as a browser would after the
site's 503 with Retry-After), at most this many times."""
FUNDING_CHUNK = 500
"""Players funded by one deposit transfer when the bots are made."""

TOURNAMENT_WORK = ("registration", "start", "coordination", "prizes")
"""Buckets of tournament work; the issue's share (seating, balancing, levels, eliminations, payouts) leaves
registration out, and the report gives it both ways."""
HAND_WORK = ("hand_start", "hand_act")


# ---------------------------------------------------------------------------------------------------------------------
# Measuring


@dataclass
class Stopwatch:
    """Seconds and calls per bucket of work."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    calls: Counter[str] = field(default_factory=Counter)

    @contextmanager
    def measure(self, bucket: str) -> Iterator[None]:
        began = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[bucket] += time.perf_counter() - began
            self.calls[bucket] += 1

    def total(self, buckets: tuple[str, ...]) -> float:
        return sum(self.seconds.get(bucket, 0.0) for bucket in buckets)


@contextmanager
def statements_counted() -> Iterator[list[str]]:
    """The SQL statements run on the default connection inside the block."""
    from django.db import connection

    executed: list[str] = []

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield executed


@dataclass
class Workers:
    """What the workers would be asked to do after each commit: coordinations and prize credits. The benchmark
    does these jobs itself (see the module docstring)."""

    coordinations_asked: int = 0
    delays_asked: list[float] = field(default_factory=list)
    """The delay each hand end asked its coordination for (``tournament_coordinate_later``), in order."""
    prizes_to_pay: list[int] = field(default_factory=list)


@contextmanager
def in_process_workers() -> Iterator[Workers]:
    """No live updates (nothing listens) and no Celery: the after-commit hooks record what they would queue."""
    from django.test import override_settings

    from games.runtime import realtime
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    workers = Workers()

    def coordination_asked(tournament_id: int, delay_seconds: float = 0.0) -> None:
        workers.coordinations_asked += 1
        workers.delays_asked.append(delay_seconds)

    replaced = [
        (realtime, "table_events_committed", lambda *arguments: None),
        (realtime, "lobby_table_changed", lambda *arguments: None),
        (tournament_realtime, "tournament_changed", lambda *arguments: None),
        (tasks, "tournament_coordinate_later", coordination_asked),
        (tasks, "entry_prize_credit_later", workers.prizes_to_pay.append),
    ]
    saved = [(module, name, getattr(module, name)) for module, name, _value in replaced]
    for module, name, value in replaced:
        setattr(module, name, value)
    try:
        with override_settings(TOURNAMENT_SITS_OUT_ABSENT_PLAYERS=False):
            yield workers
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


# ---------------------------------------------------------------------------------------------------------------------
# Bots


def bots_create(count: int, prefix: str, cash_each: int) -> list[Any]:
    """``count`` users named ``<prefix>00001``... (no usable password: nobody logs in) with ``cash_each`` cents
    deposited on their cash account, many players per deposit transfer."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from wallet.models import AccountKind
    from wallet.services import TransferLeg, player_cash_account, system_account, transfer_create

    user_model = get_user_model()
    unusable = make_password(None)
    names = [f"{prefix}{number:05d}" for number in range(1, count + 1)]
    user_model.objects.bulk_create((user_model(username=name, password=unusable) for name in names), batch_size=1000)
    users = list(user_model.objects.filter(username__in=names).order_by("pk"))
    outside = system_account(AccountKind.OUTSIDE_WORLD)
    for start in range(0, len(users), FUNDING_CHUNK):
        chunk = users[start : start + FUNDING_CHUNK]
        transfer_create(
            kind="deposit",
            legs=[
                TransferLeg(outside, -cash_each * len(chunk)),
                *(TransferLeg(player_cash_account(user), cash_each) for user in chunk),
            ],
            idempotency_key=f"bench-tournament:{prefix}:{start}",
            reference=f"bench-tournament:{prefix}",
        )
    return users


@dataclass
class AllInHeavy:
    """The bots' policy, from the legal actions of the ``turn`` event: with nothing to call, shove with probability
    ``shove``, else check; facing a bet, shove with probability ``shove``, call with probability ``call``, else fold."""

    shove: float
    call: float
    rng: random.Random

    def __call__(self, kinds: list[str]) -> str:
        if "check" in kinds:
            return "all_in" if "all_in" in kinds and self.rng.random() < self.shove else "check"
        if "all_in" in kinds and self.rng.random() < self.shove:
            return "all_in"
        if self.rng.random() < self.call:
            return "call" if "call" in kinds else "all_in"
        return "fold"


def legal_kinds(table_id: int) -> list[str]:
    """What the player to act may do, as the table's last ``turn`` event tells every client."""
    from games.models import HandEvent

    payload = (
        HandEvent.objects.filter(table_id=table_id, kind="turn")
        .order_by("-sequence")
        .values_list("payload", flat=True)
        .first()
    )
    if not payload or not payload.get("legal_actions"):
        raise RuntimeError(f"table {table_id} has no turn to take")
    return list(payload["legal_actions"]["kinds"])


@dataclass
class Play:
    """Hands played by :func:`hands_play`."""

    hands: int = 0
    actions: int = 0
    ended_since_coordination: int = 0


def hands_play(
    tables: list[Any],
    now: datetime,
    users: dict[int, Any],
    policy: AllInHeavy,
    watch: Stopwatch,
    shuffler: random.Random,
    play: Play,
    after_hand_end: Callable[[float], None] | None = None,
    before_action: Callable[[float], None] | None = None,
    action_seconds: float = 2.0,
) -> int:
    """Deal at every table of ``tables`` and play the hands by acting round-robin across the tables until all are
    over; ``after_hand_end`` runs after each hand that ends and ``before_action`` before each action, both with the
    moment it happens on a live site where every table acts once every ``action_seconds`` (seconds since the deal:
    the ``k``-th of ``n`` tables of a round-robin pass ``p`` acts at ``(p + k / n) * action_seconds``). Returns the
    hands dealt."""
    from games.models import HandStatus
    from games.services import hand_act, hand_start

    running: dict[int, tuple[Any, Any]] = {}
    dealt = 0

    def ended(hand: Any) -> bool:
        return bool(hand.status != HandStatus.RUNNING or hand.acting_seat is None)

    def hand_over(moment: float) -> None:
        play.hands += 1
        play.ended_since_coordination += 1
        if after_hand_end is not None:
            after_hand_end(moment)

    for table in tables:
        with watch.measure("hand_start"):
            hand = hand_start(table, now=now, shuffler=random.Random(shuffler.random()))
        if hand is None:
            continue
        dealt += 1
        if ended(hand):
            hand_over(0.0)
        else:
            running[table.pk] = (table, hand)
    passes = 0
    while running:
        acting = list(running)
        for position, table_id in enumerate(acting):
            moment = (passes + position / len(acting)) * action_seconds
            if before_action is not None:
                before_action(moment)
            table, hand = running[table_id]
            with watch.measure("bots"):
                action = policy(legal_kinds(table_id))
                user = users[hand.participants[str(hand.acting_seat)]["user"]]
            with watch.measure("hand_act"):
                hand = hand_act(table, user, action, None, now=now)
            play.actions += 1
            if ended(hand):
                del running[table_id]
                hand_over(moment)
            else:
                running[table_id] = (table, hand)
        passes += 1
    return dealt


# ---------------------------------------------------------------------------------------------------------------------
# Freezeout


def freezeout_tournament(entrants: int, starts_at: datetime, level_seconds: int, break_every: int) -> Any:
    from tournaments.models import TournamentKind
    from tournaments.rules.levels import MULTI_TABLE_LEVEL_ROWS, structure_from_rows
    from tournaments.services.catalog import tournament_create

    return tournament_create(
        name=f"Benchmark freezeout {entrants:,}",
        kind=TournamentKind.SCHEDULED,
        starts_at=starts_at,
        table_size=TABLE_SIZE,
        buy_in=BUY_IN,
        fee=FEE,
        structure=structure_from_rows("benchmark", 10_000, MULTI_TABLE_LEVEL_ROWS, level_seconds),
        break_every_levels=break_every or None,
        break_seconds=60,
        minimum_entrants=2,
    )


def players_per_table(tournament_id: int) -> list[int]:
    """Players at each open table of the tournament, from the seats."""
    from django.db.models import Count

    from games.models import Table, TableStatus

    return list(
        Table.objects.filter(tournament_link__tournament_id=tournament_id, status=TableStatus.OPEN)
        .annotate(players=Count("seats__user"))
        .values_list("players", flat=True)
    )


def freezeout(
    entrants: int = 10_000,
    *,
    level_seconds: int = 20,
    break_every: int = 4,
    step_seconds: float = 3.0,
    hands_per_coordination: int = 1,
    as_production: bool = False,
    action_seconds: float = 2.0,
    shove: float = 0.3,
    call: float = 0.5,
    cash_hands: int = 300,
    cash_tables: int = 20,
    seed: int = 20261126,
    step_limit: int = 100_000,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the freezeout (see the module docstring) in the current database; returns the report."""
    from django.core.management import call_command
    from django.utils import timezone

    from games.models import Table, TableStatus
    from tournaments.models import (
        EntryStatus,
        Tournament,
        TournamentBreak,
        TournamentEntry,
        TournamentStatus,
    )
    from tournaments.services import entry_prize_pay, tournament_advance, tournament_register, tournaments_due
    from tournaments.services.money import prize_pool_account
    from tournaments.services.running import FIRST_DEAL_DELAY
    from wallet.models import AccountKind
    from wallet.services import balance_of, ledger_reconcile, system_account

    say = progress or (lambda text: None)
    chance = random.Random(seed)
    watch = Stopwatch()
    with in_process_workers() as workers:
        began = time.perf_counter()
        users = bots_create(entrants, f"fz{seed % 1000}x", BUY_IN + FEE)
        fees_before = balance_of(system_account(AccountKind.HOUSE_FEES))
        setup_seconds = time.perf_counter() - began
        say(f"{entrants:,} bots funded in {setup_seconds:.1f} s")
        opens = timezone.now().replace(microsecond=0) + timedelta(minutes=1)
        starts_at = opens + timedelta(hours=1)
        tournament = freezeout_tournament(entrants, starts_at, level_seconds, break_every)
        tournament_id = tournament.pk
        users_by_id = {user.pk: user for user in users}
        policy = AllInHeavy(shove, call, random.Random(chance.random()))
        wall_began = time.perf_counter()
        for user in users:
            with watch.measure("registration"):
                tournament_register(user, tournament_id, now=opens, randomness=random.Random(chance.random()))
        say(f"registered in {watch.seconds['registration']:.1f} s")

        def pay_prizes() -> None:
            while workers.prizes_to_pay:
                entry_id = workers.prizes_to_pay.pop(0)
                with watch.measure("prizes"):
                    entry_prize_pay(entry_id)

        coordination = {"moves": 0, "tables_broken": 0, "places": 0, "levels": 0}

        def coordinate(now: datetime, bucket: str = "coordination") -> Any:
            with watch.measure(bucket):
                step = tournament_advance(tournament_id, now=now, randomness=random.Random(chance.random()))
            coordination["moves"] += step.moves
            coordination["tables_broken"] += step.tables_broken
            coordination["places"] += len(step.places)
            coordination["levels"] += int(step.level_changed)
            pay_prizes()
            return step

        coordinate(starts_at, "start")
        tables_at_start = Table.objects.filter(tournament_link__tournament_id=tournament_id).count()
        say(f"started on {tables_at_start:,} tables in {watch.seconds['start']:.1f} s")
        play = Play()
        spreads: Counter[int] = Counter()
        hand_for_hand_steps = 0
        now = starts_at + FIRST_DEAL_DELAY

        # As production: a hand end that makes its table wait queues a coordination after the delay it asks for
        # (the site's coordination window) unless one is queued already (the task's Redis flag); it runs once the
        # live site's clock (``hands_play``'s moments) reaches that time, or when the step's hands are all over.
        queued_for: list[float] = []

        def queued_coordination_run(moment: float) -> None:
            if queued_for and moment >= queued_for[0]:
                queued_for.clear()
                coordinate(now)

        def maybe_coordinate(moment: float) -> None:
            if as_production:
                queued_coordination_run(moment)
                if workers.delays_asked and not queued_for:
                    queued_for.append(moment + workers.delays_asked[0])
                    queued_coordination_run(moment)  # no delay asked: at once
                workers.delays_asked.clear()
            elif hands_per_coordination and play.ended_since_coordination >= hands_per_coordination:
                play.ended_since_coordination = 0
                coordinate(now)

        def due(now: datetime) -> bool:
            with watch.measure("driver"):  # the beat's sweep: one indexed query a tick for every live tournament
                return tournament_id in tournaments_due(now)

        last_said = time.perf_counter()
        for _step in range(step_limit):
            if not as_production or due(now):
                coordinate(now)
            play.ended_since_coordination = 0
            with watch.measure("driver"):
                current = Tournament.objects.get(pk=tournament_id)
                if current.status != TournamentStatus.RUNNING:
                    break
                # Every table is between hands here and the coordinator has seen every hand end: a balancing round.
                counts = players_per_table(tournament_id)
                if counts:
                    spreads[max(counts) - min(counts)] += 1
                hand_for_hand_steps += int(current.hand_for_hand)
                tables = list(
                    Table.objects.filter(
                        tournament_link__tournament_id=tournament_id,
                        status=TableStatus.OPEN,
                        current_hand__isnull=True,
                    ).order_by("pk")
                )
            dealt = hands_play(
                tables,
                now,
                users_by_id,
                policy,
                watch,
                chance,
                play,
                after_hand_end=maybe_coordinate,
                before_action=queued_coordination_run if as_production else None,
                action_seconds=action_seconds,
            )
            queued_coordination_run(math.inf)  # a window still open passes before the next step's deal
            if time.perf_counter() - last_said > 30:
                last_said = time.perf_counter()
                say(
                    f"  {play.hands:,} hands, {current.players_remaining:,} players on {current.tables_running:,} "
                    f"tables, level {current.level_number}, {time.perf_counter() - wall_began:.0f} s"
                )
            following = now + timedelta(seconds=step_seconds)
            if dealt == 0:  # nothing could deal (a break, or every table waiting): on to the next moment one can
                with watch.measure("driver"):
                    moments = [
                        moment
                        for moment in Table.objects.filter(
                            tournament_link__tournament_id=tournament_id, status=TableStatus.OPEN
                        ).values_list("next_hand_at", flat=True)
                        if moment is not None
                    ]
                    if current.break_ends_at is not None:
                        moments.append(current.break_ends_at)
                    later = [moment for moment in moments if moment > following]
                    if later and not any(moment <= following for moment in moments):
                        following = min(later)
            now = following
        else:
            raise RuntimeError(f"the freezeout did not finish in {step_limit} steps")
        pay_prizes()
        wall_seconds = time.perf_counter() - wall_began
        say(f"finished: {play.hands:,} hands in {wall_seconds:.1f} s")

        finished = Tournament.objects.get(pk=tournament_id)
        entries = list(TournamentEntry.objects.filter(tournament_id=tournament_id))
        places = sorted(entry.place for entry in entries if entry.place is not None)
        problems = ledger_reconcile()
        reconciled = not problems
        if reconciled:
            call_command("wallet_reconcile", stdout=open(os.devnull, "w"))  # noqa: SIM115 - closed with the process
        checks = {
            "finished": finished.status == TournamentStatus.FINISHED,
            "places_1_to_n_once_each": places == list(range(1, entrants + 1)),
            "every_entry_finished": all(entry.status == EntryStatus.FINISHED for entry in entries),
            "every_prize_paid": all(entry.prize_transfer_id is not None for entry in entries if entry.prize > 0),
            "prize_pool_account_at_zero": balance_of(prize_pool_account(finished)) == 0,
            "prizes_add_up_to_the_pool": sum(entry.prize for entry in entries) == finished.prize_pool,
            "fees_in_the_house_account": balance_of(system_account(AccountKind.HOUSE_FEES)) - fees_before
            == entrants * FEE,
            "ledger_reconciles": reconciled,
            "largest_spread_after_balancing_at_most_1": max(spreads, default=0) <= 1,
        }
    tournament_seconds = watch.total(TOURNAMENT_WORK)
    without_registration = watch.total(("start", "coordination", "prizes"))
    hand_seconds = watch.total(HAND_WORK)
    report: dict[str, Any] = {
        "entrants": entrants,
        "tables_at_start": tables_at_start,
        "settings": {
            "level_seconds": level_seconds,
            "break_every_levels": break_every,
            "step_seconds": step_seconds,
            "hands_per_coordination": hands_per_coordination,
            "as_production": as_production,
            "action_seconds": action_seconds,
            "shove": shove,
            "call": call,
            "seed": seed,
        },
        "bots_setup_seconds": round(setup_seconds, 1),
        "wall_seconds": round(wall_seconds, 1),
        "hands": play.hands,
        "actions": play.actions,
        "hands_per_second": round(play.hands / wall_seconds, 1),
        "hands_per_second_of_hand_work": round(play.hands / hand_seconds, 1) if hand_seconds else None,
        "milliseconds_per_action": round(watch.seconds["hand_act"] / max(1, play.actions) * 1000, 2),
        "milliseconds_per_hand_start": round(watch.seconds["hand_start"] / max(1, watch.calls["hand_start"]) * 1000, 2),
        "seconds": {bucket: round(seconds, 2) for bucket, seconds in sorted(watch.seconds.items())},
        "calls": dict(sorted(watch.calls.items())),
        "tournament_work_share": round(without_registration / wall_seconds, 4),
        "tournament_work_share_with_registration": round(tournament_seconds / wall_seconds, 4),
        "hand_work_share": round(hand_seconds / wall_seconds, 4),
        "milliseconds_per_coordination": round(
            watch.seconds["coordination"] / max(1, watch.calls["coordination"]) * 1000, 2
        ),
        "registrations_per_second": round(entrants / watch.seconds["registration"], 1),
        "paid_places": len(finished.prizes),
        "balancing_moves": coordination["moves"],
        "tables_broken": coordination["tables_broken"],
        "levels_changed": coordination["levels"],
        "breaks": TournamentBreak.objects.filter(tournament_id=tournament_id).count(),  # Step does not say
        "coordinations_asked_by_hand_ends": workers.coordinations_asked,
        "steps_played_hand_for_hand": hand_for_hand_steps,
        "final_level": finished.level_number,
        "spread_after_balancing": {str(spread): rounds for spread, rounds in sorted(spreads.items())},
        "largest_spread_after_balancing": max(spreads, default=0),
        "checks": checks,
        "problems": problems,
    }
    if cash_hands:
        report["cash_peer"] = cash_peer(cash_hands, shove=shove, call=call, seed=seed, tables=cash_tables)
        peer_rate = report["cash_peer"]["hands_per_second_of_hand_work"]
        if peer_rate and report["hands_per_second_of_hand_work"]:
            report["tournament_hand_rate_over_cash"] = round(report["hands_per_second_of_hand_work"] / peer_rate, 3)
    return report


def cash_peer(hands: int, *, shove: float, call: float, seed: int, tables: int = 20) -> dict[str, Any]:
    """``hands`` cash hands of the same policy through the same services, on ``tables`` NL10 Hold'em tables (their
    seat count is the stake's) with auto top-up on, acting round-robin across the tables like the freezeout."""
    from django.utils import timezone

    from games.bots.setup import buy_in_for, ensure_bot_users, ensure_tables
    from games.models import GameRules, PlayerTableSettings
    from games.services import seat_take, seed_stakes

    seed_stakes()
    GameRules.objects.update(pause_between_hands_milliseconds=0)
    table_rows = ensure_tables(tables, prefix="Tournament benchmark")
    seats = table_rows[0].seat_count
    buy_in = buy_in_for(table_rows[0])
    users = ensure_bot_users(tables * seats, prefix="cashpeer", balance=40 * buy_in)[0]
    for index, table in enumerate(table_rows):
        for number in range(1, seats + 1):
            seat_take(users[index * seats + number - 1], table, buy_in, seat_number=number)
    PlayerTableSettings.objects.bulk_create(
        [PlayerTableSettings(user=user, auto_top_up=True) for user in users],
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["auto_top_up"],
    )
    watch = Stopwatch()
    play = Play()
    chance = random.Random(seed + 1)
    policy = AllInHeavy(shove, call, random.Random(chance.random()))
    users_by_id = {user.pk: user for user in users}
    began = time.perf_counter()
    with in_process_workers():
        while play.hands < hands:
            if not hands_play(table_rows, timezone.now(), users_by_id, policy, watch, chance, play):
                raise RuntimeError("no cash table could deal")
    wall = time.perf_counter() - began
    hand_seconds = watch.total(HAND_WORK)
    return {
        "tables": tables,
        "seats_per_table": seats,
        "hands": play.hands,
        "actions": play.actions,
        "wall_seconds": round(wall, 1),
        "hands_per_second": round(play.hands / wall, 1),
        "hands_per_second_of_hand_work": round(play.hands / hand_seconds, 1) if hand_seconds else None,
        "milliseconds_per_action": round(watch.seconds["hand_act"] / max(1, play.actions) * 1000, 2),
        "milliseconds_per_hand_start": round(watch.seconds["hand_start"] / max(1, watch.calls["hand_start"]) * 1000, 2),
    }


# ---------------------------------------------------------------------------------------------------------------------
# Registration burst


def burst(registrations: int = 2_000, clients: int = 50, *, serial: int | None = None) -> dict[str, Any]:
    """Concurrent registrations against a serial loop (see the module docstring); returns the report."""
    from django.conf import settings
    from django.db import OperationalError, connection
    from django.db.models import Count
    from django.utils import timezone

    from tournaments.models import LIVE_ENTRY_STATUSES, TournamentEntry, TournamentKind
    from tournaments.services import AlreadyRegistered, tournament_register
    from tournaments.services.catalog import tournament_create
    from tournaments.services.money import prize_pool_account
    from wallet.models import AccountKind
    from wallet.services import balance_of, ledger_reconcile, player_cash_account, system_account

    serial_count = registrations if serial is None else serial
    database: dict[str, Any] = settings.DATABASES["default"]
    pool_options = (database.get("OPTIONS") or {}).get("pool")
    price = BUY_IN + FEE
    with in_process_workers():
        starts_at = timezone.now() + timedelta(days=1)

        def tournament(name: str) -> Any:
            return tournament_create(
                name=name, kind=TournamentKind.SCHEDULED, starts_at=starts_at, buy_in=BUY_IN, fee=FEE
            )

        serial_players = bots_create(serial_count, "burstserial", price)
        serial_tournament = tournament("Benchmark serial registrations")
        began = time.perf_counter()
        for user in serial_players:
            tournament_register(user, serial_tournament.pk)
        serial_seconds = time.perf_counter() - began

        players = bots_create(registrations, "burst", price)
        burst_tournament = tournament("Benchmark registration burst")
        fees_before = balance_of(system_account(AccountKind.HOUSE_FEES))
        # Each player twice, the two sends on neighbouring clients at the same position: both at the same moment.
        sends = [user for user in players for _twice in range(2)]
        per_client = [sends[index::clients] for index in range(clients)]
        outcomes: Counter[str] = Counter()
        errors: list[str] = []
        guard = threading.Lock()
        barrier = threading.Barrier(clients + 1)

        def send(user: Any, seen: Counter[str]) -> str:
            for _attempt in range(BUSY_RETRIES):
                try:
                    tournament_register(user, burst_tournament.pk)
                    return "registered"
                except AlreadyRegistered:
                    return "refused_already_registered"
                except OperationalError as error:
                    if "couldn't get a connection" not in str(error):
                        raise
                    # No pooled connection was free (the site answers 503 with Retry-After): the client sends again.
                    seen["sent_again_when_busy"] += 1
            return "failed"

        def client(mine: list[Any]) -> None:
            seen: Counter[str] = Counter()
            try:
                barrier.wait()
                for user in mine:
                    try:
                        seen[send(user, seen)] += 1
                    except Exception as error:  # counted and named in the report: a failed registration
                        seen["failed"] += 1
                        with guard:
                            errors.append(f"{type(error).__name__}: {error}")
            finally:
                connection.close()
                with guard:
                    outcomes.update(seen)

        threads = [threading.Thread(target=client, args=(mine,)) for mine in per_client]
        for thread in threads:
            thread.start()
        barrier.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join()
        burst_seconds = time.perf_counter() - began

        live = TournamentEntry.objects.filter(tournament=burst_tournament, status__in=LIVE_ENTRY_STATUSES)
        doubled = live.values("user").annotate(entries=Count("pk")).filter(entries__gt=1).count()
        burst_tournament.refresh_from_db()
        unpaid_or_charged_twice = sum(1 for user in players if balance_of(player_cash_account(user)) != 0)
        problems = ledger_reconcile()
        checks = {
            "every_player_registered_once": live.count() == registrations and doubled == 0,
            "second_send_refused_for_every_player": outcomes["refused_already_registered"] == registrations,
            "no_failed_registration": outcomes["failed"] == 0,
            "entrants_counted": burst_tournament.entrants == registrations,
            "prize_pool_holds_every_buy_in": balance_of(prize_pool_account(burst_tournament)) == registrations * BUY_IN,
            "house_fees_hold_every_fee": balance_of(system_account(AccountKind.HOUSE_FEES)) - fees_before
            == registrations * FEE,
            "every_player_paid_exactly_once": unpaid_or_charged_twice == 0,
            "ledger_reconciles": not problems,
            "within_a_minute": burst_seconds < 60,
        }
    return {
        "registrations": registrations,
        "clients": clients,
        "database_pool": pool_options,
        "sends": len(sends),
        "burst_seconds": round(burst_seconds, 2),
        "burst_registrations_per_second": round(registrations / burst_seconds, 1),
        "serial_registrations": serial_count,
        "serial_seconds": round(serial_seconds, 2),
        "serial_registrations_per_second": round(serial_count / serial_seconds, 1),
        "outcomes": dict(outcomes),
        "errors": errors[:10],
        "checks": checks,
        "problems": problems,
    }


# ---------------------------------------------------------------------------------------------------------------------
# Balancing rounds


def knock_out(tournament_id: int, table_ids: list[int], per_table: int, now: datetime) -> None:
    """What a hand's end leaves at each of ``table_ids``: ``per_table`` players knocked out (their seats emptied,
    their entries waiting for a place), the table's count updated and the table waiting for the coordinator."""
    from games.runtime.locking import seats_lock, table_lock
    from games.runtime.seat_state import seat_empty
    from tournaments.models import EntryStatus, TournamentEntry, TournamentTable

    for table_id in table_ids:
        seats = seats_lock(table_lock(table_id))
        occupied = [seat for _number, seat in sorted(seats.items()) if seat.user_id is not None]
        for seat in occupied[:per_table]:
            TournamentEntry.objects.filter(
                tournament_id=tournament_id, user_id=int(seat.user_id or 0), status=EntryStatus.PLAYING
            ).update(
                status=EntryStatus.BUSTED,
                table=None,
                eliminated_at=now,
                chips_at_hand_start=seat.chips,
                tie_breaker=random.randrange(2**62),
            )
            seat_empty(seat)
        TournamentTable.objects.filter(table_id=table_id).update(
            players=len(occupied) - min(per_table, len(occupied)), needs_coordination=True, last_hand_ended_at=now
        )


def balancing(table_counts: tuple[int, ...] = (10, 100, 1_000), *, rounds: int = 5, seed: int = 7) -> dict[str, Any]:
    """Coordinations at each table count (see the module docstring); returns the report."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils import timezone

    from tournaments.models import EntryStatus, TournamentEntry, TournamentKind, TournamentTable
    from tournaments.services import tournament_advance
    from tournaments.services.catalog import tournament_create

    chance = random.Random(seed)
    results: list[dict[str, Any]] = []
    with in_process_workers():
        for tables in table_counts:
            starts_at = timezone.now().replace(microsecond=0) + timedelta(hours=1)
            tournament = tournament_create(
                name=f"Benchmark balancing {tables}",
                kind=TournamentKind.SCHEDULED,
                starts_at=starts_at,
                table_size=TABLE_SIZE,
                buy_in=0,
                fee=0,
            )
            # A freeroll's registrants, made directly (their registration is the burst's subject, not this one's).
            user_model = get_user_model()
            unusable = make_password(None)
            names = [f"bal{tournament.pk}x{number:05d}" for number in range(tables * TABLE_SIZE)]
            user_model.objects.bulk_create((user_model(username=name, password=unusable) for name in names), 1000)
            users = user_model.objects.filter(username__in=names)
            TournamentEntry.objects.bulk_create(
                (TournamentEntry(tournament=tournament, user=user, registered_at=starts_at) for user in users), 1000
            )
            tournament.entrants = len(names)
            tournament.save(update_fields=["entrants"])
            began = time.perf_counter()
            tournament_advance(tournament.pk, now=starts_at, randomness=random.Random(chance.random()))
            start_seconds = time.perf_counter() - began
            now = starts_at + timedelta(seconds=20)

            def timed_round(moment: datetime, tournament_id: int = tournament.pk) -> tuple[float, int, Any]:
                with statements_counted() as executed:
                    began = time.perf_counter()
                    step = tournament_advance(tournament_id, now=moment, randomness=random.Random(chance.random()))
                    seconds = time.perf_counter() - began
                return seconds, len(executed), step

            idle = [timed_round(now + timedelta(milliseconds=index)) for index in range(rounds)]
            balancing_rounds: list[dict[str, Any]] = []
            breaking_round: dict[str, Any] | None = None
            for index in range(2 * rounds + 2):
                moment = now + timedelta(seconds=index + 1)
                total = sum(
                    TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).values_list(
                        "players", flat=True
                    )
                )
                live_tables = list(
                    TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True)
                    .order_by("players", "pk")
                    .values_list("table_id", "players")
                )
                full = [table_id for table_id, players in live_tables if players == TABLE_SIZE]
                breaks_now = total - 4 <= TABLE_SIZE * (len(live_tables) - 1)
                if len(full) < 2 or (breaks_now and breaking_round is not None):
                    break
                with transaction.atomic():
                    knock_out(tournament.pk, chance.sample(full, 2), 2, moment)
                seconds, statements, step = timed_round(moment)
                row: dict[str, Any] = {
                    "milliseconds": round(seconds * 1000, 2),
                    "statements": statements,
                    "places": len(step.places),
                    "moves": step.moves,
                    "tables_broken": step.tables_broken,
                }
                if step.tables_broken:
                    breaking_round = row
                elif len(balancing_rounds) < rounds:
                    balancing_rounds.append(row)
                if len(balancing_rounds) >= rounds and breaking_round is not None:
                    break
            remaining = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).count()
            results.append(
                {
                    "tables": tables,
                    "players": tables * TABLE_SIZE,
                    "start_seconds": round(start_seconds, 2),
                    "idle_coordination_milliseconds": round(statistics.median(s for s, _n, _x in idle) * 1000, 2),
                    "idle_coordination_statements": idle[-1][1],
                    "balancing_round_milliseconds": round(
                        statistics.median(row["milliseconds"] for row in balancing_rounds), 2
                    )
                    if balancing_rounds
                    else None,
                    "balancing_round_statements": balancing_rounds[-1]["statements"] if balancing_rounds else None,
                    "balancing_rounds": balancing_rounds,
                    "breaking_round": breaking_round,
                    "players_left": remaining,
                }
            )
    smallest = results[0]
    for result in results:
        for key in ("idle_coordination_milliseconds", "balancing_round_milliseconds"):
            if smallest[key] and result[key] is not None:
                result[key.replace("milliseconds", "over_smallest")] = round(result[key] / smallest[key], 2)
        if smallest["breaking_round"] and result["breaking_round"]:
            result["breaking_round_over_smallest"] = round(
                result["breaking_round"]["milliseconds"] / smallest["breaking_round"]["milliseconds"], 2
            )
    return {"table_counts": list(table_counts), "results": results}


# ---------------------------------------------------------------------------------------------------------------------
# Printing


def freezeout_print(report: dict[str, Any]) -> None:
    seconds = report["seconds"]
    wall = report["wall_seconds"]
    print(
        f"\nFreezeout: {report['entrants']:,} entrants on {report['tables_at_start']:,} tables, "
        f"{report['hands']:,} hands ({report['actions']:,} actions) in {wall:,.1f} s wall "
        f"({wall / 60:.1f} min; bots made and funded before that in {report['bots_setup_seconds']:.1f} s)"
    )
    print(
        f"  hands/s: {report['hands_per_second']:.1f} over the wall time, "
        f"{report['hands_per_second_of_hand_work']} over the hand work; {report['milliseconds_per_action']} ms per "
        f"action, {report['milliseconds_per_hand_start']} ms per hand start"
    )
    peer = report.get("cash_peer")
    if peer:
        print(
            f"  peer, cash tables in the same run ({peer['hands']} hands on {peer['tables']} {peer['seats_per_table']}-"
            f"max tables): {peer['hands_per_second_of_hand_work']} hands/s of hand work, "
            f"{peer['milliseconds_per_action']} ms per action, {peer['milliseconds_per_hand_start']} ms per hand "
            f"start; tournament ÷ cash: {report.get('tournament_hand_rate_over_cash')}"
        )
    print("  | work | seconds | share of wall | calls |")
    print("  |---|---:|---:|---:|")
    for bucket in (*TOURNAMENT_WORK, *HAND_WORK, "bots", "driver"):
        print(
            f"  | {bucket} | {seconds.get(bucket, 0):,.1f} | {seconds.get(bucket, 0) / wall:.1%} | "
            f"{report['calls'].get(bucket, 0):,} |"
        )
    print(
        f"  tournament work (start and seating, coordinations, prizes): {report['tournament_work_share']:.1%} of the "
        f"wall time ({report['tournament_work_share_with_registration']:.1%} with registration); hand work "
        f"{report['hand_work_share']:.1%}; {report['milliseconds_per_coordination']} ms per coordination"
    )
    print(
        f"  balancing moves {report['balancing_moves']:,}, tables broken {report['tables_broken']:,}, levels "
        f"{report['levels_changed']} (final level {report['final_level']}), breaks {report['breaks']}, steps played "
        f"hand-for-hand {report['steps_played_hand_for_hand']}"
    )
    print(
        f"  largest difference in players between tables after a balancing round: "
        f"{report['largest_spread_after_balancing']} (rounds by difference: {report['spread_after_balancing']})"
    )
    for name, passed in report["checks"].items():
        print(f"  check {name}: {'ok' if passed else 'FAILED'}")


def burst_print(report: dict[str, Any]) -> None:
    print(
        f"\nRegistration burst: {report['registrations']:,} players, each sent twice at once ({report['sends']:,} "
        f"registrations) by {report['clients']} concurrent clients: {report['burst_seconds']:.1f} s, "
        f"{report['burst_registrations_per_second']:.1f} registrations/s"
    )
    print(
        f"  peer, a serial loop of {report['serial_registrations']:,} registrations: {report['serial_seconds']:.1f} s, "
        f"{report['serial_registrations_per_second']:.1f} registrations/s; outcomes {report['outcomes']}; "
        f"database pool {report['database_pool']}"
    )
    for error in report["errors"]:
        print(f"  error: {error}")
    for name, passed in report["checks"].items():
        print(f"  check {name}: {'ok' if passed else 'FAILED'}")


SIT_AND_GO_SEATS = 6
SIT_AND_GO_BUY_IN = 100
SIT_AND_GO_FEE = 10


def sit_and_go_filled(name: str, users: list[Any]) -> int:
    """A six-max Sit & Go (the default structure) and its registrations through the service, one per user (six fill
    it); returns its id."""
    from tournaments.models import TournamentKind
    from tournaments.services import tournament_register
    from tournaments.services.catalog import tournament_create

    tournament = tournament_create(
        name=name,
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=SIT_AND_GO_SEATS,
        table_size=SIT_AND_GO_SEATS,
        buy_in=SIT_AND_GO_BUY_IN,
        fee=SIT_AND_GO_FEE,
    )
    for user in users:
        tournament_register(user, tournament.pk)
    return int(tournament.pk)


def sweep(tournament_counts: tuple[int, ...] = (10, 50), *, sweeps: int = 5) -> dict[str, Any]:
    """The beat's sweep (``tournaments_advance_all``) with N running one-table six-max Sit & Gos: CPU time of this
    process (PostgreSQL's own time not counted) for a sweep that finds every one of them due (each one's safety
    interval over: a full coordination apiece, what every sweep cost before the due moments) and for a sweep a second
    later, when none is due (what nearly every sweep costs now). The sweep runs every ``TOURNAMENT_TICK_SECONDS``, so
    CPU per sweep ÷ the tick is the cores the Celery worker spends on it. Sweeps run at simulated moments, a safety
    interval apart (a sweep that crosses a level's end also tells the tables; the median hides that one)."""
    from django.utils import timezone

    from tournaments.models import Tournament, TournamentStatus
    from tournaments.services import tournament_advance, tournaments_advance_all
    from tournaments.services.running import COORDINATION_AT_LEAST_EVERY

    rows = []
    made = 0
    moment = timezone.now()
    with in_process_workers():
        for count in tournament_counts:
            users = bots_create(SIT_AND_GO_SEATS * (count - made), f"sw{count}x", 1_000)
            for number in range(count - made):
                seated = users[SIT_AND_GO_SEATS * number : SIT_AND_GO_SEATS * (number + 1)]
                tournament_id = sit_and_go_filled(f"Sweep Sit & Go {made + number + 1}", seated)
                tournament_advance(tournament_id)  # starts it: one table, six players
            made = count
            running = Tournament.objects.filter(status=TournamentStatus.RUNNING).count()
            moment += COORDINATION_AT_LEAST_EVERY
            tournaments_advance_all(now=moment)  # warm; every one is due after it a safety interval on
            due_seconds, idle_seconds = [], []
            for _ in range(sweeps):
                moment += COORDINATION_AT_LEAST_EVERY
                began = time.process_time()
                every = tournaments_advance_all(now=moment)
                due_seconds.append(time.process_time() - began)
                began = time.process_time()
                none = tournaments_advance_all(now=moment + timedelta(seconds=1))
                idle_seconds.append(time.process_time() - began)
                if every["looked_at"] != running or none["looked_at"] != 0:
                    raise RuntimeError(
                        f"the sweeps looked at {every['looked_at']} and {none['looked_at']} of {running} running "
                        "Sit & Gos: expected all of them, then none"
                    )
            per_due_sweep = statistics.median(due_seconds)
            rows.append(
                {
                    "running_tournaments": running,
                    "sweep_cpu_ms": round(per_due_sweep * 1000, 1),
                    "cpu_ms_per_tournament": round(per_due_sweep * 1000 / running, 2),
                    "idle_sweep_cpu_ms": round(statistics.median(idle_seconds) * 1000, 2),
                }
            )
    return {"sweeps": rows, "safety_interval_seconds": COORDINATION_AT_LEAST_EVERY.total_seconds()}


def sweep_print(report: dict[str, Any]) -> None:
    for row in report["sweeps"]:
        print(
            f"{row['running_tournaments']:,} running Sit & Gos: a sweep with all of them due costs "
            f"{row['sweep_cpu_ms']} ms of CPU ({row['cpu_ms_per_tournament']} ms per tournament); one with none due "
            f"{row['idle_sweep_cpu_ms']} ms (each is due at least every {report['safety_interval_seconds']:.0f} s)",
            flush=True,
        )


def balancing_print(report: dict[str, Any]) -> None:
    print("\nBalancing: one coordination at each table count (median of the rounds; statements of the last)")
    print(
        "| tables | players | start (seating) | idle coordination | ÷ smallest | balancing round (4 places, moves) "
        "| ÷ smallest | round breaking a table | ÷ smallest |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for result in report["results"]:
        breaking = result["breaking_round"]
        breaking_text = (
            f"{breaking['milliseconds']} ms, {breaking['moves']} moves, {breaking['statements']} statements"
            if breaking
            else "—"
        )
        balancing_text = (
            f"{result['balancing_round_milliseconds']} ms, {result['balancing_round_statements']} statements"
            if result["balancing_round_milliseconds"] is not None
            else "—"
        )
        print(
            f"| {result['tables']:,} | {result['players']:,} | {result['start_seconds']} s | "
            f"{result['idle_coordination_milliseconds']} ms, {result['idle_coordination_statements']} statements | "
            f"{result.get('idle_coordination_over_smallest', '—')} | {balancing_text} | "
            f"{result.get('balancing_round_over_smallest', '—')} | {breaking_text} | "
            f"{result.get('breaking_round_over_smallest', '—')} |"
        )


# ---------------------------------------------------------------------------------------------------------------------
# Command line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep-database", action="store_true", help="do not drop the scratch database")
    parser.add_argument("--json", action="store_true", help="print the report as JSON after the figures")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("freezeout", help="a freezeout played to the end")
    run.add_argument("--entrants", type=int, default=10_000)
    run.add_argument("--level-seconds", type=int, default=20, help="simulated length of each level")
    run.add_argument("--break-every", type=int, default=4, help="levels between breaks (0: none)")
    run.add_argument("--step-seconds", type=float, default=3.0, help="simulated seconds between deals")
    run.add_argument(
        "--hands-per-coordination",
        type=int,
        default=1,
        help="the coordinator also runs after this many hand ends (0: once per step only)",
    )
    run.add_argument(
        "--as-production",
        action="store_true",
        help="coordinate as the site does: a hand end that makes its table wait for the tournament (a knock-out, "
        "several tables, hand-for-hand, a break due) queues one coordination after the site's coordination window "
        "unless one is queued, run when the live clock (--action-seconds) reaches it; each step only when the beat's "
        "sweep finds the tournament due (--hands-per-coordination is then unused)",
    )
    run.add_argument(
        "--action-seconds",
        type=float,
        default=2.0,
        help="with --as-production: every table acts once every this many seconds on the live site modelled, which "
        "sets how many hand ends fall into one coordination window (issue 27's load: one action per 2 s per table)",
    )
    run.add_argument("--shove", type=float, default=0.3)
    run.add_argument("--call", type=float, default=0.5)
    run.add_argument("--cash-hands", type=int, default=300, help="hands of the cash-table peer (0: none)")
    run.add_argument("--seed", type=int, default=20261126)
    run.add_argument("--profile", action="store_true", help="print the top functions by cumulative time (cProfile)")
    registration = commands.add_parser("burst", help="concurrent registrations against a serial loop")
    registration.add_argument("--registrations", type=int, default=2_000)
    registration.add_argument("--clients", type=int, default=50)
    rounds = commands.add_parser("balancing", help="coordination and balancing rounds at several table counts")
    rounds.add_argument("--tables", default="10,100,1000")
    rounds.add_argument("--rounds", type=int, default=5)
    sweeping = commands.add_parser("sweep", help="the beat's sweep of running tournaments, all due and none due")
    sweeping.add_argument("--tournaments", default="10,50", help="running one-table Sit & Gos, increasing")
    options = parser.parse_args()
    if options.command == "freezeout" and options.entrants < 2:
        parser.error("a freezeout needs at least 2 entrants")
    if options.command == "burst" and (options.registrations < 1 or options.clients < 1):
        parser.error("registrations and clients must be positive")
    if options.command == "balancing":
        try:
            counts = tuple(int(part) for part in options.tables.split(",") if part.strip())
        except ValueError:
            parser.error("--tables takes table counts separated by commas, e.g. 10,100,1000")
        if not counts or min(counts) < 2:
            parser.error("each table count must be at least 2")
        options.table_counts = counts
    if options.command == "sweep":
        try:
            options.tournament_counts = tuple(int(part) for part in options.tournaments.split(",") if part.strip())
        except ValueError:
            parser.error("--tournaments takes increasing counts separated by commas, e.g. 10,50")
        if not options.tournament_counts or list(options.tournament_counts) != sorted(set(options.tournament_counts)):
            parser.error("--tournaments takes increasing counts separated by commas, e.g. 10,50")

    with ExitStack() as stack:
        if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
            from poker_site.embedded import embedded_services

            stack.enter_context(embedded_services())
        base_url = os.environ["DATABASE_URL"]
        scratch = f"bench_tournament_{os.getpid()}"
        _admin(base_url, f'CREATE DATABASE "{scratch}"')
        try:
            os.environ.update(
                {
                    "DATABASE_URL": with_database(base_url, scratch),
                    "DJANGO_SETTINGS_MODULE": "poker_site.settings",
                    "LOG_LEVEL": "WARNING",
                    "DEBUG": "false",
                    "ENVIRONMENT": "development",
                    "REDIS_KEY_PREFIX": f"bench-tournament-{os.getpid()}",
                    "TOURNAMENT_SITS_OUT_ABSENT_PLAYERS": "false",
                }
            )
            return _run(options)
        finally:
            from django.db import connections

            connections.close_all()
            if not options.keep_database:
                _admin(base_url, f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')


def _run(options: argparse.Namespace) -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", "--no-input", verbosity=0)
    load_before = os.getloadavg()
    postgresql_version = int(getattr(connection, "pg_version", 0))
    machine = (
        f"PostgreSQL {postgresql_version // 10000}, {os.cpu_count()} CPU(s), load average {load_before[0]:.1f} "
        "at the start"
    )
    print(machine, flush=True)
    profiler = cProfile.Profile() if getattr(options, "profile", False) else None
    if profiler is not None:
        profiler.enable()
    if options.command == "freezeout":
        report = freezeout(
            options.entrants,
            level_seconds=options.level_seconds,
            break_every=options.break_every,
            step_seconds=options.step_seconds,
            hands_per_coordination=options.hands_per_coordination,
            as_production=options.as_production,
            action_seconds=options.action_seconds,
            shove=options.shove,
            call=options.call,
            cash_hands=options.cash_hands,
            seed=options.seed,
            progress=lambda text: print(text, flush=True),
        )
        freezeout_print(report)
        passed = all(report["checks"].values())
    elif options.command == "burst":
        report = burst(options.registrations, options.clients)
        burst_print(report)
        passed = all(check for name, check in report["checks"].items() if name != "within_a_minute")
    elif options.command == "sweep":
        report = sweep(options.tournament_counts)
        sweep_print(report)
        passed = True
    else:
        report = balancing(options.table_counts, rounds=options.rounds)
        balancing_print(report)
        passed = True
    if profiler is not None:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)
    report["machine"] = {
        "cores": os.cpu_count(),
        "load_average_at_start": load_before,
        "load_average_at_end": os.getloadavg(),
        "postgresql": postgresql_version,
    }
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    if options.json:
        print(json.dumps(report, indent=2, default=str))
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
