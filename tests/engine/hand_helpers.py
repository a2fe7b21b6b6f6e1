"""Small builders for engine tests: configurations and hands with chosen cards."""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.cards import parse_cards
from games.engine.config import HandConfig, Variant
from games.engine.state import HandState, arrange_deck


def config(
    stacks: Mapping[int, int],
    *,
    button: int,
    small_blind_seat: int | None,
    big_blind_seat: int,
    blinds: tuple[int, int] = (1, 2),
    ante: int = 0,
    variant: Variant = Variant.NO_LIMIT_HOLDEM,
    table_size: int = 6,
    out_of_position_seats: tuple[int, ...] = (),
) -> HandConfig:
    return HandConfig.create(
        variant=variant,
        stacks=stacks,
        button=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=big_blind_seat,
        small_blind=blinds[0],
        big_blind=blinds[1],
        ante=ante,
        table_size=table_size,
        out_of_position_seats=out_of_position_seats,
    )


def hand(
    hand_config: HandConfig,
    hole: Mapping[int, str] | None = None,
    board: str = "",
) -> HandState:
    """A hand dealing the given hole cards ("AsKd" by seat) and board ("AhKhQh2c3d"); other cards in deck order."""
    hole_cards = {seat: parse_cards(text) for seat, text in (hole or {}).items()}
    deck = arrange_deck(hand_config, hole_cards, parse_cards(board))
    return HandState.create(hand_config, deck=deck)
