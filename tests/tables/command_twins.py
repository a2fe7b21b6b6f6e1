"""Twin cash tables for the table commands a table owner runs during the hand it holds (issue 27, step 3): the same
seeds, stacks and moves at both; one played by the per-action durable path with each command run by the web process
(``commands.execute_durably``), the other by a :class:`~games.runtime.actor.TableActor` with each command sent to it
as the owner sends it (``owner.command_run`` in a ``TableCommand``). The clock (``django.utils.timezone.now``) is the
test's (the ``clock`` fixture of ``tests/tables/conftest.py``), so both paths see the same moments."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from games.models import Hand, HandStatus, Table
from games.runtime.actor import DealNext, Outcome, TableActor, TableCommand
from games.runtime.commands import CommandRefused, execute_durably, service_call
from games.runtime.owner import command_run
from games.runtime.play import PlayerAction
from games.runtime.protocol import ClientMessage
from games.services import hand_act, hand_start, hand_timeout
from tests.tables.support import open_table, player, seat_players
from tests.tables.twins import Pair, normalised, settled


@dataclass
class Clock:
    """The moment ``timezone.now()`` returns while the fixture is active."""

    now: datetime

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


@dataclass(frozen=True)
class Answer:
    """What a command gave back at one table: its result, or its refusal's code and message."""

    result: Any = None
    refusal: tuple[str, str] | None = None


class CommandTwins:
    """A durable table and its twin played by an actor, dealt the same hand (``seed``)."""

    def __init__(
        self, clock: Clock, players: int = 3, buy_in: int = 1_000, seed: int = 3, pair: Pair | None = None
    ) -> None:
        """Two cash tables of ``players`` with ``buy_in`` each, or the twin tables of ``pair`` (tournament tables)."""
        self.clock = clock
        if pair is None:
            tables = []
            for _ in range(2):
                table = open_table("holdem", "NL10")
                seat_players(table, [player() for _ in range(players)], buy_in)
                tables.append(table)
            pair = Pair(*tables)
        self.pair = pair
        self.durable, self.memory = self.pair.durable, self.pair.memory
        self.seed = seed
        self.actor = TableActor(self.memory.pk, shuffler=lambda: random.Random(self.seed))
        self.hand: Hand | None = None
        self.outcomes: list[Outcome] = []

    def user(self, table: Table, seat: int) -> Any:
        return self.pair.users[table.pk][seat]

    # --- Dealing and acting ----------------------------------------------------------------------------------------

    def deal(self) -> None:
        """Deal the next hand at both tables, once the pause after the last one is over."""
        pauses = Table.objects.filter(pk__in=(self.durable.pk, self.memory.pk)).values_list("next_hand_at", flat=True)
        self.clock.now = max([self.clock.now, *(pause for pause in pauses if pause is not None)])
        now = self.clock.advance(1)
        self.hand = hand_start(self.durable, now=now, shuffler=random.Random(self.seed))
        dealt = self.actor.handle(DealNext(), now)
        assert self.hand is not None
        assert dealt.hand_started is not None
        assert self.actor.live is not None

    def durable_hand(self) -> Hand:
        assert self.hand is not None
        return Hand.objects.get(pk=self.hand.pk)

    def acting_seat(self) -> int | None:
        """The seat to act, the same at both tables (asserted)."""
        live = self.actor.live
        memory = live.hand.acting_seat if live is not None else None
        durable = self.durable_hand()
        assert (durable.acting_seat if durable.status == HandStatus.RUNNING else None) == memory
        return memory

    def act(self, kind: str | None = None) -> Outcome:
        """The player to act takes ``kind`` (default: check if they may, else call) at both tables."""
        live = self.actor.live
        assert live is not None
        seat = live.hand.acting_seat
        assert seat is not None
        if kind is None:
            legal = live.state.legal_actions()
            assert legal is not None
            kind = "check" if legal.check else "call"
        now = self.clock.advance(2)
        hand_act(self.durable, self.user(self.durable, seat), kind, now=now)
        outcome = self.actor.handle(PlayerAction(self.user(self.memory, seat).pk, kind), now)
        assert outcome.refused is None, outcome.refused
        self.outcomes.append(outcome)
        return outcome

    def clock_due(self) -> Outcome:
        """The acting player's clock runs out at both tables: the ticker's ``hand_timeout`` at one, the actor's clock
        at the other (each asks the sockets' presence)."""
        live = self.actor.live
        assert live is not None
        assert live.hand.action_deadline is not None
        self.clock.now = max(self.clock.now, live.hand.action_deadline)
        assert hand_timeout(self.durable_hand().pk, now=self.clock.now)
        outcome = self.actor.clock(self.clock.now)
        assert outcome is not None
        assert outcome.changed
        self.outcomes.append(outcome)
        return outcome

    def play_to_the_end(self) -> None:
        while self.actor.live is not None:
            self.act()
        assert self.durable_hand().status == HandStatus.FINISHED

    # --- Commands --------------------------------------------------------------------------------------------------

    def command(self, seat: int, message_type: str, fields: dict[str, Any] | None = None) -> tuple[Answer, Answer]:
        """The player in ``seat`` sends ``message_type`` at both tables: run by the web process's durable path at one,
        through the actor at the other. Returns both answers (durable, memory)."""
        fields = fields or {}
        self.clock.advance(1)
        try:
            durable = Answer(
                execute_durably(self.user(self.durable, seat), self.durable, ClientMessage(message_type, fields))
            )
        except CommandRefused as refused:
            durable = Answer(refusal=(refused.code, refused.message))
        user_id = self.user(self.memory, seat).pk
        outcome = self.actor.handle(
            TableCommand(
                user_id, message_type, functools.partial(command_run, self.memory.pk, user_id, message_type, fields)
            ),
            self.clock.now,
        )
        self.outcomes.append(outcome)
        refused = outcome.command_refused
        if refused is not None:
            assert isinstance(refused, CommandRefused)
            return durable, Answer(refusal=(refused.code, refused.message))
        return durable, Answer(outcome.result)

    def connection(self, seat: int, connected: bool) -> tuple[Answer, Answer]:
        """The player in ``seat`` loses their last socket (or opens one again) at both tables."""
        from games.runtime.clocks import player_connection_lost, player_connection_restored

        report = player_connection_restored if connected else player_connection_lost
        self.clock.advance(1)
        durable = Answer(service_call(report, self.user(self.durable, seat), self.durable))
        message_type = "connection_restored" if connected else "connection_lost"
        user_id = self.user(self.memory, seat).pk
        outcome = self.actor.handle(
            TableCommand(
                user_id, message_type, functools.partial(command_run, self.memory.pk, user_id, message_type, {})
            ),
            self.clock.now,
        )
        self.outcomes.append(outcome)
        assert outcome.command_refused is None, outcome.command_refused
        return durable, Answer(outcome.result)

    def connection_in_memory(self, seat: int, connected: bool) -> tuple[Answer, Outcome, int]:
        """The player in ``seat`` loses their last socket (or opens one again) at both tables: the durable service at
        the durable table; at the actor's, a report whose service must not run (it fails the test if it does).
        Returns the durable answer, the actor's outcome and the number of statements the actor ran."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from games.runtime.clocks import player_connection_lost, player_connection_restored

        def the_durable_service_must_not_run() -> Any:
            raise AssertionError("the connection report ran its durable service")

        report = player_connection_restored if connected else player_connection_lost
        now = self.clock.advance(1)
        durable = Answer(service_call(report, self.user(self.durable, seat), self.durable))
        message_type = "connection_restored" if connected else "connection_lost"
        command = TableCommand(self.user(self.memory, seat).pk, message_type, the_durable_service_must_not_run)
        with CaptureQueriesContext(connection) as statements:
            outcome = self.actor.handle(command, now)
        self.outcomes.append(outcome)
        return durable, outcome, len(statements)

    # --- Comparing -------------------------------------------------------------------------------------------------

    def assert_alike(self) -> None:
        """The hand's events (from its first on, at the same numbers) and what it left at both tables are the same."""
        live_hand = Hand.objects.filter(table=self.memory).order_by("-number").first()
        assert live_hand is not None
        assert self.hand is not None
        assert normalised(self.pair, self.memory, live_hand) == normalised(self.pair, self.durable, self.hand)
        assert settled(self.memory, live_hand) == settled(self.durable, self.hand)


AWAY = 2
"""In :func:`tournament_twins_with_a_player_away`, the player with no socket when the first hand is dealt. The first
button is the highest seat (TRN-05), so seat 2 is the big blind, the last to act before the flop."""


def tournament_twins_with_a_player_away(
    clock: Clock, monkeypatch: Any, seed: int, players: int = 3
) -> tuple[CommandTwins, set[int]]:
    """Twin tournament tables whose player in seat :data:`AWAY` has no socket when the first hand is dealt (the
    sockets' presence is the test's: ``monkeypatch``), so both tables sit them out and deal them in, acted for
    (TRN-19); the hand is dealt. Returns the twins and the users without a socket (empty it to bring them back)."""
    from games.runtime import presence
    from tests.tables.twins import tournament_pair

    absent: set[int] = set()
    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: user_id not in absent)
    twins = CommandTwins(clock, seed=seed, pair=tournament_pair(players))
    absent.update(twins.user(table, AWAY).pk for table in (twins.durable, twins.memory))
    twins.deal()
    return twins, absent


def the_player_away_plays_their_own_turn_and_the_tables_end_alike(twins: CommandTwins) -> None:
    """After the player in seat :data:`AWAY` came back: play to their turn, which is theirs to act on, with their clock
    (no longer acted for, TRN-19), then to the hand's end; both tables end alike and the player is in play at both."""
    from games.models import Seat, SeatStatus

    while twins.acting_seat() not in (AWAY, None):
        twins.act()
    assert twins.acting_seat() == AWAY
    twins.play_to_the_end()
    twins.assert_alike()
    for table in (twins.durable, twins.memory):
        assert Seat.objects.get(table=table, number=AWAY).status != SeatStatus.SITTING_OUT
