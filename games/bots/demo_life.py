"""The demo site's life: bots that keep cash tables, Sit & Gos, scheduled tournaments and HexaPro games going.

A newcomer who runs ``make run`` should see a busy lobby within a minute, not a list of cancelled tournaments.
``manage.py run_demo_life`` (started by the launcher while ``DEMO_BOTS`` is on) repeats, every few seconds:

1. :func:`demo_life_plan` (Django, in a worker thread) decides what each idle demo bot should do, funds it from the
   demo bankroll through the ledger (``wallet.services.demo_bankroll``) and registers it through the ordinary
   services, exactly as a player would be registered;
2. :func:`demo_life_run` plays the plan with the ordinary bot clients (``games.bots.client``, no Django) over the real
   sockets.

What the plan keeps up (settings ``DEMO_*``):

* **cash**: ``DEMO_CASH_BOTS_PER_GAME`` bots asking for a seat at the smallest stake of every game offered, so each
  game has a table dealing (a new table needs three players, CASH-06) with seats left for players; a bot that went
  broke is funded and sent back;
* **Sit & Gos**: every registering Sit & Go is filled by bots to one seat short, so a player who registers starts it at
  once; when nobody took that seat for ``DEMO_SEAT_KEPT_FOR_PLAYERS_SECONDS`` a bot takes it, so Sit & Gos run (and
  reopen) to watch, and a player who registered does not wait for a second one;
* **scheduled tournaments**: up to ``DEMO_BOTS_IN_A_SCHEDULED_TOURNAMENT`` bots register for each tournament whose
  registration is open and which starts within :data:`SCHEDULED_REGISTRATION_WINDOW`, so it starts instead of being
  cancelled for want of entrants (TRN-15);
* **HexaPro**: two bots wait in the queue of the cheapest game offered, so a player forms a game at once; after the
  same wait a third bot forms it;
* every demo bot with a live entry is played to the end of its tournament (also after a restart of this process);
* **the schedule**: every :data:`SCHEDULE_REFRESH` the demo tournaments are topped up (``tournaments.demo``,
  idempotent), so the turbos, the hourly re-buy and re-entry tournaments, the satellite and the phased tournament
  keep starting while the site runs, not only in the hours after ``seed_demo``.

Players are never registered or moved by it: it acts only on demo bots (``is_demo_bot``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from random import Random
from typing import Any

from games.bots.client import Bot, BotSettings, BotStats
from games.bots.tournament import TournamentBot

logger = logging.getLogger(__name__)

DEMO_BOT_POOL = 60
"""Demo bot accounts made (``demobot001``...): enough for every game's cash bots and the tournaments' seats."""

SCHEDULED_REGISTRATION_WINDOW = timedelta(minutes=15)
"""Bots register for a scheduled tournament starting within this, not for every tournament of the day."""

PLAY_TOURNAMENT_FROM = timedelta(minutes=1)
"""A bot starts following its tournament this long before the start (it polls where it is seated)."""

HEXAPRO_BOTS_WAITING = 2

CASH_BALANCE_IN_BUY_INS = 3
"""A cash bot is funded up to this many maximum buy-ins of its stake."""

PLAN_SECONDS = 5.0

SCHEDULE_REFRESH = timedelta(minutes=1)
"""How often the plan tops up the demo tournament schedule."""


@dataclass(frozen=True)
class Assignment:
    """What one demo bot is to do: play cash at ``table_id`` with ``buy_in`` cents, or play tournament
    ``tournament_id``. ``game`` names the cash game (the plan counts cash bots per game)."""

    username: str
    session_cookie: str
    table_id: int = 0
    buy_in: int = 0
    game: str = ""
    tournament_id: int = 0

    @property
    def is_cash(self) -> bool:
        return self.table_id != 0


@dataclass
class DemoLife:
    """The plan's memory between rounds: the bots' session cookies (one session per bot and process)."""

    cookies: dict[int, str] = field(default_factory=dict)
    schedule_refreshed_at: datetime | None = None

    def cookie_for(self, user: Any) -> str:
        from games.bots.setup import session_for

        if user.pk not in self.cookies:
            self.cookies[user.pk] = session_for(user)
        return self.cookies[user.pk]


def demo_bots_ensure(count: int = DEMO_BOT_POOL) -> list[Any]:
    """The demo bot accounts ``demobot001``... (made when missing, without a usable password). A name some person
    already took is passed over: that account is theirs, not a bot."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from wallet.services.demo_bankroll import DEMO_BOT_PREFIX, is_demo_bot

    user_model = get_user_model()
    names = [f"{DEMO_BOT_PREFIX}{number:03d}" for number in range(1, count + 1)]
    existing = set(user_model.objects.filter(username__in=names).values_list("username", flat=True))
    missing = [name for name in names if name not in existing]
    if missing:
        unusable = make_password(None)
        user_model.objects.bulk_create(
            [user_model(username=name, password=unusable) for name in missing], ignore_conflicts=True
        )
    users = user_model.objects.filter(username__in=names).order_by("username")
    return [user for user in users if is_demo_bot(user)]


def demo_life_plan(life: DemoLife, busy: dict[str, Assignment], now: datetime | None = None) -> list[Assignment]:
    """What idle demo bots should do now (see the module docstring); ``busy`` maps the bots already at work to their
    assignments. Registrations and funding are done here, through the services; refusals are logged and skipped."""
    from django.utils import timezone

    moment = now or timezone.now()
    _schedule_refresh(life, moment)
    bots = demo_bots_ensure()
    idle = [bot for bot in bots if bot.username not in busy]
    assignments: list[Assignment] = []
    assignments += _tournaments_to_play(life, idle, moment)
    idle = [bot for bot in idle if bot.username not in {assignment.username for assignment in assignments}]
    assignments += _cash_seats(life, idle, busy)
    idle = [bot for bot in idle if bot.username not in {assignment.username for assignment in assignments}]
    registered = _sit_and_go_registrations(idle, moment)
    idle = [bot for bot in idle if bot not in registered]
    registered += _scheduled_registrations(idle, moment)
    idle = [bot for bot in idle if bot not in registered]
    _hexapro_registrations(idle, moment)
    return assignments


def _schedule_refresh(life: DemoLife, moment: datetime) -> None:
    """Top up the demo tournament schedule when :data:`SCHEDULE_REFRESH` has passed since the last time."""
    if life.schedule_refreshed_at is not None and moment - life.schedule_refreshed_at < SCHEDULE_REFRESH:
        return
    from tournaments.demo import seed_demo

    life.schedule_refreshed_at = moment
    seed_demo(logger.debug)


def _tournaments_to_play(life: DemoLife, idle: list[Any], moment: datetime) -> list[Assignment]:
    """Idle bots whose tournament runs or starts within a minute: follow it to its tables. (A Sit & Go that waits
    for players is not followed: its bots would only ask every second whether it started; they join it within a round
    of the plan once it runs.)"""
    from django.db.models import Q

    from tournaments.models import LIVE_ENTRY_STATUSES, TournamentEntry, TournamentStatus

    by_id = {bot.pk: bot for bot in idle}
    entries = (
        TournamentEntry.objects.filter(user_id__in=list(by_id), status__in=LIVE_ENTRY_STATUSES)
        .filter(
            Q(tournament__status=TournamentStatus.RUNNING)
            | Q(
                tournament__status=TournamentStatus.REGISTERING,
                tournament__starts_at__lte=moment + PLAY_TOURNAMENT_FROM,
            )
        )
        .values_list("user_id", "tournament_id")
    )
    chosen: dict[int, int] = {}
    for user_id, tournament_id in entries:
        chosen.setdefault(user_id, tournament_id)
    return [
        Assignment(by_id[user_id].username, life.cookie_for(by_id[user_id]), tournament_id=tournament_id)
        for user_id, tournament_id in chosen.items()
    ]


def _cash_seats(life: DemoLife, idle: list[Any], busy: dict[str, Assignment]) -> list[Assignment]:
    """Send idle bots to the smallest stake of every game until each game has its cash bots."""
    from django.conf import settings

    from games.bots.setup import buy_in_for, ensure_tables
    from games.models import GameType, Table, TableStatus
    from wallet.services.demo_bankroll import demo_bot_fund

    wanted = settings.DEMO_CASH_BOTS_PER_GAME
    at_work: dict[str, int] = {}
    for assignment in busy.values():
        if assignment.is_cash:
            at_work[assignment.game] = at_work.get(assignment.game, 0) + 1
    assignments: list[Assignment] = []
    pool = list(idle)
    for game in GameType.objects.filter(enabled=True).order_by("display_order", "pk"):
        stake = game.stakes.order_by("display_order", "pk").first()
        if stake is None:
            continue
        missing = wanted - at_work.get(game.code, 0)
        if missing <= 0 or not pool:
            continue
        try:
            # The bots ask the stake's queue for a seat (CASH-04); the table only says which stake and buy-in.
            table = Table.objects.filter(stake=stake, status=TableStatus.OPEN).order_by("pk").first()
            table = table or ensure_tables(1, game=game.code, stake=stake.label, prefix="Demo")[0]
            buy_in = buy_in_for(table)
        except Exception:
            logger.exception("demo life: no table for %s %s", game.code, stake.label)
            continue
        for bot in pool[:missing]:
            demo_bot_fund(bot, CASH_BALANCE_IN_BUY_INS * buy_in)
            assignments.append(
                Assignment(bot.username, life.cookie_for(bot), table_id=table.pk, buy_in=buy_in, game=game.code)
            )
        pool = pool[missing:]
    return assignments


def _register(bots: list[Any], tournament: Any, count: int, moment: datetime) -> list[Any]:
    """Fund and register up to ``count`` of ``bots``; the bots registered."""
    from tournaments.services import TournamentError, tournament_register
    from wallet.services.demo_bankroll import demo_bot_fund

    registered = []
    for bot in bots[: max(0, count)]:
        demo_bot_fund(bot, max(100, 2 * tournament.entry_price))
        try:
            tournament_register(bot, tournament, now=moment)
        except TournamentError as error:
            logger.info("demo life: %s not registered for %s: %s", bot.username, tournament, error.message)
            break  # the same refusal would meet the next bot (full, closed, not eligible)
        registered.append(bot)
    return registered


def _sit_and_go_registrations(idle: list[Any], moment: datetime) -> list[Any]:
    """Fill every registering Sit & Go to one seat short; the last seat too once it was kept long enough."""
    from django.conf import settings
    from django.db.models import Max

    from tournaments.models import LIVE_ENTRY_STATUSES, Tournament, TournamentKind, TournamentStatus

    kept_for = timedelta(seconds=settings.DEMO_SEAT_KEPT_FOR_PLAYERS_SECONDS)
    registered: list[Any] = []
    pool = list(idle)
    sit_and_gos = Tournament.objects.filter(
        kind=TournamentKind.SIT_AND_GO, status=TournamentStatus.REGISTERING, eligibility={}
    ).order_by("pk")
    for tournament in sit_and_gos:
        live = tournament.entries.filter(status__in=LIVE_ENTRY_STATUSES)
        seats = int(tournament.seats_to_start or 0)
        entrants = live.count()
        wanted = seats - 1 - entrants
        if wanted <= 0 and entrants == seats - 1:
            last = live.aggregate(last=Max("registered_at"))["last"]
            if last is not None and moment - last >= kept_for:
                wanted = 1
        if wanted > 0 and pool:
            done = _register(pool, tournament, wanted, moment)
            registered += done
            pool = [bot for bot in pool if bot not in done]
    return registered


def _scheduled_registrations(idle: list[Any], moment: datetime) -> list[Any]:
    """Bots for every scheduled tournament that starts soon and whose registration is open."""
    from django.conf import settings

    from tournaments.models import LIVE_ENTRY_STATUSES, Tournament, TournamentKind, TournamentStatus
    from wallet.services.demo_bankroll import DEMO_BOT_PREFIX

    registered: list[Any] = []
    pool = list(idle)
    soon = Tournament.objects.filter(
        kind=TournamentKind.SCHEDULED,
        status=TournamentStatus.REGISTERING,
        is_phase_two=False,
        eligibility={},
        starts_at__lte=moment + SCHEDULED_REGISTRATION_WINDOW,
    ).order_by("starts_at", "pk")
    for tournament in soon:
        bots_in = tournament.entries.filter(
            status__in=LIVE_ENTRY_STATUSES, user__username__startswith=DEMO_BOT_PREFIX
        ).count()
        wanted = settings.DEMO_BOTS_IN_A_SCHEDULED_TOURNAMENT - bots_in
        if wanted > 0 and pool:
            done = _register(pool, tournament, wanted, moment)
            registered += done
            pool = [bot for bot in pool if bot not in done]
    return registered


def _hexapro_registrations(idle: list[Any], moment: datetime) -> None:
    """Keep two bots waiting for the cheapest HexaPro game; a third forms it once they waited long enough."""
    from django.conf import settings
    from django.db.models import Min

    from tournaments.hexapro.models import HexaProRegistration, RegistrationStatus
    from tournaments.hexapro.products import products_in_force
    from tournaments.hexapro.registration import hexapro_register
    from tournaments.services import TournamentError
    from wallet.services.demo_bankroll import DEMO_BOT_PREFIX, demo_bot_fund

    products = products_in_force(moment)
    if not products or not products[0].buy_ins or not idle:
        return
    product = products[0]
    level = product.buy_ins[0]
    waiting = HexaProRegistration.objects.filter(
        product_code=product.code, buy_in_cents=level.buy_in_cents, status=RegistrationStatus.WAITING
    )
    bots_waiting = waiting.filter(user__username__startswith=DEMO_BOT_PREFIX)
    wanted = HEXAPRO_BOTS_WAITING - bots_waiting.count()
    if wanted <= 0:
        oldest = bots_waiting.aggregate(oldest=Min("registered_at"))["oldest"]
        if oldest is not None and moment - oldest >= timedelta(seconds=settings.DEMO_SEAT_KEPT_FOR_PLAYERS_SECONDS):
            wanted = 1
    waiting_users = set(waiting.values_list("user_id", flat=True))
    for bot in [bot for bot in idle if bot.pk not in waiting_users][: max(0, wanted)]:
        demo_bot_fund(bot, 2 * (level.buy_in_cents + level.fee_component_cents))
        try:
            hexapro_register(bot, product.code, level.buy_in_cents, 1, now=moment)
        except TournamentError as error:
            logger.info("demo life: %s not registered for HexaPro: %s", bot.username, error.message)
            return


def bot_for(assignment: Assignment, settings: BotSettings, stats: BotStats, rng: Random) -> Bot:
    """The bot client that plays ``assignment``."""
    if assignment.is_cash:
        return Bot(
            assignment.username, assignment.session_cookie, assignment.table_id, assignment.buy_in, settings, stats, rng
        )
    return TournamentBot(assignment.username, assignment.session_cookie, assignment.tournament_id, settings, stats, rng)


Planner = Callable[[dict[str, Assignment]], list[Assignment]]


async def demo_life_run(
    planner: Planner,
    settings: BotSettings,
    *,
    deadline: float,
    plan_seconds: float = PLAN_SECONDS,
    rng: Random | None = None,
) -> BotStats:
    """Plan (in a thread: ``planner`` uses the database), start a bot client for each new assignment, forget the bots
    whose client ended (broke, knocked out, tournament over), and plan again, until ``deadline`` (monotonic)."""
    random = rng or Random()
    stats = BotStats()
    running: dict[str, tuple[Assignment, asyncio.Task[None]]] = {}
    try:
        while time.monotonic() < deadline:
            for username, (_assignment, task) in list(running.items()):
                if task.done():
                    del running[username]
                    if not task.cancelled() and task.exception() is not None:
                        logger.warning("demo life: %s stopped: %r", username, task.exception())
            try:
                busy = {username: assignment for username, (assignment, _task) in running.items()}
                assignments = await asyncio.to_thread(planner, busy)
            except Exception:
                logger.exception("demo life: planning failed; trying again")
                assignments = []
            for assignment in assignments:
                bot = bot_for(assignment, settings, stats, Random(random.random()))
                running[assignment.username] = (assignment, asyncio.create_task(bot.run(deadline)))
            await asyncio.sleep(min(plan_seconds, max(0.0, deadline - time.monotonic())))
    finally:
        for _assignment, task in running.values():
            task.cancel()
        for _assignment, task in running.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    return stats
