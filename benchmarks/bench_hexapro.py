"""HexaPro at scale: forming games from a burst of registrations, and games played by bots over the real sockets.

    .venv/bin/python benchmarks/bench_hexapro.py matching [--registrations 3000] [--clients 30] [--serial 300]
    .venv/bin/python benchmarks/bench_hexapro.py play [--games 300] [--cash-tables 50] [--seconds 40]

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

**play** (the full stack over 127.0.0.1: daphne, the ticker that deals, a Celery worker and beat for the
tournaments' coordination and prizes): first the peer — ``--cash-tables`` 6-max cash tables with six bots each —,
then ``--games`` HexaPro games (€1, three bots each, registered through the service, the multipliers drawn by the
production CSPRNG), each bot following its game's table like a tournament bot. Bots think 1.9–2.1 s per action in
both parts (one action every ~2 s per table). For each part, after a warm-up, a ``--seconds`` window:
action→broadcast p50/p99 (an action counts when its broadcast reaches the bot that acted), actions per second; for
HexaPro also the games still running at the window's end and the games finished. HexaPro games end (their levels
last 1–4 minutes): the window starts as soon as the bots are seated and dealt in.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import threading
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from benchmarks.bench_tables import (  # noqa: E402 - the project is on the path from here on
    CpuMeter,
    Stack,
    bots_for,
    percentile,
    prepare_players,
    wait_for_port,
    window,
    with_database,
)
from benchmarks.bench_tournament import _admin, bots_create, in_process_workers  # noqa: E402

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


def game_register(users: list[Any]) -> int:
    """Three bots register one €1 game each; the third registration forms it. Returns the game's id."""
    from django.db import connection

    from tournaments.hexapro.registration import hexapro_register

    try:
        with in_process_workers():
            formed = [hexapro_register(user, "hexapro", PLAY_BUY_IN, 1).games for user in users]
        (game,) = formed[-1]
        return int(game.pk)
    finally:
        connection.close()


async def measure(bots: list[Any], stats: Any, seconds: float, warm_up: float, meter: CpuMeter) -> dict[str, Any]:
    deadline = time.monotonic() + warm_up + seconds + 30
    running = [asyncio.ensure_future(bot.run(deadline)) for bot in bots]
    return await measured_window(bots, running, stats, seconds, warm_up, meter)


async def measured_window(
    bots: list[Any], running: list[Any], stats: Any, seconds: float, warm_up: float, meter: CpuMeter
) -> dict[str, Any]:
    await asyncio.sleep(warm_up)
    start = time.monotonic()
    meter.start()
    await asyncio.sleep(seconds)
    end = time.monotonic()
    usage = meter.report()
    for bot in bots:
        bot.stop()
    await asyncio.wait(running, timeout=60)
    measured = window(stats, start, end)
    return {
        "bots": len(bots),
        "actions_per_second": round(len(measured) / (end - start), 1),
        "p50_ms": round(percentile(measured, 0.5) or 0, 1),
        "p99_ms": round(percentile(measured, 0.99) or 0, 1),
        "errors": dict(stats.errors),
        "connect_failures": stats.connect_failures,
        **usage,
    }


async def hexapro_games(
    games: int, base_url: str, seconds: float, meter: CpuMeter, seed: int
) -> tuple[dict[str, Any], list[int]]:
    """Form the games three registrations at a time and start each game's bots as soon as it forms (its first hand is
    dealt 10 s later: time to connect and see the prize pool); then measure."""
    from games.bots.client import BotSettings, BotStats
    from games.bots.setup import ensure_bot_users, session_for
    from games.bots.tournament import TournamentBot

    users, _password = await asyncio.to_thread(ensure_bot_users, games * 3, prefix="hexbot", balance=10 * PLAY_BUY_IN)
    sessions = await asyncio.to_thread(lambda: [session_for(user) for user in users])
    settings = BotSettings(base_url=base_url, think_seconds=THINK)
    stats = BotStats()
    rng = random.Random(seed)
    deadline = time.monotonic() + 24 * 3600
    bots: list[Any] = []
    running: list[Any] = []
    game_ids: list[int] = []
    began = time.monotonic()
    for number in range(games):
        trio = users[3 * number : 3 * number + 3]
        game_id = await asyncio.to_thread(game_register, trio)
        game_ids.append(game_id)
        for user, session in zip(trio, sessions[3 * number : 3 * number + 3], strict=True):
            bot = TournamentBot(user.username, session, game_id, settings, stats, random.Random(rng.random()))
            bots.append(bot)
            running.append(asyncio.ensure_future(bot.run(deadline)))
    formed_seconds = time.monotonic() - began
    result = await measured_window(bots, running, stats, seconds, 15.0, meter)
    result["forming_seconds"] = round(formed_seconds, 1)
    return result, game_ids


def play(games: int, cash_tables: int, seconds: float, stack: Stack, seed: int) -> dict[str, Any]:
    print(f"preparing {cash_tables} cash tables, then {games} HexaPro games ...", flush=True)
    tables, _users, cash_sessions, buy_in = prepare_players(cash_tables)  # sets Django up
    from games.bots.client import BotStats
    from tournaments.models import Tournament, TournamentStatus

    base_url = f"http://127.0.0.1:{stack.site_port}"
    meter = CpuMeter(stack.process_roles)
    stats = BotStats()
    cash_bots = bots_for(tables, cash_sessions, buy_in, base_url, THINK, stats)
    report: dict[str, Any] = {"cash_tables": asyncio.run(measure(cash_bots, stats, seconds, 20.0, meter))}
    report["cash_tables"]["tables"] = cash_tables
    print(json.dumps({"cash_tables": report["cash_tables"]}), flush=True)

    hexapro, game_ids = asyncio.run(hexapro_games(games, base_url, seconds, meter, seed))
    statuses = Counter(Tournament.objects.filter(pk__in=game_ids).values_list("status", flat=True))
    hexapro.update(
        {
            "games": len(game_ids),
            "games_running_after": statuses.get(TournamentStatus.RUNNING, 0),
            "games_finished_after": statuses.get(TournamentStatus.FINISHED, 0),
        }
    )
    report["hexapro"] = hexapro
    print(json.dumps({"hexapro": hexapro}), flush=True)
    return report


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
    games = commands.add_parser("play", help="HexaPro games and cash tables played by bots over the sockets")
    games.add_argument("--games", type=int, default=300)
    games.add_argument("--cash-tables", type=int, default=50)
    games.add_argument("--seconds", type=float, default=40.0, help="each part's measuring window")
    games.add_argument("--web-processes", type=int, default=1)
    options = parser.parse_args()
    if options.command == "matching" and (
        options.registrations < 3 or options.registrations % (3 * len(BURST_BUY_INS)) or options.clients < 1
    ):
        parser.error(f"--registrations must be a positive multiple of {3 * len(BURST_BUY_INS)}; --clients positive")
    if options.command == "play" and not (1 <= options.games <= 500 and 1 <= options.cash_tables <= 300):
        parser.error("--games 1..500 and --cash-tables 1..300")

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
    stack = Stack(PROJECT / "var" / "bench-hexapro")
    stack.log_directory.mkdir(parents=True, exist_ok=True)
    try:
        stack.create_database(table_actors=False)  # the per-action durable path, as before issue 27's actors
        stack.environment["TOURNAMENT_TICK_SECONDS"] = "1"
        stack.start_daphnes("site", stack.site_port, "poker_site.asgi:application", options.web_processes)
        stack.start("ticker", [sys.executable, str(PROJECT / "manage.py"), "run_ticker", "--interval", "0.1"])
        celery = [str(Path(sys.executable).parent / "celery"), "-A", "poker_site"]
        stack.start("celery-worker", [*celery, "worker", "--pool", "solo", "--loglevel", "WARNING"])
        stack.start(
            "celery-beat", [*celery, "beat", "--loglevel", "WARNING", "--schedule", str(stack.log_directory / "beat")]
        )
        wait_for_port(stack.site_port)
        report = play(options.games, options.cash_tables, options.seconds, stack, options.seed)
        cash, hexapro = report["cash_tables"], report["hexapro"]
        report["summary"] = {
            "hexapro_games": hexapro["games"],
            "hexapro_p50_ms": hexapro["p50_ms"],
            "hexapro_p99_ms": hexapro["p99_ms"],
            "cash_tables": cash["tables"],
            "cash_p50_ms": cash["p50_ms"],
            "cash_p99_ms": cash["p99_ms"],
        }
        print(json.dumps(report, indent=2), flush=True)
    finally:
        stack.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
