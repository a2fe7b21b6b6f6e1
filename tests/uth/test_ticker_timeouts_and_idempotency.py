"""The ``uth`` ticker handler with an injected clock: automatic CHECK, automatic FOLD at the last decision, early
advance once everyone has decided, compare-and-swap idempotency, pause and resume (UTH-10..UTH-12, UTH-36)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from games.uth.models import HandStatus, RecordKind, UthEvent, UthHand, UthTable
from games.uth.services import (
    REVEAL_PAUSE,
    uth_bet_place,
    uth_betting_close,
    uth_decide,
    uth_phase_end,
    uth_round_pause,
    uth_round_resume,
    uth_seat_take,
)
from games.uth.ticks import advance_uth_tables
from poker_site.accounts.models import User
from poker_site.core.ticker import handlers

from .conftest import Clock, balance, current_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealt(make_player: Callable[..., User], table: UthTable, clock: Clock) -> dict[str, User]:
    """Alice and Bob have bet €10 Ante each; the cards are dealt (player Ah 9h, dealer Kc Kd, board 2h 5h Jh 7c 3s)."""
    alice, bob = make_player("alice", 50_000), make_player("bob", 50_000)
    for player in (alice, bob):
        uth_seat_take(player, table.pk, now=clock.now)
    clock.tick()
    for player in (alice, bob):
        uth_bet_place(player, table.pk, "ante", 1_000, now=clock.now)
    clock.rig("Ah 9h Kc Kd 2h 5h Jh 7c 3s")
    clock.tick(15)
    assert current_round(table).phase == "preflop"
    return {"alice": alice, "bob": bob}


def labels(player: User) -> list[str]:
    return [item["label"] for item in UthHand.objects.get(player=player).decisions]


def test_the_handler_is_registered_with_the_ticker_as_uth() -> None:
    assert handlers["uth"] is advance_uth_tables


def test_uth_10_nothing_happens_before_the_decision_time_is_over(
    dealt: dict[str, User], table: UthTable, clock: Clock
) -> None:
    assert clock.tick(9.9) == 0
    assert current_round(table).phase == "preflop"
    assert labels(dealt["alice"]) == []


def test_uth_10_11_12_auto_check_before_and_after_the_flop_then_auto_fold_after_the_river(
    dealt: dict[str, User], table: UthTable, clock: Clock
) -> None:
    alice = dealt["alice"]
    assert clock.tick(10) == 1
    assert labels(alice) == ["AUTO CHECKED"]
    assert current_round(table).phase == "flop"
    assert clock.tick(10) == 1
    assert labels(alice) == ["AUTO CHECKED", "AUTO CHECKED"]
    assert clock.tick(10) == 1
    assert labels(alice) == ["AUTO CHECKED", "AUTO CHECKED", "AUTO FOLDED"]
    hand = UthHand.objects.get(player=alice)
    assert (hand.status, hand.folded, hand.result_row) == (HandStatus.SETTLED, True, "player_folds")
    assert balance(alice) == 50_000 - 2_000
    records = UthHand.objects.get(player=alice).records.filter(kind=RecordKind.AUTOMATIC_DECISION)
    assert list(records.values_list("phase", "decision")) == [
        ("preflop", "check"),
        ("flop", "check"),
        ("river", "fold"),
    ]


def test_a_phase_ends_early_once_everyone_has_decided_and_the_cards_were_shown_long_enough(
    dealt: dict[str, User], table: UthTable, clock: Clock
) -> None:
    uth_decide(dealt["alice"], table.pk, "play_4x", now=clock.now)
    uth_decide(dealt["bob"], table.pk, "play_3x", now=clock.now)
    assert clock.tick(REVEAL_PAUSE.total_seconds() - 0.5) == 0
    assert clock.tick(0.5) == 1
    round_ = current_round(table)
    assert round_.phase == "flop"
    # Nobody has a decision left: the flop and the river only stay on the table for the reveal pause.
    assert round_.phase_deadline == clock.now + REVEAL_PAUSE
    assert clock.tick(REVEAL_PAUSE.total_seconds()) == 1
    assert clock.tick(REVEAL_PAUSE.total_seconds()) == 1
    assert current_round(table).phase == "settled"


def test_running_the_same_deadline_twice_advances_it_once(
    dealt: dict[str, User], table: UthTable, clock: Clock
) -> None:
    round_ = current_round(table)
    later = clock.now + timedelta(seconds=10)
    assert uth_phase_end(round_.pk, now=later) is True
    assert uth_phase_end(round_.pk, now=later) is False
    assert uth_betting_close(round_.pk, now=later) is False
    assert labels(dealt["alice"]) == ["AUTO CHECKED"]
    events = list(UthEvent.objects.filter(round=round_).values_list("kind", flat=True))
    assert events == ["round_opened", "deck_committed", "dealt", "flop"]  # issue 29: the commitment


def test_uth_36_a_paused_round_waits_and_resuming_gives_back_the_decision_time(
    dealt: dict[str, User], table: UthTable, clock: Clock
) -> None:
    round_ = current_round(table)
    left = round_.phase_deadline - clock.now
    clock.tick(4)
    uth_round_pause(round_.pk, reason="card reader fault", now=clock.now)
    assert clock.tick(60) == 0
    assert current_round(table).phase == "preflop"
    uth_round_resume(round_.pk, now=clock.now)
    resumed = current_round(table)
    assert resumed.phase_deadline == clock.now + (left - timedelta(seconds=4))
    assert clock.tick(5.9) == 0
    assert clock.tick(0.1) == 1
    kinds = list(UthEvent.objects.filter(round=round_).values_list("kind", flat=True))
    assert kinds[-3:] == ["round_paused", "round_resumed", "flop"]
