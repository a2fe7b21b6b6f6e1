"""QA report H, finding 1 (issue 30, LOB-10): a compliance case's subjects, and the targets of standing changes, holds,
seizures, Banzai exclusion, disclosures, video requests and disqualifications from the desk, are players' accounts. An
account that holds privileges (staff, superuser, any group or permission) is refused by the services, whatever page
or path asks, with a sentence that says so, and nothing changes: a reviewer cannot terminate an administrator or
another reviewer."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from compliance.errors import NotAllowed
from compliance.models import AccountStanding, Standing
from compliance.services import (
    account_standing_set,
    banzai_exclusion_set,
    case_hold_create,
    case_link,
    case_open,
    disclosure_record,
    flag_case_add,
    flag_case_open,
    tournament_disqualify,
    video_request_create,
)
from tests.compliance.desk.support import case_about, everything_that_records, made_reviewer, player
from tests.compliance.desk.test_a_flag_is_taken_into_a_case_or_dismissed import flag_of
from tests.tables.back_office import logged_in
from tests.tournaments.support import register_players, scheduled
from tournaments.models import TournamentEntry

pytestmark = pytest.mark.django_db

STAFF_ACCOUNT = "is a staff account"


def test_a_case_about_an_administrator_or_a_reviewer_is_refused(
    reviewer: Any, second_reviewer: Any, administrator: Any
) -> None:
    alice = player("alice")
    before = everything_that_records()
    for staff in (administrator, second_reviewer):
        with pytest.raises(NotAllowed, match=f"{staff.username} {STAFF_ACCOUNT}"):
            case_open(reviewer, title="Review", subject_ids=[alice.pk, staff.pk])
    assert everything_that_records() == before


def test_linking_a_staff_account_to_a_case_is_refused(reviewer: Any, administrator: Any) -> None:
    case = case_about(reviewer, player("alice"))
    before = everything_that_records()
    with pytest.raises(NotAllowed, match=f"{administrator.username} {STAFF_ACCOUNT}"):
        case_link(case, reviewer, subject_ids=[administrator.pk])
    assert everything_that_records() == before
    assert not case.subjects.filter(pk=administrator.pk).exists()


def test_the_case_form_on_the_desk_refuses_a_staff_account_with_the_reason(reviewer: Any, administrator: Any) -> None:
    response = logged_in(reviewer).post(
        "/compliance/cases/new/", {"title": "Review", "usernames": administrator.username, "hands": "", "note": ""}
    )
    assert response.status_code == 400
    assert STAFF_ACCOUNT in response.content.decode()


def test_a_flag_naming_a_staff_account_opens_no_case_and_joins_none(reviewer: Any, administrator: Any) -> None:
    alice = player("alice")
    flag = flag_of("chip_dumping", [alice, administrator], 5.0)
    case = case_about(reviewer, alice)
    before = everything_that_records()
    with pytest.raises(NotAllowed, match=STAFF_ACCOUNT):
        flag_case_open(flag, reviewer)
    with pytest.raises(NotAllowed, match=STAFF_ACCOUNT):
        flag_case_add(flag, case, reviewer)
    assert everything_that_records() == before


def test_a_reviewer_cannot_terminate_suspend_or_sanction_a_subject_who_became_staff(reviewer: Any) -> None:
    bob = player("bob")
    case = case_about(reviewer, bob)
    bob = made_reviewer(bob)
    before = everything_that_records()
    for state in (Standing.TERMINATED, Standing.SUSPENDED, Standing.UNDER_REVIEW):
        with pytest.raises(NotAllowed, match=f"bob {STAFF_ACCOUNT}"):
            account_standing_set(case, reviewer, bob, state, "Collusion")
    with pytest.raises(NotAllowed, match=STAFF_ACCOUNT):
        case_hold_create(case, reviewer, bob, 1_000, "Under review")
    with pytest.raises(NotAllowed, match=STAFF_ACCOUNT):
        banzai_exclusion_set(case, reviewer, bob, excluded=True, reason="Soft play")
    with pytest.raises(NotAllowed, match=STAFF_ACCOUNT):
        disclosure_record(case, reviewer, bob, recipient="Bank", information="Everything", reason="Request")
    with pytest.raises(NotAllowed, match=STAFF_ACCOUNT):
        video_request_create(
            case, reviewer, bob, deadline=timezone.now() + timedelta(days=3), instructions="Record a session"
        )
    assert everything_that_records() == before
    assert not AccountStanding.objects.filter(user=bob).exclude(state=Standing.ACTIVE).exists()


def test_the_standing_form_refuses_to_terminate_a_staff_subject_and_says_why(reviewer: Any) -> None:
    bob = player("bob")
    case = case_about(reviewer, bob)
    made_reviewer(bob)
    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/standing/",
        {"standing-player": bob.pk, "standing-state": Standing.TERMINATED, "standing-reason": "Gone"},
    )
    assert response.status_code == 400
    assert STAFF_ACCOUNT in response.content.decode()
    assert not AccountStanding.objects.filter(user=bob, state=Standing.TERMINATED).exists()


def test_a_staff_accounts_tournament_entry_is_not_disqualified_from_the_desk(reviewer: Any) -> None:
    tournament = scheduled()
    first, second = register_players(tournament, 2)
    case = case_about(reviewer, first, second)
    made_reviewer(second)
    entry = TournamentEntry.objects.get(tournament=tournament, user=second)
    before = everything_that_records()
    with pytest.raises(NotAllowed, match=STAFF_ACCOUNT):
        tournament_disqualify(case, reviewer, entry.pk, reason="Second account", forfeit_prize=False)
    assert TournamentEntry.objects.get(pk=entry.pk).status == entry.status
    assert everything_that_records() == before


def test_the_withheld_funds_of_a_subject_who_became_staff_are_not_seized(reviewer: Any) -> None:
    from compliance.services import case_hold_seizure_propose

    bob = player("bob")
    case = case_about(reviewer, bob)
    hold = case_hold_create(case, reviewer, bob, 1_000, "Under review")
    made_reviewer(bob)
    before = everything_that_records()
    with pytest.raises(NotAllowed, match=STAFF_ACCOUNT):
        case_hold_seizure_propose(case, reviewer, hold, "Collusion proven")
    assert everything_that_records() == before
