"""Tournament sanctions beyond a single disqualification (TRN-28, TRN-09 / FRD-15): barring a player from entering
tournaments, and the refusal a barred player's registration gets. Disqualifying with full or partial forfeiture is
``tournaments.services.staff.entry_disqualify``, which bars the player too when asked (one transaction, audited)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tournaments.models import TournamentBar, TournamentEntry
from tournaments.services.errors import NotAllowedNow, NotEligible
from wallet.services.audit import audit_record, audit_target

BARRED_MESSAGE = gettext_noop("You are barred from tournaments: your registration is refused. Contact support.")


def bar_refusal(user: Any) -> None:
    """Refuse (:class:`NotEligible`, nothing changed) a registration by a player barred from tournaments; the
    message is in the player's language (the pages show it as it is)."""
    if user is not None and TournamentBar.objects.filter(user_id=getattr(user, "pk", user)).exists():
        raise NotEligible(gettext(BARRED_MESSAGE))


def player_bar_locked(
    user: Any, *, actor: Any, reason: str, entry: TournamentEntry | None = None, now: datetime | None = None
) -> TournamentBar:
    """Bar ``user`` from tournaments inside the caller's transaction, audited there. Refused when already barred."""
    if TournamentBar.objects.select_for_update().filter(user_id=user.pk).exists():
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
