"""Flags (FRD-19): stored from the detector's findings, and taken into a case or dismissed by a reviewer.

:func:`flags_store` runs in the detection batch's transaction: every flag the detector computes now is written (new
ones open; open and case flags updated in place). A dismissed flag stays dismissed unless its score rose above the
score it was dismissed at; then it opens again. An open flag of a judged indicator that the detector no longer finds
(its evidence no longer holds: the threshold was raised, the address turned out to be shared by dozens of accounts)
is retracted, and opens again if it is found again; a flag in a case is the reviewer's and stays.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from compliance.detection.flags import Flag as Finding
from compliance.errors import InvalidRequest, NotAllowed
from compliance.hand_records import key_id
from compliance.models import Case, CaseActionKind, CaseSource, Flag, FlagStatus
from compliance.services.cases import case_create
from compliance.services.common import (
    action_record,
    case_lock,
    require_not_concerned,
    require_not_subject,
    require_player_accounts,
    require_reviewer,
    text_of,
)

if TYPE_CHECKING:
    from poker_site.accounts.models import User

INDICATOR_TITLES = {
    "chip_dumping": "Chip dumping",
    "net_flow": "Net flow between two accounts, luck removed",
    "soft_play": "Soft-play",
    "giving_way": "Giving way: folding or checking whenever the partner holds the better hand",
    "shared_connection": "Shared IP address or device",
    "coordinated_entry": "Joining the same tables within seconds of each other",
    "pair_evidence": (
        "Pooled evidence of one pair: soft play, giving way, dumping, net flow, betting pressure and entries together"
    ),
    "counter_use": "Ratholing counter and Banzai resets",
    "bot_timing": "Machine-like decision timing",
    "prohibited_program": "Prohibited program reported by the client",
    "sitting_out_together": "Sitting out together in a tournament (TRN-32)",
}


def _ids(keys: Iterable[str], prefix: str) -> list[int]:
    return [key_id(key) for key in keys if isinstance(key, str) and key.startswith(prefix)]


def flags_store(findings: Iterable[Finding], *, judged: Iterable[str] = ()) -> int:
    """Write the detector's current findings as flags (in the caller's transaction); returns how many were new or
    reopened. ``judged`` names the indicators whose findings are complete (every finding they have now): their open
    flags not among ``findings`` are retracted."""
    from poker_site.accounts.models import User

    raised = 0
    now = timezone.now()
    findings = list(findings)
    judged_indicators = set(judged)
    if judged_indicators:
        found = {(finding.indicator, ",".join(finding.players)) for finding in findings}
        for stale in (
            Flag.objects.select_for_update()
            .filter(indicator__in=sorted(judged_indicators), status=FlagStatus.OPEN)
            .order_by("pk")
        ):
            if (stale.indicator, stale.player_keys) not in found:
                stale.status = FlagStatus.RETRACTED
                stale.updated_at = now
                stale.save(update_fields=["status", "updated_at"])
    for finding in findings:
        player_ids = _ids(finding.players, "user:")
        if len(player_ids) != len(finding.players):
            continue  # not site players (a PHH name): nothing to review here
        keys = ",".join(finding.players)
        values = {
            "score": float(finding.score),
            "severity": float(finding.severity),
            "threshold": float(finding.threshold),
            "hands": _ids(finding.hands, "hand:"),
            "evidence": dict(finding.evidence),
            "requirements": list(finding.requirements),
            "updated_at": now,
        }
        flag = Flag.objects.select_for_update().filter(indicator=finding.indicator, player_keys=keys).first()
        if flag is None:
            flag = Flag.objects.create(indicator=finding.indicator, player_keys=keys, raised_at=now, **values)
            flag.players.set(User.objects.filter(pk__in=player_ids))
            raised += 1
            continue
        for name, value in values.items():
            setattr(flag, name, value)
        if flag.status == FlagStatus.RETRACTED or (
            flag.status == FlagStatus.DISMISSED
            and flag.dismissed_score is not None
            and flag.score > flag.dismissed_score
        ):
            flag.status = FlagStatus.OPEN
            raised += 1
        flag.save()
    return raised


def flag_lock(flag: Flag | int) -> Flag:
    flag_id = flag.pk if isinstance(flag, Flag) else int(flag)
    locked = Flag.objects.select_for_update().filter(pk=flag_id).first()
    if locked is None:
        raise InvalidRequest(f"There is no flag #{flag_id}.")
    return locked


def _require_open(flag: Flag) -> None:
    if flag.status == FlagStatus.IN_CASE:
        raise NotAllowed(f"Flag #{flag.pk} is already in case #{flag.case_id}.")
    if flag.status == FlagStatus.DISMISSED:
        raise NotAllowed(f"Flag #{flag.pk} was dismissed: {flag.dismissal_reason}")
    if flag.status == FlagStatus.RETRACTED:
        raise NotAllowed(f"Flag #{flag.pk} was retracted: its evidence no longer holds.")


def flag_title(flag: Flag) -> str:
    return INDICATOR_TITLES.get(flag.indicator, flag.indicator.replace("_", " ").capitalize())


@transaction.atomic(durable=True)
def flag_case_open(flag: Flag | int, actor: User) -> Case:
    """Open a case from an open flag: its players are the subjects, its hands the evidence; the flag joins the case."""
    require_reviewer(actor, "open a case from a flag")
    locked = flag_lock(flag)
    _require_open(locked)
    subjects = list(locked.players.all())
    require_not_concerned(actor, [user.pk for user in subjects], "open a case from it", f"flag #{locked.pk}")
    require_player_accounts(subjects, f"open a case from flag #{locked.pk}")
    case = case_create(
        title=f"{flag_title(locked)}: {', '.join(sorted(user.username for user in subjects))}",
        source=CaseSource.FLAG,
        opened_by=actor,
        subjects=subjects,
        hand_ids=_existing_hands(locked.hands),
        note=f"Opened from flag #{locked.pk} (score {locked.score:.2f}, threshold {locked.threshold:g}).",
    )
    _join(locked, case, actor)
    return case


@transaction.atomic(durable=True)
def flag_case_add(flag: Flag | int, case: Case | int, actor: User) -> Case:
    """Add an open flag to an open case: its players become subjects and its hands evidence."""
    require_reviewer(actor, "add a flag to a case")
    locked_case = case_lock(case)
    require_not_subject(locked_case, actor, "add a flag to it")
    locked = flag_lock(flag)
    _require_open(locked)
    players = list(locked.players.all())
    require_not_concerned(actor, [user.pk for user in players], "add it to a case", f"flag #{locked.pk}")
    require_player_accounts(players, f"add flag #{locked.pk} to a case")
    locked_case.subjects.add(*players)
    locked_case.hands.add(*_existing_hands(locked.hands))
    _join(locked, locked_case, actor)
    return locked_case


def _existing_hands(hand_ids: list[Any]) -> list[int]:
    from games.models import Hand

    return list(Hand.objects.filter(pk__in=[int(hand_id) for hand_id in hand_ids]).values_list("pk", flat=True))


def _join(flag: Flag, case: Case, actor: User) -> None:
    flag.status = FlagStatus.IN_CASE
    flag.case = case
    flag.save(update_fields=["status", "case"])
    action_record(
        case,
        CaseActionKind.FLAG_ADDED,
        actor=actor,
        audit_action="flag_taken_into_case",
        target=flag,
        details={"flag": flag.pk, "indicator": flag.indicator, "score": flag.score, "hands": flag.hands},
        before={"status": FlagStatus.OPEN},
        after={"status": FlagStatus.IN_CASE, "case": case.pk},
    )


@transaction.atomic(durable=True)
def flag_dismiss(flag: Flag | int, actor: User, reason: str) -> Flag:
    """Dismiss an open flag with a reason; it opens again only if its score rises above today's."""
    require_reviewer(actor, "dismiss a flag")
    text = text_of(reason, "dismiss a flag")
    return _dismiss(flag_lock(flag), actor, text)


@transaction.atomic(durable=True)
def flags_dismiss(flags: list[int], actor: User, reason: str) -> list[Flag]:
    """Dismiss several open flags with one reason, all or none (a flag no longer open refuses the whole batch, naming
    it), each audited as if dismissed alone; the rows are locked in primary-key order."""
    require_reviewer(actor, "dismiss flags")
    text = text_of(reason, "dismiss flags")
    wanted = sorted({int(flag) for flag in flags})
    if not wanted:
        raise InvalidRequest("Choose the flags to dismiss.")
    locked = list(Flag.objects.select_for_update().filter(pk__in=wanted).order_by("pk"))
    missing = sorted(set(wanted) - {flag.pk for flag in locked})
    if missing:
        raise InvalidRequest(f"There is no flag #{missing[0]}.")
    return [_dismiss(flag, actor, text) for flag in locked]


def _dismiss(locked: Flag, actor: User, text: str) -> Flag:
    from wallet.services.audit import audit_record, audit_target

    _require_open(locked)
    require_not_concerned(actor, locked.players.values_list("pk", flat=True), "dismiss it", f"flag #{locked.pk}")
    locked.status = FlagStatus.DISMISSED
    locked.dismissed_by = actor
    locked.dismissed_at = timezone.now()
    locked.dismissal_reason = text
    locked.dismissed_score = locked.score
    locked.save(update_fields=["status", "dismissed_by", "dismissed_at", "dismissal_reason", "dismissed_score"])
    audit_record(
        action="flag_dismissed",
        actor=actor,
        reason=text,
        target=audit_target(locked),
        details={"indicator": locked.indicator, "players": locked.player_keys},
        before={"status": FlagStatus.OPEN},
        after={"status": FlagStatus.DISMISSED, "score": locked.score},
    )
    return locked
