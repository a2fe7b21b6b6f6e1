"""The buy-in dialog asks the server for the player's own limits at a table (LOB-05): the ratholing limits of the
table they left (CASH-11), the Banzai Resume or Reset choice (CASH-30, CASH-31), otherwise the table's range (CASH-10);
and a Banzai player can take the Reset through the API."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.realtime.conftest import deposit, make_table, make_user
from tests.tables.support import left_table_earlier

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def limits_of(user: Any, table: Any) -> dict[str, Any]:
    response = client_for(user).get(f"/api/games/tables/{table.pk}/buy-in/")
    assert response.status_code == 200, response.content
    return dict(response.json())


def test_cash_10_a_player_who_has_not_left_the_table_gets_its_range() -> None:
    table = make_table("holdem", "NL10")
    limits = limits_of(make_user("newcomer"), table)
    assert (limits["minimum"], limits["maximum"], limits["kind"]) == (500, 1000, "normal")
    assert limits["rule"] == "The usual buy-in range of this table"  # plain words, no requirement ID
    assert limits["banzai_resume_stack"] is None


def test_lob_05_cash_11_a_player_back_at_the_table_they_left_sees_the_ratholing_minimum_there_only() -> None:
    """CASH-11 row "50 < X < 100 BB": left 10 minutes ago with €7.30 → €7.30 to €10.00 at that table; CASH-13: the
    other table of the stake keeps its range."""
    left = make_table("holdem", "NL10", name="Left")
    other = make_table("holdem", "NL10", name="Other")
    user = make_user("returning")
    left_table_earlier(user, left, 730, timezone.now() - timedelta(minutes=10))

    there = limits_of(user, left)
    elsewhere = limits_of(user, other)

    assert (there["minimum"], there["maximum"], there["returning_stack"]) == (730, 1000, 730)
    assert there["rule"] == (
        "You left this table with €7.30 less than 30 minutes ago: you come back with at least that stack"
    )
    assert (elsewhere["minimum"], elsewhere["maximum"]) == (500, 1000)


def test_lob_05_cash_31_a_banzai_player_back_with_more_than_10_big_blinds_is_offered_resume_or_reset() -> None:
    left = make_table("banzai", "NL5", name="Banzai left")
    table = make_table("banzai", "NL5", name="Banzai next")
    user = make_user("banzai")
    deposit(user, 10_000)
    left_table_earlier(user, left, 1200, timezone.now() - timedelta(minutes=10))

    offer = limits_of(user, table)

    assert (offer["minimum"], offer["maximum"], offer["kind"]) == (1200, 1200, "banzai_resume")
    assert (offer["banzai_resume_stack"], offer["banzai_resets_left"], offer["banzai_reset_amount"]) == (1200, 5, 500)

    response = client_for(user).post(
        f"/api/games/stakes/{table.stake_id}/queue/",
        data=json.dumps({"buy_in": 500, "banzai_choice": "reset"}),
        content_type="application/json",
    )

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "seated"
    from games.models import Seat

    seat = Seat.objects.select_related("session").get(user=user)  # the stake queue assigns the table (CASH-04)
    assert seat.session is not None
    assert (seat.session.initial_buy_in, seat.session.buy_in_kind) == (500, "banzai_reset")
    assert limits_of(make_user("someone-else"), table)["banzai_resume_stack"] is None


@pytest.mark.parametrize("choice", ["restart", "", 1, None])
def test_an_unknown_banzai_choice_is_refused_and_seats_no_one(choice: object) -> None:
    from games.models import Seat

    table = make_table("banzai", "NL5")
    user = make_user("chooser")
    deposit(user, 10_000)
    response = client_for(user).post(
        f"/api/games/stakes/{table.stake_id}/queue/",
        data=json.dumps({"buy_in": 500, "banzai_choice": choice}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert not Seat.objects.filter(user=user).exists()


def test_the_limits_need_a_logged_in_player_and_a_table() -> None:
    table = make_table()
    assert Client().get(f"/api/games/tables/{table.pk}/buy-in/").status_code == 403
    assert client_for(make_user("lost")).get("/api/games/tables/999999/buy-in/").status_code == 404
