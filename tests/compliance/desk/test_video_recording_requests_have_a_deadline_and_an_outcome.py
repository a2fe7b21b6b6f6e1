"""FRD-05: a reviewer requests video recording(s) of a subject's play with a deadline; the file received (its
reference only) and the outcome are recorded once; "not received" only after the deadline; requests past their
deadline without an outcome are on the desk's queue."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from compliance.errors import InvalidRequest, NotAllowed
from compliance.models import CaseActionKind, VideoOutcome, VideoRecordingRequest
from compliance.services import video_request_create, video_request_decide
from tests.compliance.desk.support import case_about, everything_that_records, player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db


def test_a_request_is_made_from_the_case_and_its_outcome_recorded_once(reviewer: Any) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    deadline = (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
    client = logged_in(reviewer)
    response = client.post(
        f"/compliance/cases/{case.pk}/video/",
        {"video-player": alice.pk, "video-deadline": deadline, "video-instructions": "Screen and webcam, one session"},
    )
    assert response.status_code == 302
    request = VideoRecordingRequest.objects.get()
    assert (request.player, request.outcome) == (alice, VideoOutcome.PENDING)
    assert request.deadline.strftime("%Y-%m-%dT%H:%M") == deadline

    decided = client.post(
        f"/compliance/cases/{case.pk}/video-outcome/",
        {
            "video_outcome-request": request.pk,
            "video_outcome-outcome": VideoOutcome.CLEAN,
            "video_outcome-file_reference": "secure-share://recordings/alice-2026-11-20.mp4",
            "video_outcome-note": "Plays by hand, no other software visible",
        },
    )
    assert decided.status_code == 302
    request.refresh_from_db()
    assert request.outcome == VideoOutcome.CLEAN
    assert request.file_reference == "secure-share://recordings/alice-2026-11-20.mp4"
    assert request.received_at is not None
    assert [action.kind for action in case.actions.order_by("pk")][-2:] == [
        CaseActionKind.VIDEO_REQUESTED,
        CaseActionKind.VIDEO_OUTCOME,
    ]
    before = everything_that_records()
    with pytest.raises(NotAllowed, match="already decided"):
        video_request_decide(request, reviewer, outcome=VideoOutcome.FRAUD, file_reference="other")
    assert everything_that_records() == before


def test_not_received_is_recorded_only_after_the_deadline_and_overdue_requests_are_on_the_desk(
    reviewer: Any,
) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    request = video_request_create(
        case, reviewer, alice, deadline=timezone.now() + timedelta(hours=1), instructions="One session"
    )
    with pytest.raises(NotAllowed, match="has not passed"):
        video_request_decide(request, reviewer, outcome=VideoOutcome.NOT_RECEIVED)
    VideoRecordingRequest.objects.filter(pk=request.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert f"Request #{request.pk} to alice" in logged_in(reviewer).get("/compliance/").content.decode()
    video_request_decide(request, reviewer, outcome=VideoOutcome.NOT_RECEIVED, note="No answer")
    request.refresh_from_db()
    assert (request.outcome, request.file_reference) == (VideoOutcome.NOT_RECEIVED, "")


def test_a_deadline_in_the_past_or_a_received_file_without_reference_is_refused(reviewer: Any) -> None:
    alice = player("alice")
    case = case_about(reviewer, alice)
    before = everything_that_records()
    with pytest.raises(InvalidRequest, match="future"):
        video_request_create(case, reviewer, alice, deadline=timezone.now() - timedelta(days=1), instructions="x")
    assert everything_that_records() == before
    request = video_request_create(case, reviewer, alice, deadline=timezone.now() + timedelta(days=1), instructions="x")
    before = everything_that_records()
    with pytest.raises(InvalidRequest, match="reference"):
        video_request_decide(request, reviewer, outcome=VideoOutcome.FRAUD)
    assert everything_that_records() == before
