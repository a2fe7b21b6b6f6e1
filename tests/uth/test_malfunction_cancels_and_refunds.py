"""A malfunction voids the round: cancelling refunds every stake placed in it — Ante, Blind, Trips and any Play —
with a reason in the audit trail (UTH-36, UTH-37, AMB-37, GEN-04)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.uth.errors import RoundNotChangeable, UthRefused
from games.uth.models import HandStatus, RecordKind, UthEvent, UthHand, UthTable
from games.uth.services import uth_bet_place, uth_decide, uth_round_cancel, uth_seat_take
from games.uth.services.common import bets_in_play_account
from poker_site.accounts.models import User
from wallet.models import AuditEntry
from wallet.services import ledger_reconcile

from .conftest import Clock, balance, current_round, ledger_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def betting(make_player: Callable[..., User], table: UthTable, clock: Clock) -> dict[str, User]:
    alice, bob = make_player("alice", 50_000), make_player("bob", 50_000)
    for player in (alice, bob):
        uth_seat_take(player, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 1_000, now=clock.now)
    uth_bet_place(alice, table.pk, "trips", 500, now=clock.now)
    uth_bet_place(bob, table.pk, "ante", 200, now=clock.now)
    return {"alice": alice, "bob": bob}


def test_uth_36_cancelling_during_betting_refunds_every_bet(
    betting: dict[str, User], table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    staff = make_player("floor-manager", 0)
    round_ = current_round(table)
    refunded = uth_round_cancel(round_.pk, reason="video feed lost", by=staff, now=clock.now)
    assert refunded == 2_500 + 400
    assert balance(betting["alice"]) == balance(betting["bob"]) == 50_000
    assert bets_in_play_account(round_).balance == 0
    round_.refresh_from_db()
    assert (round_.phase, round_.cancel_reason, round_.cancelled_by) == ("cancelled", "video feed lost", staff)
    assert set(UthHand.objects.values_list("status", flat=True)) == {HandStatus.REFUNDED}
    assert AuditEntry.objects.filter(action="uth_round_refund", actor=staff).count() == 2
    assert AuditEntry.objects.get(action="uth_round_cancel").reason == "video feed lost"
    # The cancellation, then the reveal of the round's server seed (issue 29: provably fair decks).
    kinds = list(UthEvent.objects.filter(round=round_).order_by("sequence").values_list("kind", flat=True))
    assert kinds[-2:] == ["round_cancelled", "deck_revealed"]
    assert ledger_reconcile() == []


@pytest.mark.parametrize("phase_ends", [0, 1, 2])
def test_amb_37_cancelling_after_the_deal_also_refunds_play_bets(
    betting: dict[str, User], table: UthTable, clock: Clock, phase_ends: int
) -> None:
    clock.tick(15)
    uth_decide(betting["alice"], table.pk, "play_4x", now=clock.now)
    for _ in range(phase_ends):
        clock.tick(10)
    round_ = current_round(table)
    assert round_.phase in ("preflop", "flop", "river")
    assert bets_in_play_account(round_).balance == 2_500 + 4_000 + 400
    uth_round_cancel(round_.pk, reason="shuffler malfunction", now=clock.now)
    assert balance(betting["alice"]) == balance(betting["bob"]) == 50_000
    refunds = UthHand.objects.get(player=betting["alice"]).records.filter(kind=RecordKind.REFUND)
    assert list(refunds.values_list("amount", flat=True)) == [6_500]
    assert ledger_reconcile() == []
    # The table carries on with a new round after the result pause.
    clock.tick(6)
    assert current_round(table).number == round_.number + 1


def test_a_settled_round_cannot_be_cancelled_and_a_reason_is_required(
    betting: dict[str, User], table: UthTable, clock: Clock
) -> None:
    round_ = current_round(table)
    before = ledger_state()
    with pytest.raises(UthRefused, match="reason is required"):
        uth_round_cancel(round_.pk, reason="  ", now=clock.now)
    assert ledger_state() == before
    for seconds in (15, 10, 10, 10):
        clock.tick(seconds)
    assert current_round(table).phase == "settled"
    before = ledger_state()
    with pytest.raises(RoundNotChangeable, match="already settled"):
        uth_round_cancel(round_.pk, reason="too late", now=clock.now)
    assert ledger_state() == before
