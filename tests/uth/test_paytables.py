"""Every line of the Blind (UTH-18) and Trips (UTH-19) paytables pays exactly, in integer cents (UTH-20)."""

from __future__ import annotations

import pytest

from games.engine.uth.paytables import BLIND_PAYTABLE, TRIPS_PAYTABLE, HandClass, Odds, hand_class
from games.engine.uth.settlement import BetSpot, Outcome

from .helpers import EURO, settle, strengths

# (class, player cards, dealer cards, board): the player wins each of these deals.
WINNING_DEALS = {
    HandClass.ROYAL_FLUSH: ("Ah Kh", "4c 4d", "Qh Jh Th 2c 8d"),
    HandClass.STRAIGHT_FLUSH: ("9h 8h", "4c 4d", "7h 6h 5h 2c Kd"),
    HandClass.FOUR_OF_A_KIND: ("9c 9d", "Kc Kd", "9h 9s 2c 5d Kh"),
    HandClass.FULL_HOUSE: ("Kc Kd", "Ac Qd", "Kh 5c 5d 2s 8h"),
    HandClass.FLUSH: ("Ah 9h", "Kc Kd", "2h 5h Jh 7c 3s"),
    HandClass.STRAIGHT: ("5c 6d", "Kc Jd", "7h 8s 9c Kd 2h"),
    HandClass.THREE_OF_A_KIND: ("9c 9d", "Qc Qd", "9h 2s 5c Kd Jh"),
    HandClass.TWO_PAIR: ("Kc 9d", "Qc Qd", "Kh 9s 5c 2d 3h"),
    HandClass.PAIR: ("Ac Td", "9c 7d", "Ah 9s 5c 2d 3h"),
    HandClass.HIGH_CARD: ("Ac Td", "Qc 4d", "Kh 9s 6c 2d 3h"),
}


def test_every_winning_deal_is_of_the_class_it_is_listed_under_and_the_player_wins() -> None:
    for expected, (player, dealer, board) in WINNING_DEALS.items():
        player_strength, dealer_strength = strengths(player=player, dealer=dealer, board=board)
        assert hand_class(player_strength) is expected
        assert player_strength > dealer_strength


@pytest.mark.parametrize(
    ("hand", "odds", "blind_net_on_ten_euros"),
    [
        (HandClass.ROYAL_FLUSH, "500:1", 5000 * EURO),
        (HandClass.STRAIGHT_FLUSH, "50:1", 500 * EURO),
        (HandClass.FOUR_OF_A_KIND, "10:1", 100 * EURO),
        (HandClass.FULL_HOUSE, "3:1", 30 * EURO),
        (HandClass.FLUSH, "1.5:1", 15 * EURO),
        (HandClass.STRAIGHT, "1:1", 10 * EURO),
    ],
)
def test_uth_18_blind_paytable_line(hand: HandClass, odds: str, blind_net_on_ten_euros: int) -> None:
    assert str(BLIND_PAYTABLE[hand]) == odds
    player, dealer, board = WINNING_DEALS[hand]
    result = settle(player=player, dealer=dealer, board=board, play=40 * EURO)
    blind = result.bet(BetSpot.BLIND)
    assert blind is not None
    assert blind.outcome is Outcome.WIN
    assert blind.net == blind_net_on_ten_euros


@pytest.mark.parametrize("hand", [HandClass.THREE_OF_A_KIND, HandClass.TWO_PAIR, HandClass.PAIR, HandClass.HIGH_CARD])
def test_uth_18_blind_pushes_on_every_other_winning_hand(hand: HandClass) -> None:
    assert hand not in BLIND_PAYTABLE
    player, dealer, board = WINNING_DEALS[hand]
    result = settle(player=player, dealer=dealer, board=board, play=40 * EURO)
    blind = result.bet(BetSpot.BLIND)
    assert blind is not None
    assert (blind.outcome, blind.net) == (Outcome.PUSH, 0)


def test_uth_18_the_blind_wins_by_the_paytable_even_when_the_dealer_does_not_qualify() -> None:
    result = settle(player="5c 6d", dealer="Ac Jd", board="7h 8s 9c Kd 2h", play=10 * EURO)
    assert not result.dealer_qualified
    blind = result.bet(BetSpot.BLIND)
    assert blind is not None
    assert blind.net == 10 * EURO


@pytest.mark.parametrize(
    ("hand", "odds", "trips_net_on_five_euros"),
    [
        (HandClass.ROYAL_FLUSH, "50:1", 250 * EURO),
        (HandClass.STRAIGHT_FLUSH, "40:1", 200 * EURO),
        (HandClass.FOUR_OF_A_KIND, "30:1", 150 * EURO),
        (HandClass.FULL_HOUSE, "8:1", 40 * EURO),
        (HandClass.FLUSH, "7:1", 35 * EURO),
        (HandClass.STRAIGHT, "4:1", 20 * EURO),
        (HandClass.THREE_OF_A_KIND, "3:1", 15 * EURO),
    ],
)
def test_uth_19_trips_paytable_line(hand: HandClass, odds: str, trips_net_on_five_euros: int) -> None:
    assert str(TRIPS_PAYTABLE[hand]) == odds
    player, dealer, board = WINNING_DEALS[hand]
    result = settle(player=player, dealer=dealer, board=board, play=40 * EURO, trips=5 * EURO)
    trips = result.bet(BetSpot.TRIPS)
    assert trips is not None
    assert (trips.outcome, trips.net) == (Outcome.WIN, trips_net_on_five_euros)


@pytest.mark.parametrize("hand", [HandClass.TWO_PAIR, HandClass.PAIR, HandClass.HIGH_CARD])
def test_uth_19_trips_loses_below_three_of_a_kind(hand: HandClass) -> None:
    player, dealer, board = WINNING_DEALS[hand]
    result = settle(player=player, dealer=dealer, board=board, play=40 * EURO, trips=5 * EURO)
    trips = result.bet(BetSpot.TRIPS)
    assert trips is not None
    assert (trips.outcome, trips.net) == (Outcome.LOSE, -5 * EURO)


def test_uth_20_trips_pays_regardless_of_the_dealers_hand_and_of_a_fold() -> None:
    # The player's flush loses to the dealer's full house, and in another deal the player folds: Trips pays 7:1 both.
    losing = settle(player="Ah 9h", dealer="5c 5d", board="2h 5h Jh 7c 7s", play=40 * EURO, trips=5 * EURO)
    folded = settle(player="Ah 9h", dealer="Kc Kd", board="2h 5h Jh 7c 3s", folded=True, trips=5 * EURO)
    for result in (losing, folded):
        trips = result.bet(BetSpot.TRIPS)
        assert trips is not None
        assert trips.net == 35 * EURO
    assert losing.bet(BetSpot.PLAY) is not None
    assert losing.bet(BetSpot.PLAY).net == -40 * EURO  # type: ignore[union-attr]


def test_the_royal_flush_is_told_apart_from_other_straight_flushes() -> None:
    royal, _ = strengths(player="Ah Kh", dealer="4c 4d", board="Qh Jh Th 2c 8d")
    king_high, _ = strengths(player="9h Kh", dealer="4c 4d", board="Qh Jh Th 2c 8d")
    assert hand_class(royal) is HandClass.ROYAL_FLUSH
    assert hand_class(king_high) is HandClass.STRAIGHT_FLUSH
    assert HandClass.ROYAL_FLUSH.display_name == "Royal Flush"
    assert HandClass.FOUR_OF_A_KIND.display_name == "Four of a Kind"


def test_payouts_are_exact_and_never_rounded() -> None:
    assert Odds(3, 2).winnings(1002) == 1503
    with pytest.raises(ValueError, match="whole number of cents"):
        Odds(3, 2).winnings(1001)
    with pytest.raises(ValueError, match="positive"):
        Odds(0)
