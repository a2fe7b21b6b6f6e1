"""The site's detection service on thousands of stored settled hands (issue 31, FRD-19): hands per second, and where
the time goes.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/poker REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python benchmarks/bench_detection_service.py [--hands 3000] [--templates 100] [--tables 20]
        [--players 120] [--batch 500] [--seed 31] [--profile 25] [--json]

Creates, migrates and drops a scratch database next to the one DATABASE_URL names (without DATABASE_URL / REDIS_URL it
starts the embedded servers).

The stored hands: ``--templates`` six-handed NL10 Hold'em hands are played through the table services
(``hand_start`` / ``hand_act``, random legal actions with 0.5 to 6 s decisions: folds, calls, bets, raises and
all-ins), so their rows are exactly what the runtime writes. Playing through the services takes about a second a hand
on this machine, so the ``--hands`` hands measured are copies of those rows: each copy is a new ``Hand`` (its table's
next number, times moved to its place in the table's day), its ``HandPlayer`` rows and every ``HandEvent`` row of the
hand (the table's next sequence numbers, the times in the payloads moved by the same amount), at ``--tables`` tables
whose six players are drawn from ``--players`` players anew every 40 hands (the template's seat ``n`` is the table's
``n``-th player). Not copied: table sessions, seats and the ledger transfer of the settlement (the detection reads no
ledger row; a copy's ``settlement`` and ``HandPlayer.session`` are empty).

Measured: ``compliance.services.detection_advance(hands_per_batch=--batch)`` until it has caught up, from fresh
accumulators — hands per second by wall time, by this process's CPU time, and by the CPU time of this process plus
its PostgreSQL backend (``/proc/<pid>/stat`` of ``pg_backend_pid()``); the breakdown of the time (CPU of this process)
into rebuilding the hand records from the stored rows, the indicators' feed, computing the flags, storing the flags,
reading and writing the accumulators, and of the wall time spent in SQL (inside those). Peer in the same run: the
indicators alone (``Detector.feed_hand``) over the same hand records in memory, as ``bench_detection.py`` times them.
Then the stored accumulators are checked against the peer's (one pass over the same records): they must be equal.

A site with history (``--history N``): the service starts from the accumulators of a detector already fed ``N``
hands of the second room of ``bench_detection.py`` (``benchmarks/second_room.py``, written to ``--history-file`` once
and read from it afterwards), as a site that has run for a while. Reading and writing those accumulators and computing
every flag grow with that history, not with the batch. ``--modes`` runs the service as it is (``cadence``: a batch
reads on while feeding is cheap next to reading the accumulators, flags computed on their cadence) and as it was
before (``every-batch``: one read of ``--batch`` hands a batch, every flag computed at every batch), alternating, on
the same stored hands. For ``cadence`` the report also gives the steady state that the cadence projects (flags every
ten times their cost: one computation's time added for every ten of feeding), since a run shorter than the cadence
computes them at most once.

Exit status 1 with the reason when no hand was scanned, when a batch scanned a hand twice (a second advance must scan
nothing) or when the stored accumulators differ from the peer's.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_wallet import _admin, _scratch_url  # the scratch database, as the wallet benchmark makes it

SEATS = 6
HANDS_PER_SESSION = 40
"""A table's six players change every this many hands (new players drawn from the pool)."""
SECONDS_BETWEEN_HANDS = 5


class BenchmarkFailed(Exception):
    """A run that gives no figure: the reason is printed and the exit status is 1."""


# --- the stored hands -------------------------------------------------------------------------------------------------


def new_players(count: int, prefix: str) -> list[Any]:
    """``count`` users with money in their cash accounts (deposits through the wallet ledger)."""
    from django.contrib.auth import get_user_model

    from wallet.models import AccountKind
    from wallet.services import TransferLeg, player_cash_account, system_account, transfer_create

    users = []
    for number in range(count):
        user = get_user_model().objects.create_user(f"{prefix}{number}", password=None)
        transfer_create(
            kind="deposit",
            legs=[
                TransferLeg(system_account(AccountKind.OUTSIDE_WORLD), -(10**8)),
                TransferLeg(player_cash_account(user), 10**8),
            ],
            idempotency_key=f"bench-deposit:{user.pk}",
            reference=f"bench:{user.pk}",
        )
        users.append(user)
    return users


def hand_view(state: Any, seat: int, hand_id: int) -> Any:
    """What a bot in ``seat`` knows of the hand in play (its own cards, the public events), as the live bots' view
    (:class:`games.bots.policy.HandView`) follows it over the socket."""
    from games.bots.policy import HandView
    from games.engine.events import event_to_dict

    config = state.config
    view = HandView(seat=seat, hand_id=hand_id, big_blind=config.big_blind)
    view.dealt = tuple(player.seat for player in config.players)
    for event in state.events:
        data = event_to_dict(event)
        if data["type"] == "street_dealt":
            data["board"] = [str(card) for card in event.board]
        view.apply_event(data)
    view.hole_cards = tuple(str(card) for card in state.hole_cards(seat))
    return view


def decide(style: str, state: Any, hand_id: int, rng: random.Random) -> tuple[str, int | None]:
    """The service's ``action_type`` and ``amount`` for the player to act, decided as a live bot of ``style``
    decides (:func:`games.bots.policy.honest_action`: ``random``, or ``tight`` / ``loose`` by the holding's strength
    against the price)."""
    from games.bots.policy import honest_action
    from games.runtime.protocol import PLAYER_ACTIONS

    legal = state.legal_actions()
    assert legal is not None
    message = honest_action(style, legal.to_dict(), hand_view(state, legal.seat, hand_id), rng)
    return PLAYER_ACTIONS[message["action"]], message.get("amount")


def play_templates(count: int, styles: list[str], rng: random.Random) -> list[int]:
    """``count`` finished hands at six-handed NL10 tables through the services, the players deciding as live bots of
    ``styles`` (in turn by seat); their ids. A table whose players cannot deal a hand any more (busted stacks) is
    replaced by a new one."""
    from django.utils import timezone

    from games.models import Hand, HandStatus, Stake
    from games.runtime.engine_state import hand_engine_state
    from games.services import hand_act, hand_start, seat_take, seed_stakes, table_open

    seed_stakes()
    stake = Stake.objects.get(game_type__code="holdem", label="NL10")
    moment = timezone.now() - timedelta(days=2)
    played: list[int] = []
    tables_opened = 0
    while len(played) < count:
        table = table_open(stake, now=moment)
        users = new_players(SEATS, f"template{tables_opened}-")
        tables_opened += 1
        for seat_number, user in enumerate(users, start=1):
            seat_take(user, table, 1_000, seat_number=seat_number, now=moment)
        while len(played) < count:
            moment += timedelta(seconds=SECONDS_BETWEEN_HANDS)
            hand = hand_start(table, now=moment, shuffler=rng)
            if hand is None:
                break
            while hand.status == HandStatus.RUNNING:
                assert hand.acting_seat is not None
                style = styles[(hand.acting_seat - 1) % len(styles)]
                action_type, amount = decide(style, hand_engine_state(hand), hand.pk, rng)
                moment += timedelta(seconds=rng.uniform(0.5, 6.0))
                acting = table.seats.get(number=hand.acting_seat).user
                hand_act(table, acting, action_type, amount, now=moment)
                hand = Hand.objects.get(pk=hand.pk)
            if hand.status == HandStatus.FINISHED:
                played.append(hand.pk)
    return played


def _moved(value: Any, delta: timedelta) -> Any:
    """``value`` with every ISO date-time string in it (payload deadlines and moments) moved by ``delta``."""
    if isinstance(value, dict):
        return {key: _moved(item, delta) for key, item in value.items()}
    if isinstance(value, list):
        return [_moved(item, delta) for item in value]
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] == "T":
        try:
            return (datetime.fromisoformat(value) + delta).isoformat()
        except ValueError:
            return value
    return value


@dataclass
class Template:
    hand: Any
    players: list[Any]
    events: list[Any]
    seat_order: dict[int, int] = field(default_factory=dict)
    """Template seat number -> position (0..5) among the table's players."""


def templates_read(hand_ids: list[int]) -> list[Template]:
    from games.models import Hand, HandEvent, HandPlayer

    templates = []
    for hand in Hand.objects.filter(pk__in=hand_ids).order_by("pk"):
        players = list(HandPlayer.objects.filter(hand=hand).order_by("seat_number"))
        events = list(HandEvent.objects.filter(hand=hand).order_by("sequence"))
        templates.append(Template(hand, players, events, {row.seat_number: index for index, row in enumerate(players)}))
    return templates


def copies_store(templates: list[Template], hands: int, tables: int, players: int, rng: random.Random) -> int:
    """Store ``hands`` copies of the template hands at ``tables`` new tables of ``players`` pooled players (see the
    module docstring); returns how many event rows were stored."""
    from django.db import transaction
    from django.utils import timezone

    from games.models import Hand, HandEvent, HandPlayer, Stake, Table
    from games.services import table_open

    stake = Stake.objects.get(game_type__code="holdem", label="NL10")
    pool = new_players(players, "pooled")
    start = timezone.now() - timedelta(days=1)
    table_rows = [table_open(stake, now=start) for _ in range(tables)]
    numbers = dict.fromkeys((table.pk for table in table_rows), 0)
    sequences = {table.pk: table.last_sequence for table in table_rows}
    clocks = dict.fromkeys((table.pk for table in table_rows), start)
    groups: dict[int, list[Any]] = {}
    events_stored = 0
    chunk = 250
    for first in range(0, hands, chunk):
        new_hands: list[Any] = []
        plan: list[tuple[Template, Any, list[Any], timedelta]] = []
        for index in range(first, min(hands, first + chunk)):
            template = templates[index % len(templates)]
            table = table_rows[index % tables]
            if numbers[table.pk] % HANDS_PER_SESSION == 0:
                groups[table.pk] = rng.sample(pool, SEATS)
            numbers[table.pk] += 1
            source = template.hand
            delta = clocks[table.pk] - source.started_at
            assert source.ended_at is not None
            clocks[table.pk] += (source.ended_at - source.started_at) + timedelta(seconds=SECONDS_BETWEEN_HANDS)
            seated = groups[table.pk]
            users = {
                str(seat): seated[template.seat_order[int(seat)]].pk for seat in source.participants
            }  # seat -> new user
            hand = Hand(
                table=table,
                number=numbers[table.pk],
                status=source.status,
                stake_terms_id=source.stake_terms_id,
                game_rules_id=source.game_rules_id,
                level_number=source.level_number,
                started_at=source.started_at + delta,
                ended_at=source.ended_at + delta,
                config=source.config,
                deck=source.deck,
                participants={
                    seat: {**data, "user": users[seat], "session": None} for seat, data in source.participants.items()
                },
                street_reached=source.street_reached,
                pot_total=source.pot_total,
                rake=source.rake,
                rake_rate_basis_points=source.rake_rate_basis_points,
                rake_cap_applied=source.rake_cap_applied,
                players_dealt_in=source.players_dealt_in,
                rules_version=source.rules_version,
                deck_commitment=source.deck_commitment,
                server_seed=source.server_seed,
                client_seeds=source.client_seeds,
                version=source.version,
            )
            new_hands.append(hand)
            plan.append((template, hand, seated, delta))
        with transaction.atomic():
            Hand.objects.bulk_create(new_hands)
            player_rows = []
            event_rows = []
            for template, hand, seated, delta in plan:
                for row in template.players:
                    player_rows.append(
                        HandPlayer(
                            hand=hand,
                            user_id=seated[template.seat_order[row.seat_number]].pk,
                            seat_number=row.seat_number,
                            start_stack=row.start_stack,
                            end_stack=row.end_stack,
                            rake_share=row.rake_share,
                        )
                    )
                for row in template.events:
                    sequences[hand.table_id] += 1
                    owner = (
                        seated[template.seat_order[row.private_to_seat]].pk
                        if row.private_to_user_id is not None and row.private_to_seat is not None
                        else None
                    )
                    event_rows.append(
                        HandEvent(
                            table_id=hand.table_id,
                            hand=hand,
                            sequence=sequences[hand.table_id],
                            kind=row.kind,
                            payload=_moved(row.payload, delta),
                            audience=row.audience,
                            private_to_seat=row.private_to_seat,
                            private_to_user_id=owner,
                            created_at=row.created_at + delta,
                        )
                    )
            HandPlayer.objects.bulk_create(player_rows)
            HandEvent.objects.bulk_create(event_rows, batch_size=2_000)
            events_stored += len(event_rows)
    for table in table_rows:
        Table.objects.filter(pk=table.pk).update(last_sequence=sequences[table.pk])
    return events_stored


# --- measuring ----------------------------------------------------------------------------------------------------


def backend_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (the PostgreSQL backend) from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Phases:
    """CPU seconds (this process) per phase, and wall seconds in SQL."""

    cpu: dict[str, float] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    sql_seconds: float = 0.0
    sql_statements: int = 0
    depth: int = 0

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth:  # a phase inside another counts in the outer one
                return function(*args, **kwargs)
            self.depth += 1
            began = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.depth -= 1
                self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - began
                self.calls[name] = self.calls.get(name, 0) + 1

        return timed

    def sql(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.sql_seconds += time.perf_counter() - began
            self.sql_statements += 1


PHASES = (
    # (module or class path, attribute, phase); attributes missing in this version of the service are skipped
    ("compliance.services.detection", "hand_record", "rebuild the hand records from the stored rows"),
    ("compliance.services.detection", "hand_records_read", "rebuild the hand records from the stored rows"),
    ("compliance.detection.detector.Detector", "feed_hand", "indicators' feed (Detector.feed_hand)"),
    ("compliance.detection.detector.Detector", "flags", "compute the flags (Detector.flags)"),
    ("compliance.detection.detector.Detector", "flags_changed", "compute the flags (Detector.flags)"),
    ("compliance.services.detection", "flags_store", "store the flags (flags_store)"),
    ("compliance.services.detection", "_detector", "read the accumulators (Detector.from_state)"),
    ("compliance.detection.detector.Detector", "state", "write the accumulators (Detector.state)"),
)


@contextmanager
def phases_timed(phases: Phases) -> Iterator[None]:
    """Wrap the service's steps (:data:`PHASES`) with CPU timers and every SQL statement with a wall timer."""
    import importlib

    from django.db import connection

    patched: list[tuple[Any, str, Any]] = []
    for path, attribute, name in PHASES:
        module_path, _, class_name = path.rpartition(".")
        try:
            owner: Any = importlib.import_module(path)
        except ModuleNotFoundError:
            owner = getattr(importlib.import_module(module_path), class_name)
        original = owner.__dict__.get(attribute) if isinstance(owner, type) else getattr(owner, attribute, None)
        if original is None:
            continue
        patched.append((owner, attribute, original))
        setattr(owner, attribute, phases.wrap(name, original))
    try:
        with connection.execute_wrapper(phases.sql):
            yield
    finally:
        for owner, attribute, original in reversed(patched):
            setattr(owner, attribute, original)


@dataclass
class Measured:
    hands: int
    batches: int
    wall: float
    cpu: float
    backend_cpu: float | None
    phases: Phases
    longest_batch: float
    flag_computations: int = 0
    profile: str = ""


MODES = ("cadence", "every-batch")


@contextmanager
def service_mode(mode: str) -> Iterator[None]:
    """The service as it is (``cadence``) or as it was before the cadence (``every-batch``: one read a batch, every
    flag at every batch)."""
    from compliance.services import detection as service

    if mode == "cadence":
        yield
        return
    saved = service.FEED_TO_LOAD_RATIO, service.FLAGS_ALWAYS_UNDER_SECONDS
    service.FEED_TO_LOAD_RATIO, service.FLAGS_ALWAYS_UNDER_SECONDS = 0.0, float("inf")
    try:
        yield
    finally:
        service.FEED_TO_LOAD_RATIO, service.FLAGS_ALWAYS_UNDER_SECONDS = saved


def detection_run(batch: int, now: datetime, profile_lines: int, history: dict[str, Any] | None = None) -> Measured:
    """``detection_advance`` until caught up, from the accumulators of ``history`` (fresh ones without) and no flags."""
    from django.db import connection

    from compliance.models import DetectorState, Flag
    from compliance.services import detection_advance

    Flag.objects.all().delete()
    DetectorState.objects.all().delete()
    if history is not None:
        DetectorState.objects.create(name="site", state=history)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    try:
        backend_began: float | None = backend_cpu_seconds(backend)
    except OSError:
        backend_began = None
    phases = Phases()
    profiler = cProfile.Profile() if profile_lines else None
    hands = batches = flag_computations = 0
    longest = 0.0
    wall_began, cpu_began = time.perf_counter(), time.process_time()
    with phases_timed(phases):
        if profiler:
            profiler.enable()
        while True:
            began = time.perf_counter()
            fed = detection_advance(hands_per_batch=batch, now=now)
            longest = max(longest, time.perf_counter() - began)
            batches += 1
            hands += fed.hands
            flag_computations += fed.flags_computed
            if not fed.more:
                break
        if profiler:
            profiler.disable()
    wall, cpu = time.perf_counter() - wall_began, time.process_time() - cpu_began
    backend_used = backend_cpu_seconds(backend) - backend_began if backend_began is not None else None
    text = ""
    if profiler:
        stream = io.StringIO()
        pstats.Stats(profiler, stream=stream).sort_stats("cumulative").print_stats(profile_lines)
        text = stream.getvalue()
    return Measured(hands, batches, wall, cpu, backend_used, phases, longest, flag_computations, text)


def peer_records(hand_ids: list[int]) -> list[Any]:
    """The hand records of the stored hands, one hand at a time (``hand_record``, the straightforward path)."""
    from compliance.hand_records import hand_record
    from games.models import Hand

    return [hand_record(hand) for hand in Hand.objects.filter(pk__in=hand_ids).select_related("table").order_by("pk")]


def peer_feed(records: list[Any], history: dict[str, Any] | None = None) -> tuple[Any, float]:
    """The indicators alone over ``records``: a detector from ``history`` (fresh without), CPU seconds of the
    ``feed_hand`` loop."""
    from compliance.detection.detector import Detector
    from compliance.services.thresholds import detector_parameters

    if history is None:
        detector = Detector(detector_parameters())
    else:
        detector = Detector.from_state(history, parameters=detector_parameters())
    began = time.process_time()
    for record in records:
        detector.feed_hand(record)
    return detector, time.process_time() - began


def rate(count: int, seconds: float | None) -> float | None:
    return round(count / seconds, 1) if seconds else None


def benchmark(options: argparse.Namespace) -> dict[str, Any]:
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from compliance.models import DetectorState, Flag
    from compliance.services import detection_advance
    from games.models import Hand, HandStatus

    call_command("migrate", verbosity=0)
    rng = random.Random(options.seed)
    styles = [style.strip() for style in options.styles.split(",") if style.strip()]
    if Hand.objects.exists():
        print("the database kept by --database holds its hands already: they are scanned again")
        template_ids = []
    else:
        began = time.perf_counter()
        template_ids = play_templates(options.templates, styles, rng)
        print(f"played {len(template_ids)} template hands through the services in {time.perf_counter() - began:.0f} s")
        began = time.perf_counter()
        events = copies_store(templates_read(template_ids), options.hands, options.tables, options.players, rng)
        print(
            f"stored {options.hands} copies ({events:,} event rows) at {options.tables} tables of {options.players} "
            f"players in {time.perf_counter() - began:.0f} s",
            flush=True,
        )
    finished = Hand.objects.filter(status=HandStatus.FINISHED).count()
    now = timezone.now() + timedelta(minutes=1)
    history = history_state(options.history, options.history_file, options.seed) if options.history else None
    hand_ids = list(Hand.objects.filter(status=HandStatus.FINISHED).order_by("pk").values_list("pk", flat=True))
    began = time.process_time()
    records = peer_records(hand_ids)
    records_cpu = time.process_time() - began
    peer, peer_cpu = peer_feed(records, history)
    peer_state = json.loads(json.dumps(peer.state()))
    modes = [mode.strip() for mode in options.modes.split(",") if mode.strip()]

    runs: list[dict[str, Any]] = []
    for round_number in range(options.rounds):
        for mode in modes:
            load_before = os.getloadavg()
            with service_mode(mode):
                measured = detection_run(options.batch, now, options.profile, history)
                load_after = os.getloadavg()
                if measured.hands == 0:
                    raise BenchmarkFailed(f"{mode}: detection_advance scanned no hand ({finished} finished stored)")
                again = detection_advance(hands_per_batch=options.batch, now=now)
            if again.hands or again.connections or again.counters:
                raise BenchmarkFailed(f"{mode}: a second advance scanned again: {again}")
            stored = DetectorState.objects.get(name="site")
            if stored.state != peer_state:
                differing = sorted(
                    name
                    for name in peer_state["indicators"]
                    if stored.state["indicators"].get(name) != peer_state["indicators"][name]
                )
                raise BenchmarkFailed(
                    f"{mode}: the stored accumulators differ from the indicators fed the same records in one pass: "
                    f"{differing or 'counts'}"
                )
            runs.append(run_report(mode, round_number + 1, measured, Flag.objects.count(), load_before, load_after))

    report: dict[str, Any] = {
        "hands_stored": finished,
        "template_hands": len(template_ids),
        "tables": options.tables,
        "players": options.players,
        "batch": options.batch,
        "history_hands": history["hands"] if history else 0,
        "history_mb": round(len(json.dumps(history)) / 1e6, 2) if history else 0.0,
        "runs": runs,
        "peer": {
            "indicators_alone_hands_per_s_cpu": rate(len(records), peer_cpu),
            "records_one_hand_at_a_time_hands_per_s_cpu": rate(len(records), records_cpu),
        },
        "state_equal_to_one_pass": True,
    }
    return report


def run_report(
    mode: str, round_number: int, measured: Measured, flags: int, load_before: Any, load_after: Any
) -> dict[str, Any]:
    """One run's figures: rates, the breakdown, and for the cadence the steady state it projects."""
    from compliance.services import detection as service

    phases = measured.phases
    accounted = sum(phases.cpu.values())
    flags_cpu = phases.cpu.get("compute the flags (Detector.flags)", 0.0) + phases.cpu.get(
        "store the flags (flags_store)", 0.0
    )
    report: dict[str, Any] = {
        "mode": mode,
        "round": round_number,
        "hands": measured.hands,
        "batches": measured.batches,
        "flag_computations": measured.flag_computations,
        "wall_s": round(measured.wall, 2),
        "cpu_s": round(measured.cpu, 2),
        "backend_cpu_s": round(measured.backend_cpu, 2) if measured.backend_cpu is not None else None,
        "hands_per_s_wall": rate(measured.hands, measured.wall),
        "hands_per_s_cpu": rate(measured.hands, measured.cpu),
        "hands_per_s_cpu_with_backend": rate(measured.hands, measured.cpu + (measured.backend_cpu or 0.0)),
        "longest_batch_s": round(measured.longest_batch, 2),
        "flags": flags,
        "breakdown_cpu_s": {name: round(seconds, 3) for name, seconds in phases.cpu.items()}
        | {"other (queries of the cursors, the batch's transaction, ...)": round(measured.cpu - accounted, 3)},
        "sql": {"statements": phases.sql_statements, "wall_s": round(phases.sql_seconds, 2)},
        "load_average": {"before": load_before, "after": load_after},
    }
    if mode == "cadence" and measured.flag_computations:
        # Flags cost c once per FLAGS_EVERY_COST_MULTIPLE * c of time: per that stretch of feeding, one computation.
        one_computation = flags_cpu / measured.flag_computations
        feeding = measured.cpu - flags_cpu
        projected = feeding * (1 + 1 / service.FLAGS_EVERY_COST_MULTIPLE)
        if one_computation > service.FLAGS_ALWAYS_UNDER_SECONDS:
            report["steady_state_hands_per_s_cpu"] = rate(measured.hands, projected)
        report["one_flag_computation_cpu_s"] = round(one_computation, 3)
    if measured.profile:
        report["profile"] = measured.profile
    return report


def history_state(hands: int, path: str | None, seed: int) -> dict[str, Any]:
    """The accumulators of a detector fed ``hands`` hands of the second room (read from ``path`` when it holds them)."""
    from second_room import SecondRoom
    from second_room import build_population as build_second_population

    from compliance.detection.detector import Detector

    file = Path(path) if path else None
    if file is not None and file.exists():
        state: dict[str, Any] = json.loads(file.read_text())
        if state.get("hands", 0) >= hands:
            print(f"history: {state['hands']} hands of accumulators read from {file}")
            return state
    began = time.perf_counter()
    rng = random.Random(seed)
    room = SecondRoom(build_second_population(rng), rng)
    detector = Detector()
    for records in room.sessions(hands):
        detector.feed_hands(records)
    text = json.dumps(detector.state())
    print(f"history: {detector.hands} hands of the second room fed in {time.perf_counter() - began:.0f} s")
    if file is not None:
        file.write_text(text)
    stored: dict[str, Any] = json.loads(text)  # as the site stores it (JSON), not the detector's own objects
    return stored


def print_report(report: dict[str, Any]) -> None:
    peer = report["peer"]
    print(
        f"{report['hands_stored']} settled hands stored ({report['template_hands']} played through the services, "
        f"copied to {report['tables']} tables of {report['players']} players); reads of {report['batch']} hands; "
        f"history: {report['history_hands']} hands ({report['history_mb']} MB of accumulators)"
    )
    for run in report["runs"]:
        print(
            f"[{run['mode']}, round {run['round']}] {run['hands']} hands in {run['batches']} batches, "
            f"{run['flag_computations']} flag computations: "
            f"{run['hands_per_s_wall']} hands/s wall ({run['wall_s']} s), "
            f"{run['hands_per_s_cpu']} hands/s of this process's CPU ({run['cpu_s']} s), "
            f"{run['hands_per_s_cpu_with_backend']} with the PostgreSQL backend's ({run['backend_cpu_s']} s); "
            f"longest batch {run['longest_batch_s']} s; {run['flags']} flags; load {run['load_average']['before']}"
        )
        if "steady_state_hands_per_s_cpu" in run:
            print(
                f"  steady state the cadence projects: {run['steady_state_hands_per_s_cpu']} hands/s CPU "
                f"(one flag computation {run['one_flag_computation_cpu_s']} s of CPU, every ten times that)"
            )
        print("  breakdown (CPU seconds of this process):")
        for name, seconds in run["breakdown_cpu_s"].items():
            print(f"    {seconds:8.3f}  {name}")
        print(f"    SQL: {run['sql']['statements']} statements, {run['sql']['wall_s']} s wall (inside the above)")
        if "profile" in run:
            print(run["profile"])
    print(
        f"peer, the indicators alone (Detector.feed_hand): {peer['indicators_alone_hands_per_s_cpu']} hands/s CPU; "
        f"records rebuilt one hand at a time (hand_record): {peer['records_one_hand_at_a_time_hands_per_s_cpu']} "
        "hands/s CPU"
    )
    print("stored accumulators equal to the peer's one pass (from the same history): yes, after every run")


def database_exists(url: str, name: str) -> bool:
    import psycopg

    with psycopg.connect(_scratch_url(url, "postgres"), autocommit=True) as connection:
        return connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=3_000, help="settled hands stored and scanned")
    parser.add_argument("--templates", type=int, default=100, help="hands played through the services and copied")
    parser.add_argument(
        "--styles", default="tight,loose", help="the template players' styles (games.bots.policy), in turn by seat"
    )
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--batch", type=int, default=500, help="hands_per_batch of detection_advance")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--profile", type=int, default=0, metavar="LINES", help="print a cProfile of the advance")
    parser.add_argument(
        "--database",
        metavar="NAME",
        help="keep the scratch database under this name (made and filled if missing, reused as it is otherwise)",
    )
    parser.add_argument("--history", type=int, default=0, help="hands of the second room the accumulators hold first")
    parser.add_argument("--history-file", help="where the history's accumulators are kept between runs (JSON)")
    parser.add_argument("--modes", default="cadence", help=f"comma-separated, in turn: {', '.join(MODES)}")
    parser.add_argument("--rounds", type=int, default=1, help="how many times the modes run in turn")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    if any(mode.strip() not in MODES for mode in options.modes.split(",")) or options.rounds <= 0:
        parser.error(f"--modes takes {', '.join(MODES)}; --rounds must be positive")
    if options.hands <= 0 or options.templates <= 0 or options.tables <= 0 or options.players < SEATS:
        parser.error("--hands, --templates and --tables must be positive, --players at least 6")
    problems: list[str] = []
    report: dict[str, Any] = {}
    with ExitStack() as stack:
        if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
            from poker_site.embedded import embedded_services

            stack.enter_context(embedded_services())
        base_url = os.environ["DATABASE_URL"]
        scratch = options.database or f"bench_detection_service_{os.getpid()}"
        if not (options.database and database_exists(base_url, scratch)):
            _admin(base_url, f'CREATE DATABASE "{scratch}"')
        try:
            os.environ["DATABASE_URL"] = _scratch_url(base_url, scratch)
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
            os.environ.setdefault("LOG_LEVEL", "WARNING")
            os.environ.setdefault("DATABASE_POOL", "off")
            report = benchmark(options)
        except BenchmarkFailed as error:
            problems.append(str(error))
        finally:
            from django.db import connections

            connections.close_all()
            if not options.database:
                _admin(base_url, f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
    if options.json:
        print(json.dumps({**report, "problems": problems}, indent=1, default=str))
    elif report:
        print_report(report)
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
