"""Issue 27, step 4: while a table actor holds a hand in memory, services still write some events of the table
durably (a chat line, a seat change): such an event is numbered above every event the actor published so far, and
the actor's later events above it, so the hand's end writes every event at the number it was published with and the
table's log stays one stream without a gap or a number used twice."""

from __future__ import annotations

import pytest

from games.chat.services import chat_message_post
from games.models import HandEvent, HandStatus
from tests.tables.held_hands import held_hand
from tests.tables.support import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_chat_line_in_the_middle_of_an_actors_hand_takes_the_next_number_after_the_published_events() -> None:
    held = held_hand(players=3, seed=21)
    held.move()
    held.move()
    before_chat = held.logged()
    assert before_chat

    chat_sequence = chat_message_post(held.users[0], held.table, "good luck", now=held.now)

    assert chat_sequence == before_chat[-1] + 1
    assert fresh(held.table).last_sequence == chat_sequence  # durable: the log's events are not in the table yet
    ended = held.play_to_the_end()
    assert ended.hand_ended is not None
    assert ended.hand_ended.status == HandStatus.FINISHED
    after_chat = held.logged()[len(before_chat) :]
    assert after_chat[0] == chat_sequence + 1

    rows = list(HandEvent.objects.filter(table=held.table).order_by("sequence"))
    assert [row.sequence for row in rows] == list(range(1, len(rows) + 1))
    by_number = {row.sequence: row for row in rows}
    assert by_number[chat_sequence].kind == "chat_message"
    published = [event for outcome in held.outcomes for event in outcome.events]
    assert [by_number[number].kind for number in held.logged()] == [event.kind for event in published]
    assert fresh(held.table).last_sequence == rows[-1].sequence
