"""The chat's rate limit (issue 22): a player sends at most CHAT_RATE_LINES lines per CHAT_RATE_SECONDS over all their
tables, counted in Redis so that every web process shares the count; the next line is refused with the seconds to
wait, and other players are not affected."""

from __future__ import annotations

from typing import Any

import pytest

from games.chat.errors import ChatRefused
from games.chat.limits import rate_key
from games.chat.services import chat_message_post
from games.models import HandEvent
from poker_site.core.redis_clients import blocking_client
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_the_line_over_the_limit_is_refused_with_the_wait_and_not_stored(settings: Any) -> None:
    settings.CHAT_RATE_LINES = 3
    settings.CHAT_RATE_SECONDS = 30
    table, other_table = open_table(), open_table()
    anne, bert = player("anne"), player("bert")
    seat_players(table, [anne, bert], 1000)
    seat_players(other_table, [anne], 1000)
    chat_message_post(anne, table, "one")
    chat_message_post(anne, table, "two")
    chat_message_post(anne, other_table, "three, at another table")
    with pytest.raises(ChatRefused) as refused:
        chat_message_post(anne, table, "four")
    assert refused.value.code == "chat_rate_limited"
    assert 1 <= refused.value.details["retry_after"] <= 30
    assert not HandEvent.objects.filter(kind="chat_message", payload__text="four").exists()
    chat_message_post(bert, table, "bert has his own count")
    assert int(blocking_client().get(rate_key(anne.pk)) or 0) == 3


def test_the_window_ends_and_the_player_chats_again(settings: Any) -> None:
    settings.CHAT_RATE_LINES = 1
    table = open_table()
    anne = player("anne")
    seat_players(table, [anne], 1000)
    chat_message_post(anne, table, "one")
    with pytest.raises(ChatRefused):
        chat_message_post(anne, table, "two")
    blocking_client().delete(rate_key(anne.pk))  # the window's key expires at its end
    chat_message_post(anne, table, "two, later")
    assert HandEvent.objects.filter(table=table, kind="chat_message").count() == 2
