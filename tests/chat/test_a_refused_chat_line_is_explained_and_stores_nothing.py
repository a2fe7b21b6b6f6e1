"""A chat line that breaks a rule (issue 22) is refused with a clear reason for the sender, and nothing is stored: no
event, no sequence number used, no rate-limit slot taken."""

from __future__ import annotations

from typing import Any

import pytest

from games.chat.errors import ChatRefused
from games.chat.rules import MAXIMUM_CHAT_CHARACTERS
from games.chat.services import chat_message_post
from games.models import HandEvent, Table
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_with_anne() -> tuple[Table, Any]:
    table = open_table()
    anne = player("anne")
    seat_players(table, [anne], 1000)
    return table, anne


def log_of(table: Table) -> tuple[int, int]:
    return Table.objects.get(pk=table.pk).last_sequence, HandEvent.objects.filter(table=table).count()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "chat_empty"),
        ("   \u00a0 ", "chat_empty"),
        ("two\nlines", "chat_control_characters"),
        ("tab\there", "chat_control_characters"),
        ("bell\x07", "chat_control_characters"),
        ("escape \x1b[31m red", "chat_control_characters"),
        ("disguised \u202etxt.exe", "chat_control_characters"),
        ("x" * (MAXIMUM_CHAT_CHARACTERS + 1), "chat_too_long"),
    ],
)
def test_a_line_that_breaks_a_rule_is_refused_and_nothing_is_stored(
    table_with_anne: tuple[Table, Any], text: str, code: str
) -> None:
    table, anne = table_with_anne
    before = log_of(table)
    with pytest.raises(ChatRefused) as refused:
        chat_message_post(anne, table, text)
    assert refused.value.code == code
    assert refused.value.message
    assert log_of(table) == before


def test_the_longest_line_and_emoji_sequences_are_accepted(table_with_anne: tuple[Table, Any]) -> None:
    table, anne = table_with_anne
    chat_message_post(anne, table, "y" * MAXIMUM_CHAT_CHARACTERS)
    chat_message_post(anne, table, "gg \U0001f468\u200d\U0001f469\u200d\U0001f467 õnne!")
    texts = [row.payload["text"] for row in HandEvent.objects.filter(table=table, kind="chat_message")]
    assert texts == ["y" * MAXIMUM_CHAT_CHARACTERS, "gg \U0001f468\u200d\U0001f469\u200d\U0001f467 õnne!"]


def test_a_watcher_without_a_seat_cannot_chat(table_with_anne: tuple[Table, Any]) -> None:
    """Decision (documented in docs/protocol.md): watchers read the chat but only seated players write (FRD-01)."""
    table, _anne = table_with_anne
    watcher = player("walter")
    before = log_of(table)
    with pytest.raises(ChatRefused) as refused:
        chat_message_post(watcher, table, "hi")
    assert refused.value.code == "chat_not_seated"
    assert log_of(table) == before


def test_a_refused_line_takes_no_slot_of_the_rate_limit(table_with_anne: tuple[Table, Any], settings: Any) -> None:
    table, anne = table_with_anne
    settings.CHAT_RATE_LINES = 1
    with pytest.raises(ChatRefused):
        chat_message_post(anne, table, "\x00")
    chat_message_post(anne, table, "the first accepted line")
    assert HandEvent.objects.filter(table=table, kind="chat_message").count() == 1
