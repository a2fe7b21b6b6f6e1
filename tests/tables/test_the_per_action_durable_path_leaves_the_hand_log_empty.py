"""Issue 27, step 4: the hand log in Redis belongs to hands held in memory by table actors. A hand played on the
per-action durable path (``hand_start`` / ``hand_act``, today's live path) numbers its events from the table's row
alone, never asks the hand log for a number or clears it, and leaves it empty; a resync reads the durable rows."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import HandEvent
from games.runtime import hand_log, hands
from games.runtime.engine_state import hand_engine_state
from games.runtime.views import table_events_since
from poker_site.core.redis_clients import blocking_client
from tests.tables.support import act, current_hand, deal, fresh, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_a_hand_played_action_by_action_never_touches_the_hand_log(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*arguments: Any, **keywords: Any) -> None:
        raise AssertionError("the per-action path used the hand log")

    monkeypatch.setattr(hand_log, "hand_log_reserve", refused)
    monkeypatch.setattr(hand_log, "hand_log_append", refused)
    monkeypatch.setattr(hands, "hand_log_clear", refused)
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1_000)
    keys = (hand_log.log_key(table.pk), hand_log.counter_key(table.pk))

    hand = deal(table, seed=3)
    while (running := current_hand(table)) is not None:  # everyone checks or calls to the showdown
        assert not fresh(table).hand_held_in_memory
        assert not blocking_client().exists(*keys)
        legal = hand_engine_state(running).legal_actions()
        assert legal is not None
        act(table, "check" if legal.check else "call")

    assert HandEvent.objects.get(hand=hand, kind="hand_settled")
    assert not fresh(table).hand_held_in_memory
    assert not blocking_client().exists(*keys)
    rows = list(HandEvent.objects.filter(table=table).order_by("sequence").values_list("sequence", flat=True))
    assert [event["sequence"] for event in table_events_since(table, 0, None)] == rows
    assert rows == list(range(1, len(rows) + 1))
