"""Server-side set-up for the browser tests, done through the domain and wallet services before a browser opens.

Services publish to the channel layer after commit with ``async_to_sync``, which cannot run in the thread where
Playwright's loop runs; :func:`in_thread` runs a service call in a worker thread once the browser is open.

The browser tests' site plays its tables with table actors (issue 27, ``TABLE_ACTORS``), as the launched site does:
a hand in play is held in memory by the site's ``run_tables`` process, so its database row says only how it was dealt.
The helpers here read a hand as any web process shows it (:func:`hand_in_play`: the table's snapshot, made of the
durable rows and the owner's hand log) and act as a player's socket does (:func:`act`: the table command, which goes
to the table's owner and waits for its answer), so they work on either path.
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
from games.runtime.commands import execute
from games.runtime.protocol import ClientMessage
from games.runtime.views import table_events_since, table_snapshot
from games.services import seat_take, table_open
from tests.browser.flows import PASSWORD
from tests.waiting import eventually
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


def hand_in_play(table: Table) -> dict[str, Any] | None:
    """The hand in play at ``table`` as the table's snapshot shows it to a spectator (None between hands): its ``id``,
    ``acting_seat`` (None while nobody is to act), street, board, pots..."""
    view: dict[str, Any] | None = table_snapshot(table, None)["hand"]
    return view


def hand_events(table: Table, hand_id: int, kind: str) -> list[dict[str, Any]]:
    """The public events of ``kind`` in hand ``hand_id`` so far, oldest first, as a spectator receives them (the durable
    rows and the owner's hand log of a hand held in memory)."""
    return [
        event for event in table_events_since(table, 0, None) if event["hand_id"] == hand_id and event["type"] == kind
    ]


def legal_actions(table: Table, user: Any) -> dict[str, Any] | None:
    """What ``user`` may do now at ``table`` (their snapshot's legal actions; None when it is not their turn)."""
    legal: dict[str, Any] | None = table_snapshot(table, user)["viewer"]["legal_actions"]
    return legal


def act(table: Table, user: Any, action: str, amount: int | None = None) -> None:
    """``user`` acts at ``table`` as their socket's ``act`` message does (to the table's owner when actors play it);
    a refusal is raised as the ``CommandRefused`` the socket would answer."""
    fields: dict[str, Any] = {"action": action}
    if amount is not None:
        fields["amount"] = amount
    execute(user, table, ClientMessage("act", fields))


def running_hand(table: Table, timeout: float = 20) -> Hand:
    """The hand the site deals once the players sit (waits until someone is to act in it); its ``acting_seat`` is the
    one the snapshot shows (a hand held in memory has the dealt one in its row)."""

    def someone_to_act() -> dict[str, Any] | None:
        view = hand_in_play(table)
        return view if view is not None and view["acting_seat"] is not None else None

    view = eventually(someone_to_act, what="a hand dealt with someone to act", timeout=timeout)
    hand = Hand.objects.get(pk=view["id"])
    hand.acting_seat = view["acting_seat"]
    return hand


def check_or_call(table: Table, user: Any) -> None:
    """``user``, whose turn it is, checks when they may and calls otherwise."""
    legal = legal_actions(table, user)
    assert legal is not None, "it is not their turn"
    act(table, user, "check" if "check" in legal["kinds"] else "call")


def seat_to_act(table: Table, hand_id: int) -> int | None:
    """The seat to act in hand ``hand_id`` (waits while the hand runs with nobody to act); None once it ended."""

    def turn_or_end() -> tuple[int | None] | None:
        view = hand_in_play(table)
        if view is None or view["id"] != hand_id:
            return (None,)
        return (int(view["acting_seat"]),) if view["acting_seat"] is not None else None

    return eventually(turn_or_end, what=f"a turn or the end of hand {hand_id}")[0]


def check_or_call_down(table: Table, users: dict[int, Any]) -> Hand:
    """Play the running hand to its end with every player checking or calling (as their sockets would)."""
    hand = running_hand(table)
    while (acting := seat_to_act(table, hand.pk)) is not None:
        check_or_call(table, users[acting])
    return wait_until_ended(hand)


def wait_until_ended(hand: Hand) -> Hand:
    """``hand`` once its end is durable (its row settled)."""
    return eventually(
        lambda: Hand.objects.filter(pk=hand.pk).exclude(status=HandStatus.RUNNING).first(),
        what=f"the durable end of hand {hand.pk}",
    )


def act_until_seat_acts(table: Table, users: dict[int, Any], seat_number: int) -> Hand:
    """Check or call for the other players until ``seat_number`` is to act in the running hand."""
    hand = running_hand(table)
    while (acting := seat_to_act(table, hand.pk)) != seat_number:
        assert acting is not None, "the hand ended before the seat's turn"
        check_or_call(table, users[acting])
    hand.acting_seat = acting
    return hand


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
                f"starts at {current.starts_at.isoformat()}, now {timezone.now().isoformat()}, "
                f"{celery_tasks_waiting()} Celery tasks waiting for the worker"
            )
        time.sleep(0.2)


def celery_tasks_waiting() -> int:
    """How many tasks wait in the site's Celery queue (a backlog tells a worker slower than the beat from a start
    nobody was told of)."""
    import redis
    from django.conf import settings

    from poker_site.celery import app

    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"]
        return int(client.llen(f"{prefix}{app.conf.task_default_queue}"))
    finally:
        client.close()


def alice_to_act_heads_up(page: Any) -> tuple[Table, dict[int, Any]]:
    """A heads-up hand at a new NL10 table (alice in seat 1, bob in seat 4, €10.00 each) played until alice is to
    act, her table page open on ``page`` (logged in, live, her action buttons shown). Returns the table and the
    players by seat."""
    from tests.browser.flows import log_in, my_turn, wait_live

    table = heads_up_table()
    users = {1: player("alice"), 4: player("bob")}
    seat(users[1], table, 1000, number=1)
    seat(users[4], table, 1000, number=4)
    running_hand(table)
    log_in(page, "alice")
    page.goto(f"/games/tables/{table.pk}/")
    wait_live(page)
    in_thread(lambda: act_until_seat_acts(table, users, 1))
    my_turn(page)
    return table, users
