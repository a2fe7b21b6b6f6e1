"""With table actors on (issue 27 step 3), the table's owner refuses an action that may not be taken — out of turn,
illegal for the engine, from a player without a seat, for another hand, at a table with no hand in play — with the
same code and message the per-action durable path (``hands.hand_act``) gives, and the refusal reaches the caller of
``commands.execute`` unchanged as a ``CommandRefused``; nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat, Table
from games.runtime import commands
from games.runtime.commands import CommandRefused, service_call
from games.runtime.hands import hand_act
from games.runtime.protocol import ClientMessage
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)


def durable_refusal(table: Table, user: Any, fields: dict[str, Any]) -> tuple[str, str]:
    """The refusal ``hand_act`` gives. It refuses every action on a hand an owner holds in memory (the rows hold the
    hand as it was dealt, which is all it could judge by): here nothing has been applied yet, so the rows are the hand
    as the owner holds it, and the mark is lifted while the durable path judges (it refuses, so it writes nothing)."""
    held = Table.objects.filter(pk=table.pk, hand_held_in_memory=True).update(hand_held_in_memory=False)
    try:
        with pytest.raises(CommandRefused) as refused:
            service_call(hand_act, table, user, fields["action"], fields.get("amount"), hand_id=fields.get("hand_id"))
    finally:
        if held:
            Table.objects.filter(pk=table.pk).update(hand_held_in_memory=True)
    return refused.value.code, refused.value.message


def streamed_refusal(table: Table, user: Any, fields: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(CommandRefused) as refused:
        commands.execute(user, table, ClientMessage("act", fields))
    return refused.value.code, refused.value.message


def test_refusals_through_the_stream_carry_the_durable_paths_codes_and_messages(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    quiet = open_table("holdem", "NL10")  # one player: no hand is ever in play there
    alone = player()
    seat_players(quiet, [alone], 1_000)
    stranger = player()
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}

    with table_owner_running() as owner:
        hand_id = wait_for(lambda: Table.objects.get(pk=table.pk).current_hand_id, "the owner's first deal")
        wait_for(lambda: quiet.pk in owner.tables and owner.tables[quiet.pk].ready, "the quiet table owned")
        # The deal is committed before the owner holds the hand in memory: wait for that too (a loaded machine once
        # read the owner between the two).
        live = wait_for(lambda: owner.tables[table.pk].actor.live, "the owner holding the dealt hand")
        acting = live.hand.acting_seat
        assert acting is not None
        waiting = next(number for number in by_seat if number != acting)
        # Nothing has been applied yet, so the durable path sees the hand as the owner holds it.
        cases: list[tuple[Table, Any, dict[str, Any], str]] = [
            (table, by_seat[waiting], {"action": "fold"}, "not_your_turn"),
            (table, by_seat[acting], {"action": "check"}, "illegal_action"),  # facing the big blind
            (table, by_seat[acting], {"action": "raise_to", "amount": 15}, "illegal_action"),  # under a min raise
            (table, stranger, {"action": "fold"}, "not_seated"),
            (table, by_seat[acting], {"action": "fold", "hand_id": hand_id + 1000}, "not_your_turn"),
            (quiet, alone, {"action": "check"}, "not_your_turn"),  # no hand in play
            (quiet, stranger, {"action": "check"}, "not_seated"),
        ]
        for where, user, fields, code in cases:
            expected = durable_refusal(where, user, fields)
            assert expected[0] == code, (fields, expected)
            assert streamed_refusal(where, user, fields) == expected, fields
        # Nothing changed: the player to act still may, and does.
        assert owner.tables[table.pk].actor.live is live
        assert live.hand.acting_seat == acting
        assert commands.execute(by_seat[acting], table, ClientMessage("act", {"action": "fold"})) == {}
