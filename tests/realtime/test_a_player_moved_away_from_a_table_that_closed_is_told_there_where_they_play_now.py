"""A tournament table broken up (its last player moved to another table, TRN-25, TRN-26) is closed. A command that plays
at it, sent on its socket by the player moved away (a tab left open there, a client that missed the ``player_moved``
event), is refused at once with ``table_closed``, a sentence naming the table where they play now, and ``to_table``,
its id (``player_moved``'s field); a player who plays at no table now (knocked out, disqualified) is told only that the
table has closed. A player moved on again from a table that closed in turn is followed there. Nothing changes, and the
answer never waits for an owner (table actors on, a reply time far longer than the test waits)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.utils import translation

from games.cash.table_closing import table_close
from games.models import HandEvent, Seat, Table
from games.runtime.events import NewEvent, events_append
from games.runtime.locking import table_lock
from tests.realtime.broken_tournament_table import a_tournament_table_broken_up
from tests.realtime.conftest import open_socket, run
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)

OWNER_REPLY_SECONDS = 60.0
"""Far longer than the test waits for an answer: an answer that came from waiting for an owner fails."""

ANSWER_SECONDS = 5.0
"""How long the test waits for the answer."""


def what_could_change(tables: list[Table]) -> dict[int, Any]:
    return {
        table.pk: (
            list(HandEvent.objects.filter(table=table).values_list("sequence", "kind")),
            list(Seat.objects.filter(table=table).order_by("number").values_list("number", "user_id", "chips")),
            Table.objects.filter(pk=table.pk).values_list("status", flat=True).get(),
        )
        for table in tables
    }


def answer_to_sitting_out(table: Table, user: Any) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", user)
        try:
            await socket.send({"type": "sit_out", "request_id": "sit-out"})
            return await socket.receive_until(
                lambda message: message.get("request_id") == "sit-out", timeout=ANSWER_SECONDS
            )
        finally:
            await socket.close()

    with translation.override("en"):
        return run(scenario)


def test_the_player_moved_away_from_a_broken_table_is_pointed_to_the_table_they_play_at_trn_26(
    settings: Any,
) -> None:
    table = a_tournament_table_broken_up()
    broken, playing, moved, disqualified = table.broken, table.playing, table.moved, table.disqualified
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    before = what_could_change([broken, playing])

    told_the_moved = answer_to_sitting_out(broken, moved.user)
    told_the_disqualified = answer_to_sitting_out(broken, disqualified.user)

    assert (told_the_moved["type"], told_the_moved["code"]) == ("error", "table_closed")
    assert told_the_moved["message"] == f"This table has closed: you play on at {playing.name}."
    assert told_the_moved["to_table"] == playing.pk
    assert (told_the_disqualified["code"], told_the_disqualified["message"]) == (
        "table_closed",
        "This table has closed: nothing more is played here.",
    )
    assert "to_table" not in told_the_disqualified
    assert what_could_change([broken, playing]) == before


def test_a_player_moved_on_again_from_a_table_that_closed_in_turn_is_pointed_to_the_last_one(settings: Any) -> None:
    first, second, last = (open_table("holdem", "NL10") for _ in range(3))
    mover, other = player(), player()
    seat_players(last, [mover, other], 1_000)
    for source, destination in ((first, second), (second, last)):
        with transaction.atomic():
            events_append(
                table_lock(source.pk),
                [
                    NewEvent(
                        "player_moved", {"seat": 1, "status": "empty", "user_id": mover.pk, "to_table": destination.pk}
                    )
                ],
            )
        table_close(source, reason="Broken up.")
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    before = what_could_change([first, second, last])

    told = answer_to_sitting_out(first, mover)

    assert (told["code"], told["to_table"]) == ("table_closed", last.pk)
    assert told["message"] == f"This table has closed: you play on at {last.name}."
    assert what_could_change([first, second, last]) == before
