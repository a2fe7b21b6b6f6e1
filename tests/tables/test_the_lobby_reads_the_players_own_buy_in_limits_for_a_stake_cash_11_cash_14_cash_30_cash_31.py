"""The lobby's buy-in dialog reads the player's own limits for the stake they ask to play (LOB-05), from
``GET /api/games/stakes/<id>/buy-in/``, the answer ``tables/<id>/buy-in/`` gives on a table's page: a Banzai player back
with more than 10 BB gets Resume with the stack they left with or Reset to 10 BB (CASH-30, CASH-31; at any Banzai table
of the stake, AMB-62, even when none is open now); a player back within 30 minutes gets the ratholing limits of the
table they left (CASH-11) or the Deepstack/Shortstack ones (CASH-14); anyone else the stake's range (CASH-10). Before,
the lobby showed the stake's range to everyone and a returning Banzai player could not sit from it (QA report F,
findings 1 and 2)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Table, TableStatus
from tests.tables.support import left_table_earlier, open_table, player, stake

pytestmark = pytest.mark.django_db


def limits(user: Any, stake_id: int) -> dict[str, Any]:
    client = Client()
    client.force_login(user)
    response = client.get(f"/api/games/stakes/{stake_id}/buy-in/")
    assert response.status_code == 200, response.content
    return dict(response.json())


def ten_minutes_ago() -> Any:
    return timezone.now() - timedelta(minutes=10)


def test_cash_30_cash_31_a_banzai_player_back_with_more_than_10_big_blinds_may_resume_or_reset() -> None:
    table = open_table("banzai", "NL1")  # 10 BB = €1.00
    bob = player(cash=5_000)
    left_table_earlier(bob, table, 108, ten_minutes_ago())
    Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)  # any table of the stake: none open now

    answer = limits(bob, table.stake_id)

    assert (answer["minimum"], answer["maximum"], answer["kind"]) == (108, 108, "banzai_resume")
    assert (answer["banzai_resume_stack"], answer["banzai_reset_amount"], answer["banzai_resets_left"]) == (108, 100, 5)
    assert answer["rule"].startswith("You left a Banzai table of this stake with €1.08 less than 30 minutes ago")


def test_cash_11_a_player_back_at_the_table_they_left_gets_its_ratholing_limits() -> None:
    table = open_table("omaha", "PL10")
    carol = player(cash=5_000)
    left_table_earlier(carol, table, 1011, ten_minutes_ago())

    answer = limits(carol, table.stake_id)

    assert (answer["minimum"], answer["maximum"], answer["kind"], answer["returning_stack"]) == (
        1000,
        1011,
        "rathole_return",
        1011,
    )
    assert answer["rule"].startswith("You left this table with €10.11 less than 30 minutes ago")


def test_cash_14_a_deepstack_return_needs_at_least_the_stack_left_with() -> None:
    table = open_table("deepstack", "NL100")
    user = player(cash=50_000)
    left_table_earlier(user, table, 7_300, ten_minutes_ago())

    answer = limits(user, table.stake_id)

    assert (answer["minimum"], answer["maximum"], answer["returning_stack"]) == (7_300, 10_000, 7_300)


def test_cash_10_anyone_else_and_a_player_whose_table_has_closed_get_the_stakes_range() -> None:
    table = open_table()
    assert (limits(player(), table.stake_id)["minimum"], limits(player(), table.stake_id)["maximum"]) == (500, 1000)
    returning = player()
    left_table_earlier(returning, table, 1833, ten_minutes_ago())
    Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)  # nobody can sit at that table again

    answer = limits(returning, table.stake_id)

    assert (answer["minimum"], answer["maximum"], answer["kind"], answer["returning_stack"]) == (
        500,
        1000,
        "normal",
        None,
    )


def test_the_stake_limits_need_a_logged_in_player_and_a_stake() -> None:
    holdem = stake("holdem", "NL10")
    assert Client().get(f"/api/games/stakes/{holdem.pk}/buy-in/").status_code == 403
    client = Client()
    client.force_login(player())
    assert client.get("/api/games/stakes/999999/buy-in/").status_code == 404
