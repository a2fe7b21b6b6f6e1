"""A table chat line (issue 22) is a public event of the table's log: numbered with the table's sequence like every
event, stored with the hand in play (none between hands), announced after commit, and read back by the hand's chat
(the reviewers' replayer, FRD-04) and by resync."""

from __future__ import annotations

from typing import Any

import pytest

from games.chat.services import CHAT_EVENT, chat_message_post, chat_of_hand
from games.models import HandEvent, Table
from games.services import table_events_since
from tests.tables.support import deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_with_players() -> tuple[Table, list[Any]]:
    table = open_table()
    users = [player("anne"), player("bert"), player("cora")]  # three: a first hand is not dealt heads-up (CASH-06)
    seat_players(table, users, 1000)
    return table, users


def test_a_line_between_hands_is_an_event_of_the_table_without_a_hand(
    table_with_players: tuple[Table, list[Any]],
    announcements: list[tuple[Any, ...]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    table, (anne, _bert, _cora) = table_with_players
    before = Table.objects.get(pk=table.pk).last_sequence
    with django_capture_on_commit_callbacks(execute=True):
        sequence = chat_message_post(anne, table, "  good luck all  ")
    assert sequence == before + 1 == Table.objects.get(pk=table.pk).last_sequence
    row = HandEvent.objects.get(table=table, sequence=sequence)
    assert row.kind == CHAT_EVENT
    assert row.hand_id is None
    assert row.audience == "public"
    assert row.payload == {"user_id": anne.pk, "name": "anne", "seat": 1, "text": "good luck all"}
    assert ("events", table.pk, sequence, sequence) in announcements


def test_a_line_during_a_hand_is_stored_with_that_hand_and_read_back_with_it(
    table_with_players: tuple[Table, list[Any]],
) -> None:
    table, (anne, bert, _cora) = table_with_players
    hand = deal(table)
    chat_message_post(anne, table, "nice cards?")
    chat_message_post(bert, table, "<script>alert(1)</script>")
    lines = chat_of_hand(hand)
    assert [(line["name"], line["seat"], line["text"]) for line in lines] == [
        ("anne", 1, "nice cards?"),
        ("bert", 2, "<script>alert(1)</script>"),
    ]
    events = [event for event in table_events_since(table, 0, None) if event["type"] == CHAT_EVENT]
    assert [event["text"] for event in events] == ["nice cards?", "<script>alert(1)</script>"]
    assert all(event["hand_id"] == hand.pk for event in events)


def test_the_players_replay_of_the_hand_is_not_disturbed_by_chat(table_with_players: tuple[Table, list[Any]]) -> None:
    from games.runtime.history import hand_replay
    from tests.tables.support import fold_to_the_end

    table, (anne, _bert, _cora) = table_with_players
    hand = deal(table)
    chat_message_post(anne, table, "hello")
    fold_to_the_end(table)
    hand.refresh_from_db()
    replay = hand_replay(hand, anne)
    assert replay["steps"][-1]["kind"] == "result"
    assert all(step["kind"] != CHAT_EVENT for step in replay["steps"])
