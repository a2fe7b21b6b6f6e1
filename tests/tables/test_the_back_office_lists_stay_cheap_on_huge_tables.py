"""The back office's cash-table lists are built for tables of millions of rows (house style): no full COUNT(*), no
SELECT DISTINCT over a column to build a filter, a fixed number of queries however many rows a page shows, and searches
by number that use the primary key's index."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Hand
from tests.tables.back_office import logged_in, support_agent
from tests.tables.support import deal, fold_to_the_end, open_table, player, seat_players

pytestmark = pytest.mark.django_db

LISTS = [
    "/admin/games/hand/",
    "/admin/games/handevent/",
    "/admin/games/seat/",
    "/admin/games/tablesession/",
    "/admin/games/table/",
    "/admin/games/seatingrequest/",
    "/admin/games/playerdailycounter/",
    "/admin/games/playertablesettings/",
]


def _play(tables: int, hands: int) -> None:
    for _ in range(tables):
        table = open_table()
        seat_players(table, [player() for _ in range(3)], 1000)
        for _ in range(hands):
            deal(table)
            fold_to_the_end(table)


def _queries_of(client: Any, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as capture:
        response = client.get(url)
    assert response.status_code == 200, url
    return [query["sql"] for query in capture.captured_queries]


@pytest.mark.parametrize("url", LISTS)
def test_a_list_page_costs_the_same_queries_for_more_rows_and_never_counts_or_scans_everything(url: str) -> None:
    staff = logged_in(support_agent())
    _play(tables=1, hands=1)
    few = _queries_of(staff, url)
    _play(tables=3, hands=3)
    many = _queries_of(staff, url)

    assert len(many) == len(few), f"{url}: {len(few)} queries for a few rows, {len(many)} for more"
    for sql in many:
        assert not ("COUNT(" in sql and "LIMIT" not in sql), f"{url} counted every row: {sql}"
        assert "SELECT DISTINCT" not in sql, f"{url} scanned a column for a filter: {sql}"


def test_searching_a_hand_number_uses_the_primary_key() -> None:
    _play(tables=1, hands=2)
    hand = Hand.objects.order_by("pk").first()
    assert hand is not None
    staff = logged_in(support_agent())

    queries = _queries_of(staff, f"/admin/games/hand/?q={hand.pk}")

    listing = [sql for sql in queries if 'FROM "games_hand"' in sql and "LIMIT" in sql]
    assert listing
    assert all("UPPER" not in sql for sql in listing)
    assert any(f'"games_hand"."id" = {hand.pk}' in sql for sql in listing)


def test_a_players_hands_are_found_with_player_colon_username() -> None:
    _play(tables=2, hands=2)
    staff = logged_in(support_agent())
    first_hand = Hand.objects.order_by("pk").first()
    assert first_hand is not None
    someone = first_hand.players.order_by("pk").first().user  # type: ignore[union-attr]

    page = staff.get(f"/admin/games/hand/?q=player:{someone.username}")

    shown = {hand.pk for hand in page.context["cl"].result_list}
    assert shown == set(Hand.objects.filter(players__user=someone).values_list("pk", flat=True))
    assert len(shown) == 2  # their table's two hands, not the other table's


def test_a_hands_events_are_listed_by_its_number() -> None:
    _play(tables=1, hands=2)
    first, second = Hand.objects.order_by("pk")[:2]
    staff = logged_in(support_agent())

    page = staff.get(f"/admin/games/handevent/?q={first.pk}")

    shown = {row.hand_id for row in page.context["cl"].result_list}
    assert shown == {first.pk}
    assert second.pk not in shown


def test_the_tables_list_offers_every_stake_to_filter_by_for_the_same_queries_however_many_stakes() -> None:
    """The stake filter names each stake with its game type: read together, not one query per stake."""
    from django.utils.html import escape

    from games.models import GameType, Stake

    staff = logged_in(support_agent())
    _play(tables=1, hands=1)
    few = _queries_of(staff, "/admin/games/table/")
    for game_type in GameType.objects.all():
        Stake.objects.bulk_create([Stake(game_type=game_type, label=f"NL{900 + number}") for number in range(5)])
    response = staff.get("/admin/games/table/")
    many = _queries_of(staff, "/admin/games/table/")

    assert len(many) == len(few)
    some_stake = Stake.objects.select_related("game_type").get(label="NL904", game_type=GameType.objects.first())
    assert escape(str(some_stake)) in response.content.decode()
