"""Server-side set-up for the browser tests, done through the domain and wallet services before a browser opens.

Services publish to the channel layer after commit with ``async_to_sync``, which cannot run in the thread where
Playwright's loop runs; :func:`in_thread` runs a service call in a worker thread once the browser is open.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games.models import Hand, HandStatus, Stake, Table
from games.runtime.engine_state import hand_engine_state
from games.services import hand_act, seat_take, table_open
from tests.browser.flows import PASSWORD
from wallet.services import deposit_through_provider

T = TypeVar("T")


def player(username: str, cash_cents: int = 5000) -> Any:
    """A signed-up player with a sandbox deposit of ``cash_cents``."""
    user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD)
    if cash_cents:
        deposit_through_provider(user, cash_cents, f"browser-test-{uuid.uuid4().hex}")
    return user


def heads_up_table(
    game: str = "holdem", label: str = "NL10", *, decision_seconds: int = 90, pause_milliseconds: int = 120_000
) -> Table:
    """A table whose rules (back-office data, catalog 0.3) deal as soon as two players sit, give each decision
    ``decision_seconds`` and wait ``pause_milliseconds`` between hands (two minutes: the finished hand stays on
    screen while a test reads it)."""
    stake = Stake.objects.select_related("game_type").get(game_type__code=game, label=label)
    rules = stake.game_type.rules_at()
    rules.pk = None
    rules.effective_from = timezone.now()
    rules.minimum_players_to_start = 2
    rules.continue_heads_up = True
    rules.decision_seconds = decision_seconds
    rules.pause_between_hands_milliseconds = pause_milliseconds
    rules.save()
    return table_open(stake)


def seat(user: Any, table: Table, cents: int = 1000, number: int | None = None) -> None:
    seat_take(user, table, cents, seat_number=number)


def running_hand(table: Table, timeout: float = 20) -> Hand:
    """The hand the ticker deals once the players sit (waits for it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        hand = Hand.objects.filter(table=table, status=HandStatus.RUNNING).first()
        if hand is not None and hand.acting_seat is not None:
            return hand
        time.sleep(0.1)
    raise AssertionError("no hand started")


def check_or_call_down(table: Table, users: dict[int, Any]) -> Hand:
    """Play the running hand to its end with every player checking or calling (through ``hand_act``)."""
    hand = running_hand(table)
    while True:
        hand.refresh_from_db()
        if hand.status != HandStatus.RUNNING:
            return hand
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        assert hand.acting_seat is not None
        hand_act(table, users[hand.acting_seat], "check" if legal.check else "call")


def act_until_seat_acts(table: Table, users: dict[int, Any], seat_number: int, timeout: float = 20) -> Hand:
    """Check or call for the other players (through ``hand_act``) until ``seat_number`` is to act in the running
    hand."""
    deadline = time.monotonic() + timeout
    hand = running_hand(table)
    while time.monotonic() < deadline:
        hand.refresh_from_db()
        assert hand.status == HandStatus.RUNNING, "the hand ended before the seat's turn"
        if hand.acting_seat == seat_number:
            return hand
        if hand.acting_seat is None:
            time.sleep(0.1)
            continue
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        hand_act(table, users[hand.acting_seat], "check" if legal.check else "call")
    raise AssertionError(f"seat {seat_number} never came to act")


def in_thread(call: Callable[[], T]) -> T:
    """Run ``call`` in a worker thread (its own database connection) and return its result."""
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # handed back to the test thread
            outcome["error"] = error
        finally:
            connection.close()

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(60)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]


def start_the_scheduled_tournament_now(tournament: Any) -> None:
    """Bring a scheduled tournament's start to now, once the test has registered everyone and opened their pages: the
    coordinator (Celery beat, every ``TOURNAMENT_TICK_SECONDS``) starts it at its next tick. The test waits for that,
    not for a start time chosen long enough for the registrations to be done on a loaded machine (issue 26)."""
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())


def tournament_started(tournament: Any, timeout: float = 180) -> None:
    """Wait until the coordinator has started ``tournament`` (its players seated at tables). The beat and the worker
    share a loaded machine with the rest of the suite, so this allows minutes; on a timeout it says where the
    tournament stands, which tells a slow coordinator from a page that was never told."""
    from tournaments.models import EntryStatus, Tournament, TournamentEntry

    deadline = time.monotonic() + timeout
    while True:
        seated = TournamentEntry.objects.filter(
            tournament=tournament, status=EntryStatus.PLAYING, table__isnull=False
        ).count()
        if seated:
            return
        if time.monotonic() > deadline:
            current = Tournament.objects.get(pk=tournament.pk)
            raise AssertionError(
                f"the tournament did not start within {timeout:.0f} s: status {current.status}, "
                f"starts at {current.starts_at.isoformat()}, now {timezone.now().isoformat()}"
            )
        time.sleep(0.2)
