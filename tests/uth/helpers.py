"""Small helpers shared by the UTH tests: cards from text and a settlement from a described deal."""

from __future__ import annotations

from games.engine.cards import parse_cards
from games.engine.evaluation import holdem_strength
from games.engine.uth.settlement import HandSettlement, settle_hand

EURO = 100


def strengths(*, player: str, dealer: str, board: str) -> tuple[int, int]:
    """(player strength, dealer strength) for cards written like "Ah Kh"."""
    board_cards = parse_cards(board)
    assert len(board_cards) == 5
    return holdem_strength(parse_cards(player) + board_cards), holdem_strength(parse_cards(dealer) + board_cards)


def settle(
    *, player: str, dealer: str, board: str, ante: int = 10 * EURO, play: int = 0, trips: int = 0, folded: bool = False
) -> HandSettlement:
    player_strength, dealer_strength = strengths(player=player, dealer=dealer, board=board)
    return settle_hand(
        ante=ante,
        trips=trips,
        play=play,
        folded=folded,
        player_strength=player_strength,
        dealer_strength=dealer_strength,
    )


def nets(settlement: HandSettlement) -> dict[str, int]:
    """Net result per bet spot in cents, e.g. {"ante": 1000, "blind": 1500, "play": 4000, "trips": 3500}."""
    return {bet.spot.value: bet.net for bet in settlement.bets}
