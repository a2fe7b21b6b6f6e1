"""Every row of the outcome quick-reference table settles ANTE, BLIND and PLAY as UTH-17 says (UTH-13..UTH-17, AMB-09).

ANTE €10 (so BLIND €10) throughout; amounts are cents.
"""

from __future__ import annotations

from games.engine.uth.settlement import BetSpot, Outcome, ResultRow, dealer_qualifies

from .helpers import EURO, nets, settle, strengths


def test_uth_17_dealer_does_not_qualify_and_you_win_pushes_ante_pays_blind_by_paytable_and_play_1_to_1() -> None:
    # Player makes a nine-high straight; the dealer has ace-high and no pair.
    result = settle(player="5c 6d", dealer="Ac Jd", board="7h 8s 9c Kd 2h", play=10 * EURO)
    assert result.row is ResultRow.DEALER_NOT_QUALIFIED_PLAYER_WINS
    assert result.dealer_qualified is False
    assert nets(result) == {"ante": 0, "blind": 10 * EURO, "play": 10 * EURO}
    assert result.bet(BetSpot.ANTE) is not None
    assert result.bet(BetSpot.ANTE).outcome is Outcome.PUSH  # type: ignore[union-attr]


def test_uth_17_dealer_does_not_qualify_and_you_lose_pushes_ante_and_loses_blind_and_play() -> None:
    # Catalog example: the dealer's A-K high beats the player's A-Q high; the dealer does not qualify.
    result = settle(player="Qd 8s", dealer="Kc 3d", board="Ah 9c 7d 4s 2h", play=40 * EURO)
    assert result.row is ResultRow.DEALER_NOT_QUALIFIED_PLAYER_LOSES
    assert nets(result) == {"ante": 0, "blind": -10 * EURO, "play": -40 * EURO}


def test_uth_17_dealer_qualifies_and_you_win_pays_ante_1_to_1_blind_by_paytable_and_play_1_to_1() -> None:
    # Catalog example: PLAY 4x, Trips €5, player's flush beats the dealer's pair of kings.
    result = settle(player="Ah 9h", dealer="Kc Kd", board="2h 5h Jh 7c 3s", play=40 * EURO, trips=5 * EURO)
    assert result.row is ResultRow.DEALER_QUALIFIES_PLAYER_WINS
    assert nets(result) == {"ante": 10 * EURO, "blind": 15 * EURO, "play": 40 * EURO, "trips": 35 * EURO}
    assert result.net == 100 * EURO


def test_uth_17_dealer_qualifies_and_you_lose_loses_ante_blind_and_play() -> None:
    # The dealer's pair of kings beats the player's ace high.
    result = settle(player="Ac 4d", dealer="Kc Kd", board="2h 6s Jh 9c 8d", play=20 * EURO)
    assert result.row is ResultRow.DEALER_QUALIFIES_PLAYER_LOSES
    assert nets(result) == {"ante": -10 * EURO, "blind": -10 * EURO, "play": -20 * EURO}


def test_uth_16_17_dealer_qualifies_and_you_tie_pushes_ante_blind_and_play() -> None:
    # Both play the broadway straight on the board: a tie, and the Blind pushes although a straight would pay.
    result = settle(player="2c 3d", dealer="4h 5h", board="As Ks Qd Jc Tc", play=40 * EURO)
    assert result.row is ResultRow.DEALER_QUALIFIES_TIE
    assert nets(result) == {"ante": 0, "blind": 0, "play": 0}
    assert all(bet.outcome is Outcome.PUSH for bet in result.bets)


def test_amb_09_a_tie_when_the_dealer_does_not_qualify_also_pushes_everything() -> None:
    # Both play the board's ace-high; no pair for the dealer.
    result = settle(player="2c 3d", dealer="2d 3c", board="Ah Kd 9c 7s 5h", play=10 * EURO)
    assert result.row is ResultRow.DEALER_NOT_QUALIFIED_TIE
    assert nets(result) == {"ante": 0, "blind": 0, "play": 0}


def test_uth_13_17_player_folds_loses_ante_and_blind_and_has_no_play_bet() -> None:
    # The player would even have won; a fold loses Ante and Blind all the same.
    result = settle(player="Ac Ad", dealer="2c 7d", board="Kh 9s 5c 3d Jh", folded=True)
    assert result.row is ResultRow.PLAYER_FOLDS
    assert nets(result) == {"ante": -10 * EURO, "blind": -10 * EURO}
    assert result.bet(BetSpot.PLAY) is None


def test_uth_13_20_a_fold_still_settles_trips_on_the_players_hand() -> None:
    # Catalog example: the board gives the player three nines; folding at the river with Trips €5.
    result = settle(player="4d Jc", dealer="Kd Qh", board="9c 9d 9h 2s 5c", folded=True, trips=5 * EURO)
    assert nets(result) == {"ante": -10 * EURO, "blind": -10 * EURO, "trips": 15 * EURO}


def test_uth_15_player_two_pair_beats_unqualified_dealer_ante_and_blind_push_play_wins_trips_loses() -> None:
    # Catalog example: PLAY 1x at the river, two pair against high card, €5 Trips on two pair loses.
    result = settle(player="Ad 8c", dealer="Kc Qd", board="As 8d 4c 3h Td", play=10 * EURO, trips=5 * EURO)
    assert nets(result) == {"ante": 0, "blind": 0, "play": 10 * EURO, "trips": -5 * EURO}


def test_uth_14_the_dealer_qualifies_with_a_pair_or_better_only() -> None:
    _, pair = strengths(player="2c 3d", dealer="Kc Kd", board="Ah 9c 7d 4s 6h")
    _, high_card = strengths(player="2c 3d", dealer="Kc Qd", board="Ah 9c 7d 4s 6h")
    _, two_pair = strengths(player="2c 3d", dealer="Ac 9d", board="Ah 9c 7d 4s 6h")
    assert dealer_qualifies(pair)
    assert dealer_qualifies(two_pair)
    assert not dealer_qualifies(high_card)


def test_uth_15_the_returned_amount_is_stake_plus_winnings_on_a_win_and_nothing_on_a_loss() -> None:
    win = settle(player="Ah 9h", dealer="Kc Kd", board="2h 5h Jh 7c 3s", play=40 * EURO)
    lose = settle(player="Ac 4d", dealer="Kc Kd", board="2h 6s Jh 9c 8d", play=20 * EURO)
    assert [bet.returned for bet in win.bets] == [20 * EURO, 25 * EURO, 80 * EURO]
    assert [bet.returned for bet in lose.bets] == [0, 0, 0]
    assert win.total_stake == 60 * EURO
    assert lose.total_returned == 0
