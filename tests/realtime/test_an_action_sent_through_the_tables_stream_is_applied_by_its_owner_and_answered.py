"""With table actors on (``TABLE_ACTORS``, issue 27 step 3), a player's ``act`` goes to the table's Redis stream; the
process that owns the table (``games.runtime.owner``) deals, applies it to the hand it holds in memory and answers
``ok`` on the request's reply key; the hand is written once, when it ends, with every action in order, the settlement
goes through the ledger (``wallet_reconcile`` passes), and the owner deals the next hand."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from games.models import Hand, HandEvent, HandStatus, Seat, Table
from games.runtime import commands
from games.runtime.protocol import ClientMessage
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import money_in_table_accounts, open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_owner_deals_applies_streamed_actions_answers_them_and_writes_the_hand_at_its_end(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    money_before = money_in_table_accounts()
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}

    with table_owner_running() as owner:
        hand_id = wait_for(lambda: Table.objects.get(pk=table.pk).current_hand_id, "the owner's first deal")
        durable_at_start = HandEvent.objects.filter(hand_id=hand_id).count()

        def acting_seat() -> int | None:
            owned = owner.tables.get(table.pk)
            live = owned.actor.live if owned is not None else None
            # A completed hand has nobody to act (the answer can come before the actor lets the hand go).
            return live.hand.acting_seat if live is not None and not live.state.is_complete else None

        first = wait_for(acting_seat, "the first player to act")
        assert commands.execute(by_seat[first], table, ClientMessage("act", {"action": "call"})) == {}
        assert acting_seat() != first  # applied before the answer came
        assert HandEvent.objects.filter(hand_id=hand_id).count() == durable_at_start  # in memory only
        folds = 0
        while (seat := acting_seat()) is not None:
            commands.execute(by_seat[seat], table, ClientMessage("act", {"action": "fold", "hand_id": hand_id}))
            folds += 1
        hand = wait_for(lambda: Hand.objects.filter(pk=hand_id, status=HandStatus.FINISHED).first(), "the hand's end")
        kinds = list(HandEvent.objects.filter(hand=hand).order_by("sequence").values_list("kind", flat=True))
        assert kinds.count("action_taken") == 1 + folds
        assert kinds[-1] == "hand_settled"
        wait_for(
            lambda: Hand.objects.filter(table=table).exclude(pk=hand_id).exists(), "the next hand dealt by the owner"
        )

    assert money_in_table_accounts() == money_before  # the blinds changed hands; no rake without a flop
    call_command("wallet_reconcile")
