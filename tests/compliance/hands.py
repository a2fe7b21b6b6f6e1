"""Builders for the compliance tests: hand records played by the engine with chosen cards and actions."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from compliance.detection.records import HandRecord, record_from_state
from games.engine.actions import Action, AllIn, Bet, Call, Check, Fold, LegalActions, RaiseTo
from games.engine.cards import parse_cards
from games.engine.config import HandConfig, Variant
from games.engine.state import HandState, Street, arrange_deck

BIG_BLIND = 10
START = 1_772_452_800.0  # 2026-03-02 12:00 UTC

ACTIONS: dict[str, Callable[..., Action]] = {
    "fold": Fold,
    "check": Check,
    "call": Call,
    "bet": Bet,
    "raise": RaiseTo,
    "all_in": AllIn,
}


def configuration(players: Mapping[int, str], stacks: int | Mapping[int, int], button: int) -> HandConfig:
    """Blinds 5/10 for the players in ``players`` (seat -> name); the button posts the small blind heads-up."""
    seats = sorted(players)
    after_button = sorted(seats, key=lambda seat: (seat - button - 1) % 10)
    if len(seats) == 2:
        small, big = button, next(seat for seat in seats if seat != button)
    else:
        small, big = after_button[0], after_button[1]
    return HandConfig.create(
        variant=Variant.NO_LIMIT_HOLDEM,
        stacks={seat: stacks if isinstance(stacks, int) else stacks[seat] for seat in seats},
        button=button,
        small_blind_seat=small,
        big_blind_seat=big,
        small_blind=BIG_BLIND // 2,
        big_blind=BIG_BLIND,
        table_size=10,
    )


def scripted_hand(
    hand_id: str,
    players: Mapping[int, str],
    *,
    hole: Mapping[int, str],
    actions: Sequence[tuple[int, str] | tuple[int, str, int]],
    board: str = "",
    button: int | None = None,
    stacks: int | Mapping[int, int] = 100 * BIG_BLIND,
    decision_ms: Sequence[int | None] | None = None,
    started_at: float | None = None,
    table: str = "table:1",
) -> HandRecord:
    """A finished hand dealing ``hole`` ("AsKd" by seat) and ``board``, played with ``actions`` ((seat, "raise", 30),
    (seat, "call"), ...). Raises ``AssertionError`` if the actions do not finish the hand."""
    config = configuration(players, stacks, button if button is not None else max(players))
    deck = arrange_deck(config, {seat: parse_cards(text) for seat, text in hole.items()}, parse_cards(board))
    state = HandState.create(config, deck=deck)
    for seat, kind, *amount in actions:
        state.apply(ACTIONS[kind](seat, *amount))
    assert state.is_complete, f"hand {hand_id} is not over after its actions"
    return record_from_state(
        state,
        hand_id=hand_id,
        players=dict(players),
        decision_ms=decision_ms,
        table_id=table,
        started_at=started_at,
    )


Policy = Callable[[HandState, LegalActions], Action]


def policy_hand(
    hand_id: str,
    players: Mapping[int, str],
    policy: Policy,
    *,
    seed: int,
    button: int | None = None,
    timing: Callable[[HandState, LegalActions], int | None] | None = None,
    started_at: float | None = None,
    table: str = "table:1",
) -> HandRecord:
    """A hand shuffled by ``random.Random(seed)`` and played to the end by ``policy`` (with decision times from
    ``timing``)."""
    config = configuration(players, 100 * BIG_BLIND, button if button is not None else max(players))
    state = HandState.create(config, shuffler=random.Random(seed))
    times: list[int | None] = []
    while (legal := state.legal_actions()) is not None:
        times.append(timing(state, legal) if timing is not None else None)
        state.apply(policy(state, legal))
    return record_from_state(
        state, hand_id=hand_id, players=dict(players), decision_ms=times, table_id=table, started_at=started_at
    )


SHOVE_BOARD = "2s5d9hJcQd"
"""The board :func:`shove_and_call` deals."""


def shove_and_call(hand_id: str, shover: str, caller: str, shover_cards: str, caller_cards: str) -> HandRecord:
    """Heads-up: the button (seat 1, small blind) shoves preflop, the big blind calls; the board is dealt out."""
    return scripted_hand(
        hand_id,
        {1: shover, 2: caller},
        hole={1: shover_cards, 2: caller_cards},
        board=SHOVE_BOARD,
        button=1,
        actions=[(1, "all_in"), (2, "call")],
    )


def raise_and_fold(hand_id: str, raiser: str, shover: str, raiser_cards: str, shover_cards: str) -> HandRecord:
    """Heads-up: the button raises to 35 big blinds, the big blind shoves, the button folds."""
    return scripted_hand(
        hand_id,
        {1: raiser, 2: shover},
        hole={1: raiser_cards, 2: shover_cards},
        button=1,
        actions=[(1, "raise", 350), (2, "all_in"), (1, "fold")],
    )


def honest_all_ins(count: int) -> list[HandRecord]:
    """Background for chip dumping: honest all-ins (strong holdings put in) and folds (weak hands given up)."""
    records = []
    for number in range(count):
        first, second = f"regular{number % 8}", f"regular{(number + 3) % 8}"
        records.append(shove_and_call(f"bg-shove-{number}", first, second, "AsKs", "QhQc"))
        records.append(raise_and_fold(f"bg-fold-{number}", first, second, "7c2d", "AhAd"))
    return records


def heads_up(hand_id: str, first: str, second: str, seed: int, passive_between: set[str]) -> HandRecord:
    """Two players who bet or raise two times in three when they may — except that players in ``passive_between``
    only check and call when the opponent is in that set too."""

    def policy(state: HandState, legal: LegalActions) -> Action:
        seat = legal.seat
        spared = {first, second} <= passive_between
        if not spared and (seed + seat + len(state.events)) % 3:
            if legal.bet_range is not None:
                return Bet(seat, legal.bet_range[0])
            if legal.raise_range is not None and state.street is Street.PREFLOP:
                return RaiseTo(seat, legal.raise_range[0])
        return Call(seat) if legal.call_amount is not None else Check(seat)

    return policy_hand(hand_id, {1: first, 2: second}, policy, seed=seed, button=1 + seed % 2)


def three_players_heads_up(count: int, passive_between: set[str]) -> list[HandRecord]:
    """``count`` hands each of ann-bea, ann-cid and bea-cid (see :func:`heads_up`)."""
    records = []
    for number in range(count):
        records.append(heads_up(f"ab-{number}", "ann", "bea", number, passive_between))
        records.append(heads_up(f"ac-{number}", "ann", "cid", number, passive_between))
        records.append(heads_up(f"bc-{number}", "bea", "cid", number, passive_between))
    return records
