"""A Banzai player back within 30 minutes with more than 10 BB chooses Resume or Reset through the stake queue, the one
way to sit down (CASH-04, CASH-30, CASH-31); an unknown choice is refused and nothing is queued."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Seat, SeatingRequest, SeatingRequestStatus
from games.services import BuyInRefused, table_join_queue
from tests.tables.support import START, cash, left_table_earlier, open_table, player

pytestmark = pytest.mark.django_db

TEN_MINUTES_AGO = START - timedelta(minutes=10)


def test_cash_31_a_player_back_with_12_euros_resets_to_10_big_blinds_through_the_queue() -> None:
    table = open_table("banzai", "NL5")
    user = player(cash=10_000)
    left_table_earlier(user, table, 1200, TEN_MINUTES_AGO)

    request = table_join_queue(user, table.stake, 500, banzai_choice="reset", now=START)

    assert (request.status, request.banzai_choice) == (SeatingRequestStatus.SEATED, "reset")
    session = Seat.objects.select_related("session").get(user=user).session
    assert session is not None
    assert (session.initial_buy_in, session.buy_in_kind) == (500, "banzai_reset")
    assert cash(user) == 9_500


def test_cash_30_without_a_choice_the_player_resumes_with_the_stack_they_left_with() -> None:
    table = open_table("banzai", "NL5")
    user = player(cash=10_000)
    left_table_earlier(user, table, 1200, TEN_MINUTES_AGO)

    request = table_join_queue(user, table.stake, 1200, now=START)

    assert request.status == SeatingRequestStatus.SEATED
    session = Seat.objects.select_related("session").get(user=user).session
    assert session is not None
    assert (session.initial_buy_in, session.buy_in_kind) == (1200, "banzai_resume")


@pytest.mark.parametrize("choice", ["restart", "", "RESET"])
def test_an_unknown_banzai_choice_is_refused_and_nothing_is_queued(choice: str) -> None:
    table = open_table("banzai", "NL5")
    user = player(cash=10_000)

    with pytest.raises(BuyInRefused, match="choose resume or reset"):
        table_join_queue(user, table.stake, 500, banzai_choice=choice, now=START)

    assert not SeatingRequest.objects.filter(user=user).exists()
    assert not Seat.objects.filter(user=user).exists()
    assert cash(user) == 10_000


def test_cash_26_a_banzai_buy_in_of_another_amount_is_refused_as_exactly_10_big_blinds() -> None:
    """The refusal named a range from €5.00 to €5.00 (a QA finding): a Banzai buy-in has no range."""
    table = open_table("banzai", "NL5")
    user = player(cash=10_000)

    with pytest.raises(BuyInRefused, match=r"is exactly €5\.00\.$"):
        table_join_queue(user, table.stake, 400, now=START)
    assert not SeatingRequest.objects.filter(user=user).exists()
