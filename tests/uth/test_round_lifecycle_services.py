"""A round through the services and the ticker with an injected clock: betting, dealing, decisions, timeouts and
settlement through the wallet (UTH-05..UTH-20, UTH-34, GEN-07)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.uth.models import HandStatus, RecordKind, UthBetRecord, UthHand, UthTable
from games.uth.services import uth_bet_place, uth_decide, uth_seat_take
from poker_site.accounts.models import User
from wallet.services import ledger_reconcile

from .conftest import Clock, balance, current_round

pytestmark = pytest.mark.django_db


def test_uth_34_the_ticker_opens_a_round_with_a_unique_game_number_showing_its_gmt_start(
    table: UthTable, clock: Clock
) -> None:
    assert clock.tick() == 1
    round_ = current_round(table)
    assert round_.phase == "betting"
    assert round_.game_number == f"{table.pk}-20260301-211010-1"
    assert round_.display_number == "21:10:10"
    assert (round_.ante_minimum, round_.trips_maximum) == (100, 2_500)
    assert clock.tick() == 0  # nothing is due: running the ticker again changes nothing


def test_a_betting_time_nobody_used_starts_again_without_dealing(table: UthTable, clock: Clock) -> None:
    clock.tick()
    first = current_round(table)
    assert clock.tick(15) == 1
    again = current_round(table)
    assert again.pk == first.pk
    assert again.phase == "betting"
    assert again.deck == ""
    assert again.display_number == "21:10:25"


def test_uth_08_to_20_a_round_with_three_players_is_dealt_decided_timed_out_and_settled(
    table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    alice, bob, carol = (make_player(name, 100_000) for name in ("alice", "bob", "carol"))
    for player in (alice, bob, carol):
        uth_seat_take(player, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(alice, table.pk, "ante", 1_000, now=clock.now)
    uth_bet_place(alice, table.pk, "trips", 500, now=clock.now)
    uth_bet_place(bob, table.pk, "ante", 200, now=clock.now)
    uth_bet_place(carol, table.pk, "ante", 400, now=clock.now)
    assert balance(alice) == 100_000 - 2_500
    # Player cards Ah 9h, dealer Kc Kd, board 2h 5h Jh 7c 3s: a flush for the player, a pair of kings for the dealer.
    clock.rig("Ah 9h Kc Kd 2h 5h Jh 7c 3s")
    assert clock.tick(15) == 1
    round_ = current_round(table)
    assert round_.phase == "preflop"
    assert round_.deck.startswith("Ah9hKcKd2h5hJh7c3s")
    assert len(round_.deck) == 104
    uth_decide(alice, table.pk, "play_4x", now=clock.now)
    assert balance(alice) == 100_000 - 2_500 - 4_000
    clock.tick(10)  # Bob and Carol are AUTO CHECKED
    assert current_round(table).phase == "flop"
    uth_decide(bob, table.pk, "play_2x", now=clock.now)
    clock.tick(10)
    assert current_round(table).phase == "river"
    clock.tick(10)  # Carol is AUTO FOLDED
    round_ = current_round(table)
    assert round_.phase == "settled"
    assert round_.result["dealer_qualifies"] is True
    hands = {hand.player.username: hand for hand in UthHand.objects.filter(round=round_).select_related("player")}
    assert hands["alice"].status == HandStatus.SETTLED
    assert hands["alice"].result_row == "dealer_qualifies_player_wins"
    assert (hands["alice"].ante_return, hands["alice"].blind_return) == (2_000, 2_500)
    assert (hands["alice"].play_return, hands["alice"].trips_return) == (8_000, 4_000)
    assert balance(alice) == 100_000 + 1_000 + 1_500 + 4_000 + 3_500
    assert balance(bob) == 100_000 + 200 + 300 + 400
    assert balance(carol) == 100_000 - 800
    assert [item["label"] for item in hands["carol"].decisions] == ["AUTO CHECKED", "AUTO CHECKED", "AUTO FOLDED"]
    kinds = list(UthBetRecord.objects.filter(hand=hands["carol"]).values_list("kind", flat=True))
    assert kinds == [RecordKind.CHIP, *[RecordKind.AUTOMATIC_DECISION] * 3, RecordKind.SETTLEMENT]
    assert ledger_reconcile() == []
    # The next round opens after the result display.
    assert clock.tick(6) == 1
    assert current_round(table).number == 2
