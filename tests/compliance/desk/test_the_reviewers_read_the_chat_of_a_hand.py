"""Issue 22 (FRD-01, FRD-04): the chat posted at the table while a hand was in play is on the reviewers' replayer of
that hand and on the staff hand page, in order, with the seat and player, escaped: a ``<script>`` line shows as the
text it is."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.replay import review_replay
from games.chat.services import chat_message_post
from games.models import Hand, HandStatus
from tests.compliance.desk.support import player
from tests.conftest import delete_redis_keys_of_this_run
from tests.tables.back_office import logged_in
from tests.tables.support import check_or_call_down, deal, open_table, seat_players

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('chat')</script>"


@pytest.fixture
def chatted_hand() -> Hand:
    delete_redis_keys_of_this_run()  # the chat's rate windows
    table = open_table()
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    seat_players(table, [alice, bob, carol], 1_000)
    chat_message_post(alice, table, "before the hand")
    deal(table)
    chat_message_post(bob, table, "nice hand")
    chat_message_post(carol, table, SCRIPT)
    hand = check_or_call_down(table)
    assert hand.status == HandStatus.FINISHED
    chat_message_post(alice, table, "after the hand")
    return hand


def test_the_replayer_lists_the_chat_of_the_hand_only(chatted_hand: Hand, reviewer: Any) -> None:
    chat = review_replay(chatted_hand)["hand"]["chat"]
    assert [(line["seat"], line["name"], line["text"]) for line in chat] == [
        (2, "bob", "nice hand"),
        (3, "carol", SCRIPT),
    ]
    page = logged_in(reviewer).get(f"/compliance/hands/{chatted_hand.pk}/").content.decode()
    section = page[page.index('id="review-chat"') :]
    assert "nice hand" in section
    assert "&lt;script&gt;alert(&#x27;chat&#x27;)&lt;/script&gt;" in section
    assert SCRIPT not in page  # the replay's JSON escapes it too (json_script)
    assert "before the hand" not in section
    assert "after the hand" not in section


def test_the_staff_hand_page_shows_the_chat_escaped(chatted_hand: Hand, support_agent: Any) -> None:
    page = logged_in(support_agent).get(f"/admin/games/hand/{chatted_hand.pk}/change/").content.decode()
    assert "nice hand" in page
    assert "&lt;script&gt;alert(&#x27;chat&#x27;)&lt;/script&gt;" in page
    assert SCRIPT not in page
