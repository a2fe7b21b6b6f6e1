"""Cases (FRD-18): opening, taking under review, linking evidence, notes, closing with a decision.

Each service owns its transaction, checks the actor's permission (``compliance.review_cases``), refuses an action on
a closed case (:class:`~compliance.errors.CaseClosed`) and records the action on the case and in the audit log.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from compliance.errors import InvalidRequest, NotAllowed
from compliance.models import (
    AccountStanding,
    Case,
    CaseActionKind,
    CaseOutcome,
    CaseSource,
    CaseStatus,
    Standing,
)
from compliance.services.common import (
    action_record,
    case_lock,
    require_not_subject,
    require_player_accounts,
    require_reviewer,
    rows_by_id,
    standing_change,
    text_of,
    users_by_id,
)
from wallet.models import Hold, HoldStatus

if TYPE_CHECKING:
    from poker_site.accounts.models import User

MAXIMUM_TITLE = 200


def _title(value: object) -> str:
    title = text_of(value, "open a case without a title")
    return title[:MAXIMUM_TITLE]


def _hands(hand_ids: Iterable[Any]) -> list[Any]:
    from games.models import Hand

    return rows_by_id(Hand.objects.all(), hand_ids, "hand")


def _tournaments(tournament_ids: Iterable[Any]) -> list[Any]:
    from tournaments.models import Tournament

    return rows_by_id(Tournament.objects.all(), tournament_ids, "tournament")


def case_create(
    *,
    title: str,
    source: str,
    opened_by: User | None,
    subjects: Iterable[User],
    hand_ids: Iterable[int] = (),
    tournament_ids: Iterable[int] = (),
    note: str = "",
) -> Case:
    """Create an open case in the caller's transaction (the services of flags and player reports open theirs so)."""
    people = list(subjects)
    if not people:
        raise InvalidRequest("A case needs at least one subject account.")
    hands = _hands(hand_ids)
    tournaments = _tournaments(tournament_ids)
    case = Case.objects.create(title=_title(title), source=source, opened_by=opened_by)
    case.subjects.set(people)
    case.hands.set(hands)
    case.tournaments.set(tournaments)
    action_record(
        case,
        CaseActionKind.OPENED,
        actor=opened_by,
        audit_action="case_opened",
        text=note,
        details={"source": source},
        after={
            "title": case.title,
            "status": case.status,
            "subjects": sorted(person.pk for person in people),
            "hands": sorted(hand.pk for hand in hands),
            "tournaments": sorted(tournament.pk for tournament in tournaments),
        },
    )
    return case


@transaction.atomic(durable=True)
def case_open(
    actor: User,
    *,
    title: str,
    subject_ids: Iterable[int],
    hand_ids: Iterable[int] = (),
    tournament_ids: Iterable[int] = (),
    note: str = "",
) -> Case:
    """A reviewer opens a case about ``subject_ids`` (user ids), with hands and tournaments as evidence."""
    require_reviewer(actor, "open a case")
    subjects = users_by_id(subject_ids)
    require_player_accounts(subjects, "open a case about them")
    return case_create(
        title=title,
        source=CaseSource.STAFF,
        opened_by=actor,
        subjects=subjects,
        hand_ids=hand_ids,
        tournament_ids=tournament_ids,
        note=note.strip() if isinstance(note, str) else "",
    )


@transaction.atomic(durable=True)
def case_review_start(case: Case | int, actor: User) -> Case:
    """The reviewer takes the case: open → under review, with them as its reviewer."""
    require_reviewer(actor, "review a case")
    locked = case_lock(case)
    require_not_subject(locked, actor, "review it")
    if locked.status == CaseStatus.UNDER_REVIEW and locked.reviewer_id == actor.pk:
        raise NotAllowed(f"Case #{locked.pk} is already under your review.")
    before = {"status": locked.status, "reviewer": locked.reviewer_id}
    locked.status = CaseStatus.UNDER_REVIEW
    locked.reviewer = actor
    locked.save(update_fields=["status", "reviewer"])
    action_record(
        locked,
        CaseActionKind.REVIEW_STARTED,
        actor=actor,
        audit_action="case_review_started",
        before=before,
        after={"status": locked.status, "reviewer": actor.pk},
    )
    return locked


@transaction.atomic(durable=True)
def case_note_add(case: Case | int, actor: User, text: str) -> Case:
    require_reviewer(actor, "add a note to a case")
    note = text_of(text, "add an empty note")
    locked = case_lock(case)
    require_not_subject(locked, actor, "add a note to it")
    action_record(locked, CaseActionKind.NOTE, actor=actor, audit_action="case_note", text=note)
    return locked


@transaction.atomic(durable=True)
def case_link(
    case: Case | int,
    actor: User,
    *,
    subject_ids: Iterable[int] = (),
    hand_ids: Iterable[int] = (),
    tournament_ids: Iterable[int] = (),
) -> Case:
    """Add subject accounts, hands or tournaments to the case's evidence (what is already linked is left as is)."""
    require_reviewer(actor, "link evidence to a case")
    subjects = users_by_id(subject_ids)
    require_player_accounts(subjects, "add them to a case")
    hands = _hands(hand_ids)
    tournaments = _tournaments(tournament_ids)
    if not (subjects or hands or tournaments):
        raise InvalidRequest("Name at least one player, hand or tournament to link.")
    locked = case_lock(case)
    require_not_subject(locked, actor, "link evidence to it")
    locked.subjects.add(*subjects)
    locked.hands.add(*hands)
    locked.tournaments.add(*tournaments)
    added = {
        "subjects": sorted(user.pk for user in subjects),
        "hands": sorted(hand.pk for hand in hands),
        "tournaments": sorted(tournament.pk for tournament in tournaments),
    }
    action_record(locked, CaseActionKind.LINKED, actor=actor, audit_action="case_linked", after=added)
    return locked


@transaction.atomic(durable=True)
def case_close(case: Case | int, actor: User, *, outcome: str, decision: str) -> Case:
    """Close the case with its outcome and the written decision. Refused while a hold made for it is undecided.

    Subjects the case put under review (their standing names this case) are active again; a suspension or
    termination stays (reinstate it explicitly)."""
    require_reviewer(actor, "close a case")
    if outcome not in CaseOutcome.values:
        raise InvalidRequest(f"The outcome is one of {', '.join(CaseOutcome.values)}, not {outcome!r}.")
    text = text_of(decision, "close a case without a written decision")
    locked = case_lock(case)
    require_not_subject(locked, actor, "close it")
    undecided = list(
        Hold.objects.filter(review_reference=locked.reference, status=HoldStatus.HELD).values_list("pk", flat=True)
    )
    if undecided:
        raise NotAllowed(f"Release or seize hold #{', #'.join(map(str, undecided))} before closing case #{locked.pk}.")
    now = timezone.now()
    before = {"status": locked.status}
    locked.status = CaseStatus.CLOSED
    locked.closed_at = now
    locked.closed_by = actor
    locked.outcome = outcome
    locked.decision = text
    locked.save(update_fields=["status", "closed_at", "closed_by", "outcome", "decision"])
    reinstated = []
    for standing in AccountStanding.objects.select_for_update().filter(case=locked, state=Standing.UNDER_REVIEW):
        standing_change(standing, Standing.ACTIVE, "", locked, actor)
        reinstated.append(standing.user_id)
    action_record(
        locked,
        CaseActionKind.CLOSED,
        actor=actor,
        audit_action="case_closed",
        text=text,
        details={"reinstated": reinstated},
        before=before,
        after={"status": locked.status, "outcome": outcome},
    )
    return locked
