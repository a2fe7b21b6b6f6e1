"""PHH files for the compliance tests: hands played by the engine, written with player names and optional times,
addresses and devices."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.engine.cards import parse_cards
from games.engine.phh import dumps_phh, hand_to_phh
from games.engine.state import HandState, arrange_deck
from tests.compliance.hands import ACTIONS, configuration


def phh_hand(
    players: Mapping[int, str],
    *,
    hole: Mapping[int, str],
    actions: Sequence[tuple[int, str] | tuple[int, str, int]],
    board: str = "",
    button: int | None = None,
    extra: Mapping[str, Any] | None = None,
    raw: str = "",
) -> str:
    """One hand as PHH text (a ``.phh`` body) with ``players`` named in PHH order; ``extra`` fields are added as
    TOML values and ``raw`` lines verbatim (TOML local times, which the writer does not produce)."""
    config = configuration(players, 1000, button if button is not None else max(players))
    deck = arrange_deck(config, {seat: parse_cards(text) for seat, text in hole.items()}, parse_cards(board))
    state = HandState.create(config, deck=deck)
    for seat, kind, *amount in actions:
        state.apply(ACTIONS[kind](seat, *amount))
    assert state.is_complete
    names = [players[seat] for seat in state.seats]
    fields = hand_to_phh(state, players=names, metadata=dict(extra or {}))
    return dumps_phh(fields) + raw


def write_phhs(path: Path, hands: Sequence[str]) -> Path:
    path.write_text("\n".join(f"[{number}]\n{text}" for number, text in enumerate(hands, start=1)), encoding="utf-8")
    return path


def dumping_session(count: int = 4) -> list[str]:
    """Honest all-ins between regulars, then ``count`` hands where "dee" shoves seven-deuce into "rob"'s aces."""
    hands = []
    for number in range(40):
        first, second = f"regular{number % 8}", f"regular{(number + 3) % 8}"
        hands.append(
            phh_hand(
                {1: first, 2: second},
                hole={1: "AsKs", 2: "QhQc"},
                board="2s5d9hJcQd",
                button=1,
                actions=[(1, "all_in"), (2, "call")],
            )
        )
    for _ in range(count):
        hands.append(
            phh_hand(
                {1: "dee", 2: "rob"},
                hole={1: "7c2d", 2: "AsAh"},
                board="2s5d9hJcQd",
                button=1,
                actions=[(1, "all_in"), (2, "call")],
            )
        )
    return hands
