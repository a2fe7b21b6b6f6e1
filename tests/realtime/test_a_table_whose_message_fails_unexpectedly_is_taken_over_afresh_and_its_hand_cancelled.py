"""A server error while a table's owner applies a message (issue 27, step 3; CASH-23): the sender is answered
``server_error``, the owner gives the table up at once (what its actor holds can no longer be trusted), and the next
claim scan acquires it afresh with a later epoch: the takeover cancels the hand in progress with every stack back to
its start-of-hand amount, and play goes on with a new hand."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Hand, HandEvent, HandStatus, Seat, Table
from games.runtime import actor as actor_module
from games.runtime import commands
from games.runtime.commands import CommandRefused
from games.runtime.owner import SERVER_ERROR
from games.runtime.play import PlayerAction
from games.runtime.protocol import ClientMessage
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import open_table, player, seat_players, stack

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_failing_message_is_answered_server_error_and_the_hand_is_rolled_back_by_a_fresh_takeover(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TABLE_ACTORS = True
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    apply = actor_module.hand_apply

    def failing_on_all_in(live: Any, message: Any, now: Any) -> Any:
        if isinstance(message, PlayerAction) and message.action_type == "all_in":
            raise RuntimeError("a server error while applying the message")
        return apply(live, message, now)

    # Where the actor applies a message to its hand, on the owner's loop (an action) or in a database thread.
    monkeypatch.setattr(actor_module, "hand_apply", failing_on_all_in)

    with table_owner_running() as owner:
        hand_id = wait_for(lambda: Table.objects.get(pk=table.pk).current_hand_id, "the owner's first deal")
        epoch = Table.objects.get(pk=table.pk).owner_epoch
        live = owner.tables[table.pk].actor.live
        assert live is not None
        first = live.hand.acting_seat
        assert first is not None
        assert commands.execute(by_seat[first], table, ClientMessage("act", {"action": "call"})) == {}
        second = live.hand.acting_seat
        assert second is not None
        with pytest.raises(CommandRefused) as refused:
            commands.execute(by_seat[second], table, ClientMessage("act", {"action": "all_in"}))
        assert refused.value.code == SERVER_ERROR

        wait_for(lambda: Hand.objects.get(pk=hand_id).status == HandStatus.CANCELLED, "the hand's cancellation")
        assert HandEvent.objects.filter(hand_id=hand_id, kind="hand_cancelled").exists()
        assert Table.objects.get(pk=table.pk).owner_epoch == epoch + 1
        assert [stack(table, user) for user in users] == [1_000, 1_000, 1_000]
        wait_for(
            lambda: Hand.objects.filter(table=table, status=HandStatus.RUNNING).exclude(pk=hand_id).exists(),
            "the next hand",
        )
