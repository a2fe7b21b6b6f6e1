"""QA report H, finding 2 (conflict of interest, issue 30): a reviewer who is a subject of a case (a player made a
reviewer after the case was opened) never acts on it — note, link, review, standing change, hold, seizure, close — nor
takes into a case or dismisses, alone or in bulk, a flag that names them; the services refuse with a sentence and
nothing changes. They do not read the evidence against themselves either: the desk's case, flag and own player pages
answer 403, the queue does not list their flags, and the admin's case and flag lists leave them out."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.errors import NotAllowed
from compliance.models import Flag, FlagStatus, Standing
from compliance.services import (
    account_standing_set,
    case_close,
    case_hold_create,
    case_hold_seizure_propose,
    case_link,
    case_note_add,
    case_review_start,
    flag_case_add,
    flag_case_open,
    flag_dismiss,
    flags_dismiss,
)
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve
from tests.compliance.desk.support import case_about, everything_that_records, made_reviewer, player
from tests.compliance.desk.test_a_flag_is_taken_into_a_case_or_dismissed import flag_of
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

OWN_ACCOUNT = "concerns your own account"


@pytest.fixture
def case_about_a_reviewer(reviewer: Any) -> tuple[Any, Any, Any]:
    """A case about alice and bob, opened by rita; bob is then made a reviewer."""
    alice, bob = player("alice"), player("bob")
    case = case_about(reviewer, alice, bob)
    return case, alice, made_reviewer(bob)


def test_a_reviewer_who_is_a_subject_cannot_act_on_the_case(case_about_a_reviewer: Any) -> None:
    case, alice, bob = case_about_a_reviewer
    carol = player("carol")
    before = everything_that_records()
    refused = [
        lambda: case_review_start(case, bob),
        lambda: case_note_add(case, bob, "Nothing to see here"),
        lambda: case_link(case, bob, subject_ids=[carol.pk]),
        lambda: account_standing_set(case, bob, alice, Standing.ACTIVE, "Cleared"),
        lambda: account_standing_set(case, bob, alice, Standing.UNDER_REVIEW, "Look at her"),
        lambda: case_hold_create(case, bob, alice, 1_000, "Withheld"),
        lambda: case_close(case, bob, outcome="no_violation", decision="Nothing found"),
    ]
    for action in refused:
        with pytest.raises(NotAllowed, match=OWN_ACCOUNT):
            action()
    assert everything_that_records() == before


def test_a_reviewer_who_is_a_subject_neither_proposes_nor_approves_a_seizure_in_the_case(
    reviewer: Any, case_about_a_reviewer: Any
) -> None:
    case, alice, bob = case_about_a_reviewer
    hold = case_hold_create(case, reviewer, alice, 1_000, "Withheld")
    with pytest.raises(NotAllowed, match=OWN_ACCOUNT):
        case_hold_seizure_propose(case, bob, hold, "Seize it")
    proposal = case_hold_seizure_propose(case, reviewer, hold, "Seize it")
    with pytest.raises(RuleChangeRefused, match="their own account"):
        rule_change_approve(proposal, bob, "Agreed")
    hold.refresh_from_db()
    assert hold.status == "held"


def test_a_reviewer_cannot_dismiss_or_take_into_a_case_a_flag_that_names_them(
    reviewer: Any, case_about_a_reviewer: Any
) -> None:
    case, alice, bob = case_about_a_reviewer
    own = flag_of("chip_dumping", [alice, bob], 5.0)
    other = flag_of("soft_play", [alice, player("carol")], 5.0)
    before = everything_that_records()
    with pytest.raises(NotAllowed, match=OWN_ACCOUNT):
        flag_dismiss(own, bob, "False positive")
    with pytest.raises(NotAllowed, match=OWN_ACCOUNT):
        flags_dismiss([other.pk, own.pk], bob, "False positives")
    with pytest.raises(NotAllowed, match=OWN_ACCOUNT):
        flag_case_open(own, bob)
    with pytest.raises(NotAllowed, match=OWN_ACCOUNT):
        flag_case_add(other, case, bob)  # the case is about bob
    assert everything_that_records() == before
    assert Flag.objects.get(pk=other.pk).status == FlagStatus.OPEN


def test_a_reviewer_reads_neither_their_case_nor_their_flag_nor_their_own_file_on_the_desk(
    case_about_a_reviewer: Any,
) -> None:
    case, alice, bob = case_about_a_reviewer
    own = flag_of("chip_dumping", [alice, bob], 5.0)
    other = flag_of("soft_play", [alice, player("carol")], 4.0)
    client = logged_in(bob)
    for page in (
        f"/compliance/cases/{case.pk}/",
        f"/compliance/flags/{own.pk}/",
        f"/compliance/players/{bob.pk}/",
    ):
        assert client.get(page).status_code == 403, page
    assert client.post(f"/compliance/cases/{case.pk}/note/", {"note-text": "Hi"}).status_code == 403
    assert client.post(f"/compliance/flags/{own.pk}/dismiss/", {"reason": "No"}).status_code == 403
    queue = client.get("/compliance/").content.decode()
    assert f"/compliance/flags/{other.pk}/" in queue
    assert f"/compliance/flags/{own.pk}/" not in queue
    assert client.get(f"/compliance/players/{alice.pk}/").status_code == 200


def test_the_admins_case_and_flag_lists_leave_out_the_reviewers_own(reviewer: Any, case_about_a_reviewer: Any) -> None:
    case, alice, bob = case_about_a_reviewer
    own = flag_of("chip_dumping", [alice, bob], 5.0)
    client = logged_in(bob)
    assert client.get(f"/admin/compliance/case/{case.pk}/change/").status_code in (302, 404)
    assert client.get(f"/admin/compliance/flag/{own.pk}/change/").status_code in (302, 404)
    assert logged_in(reviewer).get(f"/admin/compliance/case/{case.pk}/change/").status_code == 200
