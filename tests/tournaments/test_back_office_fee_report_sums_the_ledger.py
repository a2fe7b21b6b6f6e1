"""LOB-09: the back office reports tournament and Sit & Go fees per day and kind, from the ledger: the house fees
account's legs of registrations (FEE-04) less those of refunds (an unregistration, TRN-10), and the overlays the house
paid into prize pools (TRN-07). Small scenario: a scheduled tournament with three registrations on one day and one
unregistration the next; a guaranteed Sit & Go filled and started on the second day; a registration before the period
that the report leaves out. Bad periods are refused on the page, never a 500."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from tests.tournaments.back_office import FEE_REPORT, client_of
from tests.tournaments.support import player, register_players, scheduled, sit_and_go
from tournaments.models import TournamentKind
from tournaments.reports import FeeFigures, fee_report
from tournaments.services import tournament_register, tournament_unregister
from wallet.services import ledger

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
FIRST_DAY, SECOND_DAY = TODAY - timedelta(days=2), TODAY - timedelta(days=1)


def at_noon(day: date) -> datetime:
    return datetime.combine(day, time(12), tzinfo=UTC)


def booked_on(monkeypatch: pytest.MonkeyPatch, day: date) -> datetime:
    """Transfers from now on carry ``day``'s noon as their time (the ledger stamps them with the clock)."""
    moment = at_noon(day)
    monkeypatch.setattr(ledger, "timezone", SimpleNamespace(now=lambda: moment))
    return moment


def scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    starts = at_noon(TODAY + timedelta(days=3))
    earlier = scheduled(starts_at=starts, buy_in=2_000, fee=200)
    register_players(earlier, 1, now=booked_on(monkeypatch, TODAY - timedelta(days=5)))  # before the period

    weekly = scheduled(starts_at=starts, buy_in=1_000, fee=100)
    users = register_players(weekly, 3, now=booked_on(monkeypatch, FIRST_DAY))
    tournament_unregister(users[0], weekly, now=booked_on(monkeypatch, SECOND_DAY))

    guaranteed = sit_and_go(seats=3, buy_in=500, fee=50, guarantee=2_000)
    for user in [player() for _ in range(3)]:
        tournament_register(user, guaranteed, now=at_noon(SECOND_DAY))  # the third starts it: overlay 2,000 - 1,500


def figures(report: Any, day: date | None, kind: str) -> FeeFigures:
    lines = report.lines if day is not None else report.totals
    (line,) = [line for line in lines if line.day == day and line.kind == kind]
    return line.figures


def test_lob_09_fees_per_day_and_kind_with_the_refund_subtracted_and_the_overlay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario(monkeypatch)

    report = fee_report(FIRST_DAY, SECOND_DAY, UTC)

    assert figures(report, FIRST_DAY, TournamentKind.SCHEDULED) == FeeFigures(300, 0, 3, 0, 0)
    assert figures(report, SECOND_DAY, TournamentKind.SCHEDULED) == FeeFigures(0, 100, 0, 1, 0)
    assert figures(report, SECOND_DAY, TournamentKind.SIT_AND_GO) == FeeFigures(150, 0, 3, 0, 500)
    assert len(report.lines) == 3  # nothing on the first day for Sit & Gos, nothing from before the period
    scheduled_total = figures(report, None, TournamentKind.SCHEDULED)
    assert (scheduled_total.fees_received, scheduled_total.fees_refunded, scheduled_total.net_fees) == (300, 100, 200)
    assert figures(report, None, TournamentKind.SIT_AND_GO).net_fees == 150
    assert [line.day for line in report.lines] == [SECOND_DAY, SECOND_DAY, FIRST_DAY]  # newest first


def test_the_report_is_two_grouped_queries_whatever_the_number_of_registrations(
    monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    scenario(monkeypatch)

    # Every house fees leg (registrations, refunds, HexaPro games' fee components, FEE-06), overlays.
    with django_assert_num_queries(2):
        fee_report(FIRST_DAY, SECOND_DAY, UTC)


def test_the_page_shows_the_figures_to_compliance_reviewers(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario(monkeypatch)
    reviewer = client_of(COMPLIANCE_REVIEWERS)

    page = reviewer.get(FEE_REPORT, {"first_day": FIRST_DAY.isoformat(), "last_day": SECOND_DAY.isoformat()})

    assert page.status_code == 200
    text = page.content.decode()
    assert "€3.00" in text  # the scheduled tournament's fees received
    assert "€2.00" in text  # its net fees over the period
    assert "€5.00" in text  # the Sit & Go's overlay
    assert page.context["report"].first_day == FIRST_DAY


def test_the_page_without_a_period_shows_the_last_thirty_days() -> None:
    before = timezone.localdate()  # the day now, not at import: a run that crosses midnight failed on it once
    page = client_of(COMPLIANCE_REVIEWERS).get(FEE_REPORT)
    after = timezone.localdate()

    assert page.status_code == 200
    shown = (page.context["report"].first_day, page.context["report"].last_day)
    assert shown in {(today - timedelta(days=29), today) for today in (before, after)}
    assert "No tournament fees or overlays in this period." in page.content.decode()


@pytest.mark.parametrize(
    ("period", "error"),
    [
        ({"first_day": "2030-05-02", "last_day": "2030-05-01"}, "ends before it starts"),
        ({"first_day": "2029-01-01", "last_day": "2030-06-01"}, "at most 366 days"),
        ({"first_day": "yesterday", "last_day": "2030-05-01"}, "Enter a valid date"),
        ({"first_day": "2030-05-01"}, "This field is required"),
    ],
)
def test_a_bad_period_is_refused_on_the_page(period: dict[str, str], error: str) -> None:
    page = client_of(COMPLIANCE_REVIEWERS).get(FEE_REPORT, period)

    assert page.status_code == 200
    assert page.context["report"] is None
    assert error in page.content.decode()


def test_the_rule_refuses_a_backwards_or_too_long_period() -> None:
    with pytest.raises(ValueError, match="ends before it starts"):
        fee_report(SECOND_DAY, FIRST_DAY, UTC)
    with pytest.raises(ValueError, match="at most 366 days"):
        fee_report(FIRST_DAY - timedelta(days=366), FIRST_DAY, UTC)
