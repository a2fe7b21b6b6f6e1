"""FRD-18, LOB-10: a case has subject accounts, linked hands and tournaments, evidence, a status (open, under review,
closed) and its decisions; every action on it is recorded on the case and in the audit log (who, when, what, before
and after). A closed case takes no more actions: a clear error, and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.errors import CaseClosed, NotAllowed
from compliance.models import Case, CaseActionKind, CaseOutcome, CaseStatus
from compliance.services import case_close, case_hold_create, case_note_add
from tests.compliance.desk.support import case_about, everything_that_records, played_hand, player
from tests.tables.back_office import logged_in
from tests.tournaments.support import scheduled
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_a_reviewer_opens_reviews_documents_and_closes_a_case_from_the_desk(reviewer: Any) -> None:
    alice, bob = player("alice"), player("bob")
    hand = played_hand([alice, bob])
    tournament = scheduled()
    client = logged_in(reviewer)

    opened = client.post(
        "/compliance/cases/new/",
        {"title": "Team play suspected", "usernames": "alice", "hands": f"{hand.pk}", "tournaments": "", "note": "tip"},
    )
    case = Case.objects.get()
    assert opened.status_code == 302
    assert opened["Location"] == f"/compliance/cases/{case.pk}/"
    assert client.post(f"/compliance/cases/{case.pk}/review/").status_code == 302
    assert (
        client.post(f"/compliance/cases/{case.pk}/note/", {"note-text": "Both fold to each other."}).status_code == 302
    )
    linked = client.post(
        f"/compliance/cases/{case.pk}/link/",
        {"link-usernames": "bob", "link-hands": "", "link-tournaments": str(tournament.pk)},
    )
    assert linked.status_code == 302
    closed = client.post(
        f"/compliance/cases/{case.pk}/close/",
        {"close-outcome": CaseOutcome.NO_VIOLATION, "close-decision": "Two friends; no sign of shared cards."},
    )
    assert closed.status_code == 302

    case.refresh_from_db()
    assert case.status == CaseStatus.CLOSED
    assert case.reviewer == reviewer
    assert case.closed_by == reviewer
    assert (case.outcome, case.decision) == (CaseOutcome.NO_VIOLATION, "Two friends; no sign of shared cards.")
    assert set(case.subjects.all()) == {alice, bob}
    assert list(case.hands.all()) == [hand]
    assert list(case.tournaments.all()) == [tournament]
    kinds = [action.kind for action in case.actions.order_by("pk")]
    assert kinds == [
        CaseActionKind.OPENED,
        CaseActionKind.REVIEW_STARTED,
        CaseActionKind.NOTE,
        CaseActionKind.LINKED,
        CaseActionKind.CLOSED,
    ]
    entries = AuditEntry.objects.filter(target=f"compliance.case:{case.pk}").order_by("pk")
    assert [entry.action for entry in entries] == [
        "case_opened",
        "case_review_started",
        "case_note",
        "case_linked",
        "case_closed",
    ]
    assert all(entry.actor == reviewer for entry in entries)
    review = entries[1]
    assert (review.before, review.after) == (
        {"status": "open", "reviewer": None},
        {"status": "under_review", "reviewer": reviewer.pk},
    )
    assert all(action.audit_entry is not None for action in case.actions.all())
    page = client.get(f"/compliance/cases/{case.pk}/").content.decode()
    assert "Two friends; no sign of shared cards." in page
    assert 'id="note-form"' not in page  # a closed case offers no action


def test_an_action_on_a_closed_case_is_refused_with_a_clear_error_and_changes_nothing(reviewer: Any) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    case_close(case, reviewer, outcome=CaseOutcome.INCONCLUSIVE, decision="Not enough hands.")
    before = everything_that_records()
    client = logged_in(reviewer)
    for action, data in (
        ("note", {"note-text": "one more thing"}),
        ("review", {}),
        ("standing", {"standing-player": alice.pk, "standing-state": "suspended", "standing-reason": "late"}),
        ("hold", {"hold-player": alice.pk, "hold-amount": "5", "hold-reason": "late", "hold-idempotency_key": "k1"}),
        ("close", {"close-outcome": "violation", "close-decision": "again"}),
    ):
        response = client.post(f"/compliance/cases/{case.pk}/{action}/", data)
        assert response.status_code == 400, action
        assert f"Case #{case.pk} was closed" in response.content.decode(), action
    with pytest.raises(CaseClosed):
        case_note_add(case, reviewer, "and again")
    assert everything_that_records() == before


def test_a_case_with_an_undecided_hold_cannot_be_closed(reviewer: Any) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 2_000, "Large wins under review")
    before = everything_that_records()
    with pytest.raises(NotAllowed, match=f"hold #{hold.pk}"):
        case_close(case, reviewer, outcome=CaseOutcome.NO_VIOLATION, decision="Done.")
    assert everything_that_records() == before


def test_bad_input_to_a_case_action_is_shown_on_the_page_and_changes_nothing(reviewer: Any) -> None:
    alice, stranger = player("alice"), player("stranger")
    case = case_about(reviewer, alice)
    before = everything_that_records()
    client = logged_in(reviewer)
    cases = {
        "note": {"note-text": ""},
        "link": {"link-usernames": "nobody-of-that-name", "link-hands": "", "link-tournaments": ""},
        "hold": {"hold-player": stranger.pk, "hold-amount": "5", "hold-reason": "x", "hold-idempotency_key": "k2"},
        "close": {"close-outcome": "guilty", "close-decision": "x"},
        "video": {"video-player": alice.pk, "video-deadline": "yesterday", "video-instructions": "x"},
    }
    for action, data in cases.items():
        response = client.post(f"/compliance/cases/{case.pk}/{action}/", data)
        assert response.status_code == 400, action
    assert client.post(f"/compliance/cases/{case.pk}/no-such-action/", {}).status_code == 404
    assert everything_that_records() == before
