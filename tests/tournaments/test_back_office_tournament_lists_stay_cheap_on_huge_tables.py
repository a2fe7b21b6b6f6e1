"""The tournament back office is built for huge tables (house style, as the cash-table lists): a list page, a
tournament's change page (its live monitor) and the fee report cost the same number of queries however many rows
there are, never count every row, and build no filter by scanning a column for its values (LOB-08, LOB-09)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.tournaments.back_office import (
    BREAKS,
    ENTRIES,
    FEE_REPORT,
    PAYOUT_STRUCTURES,
    TABLES,
    TOURNAMENTS,
    client_of,
)
from tests.tournaments.support import register_players, sit_and_go
from tournaments.models import EntryStatus, Tournament, TournamentBreak, TournamentEntry

pytestmark = pytest.mark.django_db

LISTS = [TOURNAMENTS, ENTRIES, TABLES, BREAKS, PAYOUT_STRUCTURES, FEE_REPORT]


def running(seats: int) -> Tournament:
    tournament = sit_and_go(seats=seats)
    register_players(tournament, seats, now=timezone.now())
    now = timezone.now()
    TournamentBreak.objects.create(tournament=tournament, started_at=now, ends_at=now)
    return tournament


def with_places(tournament: Tournament, places: int) -> None:
    """Give the last ``places`` places (as eliminations do), with prizes for the best of them."""
    entries = list(TournamentEntry.objects.filter(tournament=tournament).order_by("pk"))
    for place, entry in zip(range(len(entries), len(entries) - places, -1), entries, strict=False):
        TournamentEntry.objects.filter(pk=entry.pk).update(status=EntryStatus.FINISHED, place=place, prize=place * 100)


def queries_of(client: Any, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as capture:
        response = client.get(url)
    assert response.status_code == 200, url
    return [query["sql"] for query in capture.captured_queries]


def assert_cheap(url: str, few: list[str], many: list[str]) -> None:
    assert len(many) == len(few), f"{url}: {len(few)} queries for a few rows, {len(many)} for more:\n" + "\n".join(
        sql[:160] for sql in (few if len(few) > len(many) else many)
    )
    for sql in many:
        assert not ("COUNT(" in sql and "LIMIT" not in sql and "GROUP BY" not in sql), f"{url} counted every row: {sql}"
        assert "SELECT DISTINCT" not in sql, f"{url} scanned a column for a filter: {sql}"


@pytest.mark.parametrize("url", LISTS)
def test_a_list_page_costs_the_same_queries_for_more_rows_and_never_counts_or_scans_everything(url: str) -> None:
    staff = client_of(SUPPORT_STAFF)
    running(3)
    queries_of(staff, url)  # warm the process's caches (content types)
    few = queries_of(staff, url)
    for seats in (3, 9):
        with_places(running(seats), 2)
    many = queries_of(staff, url)

    assert_cheap(url, few, many)


def test_a_tournaments_change_page_costs_the_same_queries_for_a_bigger_field() -> None:
    staff = client_of(SUPPORT_STAFF)
    small, big = running(3), running(9)
    with_places(small, 1)
    with_places(big, 6)

    queries_of(staff, f"{TOURNAMENTS}{small.pk}/change/")  # warm the process's caches (content types)
    few = queries_of(staff, f"{TOURNAMENTS}{small.pk}/change/")
    many = queries_of(staff, f"{TOURNAMENTS}{big.pk}/change/")

    assert_cheap("the change page", few, many)


def test_the_change_page_shows_the_runs_entries_tables_levels_places_and_payouts() -> None:
    tournament = running(3)
    with_places(tournament, 2)
    page = client_of(SUPPORT_STAFF).get(f"{TOURNAMENTS}{tournament.pk}/change/").content.decode()

    assert "playing: 1" in page
    assert "finished: 2" in page
    assert "Fees kept: €3.00" in page  # three fees of €1.00
    assert "/games/tables/" in page  # the live table page
    assert 'name="levels-0-big_blind"' in page
    assert "€3.00" in page  # place 3's prize (as set here)
    assert "Prize pool €30.00, 1 places paid" in page  # 3 x €10 buy-ins, winner takes all
    assert "unpaid" in page
