"""Chat at an Ultimate Texas Hold'em table (UTH-33, issue 22): seated players chat with each other over the table
socket; a line is a numbered public event stored with the round in play (resync brings it back); watchers read but do
not write; refused lines reach the sender alone and store nothing; the moderation warns, then disables the chat."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.chat.errors import ChatRefused
from games.uth.models import UthEvent, UthTable
from games.uth.services import uth_chat_message_post, uth_seat_leave, uth_seat_take
from games.uth.services.chat import uth_chat_of_round
from poker_site.accounts.models import User

from .conftest import Clock, current_round
from .sockets import open_socket, run

pytestmark = pytest.mark.usefixtures("clean_cache")


def chat_texts(table: UthTable) -> list[str]:
    return [row.payload["text"] for row in UthEvent.objects.filter(table=table, kind="chat_message")]


@pytest.mark.django_db
def test_a_seated_players_line_is_stored_with_the_round_in_play(
    table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    anne = make_player("anne")
    uth_seat_take(anne, table.pk, now=clock.now)
    assert clock.tick() == 1  # the betting time opens a round
    round_ = current_round(table)
    before = UthTable.objects.get(pk=table.pk).last_sequence
    sequence = uth_chat_message_post(anne, table.pk, "  good luck, dealer  ")
    assert sequence == before + 1
    event = UthEvent.objects.get(table=table, sequence=sequence)
    assert (event.kind, event.round_id) == ("chat_message", round_.pk)
    assert event.payload == {"user_id": anne.pk, "name": "anne", "text": "good luck, dealer"}
    assert [line["text"] for line in uth_chat_of_round(round_.pk)] == ["good luck, dealer"]


@pytest.mark.django_db
@pytest.mark.parametrize(("text", "code"), [(" ", "chat_empty"), ("a\rb", "chat_control_characters")])
def test_a_refused_line_stores_nothing(
    table: UthTable, clock: Clock, make_player: Callable[..., User], text: str, code: str
) -> None:
    anne = make_player("anne")
    uth_seat_take(anne, table.pk, now=clock.now)
    before = UthTable.objects.get(pk=table.pk).last_sequence
    with pytest.raises(ChatRefused) as refused:
        uth_chat_message_post(anne, table.pk, text)
    assert refused.value.code == code
    assert UthTable.objects.get(pk=table.pk).last_sequence == before
    assert chat_texts(table) == []


@pytest.mark.django_db
def test_a_watcher_or_a_player_who_left_cannot_chat(
    table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    anne, walter = make_player("anne"), make_player("walter")
    uth_seat_take(anne, table.pk, now=clock.now)
    uth_seat_leave(anne, table.pk, now=clock.now)
    for user in (anne, walter):
        with pytest.raises(ChatRefused) as refused:
            uth_chat_message_post(user, table.pk, "hello")
        assert refused.value.code == "chat_not_seated"
    assert chat_texts(table) == []


@pytest.mark.django_db
def test_offensive_language_is_warned_then_the_chat_is_disabled(
    table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    """UTH-33: abuse of the host or players → a warning; the warning ignored → chat disabled."""
    anne = make_player("anne")
    uth_seat_take(anne, table.pk, now=clock.now)
    with pytest.raises(ChatRefused) as warned:
        uth_chat_message_post(anne, table.pk, "the dealer is an idiot")
    assert warned.value.code == "chat_warning"
    with pytest.raises(ChatRefused) as disabled:
        uth_chat_message_post(anne, table.pk, "Idiot!")
    assert disabled.value.code == "chat_muted"
    with pytest.raises(ChatRefused):
        uth_chat_message_post(anne, table.pk, "a polite line")
    assert chat_texts(table) == []


@pytest.mark.django_db(transaction=True)
def test_two_players_chat_over_their_sockets_and_a_visitor_reads(
    table: UthTable, make_player: Callable[..., User]
) -> None:
    anne, bert = make_player("anne"), make_player("bert")

    async def scenario() -> None:
        sockets = {}
        for player in (anne, bert):
            socket, _snapshot = await open_socket(table.pk, player)
            assert (await socket.answer({"type": "take_seat"}))["type"] == "ok"
            sockets[player.username] = socket
        visitor, visitor_snapshot = await open_socket(table.pk)
        since = visitor_snapshot["sequence"]
        ok = await sockets["anne"].answer({"type": "chat", "text": "<script>alert(1)</script>"})
        assert ok["type"] == "ok"
        for socket in (*sockets.values(), visitor):
            line = await socket.event("chat_message")
            assert (line["sequence"], line["name"], line["text"]) == (
                ok["sequence"],
                "anne",
                "<script>alert(1)</script>",
            )
        refused = await visitor.answer({"type": "chat", "text": "may I?"})
        assert refused["code"] == "not_authenticated"
        empty = await sockets["bert"].answer({"type": "chat", "text": ""})
        assert empty["code"] == "chat_empty"
        assert await sockets["anne"].communicator.receive_nothing(0.5)
        await visitor.send({"type": "resync", "since": since, "request_id": "again"})
        resync = await visitor.until(lambda reply: reply.get("request_id") == "again")
        assert "<script>alert(1)</script>" in [event.get("text") for event in resync.get("events", [])]
        # A page opened later finds the conversation so far in its snapshot.
        latecomer, latecomer_snapshot = await open_socket(table.pk)
        assert [line["text"] for line in latecomer_snapshot["snapshot"]["chat"]] == ["<script>alert(1)</script>"]
        for socket in (*sockets.values(), visitor, latecomer):
            await socket.close()

    run(scenario)
    assert chat_texts(table) == ["<script>alert(1)</script>"]


@pytest.mark.django_db
def test_the_staff_round_page_shows_the_rounds_chat_escaped(
    table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    from poker_site.accounts.roles import SUPPORT_STAFF
    from tests.foundation.staff_roles import staff_member
    from tests.tables.back_office import logged_in

    anne = make_player("anne")
    uth_seat_take(anne, table.pk, now=clock.now)
    assert clock.tick() == 1
    uth_chat_message_post(anne, table.pk, "<script>alert(1)</script>")
    page = logged_in(staff_member(SUPPORT_STAFF)).get(f"/admin/uth/uthround/{current_round(table).pk}/change/")
    text = page.content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<script>alert(1)</script>" not in text
