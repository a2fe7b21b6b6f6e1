"""FRD-18, LOB-10: the compliance desk is the compliance role's. Every page of it answers 200 to a reviewer and an
administrator, 403 to support staff and to players, and sends a visitor who is not logged in to the log-in page;
its actions refuse support staff (403) and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from compliance.detection.flags import Flag as Finding
from compliance.services import flags_store
from tests.compliance.desk.support import case_about, everything_that_records, played_hand, player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk_pages(reviewer: Any) -> list[str]:
    alice, bob = player("alice"), player("bob")
    hand = played_hand([alice, bob])
    case = case_about(reviewer, alice, hands=(hand,))
    flags_store([Finding("shared_connection", (f"user:{alice.pk}", f"user:{bob.pk}"), 2.0, 1.0, (f"hand:{hand.pk}",))])
    from compliance.models import Flag

    flag = Flag.objects.get()
    return [
        "/compliance/",
        f"/compliance/flags/{flag.pk}/",
        "/compliance/cases/",
        "/compliance/cases/new/",
        f"/compliance/cases/{case.pk}/",
        f"/compliance/hands/{hand.pk}/",
        f"/compliance/players/{alice.pk}/",
    ]


def test_a_reviewer_and_an_administrator_open_every_page_of_the_desk(
    desk_pages: list[str], reviewer: Any, administrator: Any
) -> None:
    for staff in (reviewer, administrator):
        client = logged_in(staff)
        answers = {page: client.get(page).status_code for page in desk_pages}
        assert answers == dict.fromkeys(desk_pages, 200), staff.username


def test_support_staff_and_players_are_refused_every_page_of_the_desk(
    desk_pages: list[str], support_agent: Any
) -> None:
    for person in (support_agent, player("carol")):
        client = logged_in(person)
        answers = {page: client.get(page).status_code for page in desk_pages}
        assert answers == dict.fromkeys(desk_pages, 403), person.username


def test_a_visitor_who_is_not_logged_in_is_sent_to_log_in(desk_pages: list[str]) -> None:
    for page in desk_pages:
        response = Client().get(page)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/log-in/")


def test_support_staff_cannot_act_on_a_case_and_nothing_changes(reviewer: Any, support_agent: Any) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    before = everything_that_records()
    client = logged_in(support_agent)
    for action, data in (
        ("note", {"note-text": "looks fine"}),
        ("standing", {"standing-player": alice.pk, "standing-state": "suspended", "standing-reason": "x"}),
        ("close", {"close-outcome": "no_violation", "close-decision": "nothing"}),
    ):
        assert client.post(f"/compliance/cases/{case.pk}/{action}/", data).status_code == 403
    assert everything_that_records() == before


def test_only_reviewers_see_the_desk_in_the_site_header(reviewer: Any, support_agent: Any) -> None:
    assert b'id="compliance-desk-link"' in logged_in(reviewer).get("/rules/cash-games/").content
    assert b'id="compliance-desk-link"' not in logged_in(support_agent).get("/rules/cash-games/").content
