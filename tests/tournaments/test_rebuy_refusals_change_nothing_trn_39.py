"""TRN-39: a re-buy is refused, with a message saying why, above the stack threshold, after the re-buy period, once the
entry's maximum is reached, with a balance below its price, for a player not playing, and in a tournament without
re-buys; a refusal changes nothing (no money moves, no chips, no purchase row)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from tests.tournaments.rebuys_support import (
    LEVEL,
    chips,
    house_fees,
    pool,
    purchases,
    rebuy_tournament,
    start_of,
    started,
)
from tests.tournaments.support import cash, player, register_players, scheduled
from tournaments.models import Tournament
from tournaments.services import (
    InsufficientBalance,
    NotAllowedNow,
    NotRegistered,
    TournamentError,
    entry_rebuy,
    tournaments_advance_all,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def refused_changes_nothing(
    tournament: Tournament, user: Any, attempt: Callable[[], Any], error: type[TournamentError], words: str
) -> None:
    before = (cash(user), pool(tournament), house_fees(), purchases(tournament), chips(user))
    with pytest.raises(error, match=words):
        attempt()
    assert (cash(user), pool(tournament), house_fees(), purchases(tournament), chips(user)) == before


def test_above_the_stack_threshold_a_rebuy_is_refused_trn_39() -> None:
    tournament = rebuy_tournament(rebuy_stack_threshold=999)
    user, *_ = started(tournament, 3)
    moment = start_of(tournament) + timedelta(seconds=1)
    refused_changes_nothing(
        tournament, user, lambda: entry_rebuy(user, tournament, now=moment), NotAllowedNow, "more than 999 chips"
    )


def test_after_the_rebuy_period_a_rebuy_is_refused_trn_39() -> None:
    tournament = rebuy_tournament()
    user, *_ = started(tournament, 3)
    moment = start_of(tournament) + 2 * LEVEL  # the end of level 2: the period is over
    refused_changes_nothing(
        tournament, user, lambda: entry_rebuy(user, tournament, now=moment), NotAllowedNow, "re-buy period .* is over"
    )
    entry_rebuy(user, tournament, now=moment - timedelta(seconds=1))  # a second earlier it was open


def test_once_the_maximum_is_reached_a_rebuy_is_refused_trn_39() -> None:
    tournament = rebuy_tournament(rebuy_maximum=2, rebuy_stack_threshold=10_000)
    user, *_ = started(tournament, 3)
    moment = start_of(tournament) + timedelta(seconds=1)
    entry_rebuy(user, tournament, now=moment)
    entry_rebuy(user, tournament, now=moment)
    assert chips(user) == 3_000
    refused_changes_nothing(
        tournament, user, lambda: entry_rebuy(user, tournament, now=moment), NotAllowedNow, "all 2 re-buys"
    )


def test_without_the_balance_a_rebuy_is_refused_trn_39() -> None:
    tournament = rebuy_tournament()
    user, *_ = started(tournament, 3, cash_each=1_100 + 1_099)
    moment = start_of(tournament) + timedelta(seconds=1)
    refused_changes_nothing(
        tournament,
        user,
        lambda: entry_rebuy(user, tournament, now=moment),
        InsufficientBalance,
        "your balance is €10.99",
    )


def test_a_player_not_playing_and_a_tournament_without_rebuys_are_refused_trn_39() -> None:
    tournament = rebuy_tournament()
    started(tournament, 3)
    stranger = player()
    moment = start_of(tournament) + timedelta(seconds=1)
    with pytest.raises(NotRegistered, match="not playing"):
        entry_rebuy(stranger, tournament, now=moment)
    freezeout = scheduled()
    (user, *_others) = register_players(freezeout, 3)
    assert freezeout.starts_at is not None
    tournaments_advance_all(now=freezeout.starts_at)
    refused_changes_nothing(
        freezeout,
        user,
        lambda: entry_rebuy(user, freezeout, now=freezeout.starts_at + timedelta(seconds=1)),
        NotAllowedNow,
        "has no re-buys",
    )
    assert cash(stranger) == 100_000
