"""Settling one player's bets against the dealer (UTH-13..UTH-20, AMB-09).

The outcome table (UTH-17), with the tie rule of UTH-16 / AMB-09:

==========================================  ======  =======  ======
Result                                      ANTE    BLIND    PLAY
==========================================  ======  =======  ======
Dealer does not qualify, and you win        Push    Win*     1:1
Dealer does not qualify, and you lose       Push    Lose     Lose
Dealer does not qualify, and you tie        Push    Push     Push      (AMB-09)
Dealer qualifies and you win                1:1     Win*     1:1
Dealer qualifies and you lose               Lose    Lose     Lose
Dealer qualifies and you tie                Push    Push     Push
Player folds                                Lose    Lose     –
==========================================  ======  =======  ======

\\*BLIND pays by the Blind paytable: Straight or better wins, anything lower pushes. TRIPS is settled on the player's
own hand alone, whatever the dealer holds and even after a fold (UTH-20).

Amounts are integer cents. A bet's *return* is what goes back to the player: stake + winnings on a win, the stake on a
push, nothing on a loss. :func:`main_bet_returns` and :func:`trips_return` are the lean core (used by simulations);
:func:`settle_hand` wraps them into a :class:`HandSettlement` for records and display.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.engine.evaluation import HandCategory, strength_category
from games.engine.uth.paytables import (
    ANTE_ODDS,
    BLIND_PAYTABLE,
    PLAY_ODDS,
    TRIPS_PAYTABLE,
    HandClass,
    hand_class,
)


class BetSpot(StrEnum):
    """The four bet spots of a UTH seat."""

    ANTE = "ante"
    BLIND = "blind"
    PLAY = "play"
    TRIPS = "trips"


class Outcome(StrEnum):
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


class ResultRow(StrEnum):
    """The row of the outcome table that settled a hand (UTH-17, AMB-09)."""

    DEALER_NOT_QUALIFIED_PLAYER_WINS = "dealer_not_qualified_player_wins"
    DEALER_NOT_QUALIFIED_PLAYER_LOSES = "dealer_not_qualified_player_loses"
    DEALER_NOT_QUALIFIED_TIE = "dealer_not_qualified_tie"
    DEALER_QUALIFIES_PLAYER_WINS = "dealer_qualifies_player_wins"
    DEALER_QUALIFIES_PLAYER_LOSES = "dealer_qualifies_player_loses"
    DEALER_QUALIFIES_TIE = "dealer_qualifies_tie"
    PLAYER_FOLDS = "player_folds"

    @property
    def description(self) -> str:
        """Player-facing wording, e.g. "Dealer qualifies and you win"."""
        return _ROW_DESCRIPTIONS[self]


_ROW_DESCRIPTIONS = {
    ResultRow.DEALER_NOT_QUALIFIED_PLAYER_WINS: "Dealer does not qualify, and you win",
    ResultRow.DEALER_NOT_QUALIFIED_PLAYER_LOSES: "Dealer does not qualify, and you lose",
    ResultRow.DEALER_NOT_QUALIFIED_TIE: "Dealer does not qualify, and you tie",
    ResultRow.DEALER_QUALIFIES_PLAYER_WINS: "Dealer qualifies and you win",
    ResultRow.DEALER_QUALIFIES_PLAYER_LOSES: "Dealer qualifies and you lose",
    ResultRow.DEALER_QUALIFIES_TIE: "Dealer qualifies and you tie",
    ResultRow.PLAYER_FOLDS: "Player folds",
}


def dealer_qualifies(dealer_strength: int) -> bool:
    """UTH-14: the dealer qualifies with a pair or better."""
    return strength_category(dealer_strength) >= HandCategory.PAIR


def result_row(*, folded: bool, player_strength: int, dealer_strength: int) -> ResultRow:
    """Which row of the outcome table applies (UTH-17; ties per AMB-09)."""
    if folded:
        return ResultRow.PLAYER_FOLDS
    qualifies = dealer_qualifies(dealer_strength)
    if player_strength > dealer_strength:
        return ResultRow.DEALER_QUALIFIES_PLAYER_WINS if qualifies else ResultRow.DEALER_NOT_QUALIFIED_PLAYER_WINS
    if player_strength < dealer_strength:
        return ResultRow.DEALER_QUALIFIES_PLAYER_LOSES if qualifies else ResultRow.DEALER_NOT_QUALIFIED_PLAYER_LOSES
    return ResultRow.DEALER_QUALIFIES_TIE if qualifies else ResultRow.DEALER_NOT_QUALIFIED_TIE


def main_bet_returns(
    ante: int, play: int, folded: bool, player_strength: int, dealer_strength: int
) -> tuple[int, int, int]:
    """(ANTE return, BLIND return, PLAY return) in cents; the Blind stake equals the Ante (UTH-05).

    A player who did not fold always has a PLAY bet (the last decision is PLAY 1x or FOLD), but ``play == 0`` is
    settled consistently all the same (nothing staked, nothing returned).
    """
    if folded:
        return 0, 0, 0
    if player_strength == dealer_strength:
        return ante, ante, play
    qualifies = dealer_qualifies(dealer_strength)
    if player_strength < dealer_strength:
        return (0 if qualifies else ante), 0, 0
    ante_return = ante + ANTE_ODDS.winnings(ante) if qualifies else ante
    blind_odds = BLIND_PAYTABLE.get(hand_class(player_strength))
    blind_return = ante + blind_odds.winnings(ante) if blind_odds is not None else ante
    return ante_return, blind_return, play + PLAY_ODDS.winnings(play)


def trips_return(trips: int, player_strength: int) -> int:
    """The TRIPS return in cents: paid on the player's own best hand only (UTH-19, UTH-20)."""
    odds = TRIPS_PAYTABLE.get(hand_class(player_strength))
    return trips + odds.winnings(trips) if odds is not None else 0


@dataclass(frozen=True, slots=True)
class BetResult:
    """One settled bet: the stake, the outcome and what goes back to the player (stake + winnings, stake, or 0)."""

    spot: BetSpot
    stake: int
    outcome: Outcome
    returned: int

    @property
    def net(self) -> int:
        """Winnings (positive), 0 for a push, minus the stake for a loss."""
        return self.returned - self.stake


@dataclass(frozen=True, slots=True)
class HandSettlement:
    """A player's settled round: the outcome-table row, one :class:`BetResult` per bet staked, and the two hands."""

    row: ResultRow
    bets: tuple[BetResult, ...]
    player_class: HandClass
    dealer_class: HandClass
    dealer_qualified: bool

    @property
    def total_stake(self) -> int:
        return sum(bet.stake for bet in self.bets)

    @property
    def total_returned(self) -> int:
        return sum(bet.returned for bet in self.bets)

    @property
    def net(self) -> int:
        return self.total_returned - self.total_stake

    def bet(self, spot: BetSpot) -> BetResult | None:
        """The result of the bet on ``spot``, or None when nothing was staked there."""
        for result in self.bets:
            if result.spot is spot:
                return result
        return None


def _result(spot: BetSpot, stake: int, returned: int) -> BetResult:
    outcome = Outcome.WIN if returned > stake else Outcome.PUSH if returned == stake else Outcome.LOSE
    return BetResult(spot, stake, outcome, returned)


def settle_hand(
    *, ante: int, trips: int, play: int, folded: bool, player_strength: int, dealer_strength: int
) -> HandSettlement:
    """Settle one player's ANTE, BLIND (= ANTE), PLAY and TRIPS (UTH-13..UTH-20).

    Raises ``ValueError`` for negative stakes, a PLAY bet after a fold, or an Ante whose Blind payout would not be a
    whole number of cents (the betting rules never let such an Ante through).
    """
    if ante <= 0 or trips < 0 or play < 0:
        raise ValueError("a settled hand needs a positive Ante and no negative stakes")
    if folded and play:
        raise ValueError("a folded hand has no PLAY bet")
    ante_return, blind_return, play_return = main_bet_returns(ante, play, folded, player_strength, dealer_strength)
    bets = [_result(BetSpot.ANTE, ante, ante_return), _result(BetSpot.BLIND, ante, blind_return)]
    if play:
        bets.append(_result(BetSpot.PLAY, play, play_return))
    if trips:
        bets.append(_result(BetSpot.TRIPS, trips, trips_return(trips, player_strength)))
    return HandSettlement(
        row=result_row(folded=folded, player_strength=player_strength, dealer_strength=dealer_strength),
        bets=tuple(bets),
        player_class=hand_class(player_strength),
        dealer_class=hand_class(dealer_strength),
        dealer_qualified=dealer_qualifies(dealer_strength),
    )
