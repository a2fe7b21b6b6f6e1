"""Bad requests to the services get a clear refusal and change nothing: no balance, row, record or event moves
(UTH-02, UTH-06, UTH-07, UTH-09..UTH-12, UTH-22, UTH-26, AMB-39)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.uth.errors import (
    AlreadySeated,
    BetRefused,
    BettingClosed,
    DecisionRefused,
    NoBetsInRound,
    NotSeated,
    TableNotFound,
    UthRefused,
)
from games.uth.models import UthSeat, UthTable
from games.uth.services import uth_bet_place, uth_decide, uth_seat_take
from poker_site.accounts.models import User

from .conftest import Clock, ledger_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_player: Callable[..., User], table: UthTable, clock: Clock) -> dict[str, User]:
    alice, bob = make_player("alice", 50_000), make_player("bob", 50_000)
    for player in (alice, bob):
        uth_seat_take(player, table.pk, now=clock.now)
    clock.tick()
    return {"alice": alice, "bob": bob}


def refused(error: type[UthRefused], pattern: str, call: Callable[[], Any]) -> UthRefused:
    """Run ``call``, expect the refusal, and check that nothing in the ledger or the game record changed."""
    before = ledger_state()
    with pytest.raises(error, match=pattern) as caught:
        call()
    assert ledger_state() == before
    return caught.value


def test_uth_22_26_bets_outside_the_limits_are_refused(players: dict[str, User], table: UthTable, clock: Clock) -> None:
    alice = players["alice"]
    refused(
        BetRefused,
        r"minimum Ante at this table is €1\.00",
        lambda: uth_bet_place(alice, table.pk, "ante", 50, now=clock.now),
    )
    refused(
        BetRefused,
        "Place your Ante before the Trips bet",
        lambda: uth_bet_place(alice, table.pk, "trips", 100, now=clock.now),
    )
    uth_bet_place(alice, table.pk, "ante", 10_000, now=clock.now)  # the maximum
    refused(
        BetRefused,
        r"already bet the maximum Ante of €100\.00",
        lambda: uth_bet_place(alice, table.pk, "ante", 100, now=clock.now),
    )
    refused(
        BetRefused,
        r"minimum Trips bet at this table is €1\.00",
        lambda: uth_bet_place(alice, table.pk, "trips", 99, now=clock.now),
    )
    refused(BetRefused, "2-cent steps", lambda: uth_bet_place(players["bob"], table.pk, "ante", 101, now=clock.now))


@pytest.mark.parametrize(
    ("spot", "amount", "message"),
    [
        ("blind", 100, "Blind follows the Ante"),
        ("play", 100, "Blind follows the Ante"),
        ("ante", -100, "positive whole number of cents"),
        ("ante", 0, "positive whole number of cents"),
        ("ante", 1.5, "positive whole number of cents"),
        ("ante", "100", "positive whole number of cents"),
        ("ante", True, "positive whole number of cents"),
        ("ante", 10**15, "positive whole number of cents"),
        (None, 100, "Chips go on"),
    ],
)
def test_malformed_bets_are_refused_in_plain_words(
    players: dict[str, User], table: UthTable, clock: Clock, spot: object, amount: object, message: str
) -> None:
    refused(BetRefused, message, lambda: uth_bet_place(players["alice"], table.pk, spot, amount, now=clock.now))


def test_uth_07_bets_after_the_betting_time_are_refused_before_and_after_the_ticker_deals(
    players: dict[str, User], table: UthTable, clock: Clock
) -> None:
    alice, bob = players["alice"], players["bob"]
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    late = clock.now.replace(second=clock.now.second + 15)
    refused(BettingClosed, "Betting is closed", lambda: uth_bet_place(bob, table.pk, "ante", 100, now=late))
    clock.tick(15)  # the ticker closes the betting and deals
    refused(BettingClosed, "Betting is closed", lambda: uth_bet_place(bob, table.pk, "ante", 100, now=clock.now))
    refused(BettingClosed, "Betting is closed", lambda: uth_bet_place(alice, table.pk, "trips", 100, now=clock.now))


def test_bets_need_a_seat_and_a_real_table(
    players: dict[str, User], table: UthTable, clock: Clock, make_player: Callable[..., User]
) -> None:
    stranger = make_player("stranger", 50_000)
    refused(NotSeated, "Take a seat", lambda: uth_bet_place(stranger, table.pk, "ante", 100, now=clock.now))
    refused(TableNotFound, "no such", lambda: uth_bet_place(players["alice"], 999_999, "ante", 100, now=clock.now))
    refused(TableNotFound, "no such", lambda: uth_bet_place(players["alice"], "1", "ante", 100, now=clock.now))


def test_uth_02_a_player_can_take_only_one_seat_at_a_table(players: dict[str, User], table: UthTable) -> None:
    refused(AlreadySeated, "only one seat", lambda: uth_seat_take(players["alice"], table.pk))
    assert UthSeat.objects.filter(table=table, player=players["alice"]).count() == 1


def test_decisions_out_of_phase_are_refused(players: dict[str, User], table: UthTable, clock: Clock) -> None:
    alice = players["alice"]
    uth_bet_place(alice, table.pk, "ante", 1_000, now=clock.now)
    refused(DecisionRefused, "betting is still open", lambda: uth_decide(alice, table.pk, "check", now=clock.now))
    clock.tick(15)
    refused(
        DecisionRefused,
        "PLAY 2x is not possible in the decision before the flop",
        lambda: uth_decide(alice, table.pk, "play_2x", now=clock.now),
    )
    refused(
        DecisionRefused,
        "FOLD is not possible in the decision before the flop",
        lambda: uth_decide(alice, table.pk, "fold", now=clock.now),
    )
    refused(DecisionRefused, "Unknown decision", lambda: uth_decide(alice, table.pk, "raise", now=clock.now))
    refused(DecisionRefused, "Unknown decision", lambda: uth_decide(alice, table.pk, 4, now=clock.now))
    late = clock.now.replace(second=clock.now.second + 10)
    refused(
        DecisionRefused,
        "decision time for this phase has run out",
        lambda: uth_decide(alice, table.pk, "check", now=late),
    )
    uth_decide(alice, table.pk, "play_3x", now=clock.now)
    refused(
        DecisionRefused, "already made your PLAY bet", lambda: uth_decide(alice, table.pk, "play_4x", now=clock.now)
    )


def test_a_player_cannot_decide_for_another_player(players: dict[str, User], table: UthTable, clock: Clock) -> None:
    alice, bob = players["alice"], players["bob"]
    uth_bet_place(alice, table.pk, "ante", 1_000, now=clock.now)
    clock.tick(15)
    # Bob has no bets in this round: his decision cannot reach Alice's hand, whatever he sends.
    refused(NoBetsInRound, "no bets in this round", lambda: uth_decide(bob, table.pk, "play_4x", now=clock.now))


def test_amb_39_a_play_bet_the_balance_cannot_cover_is_refused(
    make_player: Callable[..., User], table: UthTable, clock: Clock
) -> None:
    carol = make_player("carol", 5_000)
    uth_seat_take(carol, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(carol, table.pk, "ante", 1_000, now=clock.now)  # €30 left
    clock.tick(15)
    refused(
        DecisionRefused,
        r"balance does not cover PLAY 4x \(€40\.00\)",
        lambda: uth_decide(carol, table.pk, "play_4x", now=clock.now),
    )
    uth_decide(carol, table.pk, "play_3x", now=clock.now)
