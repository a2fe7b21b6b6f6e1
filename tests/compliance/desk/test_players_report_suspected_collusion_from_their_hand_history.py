"""FRD-12, FRD-01, FRD-11, FRD-13: a player reports suspected collusion or team play from a hand of their history —
the hand, the players, their words — and each report opens a case about the reported players with the hand linked;
a report moves no money (FRD-13: no automatic compensation). A report on a hand the player was not in, or about a
player who was not in it, is refused and changes nothing; reports are rate-limited per player."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.errors import RateLimited, ReportRefused
from compliance.models import CaseSource, CaseStatus, PlayerReport
from compliance.services import player_report_create
from tests.compliance.desk.support import everything_that_records, played_hand, player
from tests.tables.back_office import logged_in
from wallet.models import Transfer

pytestmark = pytest.mark.django_db

WORDS = "Seat 2 and seat 3 never bet into each other and always squeeze me out of the pot."


def test_a_report_from_the_hand_history_opens_a_case_about_the_reported_players(reviewer: Any) -> None:
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    hand = played_hand([alice, bob, carol])
    client = logged_in(alice)
    assert f'href="/compliance/report/{hand.pk}/"' in client.get("/games/hands/").content.decode()
    form = client.get(f"/compliance/report/{hand.pk}/")
    assert form.status_code == 200
    transfers = Transfer.objects.count()

    response = client.post(f"/compliance/report/{hand.pk}/", {"reported": [bob.pk, carol.pk], "text": WORDS})

    assert response.status_code == 302
    assert response["Location"] == f"/games/hands/{hand.pk}/"
    report = PlayerReport.objects.get()
    case = report.case
    assert (report.reporter, report.hand, report.text) == (alice, hand, WORDS)
    assert set(report.reported.all()) == {bob, carol}
    assert (case.source, case.status) == (CaseSource.PLAYER_REPORT, CaseStatus.OPEN)
    assert set(case.subjects.all()) == {bob, carol}
    assert list(case.hands.all()) == [hand]
    assert Transfer.objects.count() == transfers  # FRD-13: no compensation flows from a report
    assert WORDS in logged_in(reviewer).get(f"/compliance/cases/{case.pk}/").content.decode()


def test_a_report_on_a_hand_the_player_was_not_in_is_refused_and_changes_nothing() -> None:
    alice, bob, carol, outsider = player("alice"), player("bob"), player("carol"), player("outsider")
    hand = played_hand([alice, bob, carol])
    before = everything_that_records()
    client = logged_in(outsider)
    assert client.get(f"/compliance/report/{hand.pk}/").status_code == 404
    response = client.post(f"/compliance/report/{hand.pk}/", {"reported": [bob.pk], "text": WORDS})
    assert response.status_code == 400
    assert f"You were not in hand #{hand.pk}" in response.content.decode()
    with pytest.raises(ReportRefused):
        player_report_create(outsider, hand.pk, [bob.pk], WORDS)
    assert everything_that_records() == before


def test_reporting_a_player_who_was_not_in_the_hand_or_oneself_is_refused() -> None:
    alice, bob, carol, outsider = player("alice"), player("bob"), player("carol"), player("outsider")
    hand = played_hand([alice, bob, carol])
    before = everything_that_records()
    for reported in ([outsider.pk], [alice.pk]):
        with pytest.raises(ReportRefused, match="other players who were in this hand"):
            player_report_create(alice, hand.pk, reported, WORDS)
    response = logged_in(alice).post(f"/compliance/report/{hand.pk}/", {"reported": [outsider.pk], "text": WORDS})
    assert response.status_code == 400  # not one of the form's choices
    assert everything_that_records() == before


def test_reports_are_rate_limited_per_player(settings: Any) -> None:
    settings.COMPLIANCE_REPORTS_PER_DAY = 2
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    hand = played_hand([alice, bob, carol])
    for _ in range(2):
        player_report_create(alice, hand.pk, [bob.pk], WORDS)
    before = everything_that_records()
    response = logged_in(alice).post(f"/compliance/report/{hand.pk}/", {"reported": [bob.pk], "text": WORDS})
    assert response.status_code == 429
    assert "at most 2 reports a day" in response.content.decode()
    with pytest.raises(RateLimited):
        player_report_create(alice, hand.pk, [carol.pk], WORDS)
    assert everything_that_records() == before
    player_report_create(bob, hand.pk, [alice.pk], WORDS)  # another player's own allowance


def test_an_empty_report_is_refused() -> None:
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    hand = played_hand([alice, bob, carol])
    before = everything_that_records()
    response = logged_in(alice).post(f"/compliance/report/{hand.pk}/", {"reported": [bob.pk], "text": "  "})
    assert response.status_code == 400
    assert everything_that_records() == before
