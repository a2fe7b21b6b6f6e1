"""Helpers for the tournament browser tests: a Sit & Go of three, a re-buy tournament of two and a tournament started
at a table of three and one of two, a player disqualified there between hands, a page following the tournament changes
live with its socket dropped and brought back, and a re-buy bought at the table."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import OperationalError
from django.utils import timezone

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.browser.conftest import Pages, caused_by_a_deadlock
from tests.browser.flows import log_in, wait_until
from tests.browser.setup import player
from tests.foundation.staff_roles import staff_member
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentKind
from tournaments.rules.levels import structure_from_rows
from tournaments.services import tournament_advance, tournament_register
from tournaments.services.catalog import tournament_create
from tournaments.services.errors import NotAllowedNow
from tournaments.services.staff import entry_disqualify

TWO_LEVELS = structure_from_rows("live lists", 1_000, [(10, 20, 0), (20, 40, 0)], 300)
REBUY_LEVELS = structure_from_rows("browser re-buys", 1_000, [(10, 20, 0), (20, 40, 0), (40, 80, 0)], 120)
CALL_LEVELS = structure_from_rows("calls", 1_000, [(10, 20, 0), (20, 40, 0), (40, 80, 0)], 300)


def sit_and_go_of_three(name: str) -> Tournament:
    """A €1 + €0.10 Sit & Go that starts at one table when three players have registered, and does not open again."""
    return tournament_create(
        name=name,
        kind=TournamentKind.SIT_AND_GO,
        seats_to_start=3,
        table_size=3,
        buy_in=100,
        fee=10,
        structure=TWO_LEVELS,
        reopens=False,
    )


def rebuy_tournament_for_two(name: str, **more: Any) -> Tournament:
    """A €10 + €1 tournament at one table of two, starting in ten minutes (brought forward once both are registered),
    where a player may re-buy 1,000 chips for €10 + €1 twice in the first two levels while below 1,000 chips. Each
    starts with 500, below the threshold with room to spare: the hands dealt before a click (players acted for, blinds
    won and lost; on a slow machine the first is over by then) never lift the stack above it. ``more``: the other terms
    (an add-on, re-entries, late registration)."""
    return tournament_create(
        name=name,
        starts_at=timezone.now() + timedelta(minutes=10),
        table_size=2,
        buy_in=1_000,
        fee=100,
        unregistration_closes_minutes=0,
        structure=REBUY_LEVELS,
        starting_stack=500,
        rebuy_levels=2,
        rebuy_maximum=2,
        rebuy_stack_threshold=1_000,
        rebuy_buy_in=1_000,
        rebuy_fee=100,
        rebuy_chips=1_000,
        pause_between_hands_milliseconds=1_000,
        **more,
    )


def rebuy_confirmed(page: Any) -> None:
    """Press "Re-buy" at the table, read that the dialog asks first, and confirm: the page is sent and comes back."""
    page.locator("#rebuy").click()
    wait_until(page, "document.getElementById('purchase-confirm').open")
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.locator("#purchase-confirm-yes").click()


def live_page(pages: Pages, username: str, path: str, status: str) -> Any:
    """A laptop-sized page at ``path`` for ``username``, once its socket is live (``status``, the expression of its
    connection's state), marked so that a reload would show (``window.sameDocument`` gone)."""
    page = pages.new(width=1366, height=768)
    log_in(page, username)
    page.goto(path)
    wait_until(page, f"{status} === 'live'")
    page.evaluate("window.sameDocument = true")
    return page


def entrants_shown(page: Any, selector: str, count: int) -> None:
    """Wait until the tournament's element at ``selector`` says ``count`` entrants."""
    wait_until(page, f"document.querySelector('{selector}')?.dataset.entrants === '{count}'", timeout=30_000)


def socket_dropped(page: Any, socket: str, status: str) -> None:
    """The page's socket (``window[socket]``) drops and, for now, does not come back: a notice sent meanwhile reaches
    no socket of the page."""
    page.evaluate(f"() => {{ const socket = window.{socket}; socket.connect = () => {{}}; socket.drop(); }}")
    wait_until(page, f"{status} === 'reconnecting'")


def socket_back(page: Any, socket: str, status: str) -> None:
    """The page's socket dropped by ``socket_dropped`` connects again at once, and is live."""
    page.evaluate(f"() => {{ const socket = window.{socket}; delete socket.connect; socket.reconnectNow(); }}")
    wait_until(page, f"{status} === 'live'")


def started_at_tables_of_three_and_two(
    name: str, *, table_size: int
) -> tuple[Tournament, int, int, dict[int, list[TournamentEntry]]]:
    """A five-player tournament of ``table_size``-seat tables (three or four: a table of three and one of two), started
    and dated back (its start two minutes, the registrations three) so that pages opened now only offer the table:
    (tournament, small table, big table, entries by table). Nobody acts at these tables: each player's turn runs out
    its clock, so short clocks (3 s and a 2 s timebank instead of 10 s and 15 s) bring the pause between hands, and a
    balancing move, sooner."""
    tournament = tournament_create(
        name=name,
        starts_at=timezone.now() + timedelta(minutes=30),
        table_size=table_size,
        buy_in=1_000,
        fee=100,
        unregistration_closes_minutes=0,
        structure=CALL_LEVELS,
        decision_seconds=3,
        timebank_first_hand_seconds=2,
    )
    for name_of_player in ("alice", "bob", "carol", "dave", "erin"):
        tournament_register(player(name_of_player, cash_cents=5_000), tournament)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    tournament_advance(tournament.pk)  # unless the beat started it first
    Tournament.objects.filter(pk=tournament.pk).update(started_at=timezone.now() - timedelta(minutes=2))
    TournamentEntry.objects.filter(tournament=tournament).update(registered_at=timezone.now() - timedelta(minutes=3))
    by_table: dict[int, list[TournamentEntry]] = {}
    for entry in TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).select_related(
        "user"
    ):
        by_table.setdefault(int(entry.table_id), []).append(entry)
    small, big = sorted(by_table, key=lambda table_id: len(by_table[table_id]))
    return tournament, small, big, by_table


def disqualified_between_hands(leaving: TournamentEntry) -> None:
    """Support staff disqualify ``leaving`` (a player of the table of two) between two hands (the absent players' hands
    are dealt and folded meanwhile, TRN-04), trying again while a hand is in play or the live site deadlocks with it."""
    judge = staff_member(SUPPORT_STAFF)
    deadline = time.monotonic() + 60
    while True:
        try:
            entry_disqualify(leaving, actor=judge, reason="Collusion", forfeit_prize=False)
            return
        except (NotAllowedNow, OperationalError) as refusal:
            if isinstance(refusal, OperationalError) and not caused_by_a_deadlock(refusal):
                raise
            assert time.monotonic() < deadline, "the small table never paused between hands"
            time.sleep(0.2)


def coordinated_until(tournament: Tournament, done: Callable[[], bool], never: str) -> None:
    """Run the tournament's coordination every half second until ``done()``, for a minute at most (else fail with
    ``never``); the live site's coordinator and hands run meanwhile, so a deadlock with them is tried again."""
    deadline = time.monotonic() + 60
    while not done():
        assert time.monotonic() < deadline, never
        try:
            tournament_advance(tournament.pk)
        except OperationalError as error:
            if not caused_by_a_deadlock(error):
                raise
        time.sleep(0.5)
