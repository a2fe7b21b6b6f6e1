"""HexaPro at scale: forming games from a burst of registrations, and games played by bots over the real sockets.

    .venv/bin/python benchmarks/bench_hexapro.py matching [--registrations 3000] [--clients 30] [--serial 300]
    .venv/bin/python benchmarks/bench_hexapro.py play [--tables 50] [--seconds 40] [--runtime-processes 1]
        [--per-action-path]

Each run creates its own database beside the one DATABASE_URL names (without DATABASE_URL and REDIS_URL it starts
the embedded servers like ``make run``), migrates it and drops it at the end (``--keep-database`` keeps it).

**matching** (in process, through ``hexapro_register``; live updates and Celery off, as in bench_tournament):
``--registrations`` players, each registering one game, spread evenly over ten buy-ins (HexaPro €1, €2, €5, €10,
€25 and HexaPro Extreme €0.20, €0.50, €1, €2, €5), sent by ``--clients`` concurrent clients (threads, each with its
own database connection) in a shuffled order. Every third registration at a buy-in forms a game at once: the draw
from the production CSPRNG, the game's tournament, its table and seats, the one transfer of its money. Printed: the
burst's wall time, registrations and games formed per second, against the peer in the same run — ``--serial``
registrations at one buy-in in a serial loop. Checks: every registration in exactly one game, no waiting one left,
no player twice in a game, every player charged exactly once, the holding accounts empty, every prize pool holding
multiplier × buy-in, the fee components in the house fees, the ledger reconciled.

**play** (the full stack over 127.0.0.1: daphne, the ticker, ``--runtime-processes`` table owners (``run_tables``, table
actors: the production default; ``--per-action-path`` plays the tables in the web process instead), a Celery worker and
beat for the tournaments' coordination and prizes): the same number of tables, ``--tables``, of each product at the same
load (issue 27: equal actions per second, every table acting about once every 2 s; not more HexaPro games than cash
tables): the peer first — six-max cash tables with six bots each —, then HexaPro games (€1, three bots each, registered
through the service, the multipliers drawn by the production CSPRNG), then six-max Sit & Gos (the default five-minute
structure, six bots registering each; it starts when the sixth registers), then cash tables again (a second peer window,
so that drift over the run shows). Each window runs on a site of its own (``--part``: a fresh database, Redis prefix and
processes; see :data:`PARTS`). Tournament bots follow their table like a tournament player; a game whose bots are all
out is replaced by a new one of fresh bots (:data:`REPLACEMENTS_PER_GAME`), so a long window keeps the games in play as
the cash windows keep their tables. Bots think 1.9–2.1 s per action in every part. For each part, after a warm-up, a
``--seconds`` window: action→broadcast p50/p99 (an action counts when its broadcast reaches the bot that acted), actions
per second, the sockets open at the window's start; for the tournaments also the games still running at the window's end
and those finished. Each product's p99 is compared with the mean of the two cash windows' p99 (target: within 1.2×),
with the ratio's 95 % bootstrap interval (each window's latencies resampled on its own) and a verdict: "met" when the
whole interval is within the target, "missed" when all of it is above, "undecided" otherwise (a 30 s window of 50 tables
is about 700 actions, its p99 the seventh slowest: longer ``--seconds`` decide), and "unequal load" when the product's
window carried less than 0.9 of the cash windows' actions per second (games that ended during it). Exit status 1 when a
window carried no action or a socket was not open at its start (the run is then no figure, and its reasons are printed).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import multiprocessing
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from benchmarks.bench_tables import (  # noqa: E402 - the project is on the path from here on
    CpuMeter,
    Stack,
    bots_for,
    by_hand_end,
    load_generator_collector_off,
    percentile,
    prepare_players,
    socket_open,
    wait_for_port,
    window,
    window_problems,
    with_database,
)
from benchmarks.bench_tournament import (  # noqa: E402
    SIT_AND_GO_BUY_IN,
    SIT_AND_GO_FEE,
    SIT_AND_GO_SEATS,
    _admin,
    bots_create,
    in_process_workers,
    sit_and_go_filled,
)

BURST_BUY_INS = (
    ("hexapro", 100),
    ("hexapro", 200),
    ("hexapro", 500),
    ("hexapro", 1_000),
    ("hexapro", 2_500),
    ("hexapro_extreme", 20),
    ("hexapro_extreme", 50),
    ("hexapro_extreme", 100),
    ("hexapro_extreme", 200),
    ("hexapro_extreme", 500),
)
FUNDED = 2_500
"""Each burst player's cash: the largest buy-in, so a second debit of a large buy-in fails and a double charge of a
small one shows in the balance check."""
PLAY_BUY_IN = 100
THINK = (1.9, 2.1)
PRODUCT_P99_TARGET = 1.2
"""Issue 27: HexaPro and tournament tables within 1.2× of the cash tables' p99 at the same load."""


# ---------------------------------------------------------------------------------------------------------------------
# Matching


def matching(registrations: int, clients: int, serial: int, seed: int) -> dict[str, Any]:
    from django.db import connection
    from django.db.models import Count, Sum

    from tournaments.hexapro.models import HexaProGame, HexaProRegistration, RegistrationStatus
    from tournaments.hexapro.money import holding_account
    from tournaments.hexapro.registration import hexapro_register
    from tournaments.services.money import prize_pool_account
    from wallet.models import Account, AccountKind
    from wallet.services import balance_of, ledger_reconcile, player_cash_account, system_account

    with in_process_workers():
        serial_players = bots_create(serial, "hexserial", FUNDED)
        began = time.perf_counter()
        for user in serial_players:
            hexapro_register(user, "hexapro", 1_000, 1)
        serial_seconds = time.perf_counter() - began
        serial_games = HexaProGame.objects.count()

        players = bots_create(registrations, "hexburst", FUNDED)
        choice = {user.pk: BURST_BUY_INS[index % len(BURST_BUY_INS)] for index, user in enumerate(players)}
        fees_before = balance_of(system_account(AccountKind.HOUSE_FEES))
        order = list(players)
        random.Random(seed).shuffle(order)
        per_client = [order[index::clients] for index in range(clients)]
        outcomes: Counter[str] = Counter()
        errors: list[str] = []
        guard = threading.Lock()
        barrier = threading.Barrier(clients + 1)

        def client(mine: list[Any]) -> None:
            seen: Counter[str] = Counter()
            try:
                barrier.wait()
                for user in mine:
                    product, buy_in = choice[user.pk]
                    try:
                        hexapro_register(user, product, buy_in, 1)
                        seen["registered"] += 1
                    except Exception as error:  # counted and named in the report
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

        burst = HexaProRegistration.objects.filter(user__username__startswith="hexburst")
        games = HexaProGame.objects.filter(registrations__user__username__startswith="hexburst").distinct()
        game_count = games.count()
        seats = (
            burst.exclude(game__isnull=True)
            .values("game")
            .annotate(seats=Count("pk"), players=Count("user", distinct=True))
        )
        crowded = [row for row in seats if row["seats"] != 3 or row["players"] != 3]
        charged_wrong = sum(
            1 for user in players if balance_of(player_cash_account(user)) != FUNDED - choice[user.pk][1]
        )
        holdings = sum(balance_of(holding_account(product, buy_in)) for product, buy_in in BURST_BUY_INS)
        pools_wrong = sum(
            1 for game in games if balance_of(prize_pool_account(game.tournament)) != game.prize_pool_cents
        )
        fees_booked = games.aggregate(total=Sum("fee_component_cents"))["total"] or 0
        problems = ledger_reconcile()
        checks = {
            "every_registration_in_one_game": burst.filter(status=RegistrationStatus.SEATED).count() == registrations,
            "no_registration_waiting_or_lost": not burst.exclude(status=RegistrationStatus.SEATED).exists(),
            "games_formed": game_count == registrations // 3,
            "no_player_twice_in_a_game": not crowded,
            "no_failed_registration": outcomes["failed"] == 0,
            "every_player_charged_exactly_once": charged_wrong == 0,
            "holding_accounts_empty": holdings == 0,
            "every_pool_holds_multiplier_times_buy_in": pools_wrong == 0,
            "fee_components_in_the_house_fees": balance_of(system_account(AccountKind.HOUSE_FEES)) - fees_before
            == 3 * fees_booked,
            "ledger_reconciles": not problems,
        }
        accounts = Account.objects.filter(kind=AccountKind.TOURNAMENT_PRIZE_POOL).count()
    return {
        "registrations": registrations,
        "clients": clients,
        "buy_ins": len(BURST_BUY_INS),
        "burst_seconds": round(burst_seconds, 2),
        "burst_registrations_per_second": round(registrations / burst_seconds, 1),
        "games_formed": game_count,
        "burst_games_per_second": round(game_count / burst_seconds, 1),
        "serial_registrations": serial,
        "serial_seconds": round(serial_seconds, 2),
        "serial_games_formed": serial_games,
        "serial_games_per_second": round(serial_games / serial_seconds, 1) if serial_seconds else None,
        "prize_pool_accounts": accounts,
        "outcomes": dict(outcomes),
        "errors": errors[:10],
        "checks": checks,
        "problems": problems,
    }


# ---------------------------------------------------------------------------------------------------------------------
# Play over the sockets


def forming_process_ready() -> None:
    """The forming process's start: Django set up on the part's database (the environment is the part's)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
    django.setup()


def hexapro_game_register(_number: int, users: list[Any]) -> int:
    """Three bots register one €1 game each; the third registration forms it (its first hand is dealt 10 s later:
    time to connect and see the prize pool). Returns the game's id."""
    from django.db import connection

    from tournaments.hexapro.registration import hexapro_register

    try:
        with in_process_workers():
            formed = [hexapro_register(user, "hexapro", PLAY_BUY_IN, 1).games for user in users]
        (game,) = formed[-1]
        return int(game.pk)
    finally:
        connection.close()


CASH_BOTS_CONNECTING_PER_SECOND = 40.0
"""The cash bots arrive at this rate, as players do (and as ``bench_tables.py``'s held levels let them): 600 at once
outran the site's handshakes (2026-11-29, 100 tables: 220 of 600 sockets open at the window's start). The tournament
bots arrive as their games form, a few a second."""


ARRIVAL_SECONDS = 90.0
"""After the warm-up, how long a window waits more for every expected socket to be open before it starts anyway (and
then reports the sockets missing as its problem)."""


async def measure(
    part: str, bots: list[Any], stats: Any, seconds: float, warm_up: float, meter: CpuMeter
) -> dict[str, Any]:
    """Start the bots ten at a time at :data:`CASH_BOTS_CONNECTING_PER_SECOND`, then measure after ``warm_up``."""
    deadline = time.monotonic() + 24 * 3600
    running = []
    for index, bot in enumerate(bots):
        running.append(asyncio.ensure_future(bot.run(deadline)))
        if index % 10 == 9:
            await asyncio.sleep(10 / CASH_BOTS_CONNECTING_PER_SECOND)
    return await measured_window(part, bots, running, stats, seconds, warm_up, meter)


async def measured_window(
    part: str,
    bots: list[Any],
    running: list[Any],
    stats: Any,
    seconds: float,
    warm_up: float,
    meter: CpuMeter,
    window_over: asyncio.Event | None = None,
) -> dict[str, Any]:
    """Measure ``seconds`` after ``warm_up`` and once every expected socket is open (at most
    :data:`ARRIVAL_SECONDS` more: a slow machine's site takes longer to serve the handshakes, and its retried
    handshakes are no figure), then stop the bots. A tournament bot knocked out before the window, or whose game is
    over (the winner's), has closed its socket as a player would: it is not expected open. A bot that ended with an
    error is."""
    await asyncio.sleep(warm_up)

    def ended_as_a_player(task: Any) -> bool:
        return bool(task.done() and not task.cancelled() and task.exception() is None)

    def playing_and_open() -> tuple[list[Any], int]:
        playing = [
            bot
            for bot, task in zip(bots, running, strict=True)
            if not getattr(bot, "out", False) and not ended_as_a_player(task)
        ]
        return playing, sum(socket_open(bot) for bot in playing)

    arrival_deadline = time.monotonic() + ARRIVAL_SECONDS
    playing, sockets_open = playing_and_open()
    while sockets_open < len(playing) and time.monotonic() < arrival_deadline:
        await asyncio.sleep(0.5)
        playing, sockets_open = playing_and_open()
    start, started_at = time.monotonic(), datetime.now(UTC)
    meter.start()
    await asyncio.sleep(seconds)
    end = time.monotonic()
    usage = meter.report()
    if window_over is not None:
        window_over.set()  # before the bots are stopped: nothing forms new games for them any more
    for bot in bots:
        bot.stop()
    await asyncio.wait(running, timeout=60)
    measured = window(stats, start, end)
    return {
        "bots": len(bots),
        "sockets_open_at_window_start": sockets_open,
        "sockets_expected": len(playing),
        "problems": window_problems(
            part, sockets_open=sockets_open, sockets_expected=len(playing), actions=len(measured)
        ),
        "actions_per_second": round(len(measured) / (end - start), 1),
        "p50_ms": round(percentile(measured, 0.5) or 0, 1),
        "p99_ms": round(percentile(measured, 0.99) or 0, 1),
        **by_hand_end(stats, start, end),
        "latencies_ms": [round(latency * 1000, 2) for latency in measured],
        "window_started_at": started_at.isoformat(timespec="milliseconds"),
        "slowest_actions": slowest_actions(stats, start, end),
        "errors": dict(stats.errors),
        "connect_failures": stats.connect_failures,
        **usage,
    }


async def tournament_bots_played(
    part: str,
    count: int,
    seats: int,
    form: Callable[[int, list[Any]], int],
    *,
    prefix: str,
    balance: int,
    base_url: str,
    seconds: float,
    warm_up: float,
    meter: CpuMeter,
    seed: int,
) -> tuple[dict[str, Any], list[int]]:
    """``count`` tournaments of ``seats`` bots each: ``form(number, users)`` registers one tournament's bots through
    the services and returns its id, and its bots start following their table like tournament players as soon as it
    is formed. Then measure (the warm-up covers the first deal's delay). Returns the window and the tournaments."""
    from games.bots.client import BotSettings, BotStats
    from games.bots.setup import ensure_bot_users, session_for
    from games.bots.tournament import TournamentBot

    places = count * seats * (1 + REPLACEMENTS_PER_GAME)
    users, _password = await asyncio.to_thread(ensure_bot_users, places, prefix=prefix, balance=balance)
    sessions = await asyncio.to_thread(lambda: [session_for(user) for user in users])
    settings = BotSettings(base_url=base_url, think_seconds=THINK)
    stats = BotStats()
    rng = random.Random(seed)
    deadline = time.monotonic() + 24 * 3600
    bots: list[Any] = []
    running: list[Any] = []
    tournament_ids: list[int] = []
    games: list[list[tuple[Any, Any]]] = []  # per tournament formed: its bots and their tasks

    # Games are formed in a process of their own: a registration through the services (a HexaPro game's formation runs
    # its tasks in-process) holds this process's interpreter for a while, and the bots measuring latency here would
    # count that wait as the site's (a 180 s window with games replaced during it had a p99 2.5x the cash tables').
    forming = concurrent.futures.ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=forming_process_ready
    )
    loop = asyncio.get_running_loop()

    async def formed(number: int) -> None:
        together = slice(seats * number, seats * (number + 1))
        tournament_id = await loop.run_in_executor(forming, form, number, users[together])
        tournament_ids.append(tournament_id)
        game = []
        for user, session in zip(users[together], sessions[together], strict=True):
            bot = TournamentBot(user.username, session, tournament_id, settings, stats, random.Random(rng.random()))
            task = asyncio.ensure_future(bot.run(deadline))
            bots.append(bot)
            running.append(task)
            game.append((bot, task))
        games.append(game)

    began = time.monotonic()
    for number in range(count):
        await formed(number)
    formed_seconds = time.monotonic() - began

    replaced: set[int] = set()
    window_over = asyncio.Event()

    async def keep_the_load() -> None:
        """A game whose bots are all knocked out or done is replaced by a new one of fresh bots (while spares last), so
        a long window keeps the number of games in play, as the cash tables keep theirs."""
        while not window_over.is_set():
            await asyncio.sleep(1.0)
            for index, game in enumerate(list(games)):
                if window_over.is_set():
                    return
                if index in replaced or not all(task.done() or getattr(bot, "out", False) for bot, task in game):
                    continue
                if len(games) >= places // seats:
                    return
                replaced.add(index)
                await formed(len(games))

    keeping = asyncio.ensure_future(keep_the_load())
    try:
        result = await measured_window(part, bots, running, stats, seconds, warm_up, meter, window_over)
    finally:
        keeping.cancel()
        forming.shutdown(wait=False, cancel_futures=True)
    result["forming_seconds"] = round(formed_seconds, 1)
    result["games_replaced"] = len(replaced)
    return result, tournament_ids


def sit_and_go_register(number: int, users: list[Any]) -> int:
    """A six-max Sit & Go and its six registrations (:func:`sit_and_go_filled`); the sixth starts it (the coordinator,
    in the Celery worker). Returns the tournament's id."""
    from django.db import connection

    try:
        return sit_and_go_filled(f"Bench Sit & Go #{number + 1}", users)
    finally:
        connection.close()


def tournaments_after(tournament_ids: list[int]) -> dict[str, int]:
    from tournaments.models import Tournament, TournamentStatus

    statuses = Counter(Tournament.objects.filter(pk__in=tournament_ids).values_list("status", flat=True))
    return {
        "running_after": statuses.get(TournamentStatus.RUNNING, 0),
        "finished_after": statuses.get(TournamentStatus.FINISHED, 0),
    }


REPLACEMENTS_PER_GAME = 3
"""Spare bots for this many new games per game formed: a game that ends during the window is replaced (the tournament
windows keep the cash windows' load; without it a 180 s window of HexaPro games fell to 0.54 of it)."""

PARTS = (
    ("cash_tables", "cash", "cash tables"),
    ("hexapro", "hexapro", "HexaPro games"),
    ("sit_and_gos", "sit-and-go", "Sit & Gos"),
    ("cash_tables_again", "cash", "cash tables again"),
)
"""The play windows in their order: report key, ``--part`` and label. Each runs on a site of its own (a fresh database,
Redis prefix and processes), so that no part plays beside what an earlier one left running: the tournaments of a
tournament part go on without their stopped bots (every turn timing out, the coordinator working after each hand),
and with one site for all the parts that load fell on the later windows (2026-11-29: the second cash window's p99
was 215 ms against the first's 14 ms)."""


def cash_window(label: str, tables: int, seconds: float, stack: Stack) -> dict[str, Any]:
    """Six bots at each of ``tables`` six-max cash tables, measured."""
    from games.bots.client import BotStats

    table_rows, _users, sessions, buy_in = prepare_players(tables)  # sets Django up
    base_url = f"http://127.0.0.1:{stack.site_port}"
    stats = BotStats()
    bots = bots_for(table_rows, sessions, buy_in, base_url, THINK, stats)
    result = asyncio.run(measure(label, bots, stats, seconds, 20.0, CpuMeter(stack.process_roles)))
    result["tables"] = tables
    return result


def play_part(part: str, label: str, tables: int, seconds: float, stack: Stack, seed: int) -> dict[str, Any]:
    """One window (see the module docstring) on ``stack``'s site. The bots' process collects its garbage before the
    window, not in it, for every product alike (a Sit & Go window's new bots made full collections of up to 59 ms that
    stopped every bot at once, 2026-11-30)."""
    load_generator_collector_off()
    if part == "cash":
        return cash_window(label, tables, seconds, stack)
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
    django.setup()
    base_url = f"http://127.0.0.1:{stack.site_port}"
    if part == "hexapro":
        seats, form, prefix, balance, warm_up = 3, hexapro_game_register, "hexbot", 10 * PLAY_BUY_IN, 15.0
    else:
        seats, form, prefix = SIT_AND_GO_SEATS, sit_and_go_register, "sngbot"
        balance, warm_up = 10 * (SIT_AND_GO_BUY_IN + SIT_AND_GO_FEE), 20.0
    result, tournament_ids = asyncio.run(
        tournament_bots_played(
            label,
            tables,
            seats,
            form,
            prefix=prefix,
            balance=balance,
            base_url=base_url,
            seconds=seconds,
            warm_up=warm_up,
            meter=CpuMeter(stack.process_roles),
            seed=seed,
        )
    )
    result.update({"tournaments": len(tournament_ids), **tournaments_after(tournament_ids)})
    return result


def play(options: argparse.Namespace) -> dict[str, Any]:
    """The four windows, each in a run of this benchmark of its own (``--part``: its own site); returns the report
    with its summary. A part that printed no figure is a problem of the run."""
    print(f"{options.tables} tables of each product: cash, HexaPro games, Sit & Gos, cash again", flush=True)
    report: dict[str, Any] = {}
    for key, part, label in PARTS:
        command = [sys.executable, str(Path(__file__).resolve()), "--seed", str(options.seed), "play"]
        command += ["--tables", str(options.tables), "--seconds", str(options.seconds)]
        command += ["--web-processes", str(options.web_processes)]
        command += ["--runtime-processes", str(options.runtime_processes), "--part", part, "--label", label]
        command += ["--per-action-path"] if options.per_action_path else []
        completed = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
        lines = [line for line in completed.stdout.splitlines() if line.startswith('{"part": ')]
        if lines:
            report[key] = json.loads(lines[-1])["part"]
        else:
            report[key] = {"p99_ms": 0.0, "p50_ms": 0.0, "actions_per_second": 0.0}
            report[key]["problems"] = [f"{label}: the part exited with status {completed.returncode} and no figure"]
        print(json.dumps({key: without_latencies(report[key])}), flush=True)
    report["summary"] = products_summary(report)
    return report


def slowest_actions(stats: Any, start: float, end: float, count: int = 20) -> list[tuple[float, float]]:
    """The window's ``count`` slowest actions as (seconds into the window when the broadcast came, milliseconds), in
    time order: a tail in bursts across tables shows as clusters, to set against the site's logs (its processes log
    their event loops' stalls with ``EVENT_LOOP_STALL_MILLISECONDS``)."""
    timed = [(at - start, latency) for latency, at in zip(stats.latencies, stats.latency_times, strict=True)]
    slowest = sorted((item for item in timed if 0 <= item[0] < end - start), key=lambda item: -item[1])[:count]
    return [(round(moment, 3), round(latency * 1000, 1)) for moment, latency in sorted(slowest)]


def without_latencies(part: dict[str, Any]) -> dict[str, Any]:
    """A window's report as printed: its every latency (kept for the summary's interval) left out."""
    return {name: value for name, value in part.items() if name != "latencies_ms"}


BOOTSTRAP_RESAMPLES = 1_000
EQUAL_LOAD_SHARE = 0.9
"""A product window counts as at the cash tables' load when it carried at least this share of their actions per second
(games that end during the window lower it: a lighter load is no evidence for the target)."""


def ratio_interval(
    product_ms: list[float],
    cash_windows_ms: list[list[float]],
    rng: random.Random,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> tuple[float, float] | None:
    """The 95 % bootstrap interval of ``p99(product) / mean(p99 of each cash window)``: every window resampled with
    replacement on its own, ``resamples`` times. A window's p99 is its few slowest actions (the seventh slowest of
    700), so one run's ratio moves a lot; the interval says how much, and whether the run decides the target."""
    if not product_ms or not all(cash_windows_ms):
        return None

    def p99(sample: list[float]) -> float:
        # percentile() scales seconds to milliseconds; on milliseconds the scale is the same for both sides of a ratio.
        value = percentile(sample, 0.99)
        assert value is not None
        return value

    ratios = []
    for _ in range(resamples):
        product = p99(rng.choices(product_ms, k=len(product_ms)))
        cash = sum(p99(rng.choices(window, k=len(window))) for window in cash_windows_ms) / len(cash_windows_ms)
        if cash > 0:
            ratios.append(product / cash)
    if not ratios:
        return None
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[min(len(ratios) - 1, int(0.975 * len(ratios)))]


def products_summary(report: dict[str, Any], seed: int = 27, resamples: int = BOOTSTRAP_RESAMPLES) -> dict[str, Any]:
    """Each window's rate and latency, and each product's p99 against the mean of the two cash windows' p99 with its
    95 % bootstrap interval; the verdict is "met" when the whole interval is within the target, "missed" when all of
    it is above, otherwise "undecided" (a longer ``--seconds`` narrows it); "unequal load" when the product's window
    carried less than :data:`EQUAL_LOAD_SHARE` of the cash windows' actions per second."""
    cash_p99s = [report["cash_tables"]["p99_ms"], report["cash_tables_again"]["p99_ms"]]
    cash_p99 = sum(cash_p99s) / len(cash_p99s)
    summary: dict[str, Any] = {"cash_p99_ms_mean": round(cash_p99, 1)}
    for key, _part, _label in PARTS:
        part = report[key]
        summary[key] = {
            "actions_per_second": part["actions_per_second"],
            "p50_ms": part["p50_ms"],
            "p99_ms": part["p99_ms"],
        }
    rng = random.Random(seed)
    cash_windows = [report["cash_tables"].get("latencies_ms", []), report["cash_tables_again"].get("latencies_ms", [])]
    cash_rate = (report["cash_tables"]["actions_per_second"] + report["cash_tables_again"]["actions_per_second"]) / 2
    for key in ("hexapro", "sit_and_gos"):
        load_share = report[key]["actions_per_second"] / cash_rate if cash_rate else None
        summary[key]["load_share_of_cash"] = round(load_share, 2) if load_share is not None else None
        ratio = report[key]["p99_ms"] / cash_p99 if cash_p99 else None
        summary[key]["p99_over_cash"] = round(ratio, 2) if ratio is not None else None
        summary[key]["within_target"] = ratio is not None and ratio <= PRODUCT_P99_TARGET
        interval = ratio_interval(report[key].get("latencies_ms", []), cash_windows, rng, resamples)
        summary[key]["p99_over_cash_95_percent_interval"] = (
            [round(interval[0], 2), round(interval[1], 2)] if interval is not None else None
        )
        if interval is None:
            verdict = "no figure"
        elif load_share is None or load_share < EQUAL_LOAD_SHARE:
            verdict = "unequal load"
        elif interval[1] <= PRODUCT_P99_TARGET:
            verdict = "met"
        elif interval[0] > PRODUCT_P99_TARGET:
            verdict = "missed"
        else:
            verdict = "undecided"
        summary[key]["verdict"] = verdict
    summary["problems"] = [problem for key, _part, _label in PARTS for problem in report[key]["problems"]]
    return summary


# ---------------------------------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep-database", action="store_true", help="do not drop the scratch database")
    parser.add_argument("--seed", type=int, default=20261125)
    commands = parser.add_subparsers(dest="command", required=True)
    burst = commands.add_parser("matching", help="a burst of registrations forming games")
    burst.add_argument("--registrations", type=int, default=3_000)
    burst.add_argument("--clients", type=int, default=30)
    burst.add_argument("--serial", type=int, default=300, help="registrations of the serial peer (one buy-in)")
    games = commands.add_parser(
        "play", help="cash tables, HexaPro games and Sit & Gos at the same load, played by bots over the sockets"
    )
    games.add_argument("--tables", type=int, default=50, help="tables of each product (each acts every ~2 s)")
    games.add_argument("--seconds", type=float, default=40.0, help="each part's measuring window")
    games.add_argument("--web-processes", type=int, default=1)
    games.add_argument("--runtime-processes", type=int, default=1, help="table owners (run_tables)")
    games.add_argument(
        "--per-action-path", action="store_true", help="no table actors: the web process plays every action"
    )
    games.add_argument(
        "--part", choices=("cash", "hexapro", "sit-and-go"), help="one window on a site of its own (used by play)"
    )
    games.add_argument("--label", default="", help="the window's name in its report (with --part)")
    options = parser.parse_args()
    if options.command == "matching" and (
        options.registrations < 3 or options.registrations % (3 * len(BURST_BUY_INS)) or options.clients < 1
    ):
        parser.error(f"--registrations must be a positive multiple of {3 * len(BURST_BUY_INS)}; --clients positive")
    if options.command == "play" and not (1 <= options.tables <= 300 and 1 <= options.runtime_processes <= 8):
        parser.error("--tables 1..300 and --runtime-processes 1..8")

    with ExitStack() as context:
        if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
            from poker_site.embedded import embedded_services

            context.enter_context(embedded_services())
        if options.command == "play":
            return _play(options)
        base_url = os.environ["DATABASE_URL"]
        scratch = f"bench_hexapro_{os.getpid()}"
        _admin(base_url, f'CREATE DATABASE "{scratch}"')
        try:
            os.environ.update(
                {
                    "DATABASE_URL": with_database(base_url, scratch),
                    "DJANGO_SETTINGS_MODULE": "poker_site.settings",
                    "LOG_LEVEL": "WARNING",
                    "DEBUG": "false",
                    "ENVIRONMENT": "development",
                    "REDIS_KEY_PREFIX": f"bench-hexapro-{os.getpid()}",
                    # Each client thread holds its own connection, as each client's request would in its own web
                    # worker; one process's pool of 10 would make 30 threads queue for connections instead.
                    "DATABASE_POOL": "false",
                }
            )
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", "--no-input", verbosity=0)
            print(f"{os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.1f} at the start", flush=True)
            report = matching(options.registrations, options.clients, options.serial, options.seed)
            print(json.dumps(report, indent=2), flush=True)
            return 0 if all(report["checks"].values()) else 1
        finally:
            from django.db import connections

            connections.close_all()
            if not options.keep_database:
                _admin(base_url, f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')


def _play(options: argparse.Namespace) -> int:
    if options.part is None:
        report = play(options)
        shown = {key: without_latencies(value) if key != "summary" else value for key, value in report.items()}
        print(json.dumps(shown, indent=2), flush=True)
        print(json.dumps({"summary": report["summary"]}, indent=2), flush=True)
        for problem in report["summary"]["problems"]:
            print(f"FAILED: {problem}", file=sys.stderr)
        return 1 if report["summary"]["problems"] else 0
    stack = Stack(PROJECT / "var" / "bench-hexapro")
    stack.log_directory.mkdir(parents=True, exist_ok=True)
    try:
        table_actors = not options.per_action_path
        stack.create_database(table_actors=table_actors)
        stack.environment["TOURNAMENT_TICK_SECONDS"] = "1"
        stack.start_daphnes("site", stack.site_port, "poker_site.asgi:application", options.web_processes)
        stack.start("ticker", [sys.executable, str(PROJECT / "manage.py"), "run_ticker", "--interval", "0.1"])
        if table_actors:
            for number in range(options.runtime_processes):
                stack.start(f"runtime-{number}", [sys.executable, str(PROJECT / "manage.py"), "run_tables"])
                stack.runtime.append(stack.processes[-1])
        celery = [str(Path(sys.executable).parent / "celery"), "-A", "poker_site"]
        stack.start("celery-worker", [*celery, "worker", "--pool", "solo", "--loglevel", "WARNING"])
        stack.start(
            "celery-beat", [*celery, "beat", "--loglevel", "WARNING", "--schedule", str(stack.log_directory / "beat")]
        )
        wait_for_port(stack.site_port)
        print(
            f"{options.label}: load average {os.getloadavg()[0]:.1f} at the start; "
            + (f"table actors, {options.runtime_processes} run_tables" if table_actors else "per-action path"),
            file=sys.stderr,
            flush=True,
        )
        result = play_part(options.part, options.label, options.tables, options.seconds, stack, options.seed)
        result["table_actors"] = table_actors
        dead = [process.pid for process in stack.runtime if process.poll() is not None]
        if dead:
            result["problems"].append(f"{options.label}: run_tables processes died during the window: {dead}")
        print(json.dumps({"part": result}), flush=True)
    finally:
        stack.stop()
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
