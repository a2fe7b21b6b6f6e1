"""``manage.py run_bots``: bot players on live tables over the real sockets (demo and load tests).

    python manage.py run_bots --tables 2 --bots-per-table 4 --duration 60 --base-url http://127.0.0.1:8000

Creates (or reuses) bot users with sandbox deposits and bot tables, logs each bot in through the log-in page, then
every bot connects to its table socket, takes a seat and plays random legal actions until the duration is over, when
it leaves the table (its stack goes back to its balance). Prints a JSON summary (hands, actions, errors, latency).
The site must be running (``make run``: daphne, and the table process ``manage.py run_tables`` or, with
``TABLE_ACTORS=off``, the ticker ``manage.py run_ticker``, which deal the hands). SIGTERM or SIGINT (Ctrl-C) ends the
play early the same way: every bot leaves its seat, the summary is printed and the command exits 0
(a test stops the bots once it has seen what it waits for). ``--progress SECONDS`` prints the summary so far every
that many seconds while they play (one JSON line each, ``"progress": true``); the final summary is the last line.

Planting cheats for the compliance desk (issue 31): ``--colluding-pairs N`` and ``--dumping-pairs N`` make pairs of
neighbouring bots at one table partners (``games.bots.policy.plant_pairs``): colluders soft-play each other, share
their hole cards in this process and squeeze third players; a dumper loses chips to its partner heads-up after the
flop. ``--styles`` names the honest styles of the others (``random``, ``tight``, ``loose``). The planted pairs are
listed in the summary (``planted``) so their detection can be checked. Partners are placed at the same table, but
the stake queue assigns tables (CASH-04): with ``--tables`` above 1 it may seat them apart, and they share hands only
while they sit together (``benchmarks/bench_live_detection.py`` uses one table per stake for that reason).
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Callable
from random import Random
from typing import Any
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots.client import Bot, BotSettings, BotStats, http_login
from games.bots.policy import HONEST_STYLES, Partnership, plant_pairs
from games.bots.setup import buy_in_for, ensure_bot_users, ensure_tables, session_for
from games.bots.tournament import TournamentBot

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}


class Command(BaseCommand):
    help = "Run bot players that play random legal actions on live tables over the real WebSockets."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=1)
        parser.add_argument("--bots-per-table", type=int, default=4)
        parser.add_argument("--duration", type=float, default=60.0, help="seconds to play")
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")
        parser.add_argument("--game", default="holdem", help="game type code")
        parser.add_argument("--stake", default="NL10", help="stake label")
        parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.2), metavar=("MIN", "MAX"))
        parser.add_argument("--leave-probability", type=float, default=0.0, help="leave and rejoin after a hand")
        parser.add_argument("--disconnect-probability", type=float, default=0.0, help="drop the socket on a turn")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument(
            "--progress", type=float, default=0.0, help="print the summary so far every SECONDS while playing (0: off)"
        )
        parser.add_argument("--prefix", default="bot", help="bot user name prefix")
        parser.add_argument(
            "--login",
            choices=("form", "session"),
            default="form",
            help="form: log in through the log-in page (default); session: mint sessions directly (large load tests)",
        )
        parser.add_argument("--allow-remote", action="store_true", help="allow a base URL that is not loopback")
        parser.add_argument(
            "--tournament",
            type=int,
            default=None,
            help="register --bots bots for this tournament and play it (its tables are assigned, not chosen)",
        )
        parser.add_argument("--bots", type=int, default=None, help="with --tournament: how many bots register")
        parser.add_argument("--colluding-pairs", type=int, default=0, help="plant pairs that soft-play each other")
        parser.add_argument(
            "--dumping-pairs", type=int, default=0, help="plant pairs where one dumps chips to the other"
        )
        parser.add_argument(
            "--styles",
            default="random",
            help=f"comma-separated honest styles the other bots take in turn ({', '.join(HONEST_STYLES)})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["tournament"] is not None:
            self.play_tournament(options)
            return
        tables_count = int(options["tables"])
        per_table = int(options["bots_per_table"])
        if not 1 <= tables_count <= 1000 or not 1 <= per_table <= 10:
            raise CommandError("--tables must be 1..1000 and --bots-per-table 1..10")
        duration = float(options["duration"])
        if not 0 < duration <= 24 * 3600:
            raise CommandError("--duration must be between 0 and 86400 seconds")
        base_url = str(options["base_url"]).rstrip("/")
        host = urlsplit(base_url).hostname or ""
        if host not in LOOPBACK_HOSTS and not options["allow_remote"]:
            raise CommandError(f"{base_url} is not a loopback address; pass --allow-remote to play elsewhere")
        tables = ensure_tables(tables_count, game=options["game"], stake=options["stake"])
        buy_ins = {table.pk: buy_in_for(table) for table in tables}
        users, password = ensure_bot_users(
            tables_count * per_table, prefix=options["prefix"], balance=3 * max(buy_ins.values())
        )
        names = [user.table_name for user in users]
        try:
            policies, pairs = plant_pairs(
                [names[number * per_table : (number + 1) * per_table] for number in range(tables_count)],
                colluding_pairs=int(options["colluding_pairs"]),
                dumping_pairs=int(options["dumping_pairs"]),
                styles=tuple(style.strip() for style in str(options["styles"]).split(",") if style.strip()),
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"{len(users)} bots on {len(tables)} tables: {', '.join(str(t.pk) for t in tables)}")
        if options["login"] == "session":
            cookies = [session_for(user) for user in users]
        else:
            cookies = [http_login(base_url, user.username, password) for user in users]
        settings = BotSettings(
            base_url=base_url,
            think_seconds=(float(options["think"][0]), float(options["think"][1])),
            leave_probability=float(options["leave_probability"]),
            disconnect_probability=float(options["disconnect_probability"]),
        )
        rng = Random(options["seed"])
        stats = BotStats()
        partnerships = {}
        for pair in pairs:
            partnerships[pair.first] = partnerships[pair.second] = Partnership()
        bots = [
            Bot(
                name,
                cookie,
                tables[index // per_table].pk,
                buy_ins[tables[index // per_table].pk],
                settings,
                stats,
                Random(rng.random()),
                policy=policies[name],
                partnership=partnerships.get(name),
            )
            for index, (name, cookie) in enumerate(zip(names, cookies, strict=True))
        ]
        started = time.monotonic()
        asyncio.run(play(bots, started + duration, self.progress_reporter(options, stats, started)))
        summary: dict[str, Any] = {
            "tables": len(tables),
            "bots": len(bots),
            "seconds": round(time.monotonic() - started, 1),
        }
        if pairs:
            summary["planted"] = [{"kind": pair.kind, "players": [pair.first, pair.second]} for pair in pairs]
        summary.update(stats.summary())
        self.stdout.write(json.dumps(summary, sort_keys=True))

    def play_tournament(self, options: dict[str, Any]) -> None:
        """Register bots for the tournament (as many as it still seats, or --bots), then play it until it ends for
        them or the duration is over."""
        from tournaments.models import Tournament, TournamentKind
        from tournaments.services import TournamentError, tournament_register

        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"there is no tournament {options['tournament']}")
        wanted = options["bots"]
        if wanted is None:
            wanted = (tournament.seats_to_start or 2) - tournament.entrants
            if tournament.kind == TournamentKind.SCHEDULED:
                wanted = 9
        if not 1 <= int(wanted) <= 10_000:
            raise CommandError("--bots must be 1..10000 (and the Sit & Go must still have free seats)")
        duration = float(options["duration"])
        base_url = str(options["base_url"]).rstrip("/")
        host = urlsplit(base_url).hostname or ""
        if host not in LOOPBACK_HOSTS and not options["allow_remote"]:
            raise CommandError(f"{base_url} is not a loopback address; pass --allow-remote to play elsewhere")
        users, password = ensure_bot_users(
            int(wanted), prefix=options["prefix"], balance=max(100, 2 * tournament.entry_price)
        )
        registered = 0
        for user in users:
            try:
                tournament_register(user, tournament)
                registered += 1
            except TournamentError as error:
                self.stderr.write(f"{user.username}: {error.message}")
        if options["login"] == "session":
            cookies = [session_for(user) for user in users]
        else:
            cookies = [http_login(base_url, user.username, password) for user in users]
        settings = BotSettings(
            base_url=base_url, think_seconds=(float(options["think"][0]), float(options["think"][1]))
        )
        stats = BotStats()
        rng = Random(options["seed"])
        bots: list[Bot] = [
            TournamentBot(user.username, cookie, tournament.pk, settings, stats, Random(rng.random()))
            for user, cookie in zip(users, cookies, strict=True)
        ]
        self.stdout.write(f"{registered} bots registered for {tournament.name} (tournament {tournament.pk})")
        started = time.monotonic()
        asyncio.run(play(bots, started + duration, self.progress_reporter(options, stats, started)))
        summary = {"tournament": tournament.pk, "bots": len(bots), "seconds": round(time.monotonic() - started, 1)}
        summary.update(stats.summary())
        self.stdout.write(json.dumps(summary, sort_keys=True))

    def progress_reporter(
        self, options: dict[str, Any], stats: BotStats, started: float
    ) -> tuple[float, Callable[[], None]] | None:
        """With ``--progress``: its interval and what prints the summary so far, for :func:`play`."""
        interval = float(options["progress"])
        if interval <= 0:
            return None

        def report() -> None:
            summary = {"progress": True, "seconds": round(time.monotonic() - started, 1), **stats.summary()}
            self.stdout.write(json.dumps(summary, sort_keys=True))
            self.stdout.flush()

        return interval, report


async def play(bots: list[Bot], deadline: float, progress: tuple[float, Callable[[], None]] | None = None) -> None:
    """Run every bot until ``deadline``, calling ``progress`` (an interval and a report) meanwhile; SIGTERM or SIGINT
    stops them all as the deadline would (each leaves its seat within about two seconds, :meth:`Bot.stop`)."""

    def stop_every_bot() -> None:
        for bot in bots:
            bot.stop()

    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stop_every_bot)
    reporter = asyncio.create_task(report_every(*progress)) if progress is not None else None
    try:
        await asyncio.gather(*(bot.run(deadline) for bot in bots))
    finally:
        if reporter is not None:
            reporter.cancel()
        for signal_number in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signal_number)


async def report_every(interval: float, report: Callable[[], None]) -> None:
    while True:
        await asyncio.sleep(interval)
        report()
