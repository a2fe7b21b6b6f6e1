"""Responsible gaming services: the player's deposit limits, the session reminder and self-exclusion.

* :func:`deposit_limit_set` — a player's daily, weekly or monthly deposit limit: a cut (or the same amount) takes
  effect at once, a raise or a removal 24 hours later; the latest request decides (it replaces a pending change);
  every change is a new row, audited. :func:`deposit_limit_cancel_pending` cancels a pending raise or removal.
* :func:`deposit_refusal` — the cashier's deposit check (registered in the app's ``ready``): refuses a deposit over
  any limit in force, naming the limit and what remains, and any deposit during a self-exclusion. A limit counts the
  deposits completed in its window and those still awaiting the payment provider (pending), each once
  (:func:`deposits_since`).
* :func:`session_reminder_set`, :func:`session_start_record`, :func:`session_summary` — the reminder a logged-in
  player sees every ``session_reminder_minutes``: the session's start is stored in the session at log-in, the page
  checks it; the net result comes from the ledger.
* :func:`self_exclusion_start` — the player excludes themselves for a period: at once, they can no longer deposit,
  sit down, queue, register or bet at UTH (:func:`play_refusal` is what those services ask), their cash seats and UTH
  seats are left through the games' own services (stacks back to the cash balance), their stake queues left, and
  their entries in tournaments that have not started unregistered with a refund. Withdrawals stay possible. It
  cannot be lifted before it ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from poker_site.core.prepared_queries import PreparedQuery
from poker_site.core.templatetags.money import format_money
from poker_site.responsible_gaming.models import (
    EXCLUSION_LENGTHS,
    LIMIT_WINDOWS,
    DepositLimitChange,
    ExclusionPeriod,
    LimitPeriod,
    SelfExclusion,
)
from wallet.services.audit import audit_record, audit_target

if TYPE_CHECKING:
    from django.http import HttpRequest

    from poker_site.accounts.models import User

RAISE_DELAY = timedelta(hours=24)
"""A raised or removed deposit limit takes effect this long after the player asked."""
MAXIMUM_LIMIT_CENTS = 100_000_000
"""The largest deposit limit a player may set (€1,000,000)."""
REMINDER_CHOICES = (15, 30, 45, 60, 90, 120, 180, 240)
"""Minutes between session reminders a player may choose (60 by default)."""
SESSION_START_KEY = "responsible_gaming_session_start"
"""The session key holding the log-in moment (ISO 8601) of the player's session."""
REMINDER_SEEN_KEY = "responsible_gaming_reminder_seen"
"""The session key holding when the player last chose to continue after a reminder (ISO 8601)."""
NOT_GAME_RESULTS = ("deposit", "withdrawal", "withdrawal_payout", "withdrawal_returned", "hold", "hold_release")
"""Transfer kinds that move the player's money without being a result of play (left out of the session's net)."""


class ResponsibleGamingError(Exception):
    """A responsible-gaming request was refused; nothing changed. ``message`` is for the player."""

    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SelfExcluded(ResponsibleGamingError):
    code = "self_excluded"


def _when(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def _lock_player(user_id: int) -> None:
    """Serialise one player's responsible-gaming changes until the transaction ends."""
    from poker_site.accounts.models import User

    User.objects.select_for_update().filter(pk=user_id).values_list("pk", flat=True).first()


# ---------------------------------------------------------------------------------------------------------------------
# Deposit limits


@dataclass(frozen=True)
class LimitState:
    """One period's limit for a player: in force now (``None``: no limit) and any pending change (a raise or removal
    waiting for its 24 hours)."""

    period: str
    in_force: int | None
    pending: DepositLimitChange | None


def _chosen_rows(user_id: int, period: str, at: datetime) -> list[DepositLimitChange]:
    """The player's choices for ``period`` made up to ``at``, in the order they were made."""
    return list(
        DepositLimitChange.objects.filter(user_id=user_id, period=period, requested_at__lte=at).order_by(
            "requested_at", "pk"
        )
    )


def _in_force_and_pending(
    user_id: int, period: str, at: datetime
) -> tuple[DepositLimitChange | None, DepositLimitChange | None]:
    """The row in force at ``at`` and the pending one (a raise or removal waiting for its 24 hours), if any.

    The latest request decides: a choice made while an earlier one was still pending replaces it, so the replaced one
    never takes effect. A row is in force once its ``effective_at`` has come, unless the player made another choice
    before that moment; of those, the latest chosen is in force. The pending change is the latest choice if it has not
    yet taken effect."""
    rows = _chosen_rows(user_id, period, at)
    in_force: DepositLimitChange | None = None
    for index, row in enumerate(rows):
        following = rows[index + 1] if index + 1 < len(rows) else None
        replaced = following is not None and following.requested_at < row.effective_at
        if row.effective_at <= at and not replaced:
            in_force = row
    latest = rows[-1] if rows else None
    pending = latest if latest is not None and latest.effective_at > at else None
    return in_force, pending


def _in_force(user_id: int, period: str, at: datetime) -> DepositLimitChange | None:
    return _in_force_and_pending(user_id, period, at)[0]


def deposit_limit_in_force(user_id: int, period: str, at: datetime | None = None) -> int | None:
    """The player's deposit limit for ``period`` in force at ``at`` (now by default), in cents; ``None``: no limit."""
    row = _in_force(user_id, period, at or timezone.now())
    return row.amount if row is not None else None


def deposit_limits_of(user_id: int, at: datetime | None = None) -> list[LimitState]:
    """Each period's limit in force and pending change, for the account page."""
    moment = at or timezone.now()
    states = []
    for period in LimitPeriod.values:
        current, pending = _in_force_and_pending(user_id, period, moment)
        states.append(LimitState(period, current.amount if current else None, pending))
    return states


def _limit_amount(amount: Any) -> int | None:
    if amount is None:
        return None
    if type(amount) is not int or amount <= 0:
        raise ResponsibleGamingError(_("A deposit limit is a positive amount of whole cents."))
    if amount > MAXIMUM_LIMIT_CENTS:
        raise ResponsibleGamingError(
            _("A deposit limit can be at most %(maximum)s.") % {"maximum": format_money(MAXIMUM_LIMIT_CENTS)}
        )
    return amount


@transaction.atomic(durable=True)
def deposit_limit_set(
    user: User, period: Any, amount: Any, *, now: datetime | None = None
) -> DepositLimitChange | None:
    """Set the player's deposit limit for ``period`` (``"day"``, ``"week"``, ``"month"``) to ``amount`` cents
    (``None`` removes it). The latest request decides, and it replaces any change still pending for the period:

    * lower than or equal to the limit in force (or a first limit): in force at once, and any pending raise or removal
      is dropped (so setting the limit in force again cancels a pending change);
    * higher, or a removal: in force 24 hours from now (from this request, whatever was pending before); a pending
      raise or removal is replaced by it and never takes effect. Asking again for exactly the change already pending
      keeps it (and its time): nothing is recorded.
    * removing a limit when there is none and nothing pending records nothing.

    Returns the new row, or ``None`` when nothing was recorded. Audited. Refused with nothing changed: an unknown
    period, an amount that is not a positive whole number of cents up to :data:`MAXIMUM_LIMIT_CENTS`."""
    moment = now or timezone.now()
    if period not in LimitPeriod.values:
        raise ResponsibleGamingError(_("Choose a daily, weekly or monthly limit."))
    value = _limit_amount(amount)
    _lock_player(user.pk)
    current_row, pending = _in_force_and_pending(user.pk, period, moment)
    current = current_row.amount if current_row is not None else None
    if pending is not None and pending.amount == value:
        return None
    if value is None and current is None and pending is None:
        return None
    is_cut = value is not None and (current is None or value <= current)
    replaced = {"replaces_pending": _pending_of(pending)} if pending is not None else {}
    return _limit_choice_record(
        user, period, value, current, moment, moment if is_cut else moment + RAISE_DELAY, replaced
    )


@transaction.atomic(durable=True)
def deposit_limit_cancel_pending(user: User, period: Any, *, now: datetime | None = None) -> DepositLimitChange | None:
    """Cancel the player's pending raise or removal of ``period``'s limit: the limit in force is chosen again, at once
    (a new row, so the history stays append-only). Returns the new row, or ``None`` when nothing was pending."""
    moment = now or timezone.now()
    if period not in LimitPeriod.values:
        raise ResponsibleGamingError(_("Choose a daily, weekly or monthly limit."))
    _lock_player(user.pk)
    current_row, pending = _in_force_and_pending(user.pk, period, moment)
    if pending is None:
        return None
    current = current_row.amount if current_row is not None else None
    return _limit_choice_record(
        user, period, current, current, moment, moment, {"cancels_pending": _pending_of(pending)}
    )


def _pending_of(pending: DepositLimitChange) -> dict[str, Any]:
    return {"amount": pending.amount, "pk": pending.pk}


def _limit_choice_record(
    user: User,
    period: str,
    amount: int | None,
    before: int | None,
    moment: datetime,
    effective_at: datetime,
    details: dict[str, Any],
) -> DepositLimitChange:
    """Record the player's choice of ``amount`` for ``period`` (a new row, in force at ``effective_at``) and its audit
    entry (``deposit_limit_set``, ``before`` the limit in force, ``details`` what it replaces or cancels)."""
    change = DepositLimitChange.objects.create(
        user=user, period=period, amount=amount, requested_at=moment, effective_at=effective_at
    )
    audit_record(
        action="deposit_limit_set",
        actor=user,
        player=user,
        details={"period": period, "takes_effect_at": change.effective_at.isoformat(), **details},
        target=audit_target(change),
        before={"amount": before},
        after={"amount": amount},
    )
    return change


@dataclass(frozen=True)
class DepositsInWindow:
    """A player's deposits made in a limit's window, in cents: ``completed`` (credited) and ``awaiting`` (pending:
    reserved by the cashier, the payment provider's answer not yet booked). Both count towards the limit."""

    completed: int
    awaiting: int

    @property
    def counted(self) -> int:
        return self.completed + self.awaiting


def deposits_since(user_id: int, currency: str, since: datetime) -> DepositsInWindow:
    """The player's completed and pending deposits made after ``since``, summed in one statement (so a deposit the
    cashier completes meanwhile is counted once, never in both sums or in neither).

    A pending deposit is the cashier's reservation before the provider charges (:func:`wallet.services.cashier.
    deposit_reserve`): it counts from the moment it is reserved, by its reservation time, which stays its time once
    completed; so each deposit is counted once, whether pending or completed. A declined one is deleted and no longer
    counts."""
    from wallet.models import CashierDirection, CashierStatus, CashierTransaction

    totals = CashierTransaction.objects.filter(
        player_id=user_id,
        direction=CashierDirection.DEPOSIT,
        currency=currency,
        status__in=[CashierStatus.COMPLETED, CashierStatus.PENDING],
        created_at__gt=since,
    ).aggregate(
        completed=Sum("amount", filter=Q(status=CashierStatus.COMPLETED)),
        awaiting=Sum("amount", filter=Q(status=CashierStatus.PENDING)),
    )
    return DepositsInWindow(completed=int(totals["completed"] or 0), awaiting=int(totals["awaiting"] or 0))


LIMIT_WINDOW_WORDS = {
    LimitPeriod.DAY: lambda: _("in the last 24 hours"),
    LimitPeriod.WEEK: lambda: _("in the last 7 days"),
    LimitPeriod.MONTH: lambda: _("in the last 30 days"),
}


def deposit_refusal(user: User, amount: int, currency: str, now: datetime) -> str | None:
    """The cashier's deposit check: why ``user`` may not deposit ``amount`` cents now (a self-exclusion, or a deposit
    limit it would pass, naming the limit, what was deposited in its window, what still awaits the payment provider
    and what remains), or ``None``. ``amount`` is the new deposit alone: the deposits already made in each window,
    completed or pending (:func:`deposits_since`), are counted here."""
    exclusion = self_exclusion_active(user.pk, now)
    if exclusion is not None:
        return _exclusion_words(exclusion, _("You cannot deposit"))
    for period in LimitPeriod.values:
        limit = deposit_limit_in_force(user.pk, period, now)
        if limit is None:
            continue
        deposits = deposits_since(user.pk, currency, now - LIMIT_WINDOWS[period])
        if deposits.counted + amount > limit:
            words = {
                "period": LimitPeriod(period).label,
                "limit": format_money(limit, currency),
                "already": format_money(deposits.completed, currency),
                "window": LIMIT_WINDOW_WORDS[LimitPeriod(period)](),
                "remaining": format_money(max(0, limit - deposits.counted), currency),
            }
            if deposits.awaiting:
                return _(
                    "Your %(period)s deposit limit is %(limit)s; you have deposited %(already)s %(window)s and "
                    "%(awaiting)s still awaits the payment provider, so you can deposit at most %(remaining)s more "
                    "now."
                ) % {**words, "awaiting": format_money(deposits.awaiting, currency)}
            return (
                _(
                    "Your %(period)s deposit limit is %(limit)s; you have deposited %(already)s %(window)s, so you can "
                    "deposit at most %(remaining)s more now."
                )
                % words
            )
    return None


# ---------------------------------------------------------------------------------------------------------------------
# The session reminder


@transaction.atomic(durable=True)
def session_reminder_set(user: User, minutes: Any) -> User:
    """Set how many minutes pass between the player's session reminders (one of :data:`REMINDER_CHOICES`)."""
    if type(minutes) is not int or minutes not in REMINDER_CHOICES:
        raise ResponsibleGamingError(
            _("Choose a reminder interval of %(choices)s minutes.")
            % {"choices": ", ".join(str(choice) for choice in REMINDER_CHOICES)}
        )
    from poker_site.accounts.models import User

    _lock_player(user.pk)
    before = User.objects.values_list("session_reminder_minutes", flat=True).get(pk=user.pk)
    User.objects.filter(pk=user.pk).update(session_reminder_minutes=minutes)
    user.session_reminder_minutes = minutes
    audit_record(
        action="session_reminder_set",
        actor=user,
        player=user,
        target=audit_target(user),
        before={"minutes": before},
        after={"minutes": minutes},
    )
    return user


def session_start_record(sender: Any, request: HttpRequest, user: User, **_kwargs: Any) -> None:
    """``user_logged_in`` receiver: the session starts now (the reminder counts from here)."""
    if hasattr(request, "session"):
        request.session[SESSION_START_KEY] = timezone.now().isoformat()
        request.session.pop(REMINDER_SEEN_KEY, None)


def _stored_moment(request: HttpRequest, key: str) -> datetime | None:
    value = request.session.get(key)
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def session_started_at(request: HttpRequest) -> datetime:
    """When the player's session started (a session from before this feature starts now)."""
    started = _stored_moment(request, SESSION_START_KEY)
    if started is None:
        started = timezone.now()
        request.session[SESSION_START_KEY] = started.isoformat()
    return started


def session_reminder_due_at(request: HttpRequest, user: User) -> datetime:
    """When the page shows the next reminder: one interval after the session start, or after the player last chose
    to continue."""
    counted_from = _stored_moment(request, REMINDER_SEEN_KEY) or session_started_at(request)
    return counted_from + timedelta(minutes=user.session_reminder_minutes)


def session_continue(request: HttpRequest, *, now: datetime | None = None) -> None:
    """The player chose to continue after a reminder: the next one comes one interval from now."""
    request.session[REMINDER_SEEN_KEY] = (now or timezone.now()).isoformat()


def session_net_result(user_id: int, since: datetime, now: datetime | None = None) -> int:
    """The player's net result since ``since`` in cents, from the ledger: every movement on the accounts the player
    owns (cash, table stacks) except deposits, withdrawals and holds. Money at a table is still the player's; a
    tournament buy-in or a UTH bet in play counts as spent until it comes back."""
    from wallet.models import Leg

    total = (
        Leg.objects.filter(
            account__owner_id=user_id, transfer__created_at__gte=since, transfer__created_at__lte=now or timezone.now()
        )
        .exclude(transfer__kind__in=NOT_GAME_RESULTS)
        .aggregate(total=Sum("amount"))["total"]
    )
    return int(total or 0)


@dataclass(frozen=True)
class SessionSummary:
    started_at: datetime
    minutes: int
    net_result: int
    reminder_due_at: datetime


def session_summary(request: HttpRequest, user: User, *, now: datetime | None = None) -> SessionSummary:
    """The session's length in whole minutes, its net result in cents and when the next reminder is due."""
    moment = now or timezone.now()
    started = session_started_at(request)
    return SessionSummary(
        started_at=started,
        minutes=max(0, int((moment - started).total_seconds() // 60)),
        net_result=session_net_result(user.pk, started, moment),
        reminder_due_at=session_reminder_due_at(request, user),
    )


# ---------------------------------------------------------------------------------------------------------------------
# Self-exclusion


def self_exclusion_active(user_id: int, at: datetime | None = None) -> SelfExclusion | None:
    """The player's self-exclusion in force at ``at`` (now by default), the one ending last; ``None`` if none."""
    moment = at or timezone.now()
    return (
        SelfExclusion.objects.filter(user_id=user_id, started_at__lte=moment)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=moment))
        .order_by("ends_at")  # PostgreSQL sorts NULL (permanent) last in ascending order
        .last()
    )


def _exclusion_words(exclusion: SelfExclusion, refused: str) -> str:
    if exclusion.ends_at is None:
        return _("%(refused)s: you have excluded yourself permanently. Withdrawals remain possible.") % {
            "refused": refused
        }
    return _("%(refused)s: you have excluded yourself until %(end)s. Withdrawals remain possible.") % {
        "refused": refused,
        "end": _when(exclusion.ends_at),
    }


_EXCLUSION_IN_FORCE = PreparedQuery(
    lambda user_id, moment: (
        SelfExclusion.objects.filter(user_id=user_id, started_at__lte=moment)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=moment))
        .values_list("pk")[:1]
    ),
    ["moment"],
    numbers=["user_id"],
)
"""Whether any self-exclusion is in force: asked on every page a player opens and before every sit-down, queue,
registration and UTH bet, almost always to learn there is none, so compiled once per process."""


def play_refusal(user_id: int, refused: str | None = None, *, at: datetime | None = None) -> str | None:
    """Why the player may not play now (``None``: they may): the message for a sit-down, queue, registration or UTH
    bet during a self-exclusion. ``refused`` names what was refused ("You cannot sit down")."""
    moment = at or timezone.now()
    if not _EXCLUSION_IN_FORCE.rows(user_id=int(user_id), moment=moment):
        return None
    exclusion = self_exclusion_active(user_id, moment)
    if exclusion is None:
        return None
    return _exclusion_words(exclusion, refused or _("You cannot play"))


def play_allowed_or_refuse(user_id: int, refused: str, error: type[Exception], *, at: datetime | None = None) -> None:
    """Raise ``error(message)`` when the player is self-excluded (the calling service's own refusal type)."""
    message = play_refusal(user_id, refused, at=at)
    if message is not None:
        raise error(message)


@dataclass
class ExclusionResult:
    """What :func:`self_exclusion_start` did: the exclusion, and what it closed or could not close (in words)."""

    exclusion: SelfExclusion
    closed: list[str] = field(default_factory=list)
    not_closed: list[str] = field(default_factory=list)


@transaction.atomic(durable=True)
def _self_exclusion_record(user: User, period: str, moment: datetime) -> SelfExclusion:
    from games.runtime.locking import player_seating_lock

    # A cash seating of this player in progress (it holds this lock) commits before the exclusion, so the closing
    # below finds its seat; one that starts later sees the exclusion and is refused.
    player_seating_lock(user.pk)
    _lock_player(user.pk)
    current = self_exclusion_active(user.pk, moment)
    if current is not None:
        raise SelfExcluded(_exclusion_words(current, _("You are already excluded")))
    length = EXCLUSION_LENGTHS[period]
    exclusion = SelfExclusion.objects.create(
        user=user, period=period, started_at=moment, ends_at=moment + length if length is not None else None
    )
    audit_record(
        action="self_exclusion_started",
        actor=user,
        player=user,
        details={"period": period},
        target=audit_target(exclusion),
        after={
            "started_at": moment.isoformat(),
            "ends_at": exclusion.ends_at.isoformat() if exclusion.ends_at else None,
        },
    )
    return exclusion


def self_exclusion_start(user: User, period: Any, *, confirmed: Any, now: datetime | None = None) -> ExclusionResult:
    """Exclude the player from play and deposits for ``period`` (one of :class:`ExclusionPeriod`), once they have
    confirmed (``confirmed is True``). The exclusion is committed first, so from that moment every entry point refuses
    them; then their cash seats are left (:func:`games.cash.seating.seat_leave`: a player in a hand folds and leaves
    when it ends, the stack goes back to the cash balance), their stake queues left, their UTH seats left (bets placed
    while betting is open are returned), their entries in tournaments that have not started unregistered with the
    refund (:func:`tournaments.services.registration.tournament_unregister`) and their HexaPro registrations waiting
    for opponents withdrawn (:func:`tournaments.hexapro.registration.hexapro_withdraw`). Each of those is its own
    service and transaction; one that refuses (e.g. unregistration already closed, TRN-14) is reported in
    ``not_closed``. An audit entry lists the outcome. Refused with nothing changed: an unknown period, no
    confirmation, already excluded."""
    if period not in ExclusionPeriod.values:
        raise ResponsibleGamingError(_("Choose a self-exclusion period."))
    if confirmed is not True:
        raise ResponsibleGamingError(
            _("Confirm that you want to exclude yourself; it cannot be undone before it ends.")
        )
    moment = now or timezone.now()
    result = ExclusionResult(_self_exclusion_record(user, period, moment))
    _close_cash_seats(user, result, moment)
    _close_uth_seats(user, result, moment)
    _unregister_tournaments(user, result, moment)
    _record_closing(user, result)
    return result


def _close_cash_seats(user: User, result: ExclusionResult, moment: datetime) -> None:
    from games.cash.seating import seat_leave, table_leave_queue
    from games.models import Seat, SeatingRequest, SeatingRequestStatus, TableKind, TableStatus
    from games.runtime.errors import TableError

    seats = Seat.objects.filter(
        user=user, table__kind=TableKind.CASH, table__status=TableStatus.OPEN, leave_after_hand=False
    ).select_related("table")
    for seat in seats:
        try:
            seat_leave(user, seat.table, now=moment)
        except TableError as error:
            result.not_closed.append(f"{seat.table.name}: {error}")
        else:
            result.closed.append(seat.table.name)
    waiting = SeatingRequest.objects.filter(user=user, status=SeatingRequestStatus.WAITING).select_related("stake")
    for request in waiting:
        try:
            table_leave_queue(user, request.stake, now=moment)
        except TableError as error:
            result.not_closed.append(f"{request.stake}: {error}")
        else:
            result.closed.append(str(request.stake))


def _close_uth_seats(user: User, result: ExclusionResult, moment: datetime) -> None:
    from games.uth.errors import UthRefused
    from games.uth.models import UthSeat
    from games.uth.services.seats import uth_seat_leave

    for seat in UthSeat.objects.filter(player=user, left_at__isnull=True).select_related("table"):
        try:
            uth_seat_leave(user, seat.table_id, now=moment)
        except UthRefused as error:
            result.not_closed.append(f"{seat.table}: {error.message}")
        else:
            result.closed.append(str(seat.table))


def _unregister_tournaments(user: User, result: ExclusionResult, moment: datetime) -> None:
    from tournaments.models import LIVE_ENTRY_STATUSES, TournamentEntry, TournamentStatus
    from tournaments.services.errors import TournamentError
    from tournaments.services.registration import tournament_unregister

    entries = TournamentEntry.objects.filter(
        user=user,
        status__in=LIVE_ENTRY_STATUSES,
        tournament__status__in=[TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING],
    ).select_related("tournament")
    for entry in entries:
        try:
            tournament_unregister(user, entry.tournament_id, now=moment)
        except TournamentError as error:
            result.not_closed.append(f"{entry.tournament.name}: {error.message}")
        else:
            result.closed.append(entry.tournament.name)
    started = TournamentEntry.objects.filter(
        user=user, status__in=LIVE_ENTRY_STATUSES, tournament__status=TournamentStatus.RUNNING
    ).select_related("tournament")
    for entry in started:  # a started tournament keeps its entrants (TRN-14): the chips stay in play
        result.not_closed.append(
            _("%(tournament)s has started: your entry stays in play.") % {"tournament": entry.tournament.name}
        )
    _withdraw_hexapro(user, result)


def _withdraw_hexapro(user: User, result: ExclusionResult) -> None:
    from tournaments.hexapro.models import HexaProRegistration, RegistrationStatus
    from tournaments.hexapro.registration import hexapro_withdraw
    from tournaments.services.errors import TournamentError

    for registration in HexaProRegistration.objects.filter(user=user, status=RegistrationStatus.WAITING):
        try:
            hexapro_withdraw(user, registration.pk)
        except TournamentError as error:
            result.not_closed.append(f"HexaPro #{registration.pk}: {error.message}")
        else:
            result.closed.append(f"HexaPro #{registration.pk}")


@transaction.atomic(durable=True)
def _record_closing(user: User, result: ExclusionResult) -> None:
    audit_record(
        action="self_exclusion_tables_closed",
        actor=user,
        player=user,
        details={"closed": result.closed, "not_closed": result.not_closed},
        target=audit_target(result.exclusion),
    )
