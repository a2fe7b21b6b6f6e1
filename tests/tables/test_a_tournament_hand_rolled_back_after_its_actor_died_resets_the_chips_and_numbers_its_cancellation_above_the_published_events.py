"""TRN-33 with table actors (issue 27, step 4): a tournament table's owner dies mid-hand with the hand's events
published from its hand log and none written. The recovery resets every chip count to the start of the hand, writes
the logged events at their numbers, numbers ``hand_cancelled`` above every number clients saw, clears the log, and the
ledger still reconciles."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from games.models import Hand, HandEvent, HandStatus, Seat
from games.runtime.actor import DealNext, TableActor
from games.runtime.hand_log import hand_log_rows_after
from games.runtime.play import PlayerAction
from games.runtime.recovery import hand_cancel
from tests.tables.support import START, fresh, player
from tests.tournaments.support import open_tables, sit_and_go
from tournaments.services import tournament_register
from wallet.services import ledger_reconcile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quiet_tournament_realtime")]


def test_a_tournament_hand_whose_actor_died_goes_back_to_the_start_of_hand_chips_trn_33(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = sit_and_go(seats=3)
    for index in range(3):
        tournament_register(player(), tournament, now=START, randomness=random.Random(index))
    (table,) = open_tables(tournament)
    chips_before = {seat.number: seat.chips for seat in Seat.objects.filter(table=table, user__isnull=False)}
    by_seat = {seat.number: seat.user_id for seat in Seat.objects.filter(table=table, user__isnull=False)}
    actor = TableActor(table.pk, shuffler=lambda: random.Random(2))
    now = START + timedelta(minutes=1)
    dealt = actor.handle(DealNext(), now)
    assert dealt.hand_started is not None
    hand_id = dealt.hand_started.pk
    seen: list[int] = []
    for _ in range(2):
        live = actor.live
        assert live is not None
        assert live.hand.acting_seat is not None
        legal = live.state.legal_actions()
        assert legal is not None
        now += timedelta(seconds=1)
        outcome = actor.handle(PlayerAction(by_seat[live.hand.acting_seat], "check" if legal.check else "call"), now)
        assert outcome.refused is None
        seen.extend(outcome.sequences)
    assert seen
    assert fresh(table).last_sequence < seen[0]
    del actor  # the owner dies

    with django_capture_on_commit_callbacks(execute=True):  # what runs after the commit: the log is cleared
        assert hand_cancel(hand_id, now=now + timedelta(seconds=10))

    assert Hand.objects.get(pk=hand_id).status == HandStatus.CANCELLED
    assert HandEvent.objects.get(table=table, kind="hand_cancelled").sequence == seen[-1] + 1
    assert (
        list(
            HandEvent.objects.filter(table=table, sequence__in=seen)
            .order_by("sequence")
            .values_list("sequence", flat=True)
        )
        == seen
    )  # written at the numbers the log gave them
    assert {seat.number: seat.chips for seat in Seat.objects.filter(table=table, user__isnull=False)} == chips_before
    assert not fresh(table).hand_held_in_memory
    assert hand_log_rows_after(table.pk, 0) == []
    assert ledger_reconcile() == []
