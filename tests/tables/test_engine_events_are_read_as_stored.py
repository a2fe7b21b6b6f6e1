"""A hand's engine state is rebuilt from exactly the engine events its log holds (architecture rule 4), read in one
statement without building a model instance per event."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine.events import EVENT_TYPES, event_to_dict
from games.models import HandEvent
from games.runtime.engine_state import hand_engine_events
from games.runtime.events import engine_event_from_stored
from games.services import hand_act
from tests.tables.support import START, acting_user, current_hand, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_the_engine_events_of_a_hand_are_those_of_its_log_in_order_without_the_other_kinds() -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    deal(table, seed=11)
    hand = current_hand(table)
    assert hand is not None
    hand_act(table, acting_user(table), "call", now=START)
    hand_act(table, acting_user(table), "raise_to", 60, now=START)

    rows = list(HandEvent.objects.filter(hand=hand).order_by("sequence"))
    assert {row.kind for row in rows} - set(EVENT_TYPES), "the log should also hold events the engine does not replay"
    expected = [engine_event_from_stored(row.kind, row.payload) for row in rows if row.kind in EVENT_TYPES]

    read = hand_engine_events(hand.pk)

    assert [event_to_dict(event) for event in read] == [event_to_dict(event) for event in expected]
    assert len(read) > 5


def test_reading_a_hand_s_engine_events_is_one_statement_and_another_hand_s_events_stay_out() -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    deal(table, seed=12)
    first = current_hand(table)
    assert first is not None
    other_table = open_table("holdem", "NL10")
    seat_players(other_table, [player() for _ in range(3)], 1_000)
    deal(other_table, seed=13)
    second = current_hand(other_table)
    assert second is not None

    with CaptureQueriesContext(connection) as queries:
        events = hand_engine_events(first.pk)

    assert len(queries.captured_queries) == 1
    stored = HandEvent.objects.filter(hand=first, kind__in=EVENT_TYPES).count()
    assert len(events) == stored
    assert len(hand_engine_events(second.pk)) == HandEvent.objects.filter(hand=second, kind__in=EVENT_TYPES).count()
    assert hand_engine_events(10**9) == []
