"""Tournament sanctions beyond a single disqualification (TRN-28, TRN-09 / FRD-15): barring a player from entering
tournaments, lifting a bar, and the refusal a barred player's registration gets. Disqualifying with full or partial
forfeiture is ``tournaments.services.staff.entry_disqualify``, which bars the player too when asked (one transaction,
audited)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tournaments.models import TournamentBar, TournamentEntry
from tournaments.services.errors import NotAllowedNow, NotEligible
from wallet.services.audit import audit_record, audit_target

BARRED_MESSAGE = gettext_noop("You are barred from tournaments: your registration is refused. Contact support.")


def bars_in_force() -> QuerySet[TournamentBar]:
    """The bars that refuse registrations now: every bar not lifted."""
    return TournamentBar.objects.filter(lifted_at__isnull=True)


def bar_refusal(user: Any) -> None:
    """Refuse (:class:`NotEligible`, nothing changed) a registration by a player barred from tournaments; the
    message is in the player's language (the pages show it as it is)."""
    if user is not None and bars_in_force().filter(user_id=getattr(user, "pk", user)).exists():
        raise NotEligible(gettext(BARRED_MESSAGE))


def player_bar_locked(
    user: Any, *, actor: Any, reason: str, entry: TournamentEntry | None = None, now: datetime | None = None
) -> TournamentBar:
    """Bar ``user`` from tournaments inside the caller's transaction, audited there. Refused when already barred."""
    if bars_in_force().select_for_update().filter(user_id=user.pk).exists():
        raise NotAllowedNow(f"{user} is already barred from tournaments.")
    if actor is None or getattr(actor, "pk", None) is None:
        raise NotAllowedNow("A bar is recorded with the staff member who decided it.")
    bar = TournamentBar.objects.create(
        user=user, reason=reason, barred_by=actor, barred_at=now or timezone.now(), entry=entry
    )
    audit_record(
        action="tournament_player_barred",
        actor=actor,
        player=user,
        reason=reason,
        target=audit_target(bar),
        details={"bar": bar.pk, "entry": entry.pk if entry is not None else None},
        before={"barred": False},
        after={"barred": True},
    )
    return bar


@transaction.atomic(durable=True)
def player_bar(user: Any, *, actor: Any, reason: str, now: datetime | None = None) -> TournamentBar:
    """Bar ``user`` from entering tournaments (TRN-28), with the reason the audit log keeps."""
    from tournaments.services.staff import staff_reason

    return player_bar_locked(user, actor=actor, reason=staff_reason(reason), now=now)


@transaction.atomic(durable=True)
def bar_lift(bar: TournamentBar | int, *, actor: Any, reason: str, now: datetime | None = None) -> TournamentBar:
    """Lift a bar in force (the back office decided the player may enter tournaments again): the bar row keeps who
    barred and why, and records who lifted it, when and why; audited in the same transaction. From then on the
    player's registrations are accepted again (unless another sanction refuses them). Refused, nothing changed, when
    the bar is already lifted, the reason is empty, or no staff member is named."""
    from tournaments.services.staff import staff_reason

    reason = staff_reason(reason)
    if actor is None or getattr(actor, "pk", None) is None:
        raise NotAllowedNow("Lifting a bar is recorded with the staff member who decided it.")
    bar_id = bar.pk if isinstance(bar, TournamentBar) else bar
    # The row lock makes two staff members lifting at once one lift and one refusal.
    locked = TournamentBar.objects.select_for_update().select_related("user").filter(pk=bar_id).first()
    if locked is None:
        raise NotAllowedNow(f"There is no tournament bar {bar_id}.")
    if locked.lifted_at is not None:
        raise NotAllowedNow(f"The bar of {locked.user} was already lifted on {locked.lifted_at:%Y-%m-%d %H:%M} UTC.")
    locked.lifted_at = now or timezone.now()
    locked.lifted_by = actor
    locked.lift_reason = reason
    locked.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    audit_record(
        action="tournament_bar_lifted",
        actor=actor,
        player=locked.user,
        reason=reason,
        target=audit_target(locked),
        details={"bar": locked.pk, "barred_at": locked.barred_at.isoformat(), "bar_reason": locked.reason},
        before={"barred": True},
        after={"barred": False},
    )
    return locked
