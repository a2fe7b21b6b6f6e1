"""TRN-38 / AMB-47 through registration: a player chooses a buy-in between the tournament's minimum and maximum, in its
steps; it is booked as prize contribution + fee in the base price's proportion (FEE-04) and the starting stack is
scaled: base €10 -> 10,000 chips, €25 -> 25,000 chips. A buy-in the tournament does not accept changes nothing."""

from __future__ import annotations

import pytest

from tests.tournaments.rebuys_support import chips, pool, started
from tests.tournaments.support import cash, fresh, player, scheduled
from tournaments.definitions import payouts_now
from tournaments.models import TournamentEntry
from tournaments.services import InvalidRequest, tournament_register, tournaments_advance_all
from wallet.models import AccountKind

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def multi_buy_in() -> object:
    """Base €9 + €1 fee = €10 for 10,000 chips; any buy-in from €5 to €50 in steps of €5."""
    return scheduled(
        buy_in=900, fee=100, starting_stack=10_000, buy_in_minimum=500, buy_in_maximum=5_000, buy_in_step=500
    )


def test_the_base_buy_in_gives_10000_chips_and_25_euros_gives_25000_chips_trn_38_amb_47() -> None:
    tournament = multi_buy_in()
    base, chooser = player(), player()
    tournament_register(base, tournament)
    entry = tournament_register(chooser, tournament, buy_in=2_500)
    assert cash(base) == 100_000 - 1_000
    assert cash(chooser) == 100_000 - 2_500
    assert (entry.prize_contribution, entry.fee, entry.starting_chips) == (2_250, 250, 25_000)
    legs = {leg.account.kind: leg.amount for leg in entry.registration_transfer.legs.select_related("account")}
    assert legs == {
        AccountKind.PLAYER_CASH: -2_500,
        AccountKind.TOURNAMENT_PRIZE_POOL: 2_250,
        AccountKind.HOUSE_FEES: 250,
    }
    assert pool(tournament) == 900 + 2_250
    assert payouts_now(fresh(tournament)).pool == 900 + 2_250
    assert tournament.starts_at is not None
    tournaments_advance_all(now=tournament.starts_at)
    assert chips(base) == 10_000
    assert chips(chooser) == 25_000


def test_a_buy_in_outside_the_range_or_between_steps_is_refused_and_changes_nothing_trn_38() -> None:
    tournament = multi_buy_in()
    user = player()
    for refused in (2_600, 400, 5_500, 0):
        with pytest.raises(InvalidRequest, match=r"from €5\.00 to €50\.00 in steps of €5\.00"):
            tournament_register(user, tournament, buy_in=refused)
    assert cash(user) == 100_000
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    assert fresh(tournament).entrants == 0


def test_a_tournament_with_one_buy_in_refuses_another_amount_trn_38() -> None:
    tournament = scheduled(buy_in=1_000, fee=100)
    user = player()
    with pytest.raises(InvalidRequest, match="one buy-in"):
        tournament_register(user, tournament, buy_in=2_200)
    assert cash(user) == 100_000
    tournament_register(user, tournament, buy_in=1_100)
    assert cash(user) == 100_000 - 1_100


def test_the_multi_buy_in_range_is_checked_with_the_definition_trn_38() -> None:
    from django.core.exceptions import ValidationError

    tournament = multi_buy_in()
    tournament.buy_in_step = 700  # €45 is not a whole number of €7 steps
    with pytest.raises(ValidationError, match="whole number of steps"):
        tournament.full_clean()
    tournament.buy_in_step, tournament.buy_in_minimum = 500, 1_500  # the base €10 is below the minimum
    with pytest.raises(ValidationError, match="between the minimum and the maximum"):
        tournament.full_clean()


def test_players_of_a_started_multi_buy_in_tournament_keep_their_own_stacks_trn_38() -> None:
    tournament = multi_buy_in()
    users = started(tournament, 3)
    assert sorted(chips(user) for user in users) == [10_000, 10_000, 10_000]
