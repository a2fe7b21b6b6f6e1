"""Random play: a random legal-action policy and a helper that plays whole hands with it.

Used by property tests, the differential test against pokerkit, the hands-per-second benchmark and simple bots. The
policy only looks at a :class:`~games.engine.actions.LegalActions` summary, so the benchmark can apply the very same
policy to another engine by describing that engine's options in the same form.

Standard library only.
"""

from __future__ import annotations

from random import Random

from games.engine.actions import Action, AllIn, Bet, Call, Check, Fold, LegalActions, RaiseTo, Timeout
from games.engine.cards import Shuffler
from games.engine.config import HandConfig
from games.engine.state import HandState


def _amount(low: int, high: int, rng: Random) -> int:
    """Mostly modest sizes (up to three times the minimum), sometimes anything up to the maximum."""
    if low >= high:
        return low
    if rng.random() < 0.7:
        return rng.randint(low, min(high, low * 3))
    return rng.randint(low, high)


def choose_random_action(legal: LegalActions, rng: Random, *, timeouts: bool = False) -> Action:
    """A random legal action for ``legal.seat``: folds only when facing a bet, raises and all-ins now and then.

    With ``timeouts`` a small share of decisions are :class:`Timeout` (check if possible, else fold).
    """
    seat = legal.seat
    if legal.forced is not None:
        return legal.forced
    roll = rng.random()
    if timeouts and roll < 0.03:
        return Timeout(seat)
    if legal.call_amount is not None:
        if roll < 0.25:
            return Fold(seat)
        if roll < 0.70 or (legal.raise_range is None and legal.all_in_amount is None):
            return Call(seat)
        if legal.raise_range is not None and roll < 0.93:
            return RaiseTo(seat, _amount(*legal.raise_range, rng))
        if legal.all_in_amount is not None:
            return AllIn(seat)
        return Call(seat)
    if roll < 0.6 or (legal.bet_range is None and legal.raise_range is None):
        return Check(seat)
    if legal.bet_range is not None and roll < 0.95:
        return Bet(seat, _amount(*legal.bet_range, rng))
    if legal.raise_range is not None and roll < 0.95:
        # The big blind's option preflop: nothing to call, but raising is open.
        return RaiseTo(seat, _amount(*legal.raise_range, rng))
    if legal.all_in_amount is not None:
        return AllIn(seat)
    return Check(seat)


def play_random_hand(
    config: HandConfig,
    rng: Random,
    *,
    shuffler: Shuffler | None = None,
    timeouts: bool = False,
) -> HandState:
    """Play one hand to the end with :func:`choose_random_action` (deck shuffled by ``shuffler``, default ``rng``)."""
    state = HandState.create(config, shuffler=shuffler if shuffler is not None else rng)
    while True:
        legal = state.legal_actions()
        if legal is None:
            return state
        state.apply(choose_random_action(legal, rng, timeouts=timeouts))


__all__ = ["choose_random_action", "play_random_hand"]
