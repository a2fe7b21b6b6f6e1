"""Hands in progress as a bot sees them, for the bot policy tests (no site: a :class:`HandView` and legal actions)."""

from __future__ import annotations

from typing import Any

from games.bots.policy import HandView

FACING_A_BET: dict[str, Any] = {
    "kinds": ["fold", "call", "raise_to", "all_in", "timeout"],
    "call_amount": 300,
    "bet_range": None,
    "raise_range": [600, 4000],
    "all_in_amount": 4000,
}
UNOPENED: dict[str, Any] = {
    "kinds": ["fold", "check", "bet", "all_in", "timeout"],
    "call_amount": 0,
    "bet_range": [10, 4000],
    "raise_range": None,
    "all_in_amount": 4000,
}
FLOP = ("Ad", "Kc", "9s")
RIVER = ("Ad", "Kc", "9s", "4h", "2c")
BEHIND = ("7c", "3d")  # against AsAh on these boards: nothing, far behind
STRONG = ("As", "Ah")
AHEAD_OF_JUNK = ("Ks", "Kh")  # against 7c 3d on these boards: a set of kings, far ahead


def view(
    *,
    hand_id: int = 0,
    street: str = "flop",
    hole: tuple[str, ...] = BEHIND,
    partner_cards: tuple[str, ...] = STRONG,
    aggressor: int | None = None,
    third_player_in: bool = False,
) -> HandView:
    """Seat 1 ("me") against seat 2 ("partner"); seat 3 ("stranger") folded unless ``third_player_in``."""
    board = {"preflop": (), "flop": FLOP, "turn": (*FLOP, "4h"), "river": RIVER}[street]
    return HandView(
        seat=1,
        hand_id=hand_id,
        big_blind=10,
        street=street,
        board=board,
        hole_cards=hole,
        partner_cards=partner_cards,
        dealt=(1, 2, 3),
        folded=set() if third_player_in else {3},
        aggressor=aggressor,
        pot=600,
        names={1: "me", 2: "partner", 3: "stranger"},
    )
