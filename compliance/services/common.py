"""What every case action shares: the permission and input checks, the case lock, and the record of the action (one
:class:`~compliance.models.CaseAction` and one audit log entry, LOB-10, in the caller's transaction)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils import timezone

from compliance.errors import CaseClosed, InvalidRequest, NotAllowed
from compliance.models import AccountStanding, Case, CaseAction, CaseStatus
from wallet.services.audit import audit_record, audit_target
from wallet.services.permissions import require_permission, require_reason

if TYPE_CHECKING:
    from poker_site.accounts.models import User
    from wallet.models import Transfer

REVIEW_CASES = "compliance.review_cases"
SANCTION_ACCOUNTS = "compliance.sanction_accounts"
MAXIMUM_TEXT = 4_000
"""Characters of a note, reason or decision."""


def require_reviewer(actor: User | None, action: str, permission: str = REVIEW_CASES) -> None:
    """``NotPermitted`` (a wallet error) unless ``actor`` is active and holds ``permission``."""
    require_permission(actor, permission, action)


def text_of(value: object, action: str) -> str:
    """The stripped text (``ReasonRequired`` when blank, :class:`InvalidRequest` when longer than
    :data:`MAXIMUM_TEXT`)."""
    text = require_reason(value, action)
    if len(text) > MAXIMUM_TEXT:
        raise InvalidRequest(f"At most {MAXIMUM_TEXT} characters, please ({len(text)} given).")
    return text


def case_lock(case: Case | int) -> Case:
    """The case, locked for the rest of the transaction; :class:`CaseClosed` when it is closed."""
    case_id = case.pk if isinstance(case, Case) else int(case)
    locked = Case.objects.select_for_update().filter(pk=case_id).first()
    if locked is None:
        raise InvalidRequest(f"There is no case #{case_id}.")
    case_require_open(locked)
    return locked


def case_require_open(case: Case) -> None:
    """:class:`CaseClosed` when ``case`` is closed (a closed case takes no more actions)."""
    if case.status == CaseStatus.CLOSED:
        raise CaseClosed(
            f"Case #{case.pk} was closed on {case.closed_at:%Y-%m-%d %H:%M} UTC; a closed case takes no more "
            "actions (open a new case)."
        )


def require_subject(case: Case, player: User) -> None:
    if not case.subjects.filter(pk=player.pk).exists():
        raise InvalidRequest(f"{player.username} is not a subject of case #{case.pk}: add them to the case first.")


def require_player_accounts(users: Iterable[User], action: str) -> None:
    """:class:`NotAllowed` when any of ``users`` holds privileges (staff, superuser, any group or permission): the
    desk's cases and sanctions are about players' accounts only; a staff account is the administrators' to handle, so
    a reviewer never opens a case on, sanctions, withholds from or disqualifies an administrator or a colleague."""
    from poker_site.accounts.roles import holds_privileges

    staff = sorted(user.get_username() for user in users if holds_privileges(user))
    if staff:
        names = ", ".join(staff)
        raise NotAllowed(
            f"Cannot {action}: {names} {'is a staff account' if len(staff) == 1 else 'are staff accounts'} "
            "(staff, superuser, or holding a group or permission). The compliance desk acts on players' accounts "
            "only; a staff account is handled by an administrator."
        )


def require_not_concerned(actor: User, user_ids: Iterable[int], action: str, what: str) -> None:
    """:class:`NotAllowed` when ``actor`` is one of ``user_ids``: a reviewer never acts on a case, flag or standing
    that concerns their own account (conflict of interest); another reviewer does."""
    if actor.pk in set(user_ids):
        raise NotAllowed(
            f"You cannot {action}: {what} concerns your own account. A reviewer never acts on their own case "
            "(conflict of interest); another reviewer does."
        )


def require_not_subject(case: Case, actor: User, action: str) -> None:
    """:class:`NotAllowed` when ``actor`` is a subject of ``case`` (see :func:`require_not_concerned`)."""
    require_not_concerned(
        actor, case.subjects.filter(pk=actor.pk).values_list("pk", flat=True), action, f"case #{case.pk}"
    )


def rows_by_id(rows: QuerySet[Any], ids: Iterable[Any], noun: str) -> list[Any]:
    """The rows of ``rows`` with these ids, in id order (:class:`InvalidRequest` naming any id that is not there)."""
    try:
        wanted = {int(row_id) for row_id in ids}
    except (TypeError, ValueError) as error:
        raise InvalidRequest(f"A {noun} is named by its numeric id.") from error
    found = {row.pk: row for row in rows.filter(pk__in=wanted)}
    missing = sorted(wanted - set(found))
    if missing:
        raise InvalidRequest(f"There is no {noun} with id {', '.join(map(str, missing))}.")
    return [found[row_id] for row_id in sorted(wanted)]


def users_by_id(user_ids: Iterable[Any]) -> list[User]:
    """The users with these ids (:class:`InvalidRequest` naming any that does not exist)."""
    from poker_site.accounts.models import User

    return rows_by_id(User.objects.all(), user_ids, "player")


def standing_change(standing: AccountStanding, state: str, reason: str, case: Case | None, actor: User | None) -> None:
    """Save a new state on a (locked) standing row, with who changed it, when, why and for which case."""
    standing.state = state
    standing.reason = reason
    standing.case = case
    standing.changed_by = actor
    standing.changed_at = timezone.now()
    standing.save()


def action_record(
    case: Case,
    kind: str,
    *,
    actor: User | None,
    audit_action: str,
    subject: User | None = None,
    text: str = "",
    details: dict[str, Any] | None = None,
    target: Any = None,
    before: Any = None,
    after: Any = None,
    transfer: Transfer | None = None,
) -> CaseAction:
    """Record one action on ``case``: its audit log entry (``target`` defaults to the case) and the case's action row
    pointing at it. Call inside the transaction that does the action."""
    details = {"case": case.pk, **(details or {})}
    entry = audit_record(
        action=audit_action,
        actor=actor,
        player=subject,
        transfer=transfer,
        reason=text,
        details=details,
        target=audit_target(target if target is not None else case),
        before=before,
        after=after,
    )
    return CaseAction.objects.create(
        case=case, kind=kind, actor=actor, subject=subject, text=text, details=details, audit_entry=entry
    )


def player_lock(purpose: str, user_id: int) -> None:
    """Serialise one player's ``purpose`` (e.g. their reports, for an exact daily count) until the transaction ends."""
    import zlib

    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)", [zlib.crc32(f"compliance-{purpose}".encode()) & 0x7FFFFFFF, user_id]
        )
