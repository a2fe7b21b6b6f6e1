"""With table actors on (``TABLE_ACTORS``, issue 27 step 3), the table commands that change a table in play go to the
table's stream like actions, and its owner runs them between two messages of the hand it holds: a player who leaves
mid-hand (CASH-08) is answered ``ok``, folds when their turn comes and is gone when the hand ends with their stack in
their balance; a sit-out (CASH-16) takes effect after the hand; a command from a player without a seat is refused with
the durable path's code and message; a lost and a restored connection reported by a socket (CASH-22) are recorded by
the owner in the hand it holds and written with the hand's end, at the numbers they were published with; and the
ledger reconciles (``wallet_reconcile``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from games.models import Hand, HandEvent, HandStatus, Seat, SeatStatus, Table
from games.runtime import commands
from games.runtime.protocol import ClientMessage
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import cash, open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)

BUY_IN = 1_000


def test_leave_sit_out_and_a_connection_report_reach_the_owner_and_are_applied_with_its_hand(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(4)]
    seat_players(table, users, BUY_IN)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    stranger = player()

    with table_owner_running() as owner:
        hand_id = wait_for(lambda: Table.objects.get(pk=table.pk).current_hand_id, "the owner's first deal")

        def acting_seat() -> int | None:
            owned = owner.tables.get(table.pk)
            live = owned.actor.live if owned is not None else None
            in_play = live is not None and live.hand.pk == hand_id and not live.state.is_complete
            return live.hand.acting_seat if in_play and live is not None else None

        first = wait_for(acting_seat, "the first player to act")
        participants = Hand.objects.get(pk=hand_id).participants
        others = [int(number) for number in sorted(participants, key=int) if int(number) != first]
        leaver, sitter = by_seat[others[0]], by_seat[others[1]]
        leaver_cash = cash(leaver)

        assert commands.execute(leaver, table, ClientMessage("leave")) == {}
        assert commands.execute(sitter, table, ClientMessage("sit_out")) == {}
        with pytest.raises(commands.CommandRefused) as refused:
            commands.execute(stranger, table, ClientMessage("sit_out"))
        with pytest.raises(commands.CommandRefused) as durable:
            commands.execute_durably(stranger, table, ClientMessage("sit_out"))
        assert (refused.value.code, refused.value.message) == (durable.value.code, durable.value.message)
        assert Seat.objects.get(table=table, user=leaver).leave_after_hand  # durable at once, the fold is the hand's
        assert Hand.objects.get(pk=hand_id).status == HandStatus.RUNNING

        def recorded_in_the_hand() -> Any:
            live = owner.tables[table.pk].actor.live
            return live.seats[first].disconnected_since if live is not None else "no hand held"

        commands.connection_lost(by_seat[first], table)  # a socket's report: posted, not waited for
        wait_for(lambda: recorded_in_the_hand() not in (None, "no hand held"), "the owner recording the lost report")
        assert Seat.objects.get(table=table, user=by_seat[first]).disconnected_since is None  # written at the end
        commands.connection_restored(by_seat[first], table)
        wait_for(lambda: recorded_in_the_hand() is None, "the owner recording the restored connection")

        while (seat := acting_seat()) is not None:
            assert seat != others[0], "a player who left is folded, never asked to act"
            live = owner.tables[table.pk].actor.live
            legal = live.state.legal_actions() if live is not None else None
            action = "check" if legal is not None and legal.check else "call"
            commands.execute(by_seat[seat], table, ClientMessage("act", {"action": action, "hand_id": hand_id}))
        wait_for(lambda: Hand.objects.filter(pk=hand_id, status=HandStatus.FINISHED).exists(), "the hand's end")
        assert not Seat.objects.filter(table=table, user=leaver).exists()
        assert Seat.objects.get(table=table, user=sitter).status == SeatStatus.SITTING_OUT
        hand = Hand.objects.get(pk=hand_id)
        lost = next(
            player.start_stack - player.end_stack for player in hand.players.all() if player.user_id == leaver.pk
        )
        assert cash(leaver) == leaver_cash + BUY_IN - lost
        reports = HandEvent.objects.filter(
            table=table, kind__in=("seat_disconnected", "seat_reconnected"), payload__seat=first
        ).order_by("sequence")
        assert [event.kind for event in reports] == ["seat_disconnected", "seat_reconnected"]
        assert Seat.objects.get(table=table, user=by_seat[first]).disconnected_since is None

    call_command("wallet_reconcile")
