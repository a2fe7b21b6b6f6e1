"""Helpers for the tests of hands held in memory by a table actor (issue 27, steps 3 and 4): a table with players and
an actor that has dealt, moves made through the actor, and what the realtime layer was asked to publish."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest

from games.models import Seat, Table
from games.runtime.actor import DealNext, Outcome, TableActor
from games.runtime.play import PlayerAction
from tests.tables.support import START, fresh, open_table, player, seat_players


@dataclass
class HeldHand:
    """A table whose actor has dealt a hand it holds in memory; ``now`` moves on a second per move."""

    table: Table
    users: list[Any]
    actor: TableActor
    by_seat: dict[int, Any]
    now: datetime
    durable_before_deal: int
    outcomes: list[Outcome] = field(default_factory=list)

    def move(self) -> Outcome:
        """The player to act checks if they may, else calls."""
        live = self.actor.live
        assert live is not None, "no hand in play"
        legal = live.state.legal_actions()
        assert legal is not None
        assert live.hand.acting_seat is not None
        self.now += timedelta(seconds=1)
        user = self.by_seat[live.hand.acting_seat]
        outcome = self.actor.handle(PlayerAction(user.pk, "check" if legal.check else "call"), self.now)
        assert outcome.refused is None, outcome.refused
        self.outcomes.append(outcome)
        return outcome

    def play_to_the_end(self) -> Outcome:
        while True:
            outcome = self.move()
            if outcome.hand_ended is not None:
                return outcome

    def logged(self) -> list[int]:
        """The sequence numbers the actor logged and published, in order."""
        return [number for outcome in self.outcomes for number in outcome.sequences]


def held_hand(players: int = 3, seed: int = 5, game: str = "holdem", label: str = "NL10") -> HeldHand:
    table = open_table(game, label)
    users = [player() for _ in range(players)]
    seat_players(table, users, 1_000)
    durable_before_deal = fresh(table).last_sequence
    actor = TableActor(table.pk, shuffler=lambda: random.Random(seed))
    now = START + timedelta(minutes=1)
    dealt = actor.handle(DealNext(), now)
    assert dealt.hand_started is not None
    assert actor.live is not None
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    return HeldHand(table, users, actor, by_seat, now, durable_before_deal)


@dataclass
class Published:
    """Every range the realtime layer was asked to publish: (first, last, rows)."""

    ranges: list[tuple[int, int, list[Any]]] = field(default_factory=list)

    def rows(self) -> list[Any]:
        return [row for _first, _last, rows in self.ranges for row in rows]


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> Published:
    """Record the ranges handed to ``realtime.table_events_committed`` (after a commit, or by an actor as it applies
    a message) instead of publishing them."""
    from games.runtime import realtime

    record = Published()

    def table_events_committed(table_id: int, first: int, last: int, rows: Any = None) -> None:
        assert rows is not None, "the rows come along: the publisher reads nothing back"
        assert [row.sequence for row in rows] == list(range(first, last + 1))
        record.ranges.append((first, last, list(rows)))

    monkeypatch.setattr(realtime, "table_events_committed", table_events_committed)
    return record
