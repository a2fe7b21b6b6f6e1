"""Video recording requests (FRD-05): the request with its deadline, then the file received and the outcome."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from compliance.errors import InvalidRequest, NotAllowed
from compliance.models import Case, CaseActionKind, VideoOutcome, VideoRecordingRequest
from compliance.services.common import (
    action_record,
    case_lock,
    require_not_subject,
    require_player_accounts,
    require_reviewer,
    require_subject,
    text_of,
)

if TYPE_CHECKING:
    from poker_site.accounts.models import User


@transaction.atomic(durable=True)
def video_request_create(
    case: Case | int, actor: User, player: User, *, deadline: datetime, instructions: str
) -> VideoRecordingRequest:
    """Request recording(s) of a subject's play by ``deadline`` (in the future)."""
    require_reviewer(actor, "request a video recording")
    text = text_of(instructions, "request a video recording without saying what is wanted")
    if timezone.is_naive(deadline) or deadline <= timezone.now():
        raise InvalidRequest("The deadline must be a moment in the future (with its time zone).")
    require_player_accounts([player], "request a video recording")
    locked = case_lock(case)
    require_not_subject(locked, actor, "request a video recording for it")
    require_subject(locked, player)
    request = VideoRecordingRequest.objects.create(
        case=locked, player=player, instructions=text, deadline=deadline, requested_by=actor
    )
    action_record(
        locked,
        CaseActionKind.VIDEO_REQUESTED,
        actor=actor,
        audit_action="video_requested",
        subject=player,
        text=text,
        target=request,
        after={"deadline": deadline.isoformat(), "outcome": request.outcome},
    )
    return request


@transaction.atomic(durable=True)
def video_request_decide(
    request: VideoRecordingRequest | int, actor: User, *, outcome: str, file_reference: str = "", note: str = ""
) -> VideoRecordingRequest:
    """Record the outcome once: a received file (its reference) judged clean or fraudulent, or not received (only
    after the deadline)."""
    require_reviewer(actor, "record a video recording's outcome")
    decided_outcomes = [value for value in VideoOutcome.values if value != VideoOutcome.PENDING]
    if outcome not in decided_outcomes:
        raise InvalidRequest(f"The outcome is one of {', '.join(decided_outcomes)}, not {outcome!r}.")
    reference = file_reference.strip() if isinstance(file_reference, str) else ""
    request_id = request.pk if isinstance(request, VideoRecordingRequest) else int(request)
    found = VideoRecordingRequest.objects.filter(pk=request_id).values_list("case_id", flat=True).first()
    if found is None:
        raise InvalidRequest(f"There is no video recording request #{request_id}.")
    locked_case = case_lock(found)
    require_not_subject(locked_case, actor, "record a video recording's outcome for it")
    locked = VideoRecordingRequest.objects.select_for_update().select_related("player").get(pk=request_id)
    if locked.outcome != VideoOutcome.PENDING:
        raise NotAllowed(f"Video request #{locked.pk} was already decided: {locked.get_outcome_display()}.")
    now = timezone.now()
    if outcome == VideoOutcome.NOT_RECEIVED:
        if now < locked.deadline:
            raise NotAllowed(f"The deadline of video request #{locked.pk} has not passed yet.")
        if reference:
            raise InvalidRequest("A recording that was not received has no file reference.")
    elif not reference:
        raise InvalidRequest("Give the reference of the file received.")
    locked.outcome = outcome
    locked.file_reference = reference[:300]
    locked.received_at = now if reference else None
    locked.outcome_note = note.strip() if isinstance(note, str) else ""
    locked.decided_by = actor
    locked.decided_at = now
    locked.save()
    action_record(
        locked_case,
        CaseActionKind.VIDEO_OUTCOME,
        actor=actor,
        audit_action="video_outcome",
        subject=locked.player,
        text=locked.outcome_note,
        target=locked,
        before={"outcome": VideoOutcome.PENDING},
        after={"outcome": outcome, "file_reference": locked.file_reference},
    )
    return locked
