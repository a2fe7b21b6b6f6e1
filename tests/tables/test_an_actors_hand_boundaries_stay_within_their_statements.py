"""The durable boundaries of a hand held in memory by a table actor (issue 27: the runtime's CPU per action is almost
all in them) stay within the statements they take now — a regression guard, not a timing: ``hand_begin`` locks the
table and seats, writes the hand row once (its first clock included), the players, the table and the first events
(the held-in-memory flag with them) and reads no catalog rows once the stake's terms are kept; ``hand_end`` writes
the hand once, the players' end stacks without reading them and the table's flag with the events. After a cash hand
the actor knows when the next one is dealt (the pause between hands), so its owner does not read the table for it
(CASH-23 and the settlement are checked by the tests of the actor and the property test of the two paths)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import HandPlayer, Seat
from games.runtime.actor import DealNext, TableActor
from games.runtime.play import PlayerAction
from tests.tables.support import START, fresh, open_table, player, seat_players

pytestmark = pytest.mark.django_db

HAND_BEGIN_STATEMENTS = 6
"""Table lock, seat locks, the hand, its players, the table, the events (with the table's counter and flag)."""
HAND_END_STATEMENTS = 13
"""Table and seat locks, the settlement (the rake account, the accounts' locks, the transfer), the hand, the players'
end stacks, the stacks read back, the seats' timebanks, the auto top-up settings, the table, the events."""


def _work(queries: CaptureQueriesContext) -> list[str]:
    """The statements that do work (a test's savepoints around each transaction are not counted)."""
    return [
        query["sql"]
        for query in queries.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT"))
    ]


def _play_a_hand(actor: TableActor, users_by_seat: dict[int, Any], now: Any) -> tuple[list[str], list[str], Any]:
    with CaptureQueriesContext(connection) as begin:
        dealt = actor.handle(DealNext(), now)
    assert dealt.hand_started is not None
    end: CaptureQueriesContext | None = None
    outcome = None
    while actor.live is not None:
        now += timedelta(seconds=1)
        live = actor.live
        legal = live.state.legal_actions()
        assert legal is not None
        assert live.hand.acting_seat is not None
        action = PlayerAction(users_by_seat[live.hand.acting_seat].pk, "check" if legal.check else "call")
        end = CaptureQueriesContext(connection)
        with end:
            outcome = actor.handle(action, now)
        assert outcome.refused is None
    assert end is not None
    assert outcome is not None
    assert outcome.hand_ended is not None
    return _work(begin), _work(end), now


def test_a_hand_begin_and_end_take_no_more_statements_than_they_do_now_and_read_no_catalog_or_players() -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(6)]
    seat_players(table, users, 1_000)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    actor = TableActor(table.pk, shuffler=lambda: random.Random(3))
    now = START + timedelta(minutes=1)
    _play_a_hand(actor, by_seat, now)  # the first hand reads the stake's terms and rules once

    begin, end, now = _play_a_hand(actor, by_seat, now + timedelta(seconds=5))

    assert len(begin) <= HAND_BEGIN_STATEMENTS, begin
    assert len(end) <= HAND_END_STATEMENTS, end
    assert not [sql for sql in begin if '"games_staketerms"' in sql or '"games_gamerules"' in sql]
    assert sum(sql.startswith('UPDATE "games_hand" ') for sql in begin) == 0  # the hand row is inserted with its clock
    assert sum(sql.startswith('UPDATE "games_hand" ') for sql in end) == 1  # its fields and its closing, once
    assert not [sql for sql in end if sql.startswith("SELECT") and '"games_handplayer"' in sql]
    hand = HandPlayer.objects.filter(hand__table=table).order_by("-hand_id").first()
    assert hand is not None
    assert set(HandPlayer.objects.filter(hand_id=hand.hand_id).values_list("end_stack", flat=True)) != {None}


def test_after_a_cash_hand_the_actor_knows_when_the_next_is_dealt_as_the_table_says() -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    actor = TableActor(table.pk, shuffler=lambda: random.Random(4))

    _begin, _end, ended_at = _play_a_hand(actor, by_seat, START + timedelta(minutes=1))

    known, deal_at = actor.next_deal_take()
    assert known
    assert deal_at is not None
    assert deal_at == fresh(table).next_hand_at
    assert deal_at > ended_at  # the pause between hands
    assert actor.next_deal_take() == (False, None)  # told once per hand end
