"""Tournament services (``<entity>_<verb>``), imported from here: ``from tournaments.services import ...``.

Each owns its transaction (``@transaction.atomic(durable=True)``), locks the tournament row first, then tables in
primary-key order (each table before its seats and its ``TournamentTable`` row), wallet accounts last; refuses with a
:class:`~tournaments.services.errors.TournamentError` that says why (and then nothing changed); announces changes
after commit.

  tournament_register(user, tournament, *, now=None) -> TournamentEntry
  tournament_unregister(user, tournament, *, now=None) -> TournamentEntry
  tournament_advance(tournament_id, *, now=None, randomness=None) -> Step   (the coordinator; idempotent)
  tournaments_advance_all(*, now=None) -> dict                              (the beat task)
  entry_prize_pay(entry_id) -> bool                                         (a prize credit; idempotent; not while
                                                                          a forfeiture withholds it, TRN-28)
  tournament_delay / tournament_cancel / tournament_hand_for_hand_set / entry_disqualify   (staff, audited)
  entry_prize_credit(entry, *, actor, reason) -> TournamentEntry          (staff: a manual prize credit, audited)
  tournament_define / tournament_definition_update                        (staff: definitions, audited; definition.py)
  tournament_register(..., ticket=<id>)                                   (paid with a tournament ticket; tickets.py)
  ticket_issue_approved / ticket_void / tickets_expire                    (tickets: staff, audited, issued on a second
                                                                          approval, ticket_changes.py; the beat task)
  tournament_register(..., buy_in=<cents>)                                (multi-buy-in: the chosen buy-in, TRN-38)
  entry_rebuy / entry_add_on(user, tournament, *, now=None) -> TournamentPurchase   (TRN-39; purchases.py)
  satellite seats: entry_prize_pay gives a satellite's seat as a ticket, registered at once when the target takes it
  phased tournaments (TRN-45, phases.py): the coordinator ends a flight after its final level and carries its
  survivors (the biggest stack per player) and its prize pool to Phase 2; registering for Phase 2 is refused
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from tournaments.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
    TournamentTable,
)
from tournaments.rules.common import RandomSource
from tournaments.services import money
from tournaments.services.definition import DefinitionRefused, tournament_define, tournament_definition_update
from tournaments.services.errors import (
    AlreadyRegistered,
    InsufficientBalance,
    InvalidRequest,
    NotAllowedNow,
    NotEligible,
    NotRegistered,
    ReasonRequired,
    RegistrationClosed,
    RegistrationNotOpen,
    TournamentCancelled,
    TournamentError,
    TournamentFinished,
    TournamentFull,
    TournamentNotFound,
)
from tournaments.services.purchases import entry_add_on, entry_rebuy
from tournaments.services.registration import tournament_register, tournament_unregister
from tournaments.services.running import Step, credited_at_game_end, tournament_advance
from tournaments.services.staff import (
    entry_disqualify,
    entry_prize_credit,
    tournament_cancel,
    tournament_delay,
    tournament_hand_for_hand_set,
)
from tournaments.services.tickets import is_satellite_seat, satellite_seat_award_locked, tickets_expire

LIVE_STATUSES = (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING, TournamentStatus.RUNNING)


@transaction.atomic(durable=True)
def entry_prize_pay(entry_id: int, *, now: datetime | None = None) -> bool:
    """Credit entry ``entry_id``'s prize once (TRN-27); True when this call paid it. A forfeited prize is not paid, nor
    one withheld while its forfeiture awaits a second staff member's decision (TRN-28, issue 30)."""
    return entry_prize_pay_locked(entry_id, now=now)


def entry_prize_pay_locked(entry_id: int, *, now: datetime | None = None) -> bool:
    """``entry_prize_pay`` inside the caller's transaction (a rejected forfeiture pays the prize in the rejection's)."""
    from tournaments.forfeiture_changes import forfeiture_pending

    entry = (
        TournamentEntry.objects.select_for_update(of=("self",))
        .select_related("tournament", "user")
        .filter(pk=entry_id)
        .first()
    )
    if entry is None or entry.prize <= 0 or entry.prize_transfer_id is not None or entry.prize_forfeited:
        return False
    if entry.status not in (EntryStatus.FINISHED, EntryStatus.DISQUALIFIED):
        return False
    if entry.status == EntryStatus.DISQUALIFIED and forfeiture_pending(entry.pk):
        return False  # withheld: the forfeiture's approval forfeits it, its rejection pays it
    if credited_at_game_end(entry.tournament) and entry.tournament.status != TournamentStatus.FINISHED:
        return False  # HEX-10: a HexaPro game credits all places at once when it ends
    if is_satellite_seat(entry):  # TRN-37: the prize is a seat in the target (a ticket, used at once if it can be)
        entry.prize_transfer = satellite_seat_award_locked(entry, now)
    else:
        entry.prize_transfer = money.prize_credit(entry)
    entry.save(update_fields=["prize_transfer"])
    return True


def tournaments_advance_all(*, now: datetime | None = None, randomness: RandomSource | None = None) -> dict[str, Any]:
    """Move every live tournament on (one transaction each: a failing one does not stop the others) and pay any
    prize still owed. ``randomness`` (tests: a seeded ``random.Random``) draws seats, moves and ties; production uses
    the operating system's CSPRNG."""
    moment = now or timezone.now()
    advanced, failed, looked_at = 0, [], 0
    for tournament_id in tournaments_due(moment):
        looked_at += 1
        try:
            advanced += tournament_advance(tournament_id, now=moment, randomness=randomness).changed
        except Exception:
            import logging

            logging.getLogger(__name__).exception("tournament %s could not be advanced", tournament_id)
            failed.append(tournament_id)
    from tournaments.forfeiture_changes import forfeiture_withheld

    paid = 0
    for entry_id in (
        TournamentEntry.objects.filter(
            prize__gt=0, prize_transfer__isnull=True, prize_forfeited=False, place__isnull=False
        )
        .exclude(tournament__kind=TournamentKind.HEXAPRO, tournament__status=TournamentStatus.RUNNING)
        .exclude(forfeiture_withheld())  # TRN-28, issue 30: a forfeiture awaits a second staff member's decision
        .values_list("pk", flat=True)
    ):
        paid += entry_prize_pay(entry_id)
    expired = tickets_expire(moment)
    return {
        "looked_at": looked_at,
        "advanced": advanced,
        "failed": failed,
        "prizes_paid": paid,
        "tickets_expired": expired,
    }


def tournaments_due(moment: datetime) -> list[int]:
    """The live tournaments the beat's sweep moves on at ``moment``, in id order: every one that has not started, and a
    running one only when its coordination fell due (``coordination_due_at``: a level's end, a break, the first deal,
    a safety interval; empty after any change through the services) or one of its tables waits for it (a hand ended
    and the coordination that hand end queued has not run). At a thousand running Sit & Gos, most of them between
    such moments, this spares the beat a locked coordination of each every tick (7 ms of CPU apiece, issue 27)."""
    waiting = TournamentTable.objects.filter(tournament=OuterRef("pk"), needs_coordination=True)
    return list(
        Tournament.objects.filter(status__in=LIVE_STATUSES)
        .filter(
            ~Q(status=TournamentStatus.RUNNING)
            | Q(coordination_due_at__isnull=True)
            | Q(coordination_due_at__lte=moment)
            | Exists(waiting)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


__all__ = [
    "AlreadyRegistered",
    "DefinitionRefused",
    "InsufficientBalance",
    "InvalidRequest",
    "NotAllowedNow",
    "NotEligible",
    "NotRegistered",
    "ReasonRequired",
    "RegistrationClosed",
    "RegistrationNotOpen",
    "Step",
    "TournamentCancelled",
    "TournamentError",
    "TournamentFinished",
    "TournamentFull",
    "TournamentNotFound",
    "entry_add_on",
    "entry_disqualify",
    "entry_prize_credit",
    "entry_prize_pay",
    "entry_prize_pay_locked",
    "entry_rebuy",
    "tournament_advance",
    "tournament_cancel",
    "tournament_define",
    "tournament_definition_update",
    "tournament_delay",
    "tournament_hand_for_hand_set",
    "tournament_register",
    "tournament_unregister",
    "tournaments_advance_all",
    "tournaments_due",
]
