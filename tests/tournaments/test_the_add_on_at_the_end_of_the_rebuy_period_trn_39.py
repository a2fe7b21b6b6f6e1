"""TRN-39 / FEE-04: the add-on — once per entry, for any player still in whatever their stack — during the last level
of the re-buy period (or at the first break after it), booked as prize contribution + fee; refused before its window,
after it and a second time, changing nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tournaments.rebuys_support import LEVEL, chips, house_fees, pool, rebuy_tournament, start_of, started
from tests.tournaments.support import cash
from tournaments.models import PurchaseKind
from tournaments.services import NotAllowedNow, entry_add_on, entry_rebuy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

ADD_ON = {"add_on_allowed": True, "add_on_buy_in": 2_000, "add_on_fee": 200, "add_on_chips": 3_000}


def test_the_add_on_is_taken_once_in_the_last_rebuy_level_and_booked_as_prize_and_fee_trn_39() -> None:
    tournament = rebuy_tournament(**ADD_ON, add_on_timing="last_rebuy_level")
    user, *_ = started(tournament, 3)
    start = start_of(tournament)
    entry_rebuy(user, tournament, now=start + timedelta(seconds=1))  # 2,000 chips: above the re-buy threshold
    before = (cash(user), pool(tournament), house_fees(), chips(user))
    with pytest.raises(NotAllowedNow, match="not available yet"):
        entry_add_on(user, tournament, now=start + LEVEL - timedelta(seconds=1))
    assert (cash(user), pool(tournament), house_fees(), chips(user)) == before
    purchase = entry_add_on(user, tournament, now=start + LEVEL + timedelta(seconds=1))
    assert purchase.kind == PurchaseKind.ADD_ON
    assert chips(user) == 2_000 + 3_000
    assert cash(user) == before[0] - 2_200
    assert pool(tournament) == before[1] + 2_000
    assert house_fees() == before[2] + 200
    after = (cash(user), pool(tournament), house_fees(), chips(user))
    with pytest.raises(NotAllowedNow, match="already taken the add-on"):
        entry_add_on(user, tournament, now=start + LEVEL + timedelta(seconds=2))
    assert (cash(user), pool(tournament), house_fees(), chips(user)) == after


def test_after_the_rebuy_period_the_add_on_is_no_longer_available_trn_39() -> None:
    tournament = rebuy_tournament(**ADD_ON, add_on_timing="last_rebuy_level")
    user, *_ = started(tournament, 3)
    before = (cash(user), pool(tournament), chips(user))
    with pytest.raises(NotAllowedNow, match="no longer available"):
        entry_add_on(user, tournament, now=start_of(tournament) + 2 * LEVEL + timedelta(seconds=1))
    assert (cash(user), pool(tournament), chips(user)) == before


def test_an_add_on_at_the_break_waits_for_the_first_break_after_the_rebuy_period_trn_39() -> None:
    from tests.tournaments.support import fresh
    from tournaments.services import tournaments_advance_all

    tournament = rebuy_tournament(**ADD_ON, add_on_timing="break", break_every_levels=2, break_seconds=300)
    user, *_ = started(tournament, 3)
    start = start_of(tournament)
    with pytest.raises(NotAllowedNow, match="not available yet"):
        entry_add_on(user, tournament, now=start + LEVEL + timedelta(seconds=1))
    tournaments_advance_all(now=start + 2 * LEVEL + timedelta(seconds=1))  # the break after level 2 starts
    on_break = fresh(tournament)
    assert on_break.break_ends_at is not None
    entry_add_on(user, tournament, now=start + 2 * LEVEL + timedelta(seconds=2))
    assert chips(user) == 1_000 + 3_000
