"""CXL-01, TRN-28: the cancellations' and the tournament bars' lists are built for huge tables like the other
tournament lists: the same number of queries however many rows, no count of every row, no filter that scans a column
for its values; a cancellation's page with its calculation costs the same for more players."""

from __future__ import annotations

from typing import Any

import pytest

from poker_site.accounts.roles import SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tournaments.back_office import client_of
from tests.tournaments.support import player, sit_and_go
from tests.tournaments.test_back_office_tournament_lists_stay_cheap_on_huge_tables import assert_cheap, queries_of
from tournaments.models import TournamentBar, TournamentCancellation

pytestmark = pytest.mark.django_db

CANCELLATIONS = "/admin/tournaments/tournamentcancellation/"
BARS = "/admin/tournaments/tournamentbar/"


def figures(players: list[Any]) -> dict[str, Any]:
    """An archived calculation's shape (as ``CancellationCalculation.to_json()``) for ``players``."""
    return {
        "state": "started-not-in-the-money",
        "rules": ["CXL-03", "CXL-04", "AMB-34"],
        "input": {"purchases": [], "remaining": [{"player": str(p.pk), "chips": 100, "seat": 1} for p in players]},
        "icm": None,
        "money_held": {"total_cents": 0},
        "compensations": [{"player": str(p.pk), "money_cents": 100, "pool_share_exact": "100"} for p in players],
        "kept_by_house": [],
        "totals": {"paid_in_money_cents": 100 * len(players)},
    }


def cancellations(count: int, players: int, proposer: Any) -> TournamentCancellation:
    row = None
    for _ in range(count):
        row = TournamentCancellation.objects.create(
            tournament=sit_and_go(seats=3),
            reason="Outage",
            proposed_by=proposer,
            state="started-not-in-the-money",
            calculation=figures([player() for _ in range(players)]),
            status="withdrawn",
        )
    assert row is not None
    return row


def bars(count: int, staff: Any) -> None:
    for _ in range(count):
        TournamentBar.objects.create(user=player(), reason="Multi-accounting", barred_by=staff)


@pytest.mark.parametrize("url", [CANCELLATIONS, f"{CANCELLATIONS}?status=withdrawn&state=hexapro", BARS])
def test_a_list_page_costs_the_same_queries_for_more_rows_and_never_counts_or_scans_everything(url: str) -> None:
    judge = staff_member(SUPPORT_STAFF, "support-judge")
    staff = client_of(SUPPORT_STAFF)
    cancellations(1, 2, judge)
    bars(1, judge)
    queries_of(staff, url)  # warm the process's caches (content types)
    few = queries_of(staff, url)
    cancellations(4, 2, judge)
    bars(4, judge)
    many = queries_of(staff, url)

    assert_cheap(url, few, many)


def test_a_cancellations_page_costs_the_same_queries_for_more_players() -> None:
    judge = staff_member(SUPPORT_STAFF, "support-judge")
    staff = client_of(SUPPORT_STAFF)
    small, big = cancellations(1, 2, judge), cancellations(1, 30, judge)
    queries_of(staff, f"{CANCELLATIONS}{small.pk}/change/")

    assert_cheap(
        "a cancellation's page",
        queries_of(staff, f"{CANCELLATIONS}{small.pk}/change/"),
        queries_of(staff, f"{CANCELLATIONS}{big.pk}/change/"),
    )
