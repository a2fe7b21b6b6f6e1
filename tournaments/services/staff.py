"""Staff actions on tournaments (TRN-01, TRN-23, TRN-28, LOB-08), each audited in the same transaction
(``wallet.services.audit_record``: who, when, what, before and after, append-only)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import EntryStatus, HandForHandMode, Tournament, TournamentEntry, TournamentStatus
from tournaments.services import money
from tournaments.services.errors import NotAllowedNow, ReasonRequired, TournamentNotFound
from tournaments.services.phases import phase_two_waits
from tournaments.services.running import (
    cancel_before_start_locked,
    credited_at_game_end,
    primary_key,
    tournament_lock,
    tournament_save,
)
from tournaments.services.sanctions import player_bar_locked
from tournaments.services.seating import tables_lock
from wallet.errors import format_cents
from wallet.services.audit import audit_record


def staff_reason(reason: object) -> str:
    """The reason a staff action is recorded with: required, at most 300 characters."""
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ReasonRequired("Give the reason: it is recorded with the action.")
    return text[:300]


@transaction.atomic(durable=True)
def tournament_delay(
    tournament: Tournament | int, new_start: datetime, *, actor: Any, reason: str, now: datetime | None = None
) -> Tournament:
    """Move a scheduled tournament's start later (TRN-01); only before it starts."""
    text = staff_reason(reason)
    moment = now or timezone.now()
    locked = tournament_lock(primary_key(tournament))
    if locked.status not in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING) or locked.starts_at is None:
        raise NotAllowedNow(f"{locked.name} is not waiting for a scheduled start.")
    if new_start <= moment or new_start <= locked.starts_at:
        raise NotAllowedNow("A delay moves the start later than both now and the current start.")
    before = locked.starts_at.isoformat()
    locked.starts_at = new_start
    tournament_save(locked, "starts_at")
    audit_record(
        target=f"tournaments.tournament:{locked.pk}",
        action="tournament_delayed",
        actor=actor,
        reason=text,
        details={
            "tournament": locked.pk,
            "before": {"starts_at": before},
            "after": {"starts_at": new_start.isoformat()},
        },
    )
    return locked


def pause_locked(tournament: Tournament, now: datetime) -> bool:
    """Pause the locked running tournament at ``now`` (nothing when it is paused already); True when it paused."""
    if tournament.paused_at is not None:
        return False
    tournament.paused_at = now
    tournament_save(tournament, "paused_at")
    return True


def resume_locked(tournament: Tournament, now: datetime) -> bool:
    """Resume the locked paused tournament: the pause becomes a stretch the level clock skipped (a break row, as
    TRN-30's), so the levels go on where they stood. True when it was paused."""
    from tournaments.models import TournamentBreak

    if tournament.paused_at is None:
        return False
    last_end = tournament.breaks.order_by("-ends_at").values_list("ends_at", flat=True).first()
    start = max(tournament.paused_at, last_end) if last_end else tournament.paused_at
    changed = ["paused_at"]
    if now > start:
        TournamentBreak.objects.create(tournament=tournament, started_at=start, ends_at=now)
        # The times read from the level clock before the pause move on by its length.
        for name in ("level_ends_at", "break_due_at", "break_ends_at"):
            moment = getattr(tournament, name)
            if moment is not None and moment > start:
                setattr(tournament, name, moment + (now - start))
                changed.append(name)
    tournament.paused_at = None
    tournament_save(tournament, *changed)
    return True


@transaction.atomic(durable=True)
def tournament_pause(
    tournament: Tournament | int, *, actor: Any, reason: str, now: datetime | None = None
) -> Tournament:
    """Pause a running tournament: the hands in play finish, no new hand is dealt, the level clock stands still
    (so a cancellation's preview stays valid). Refused unless it is running and not paused. Audited."""
    text = staff_reason(reason)
    moment = now or timezone.now()
    locked = tournament_lock(primary_key(tournament))
    if locked.status != TournamentStatus.RUNNING:
        raise NotAllowedNow(f"{locked.name} is {locked.get_status_display()}: only a running tournament pauses.")
    if not pause_locked(locked, moment):
        raise NotAllowedNow(f"{locked.name} is paused already.")
    audit_record(
        target=f"tournaments.tournament:{locked.pk}",
        action="tournament_paused",
        actor=actor,
        reason=text,
        details={"tournament": locked.pk, "paused_at": moment.isoformat()},
    )
    return locked


@transaction.atomic(durable=True)
def tournament_resume(
    tournament: Tournament | int, *, actor: Any, reason: str, now: datetime | None = None
) -> Tournament:
    """Resume a paused tournament: the levels go on where they stood and the tables deal again. Refused while a
    cancellation proposal waits (withdrawing it resumes the tournament). Audited."""
    text = staff_reason(reason)
    moment = now or timezone.now()
    locked = tournament_lock(primary_key(tournament))
    if locked.cancellation_pending:
        raise NotAllowedNow(f"A cancellation of {locked.name} waits: withdraw it to let play go on.")
    paused_at = locked.paused_at
    if locked.status != TournamentStatus.RUNNING or not resume_locked(locked, moment):
        raise NotAllowedNow(f"{locked.name} is not paused.")
    audit_record(
        target=f"tournaments.tournament:{locked.pk}",
        action="tournament_resumed",
        actor=actor,
        reason=text,
        details={"tournament": locked.pk, "paused_at": paused_at.isoformat() if paused_at else None},
    )
    return locked


@transaction.atomic(durable=True)
def tournament_cancel(
    tournament: Tournament | int, *, actor: Any, reason: str, now: datetime | None = None
) -> Tournament:
    """Cancel a tournament that has not started: every registration refunded in full (TRN-01, CXL-02). A started
    tournament is cancelled through the cancellation policy's preview and approval (CXL)."""
    text = staff_reason(reason)
    moment = now or timezone.now()
    locked = tournament_lock(primary_key(tournament))
    if locked.status not in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING):
        raise NotAllowedNow(
            f"{locked.name} has started: cancel it with the cancellation policy (preview and approval, CXL)."
            if locked.status == TournamentStatus.RUNNING
            else f"{locked.name} is already over."
        )
    if phase_two_waits(locked):  # TRN-45: its flights would carry their players and money into a cancelled Phase 2
        raise NotAllowedNow(
            f"{locked.name} is Phase 2 of a phased tournament and some of its flights are not over: cancel those "
            "flights first (or let them end)."
        )
    refunded = cancel_before_start_locked(locked, text, moment)
    audit_record(
        target=f"tournaments.tournament:{locked.pk}",
        action="tournament_cancelled",
        actor=actor,
        reason=text,
        details={"tournament": locked.pk, "before": {"status": "registering"}, "after": {"refunded": refunded}},
    )
    return locked


@transaction.atomic(durable=True)
def tournament_hand_for_hand_set(
    tournament: Tournament | int, mode: str, *, actor: Any, reason: str = "", now: datetime | None = None
) -> Tournament:
    """Switch hand-for-hand on or off by hand, or back to automatic at the bubble (AMB-43)."""
    if mode not in HandForHandMode.values:
        raise NotAllowedNow(f"Hand-for-hand is one of {', '.join(HandForHandMode.values)}, not {mode!r}.")
    locked = tournament_lock(primary_key(tournament))
    before = locked.hand_for_hand_mode
    locked.hand_for_hand_mode = mode
    tournament_save(locked, "hand_for_hand_mode")
    audit_record(
        target=f"tournaments.tournament:{locked.pk}",
        action="tournament_hand_for_hand",
        actor=actor,
        reason=reason.strip() if isinstance(reason, str) else "",
        details={"tournament": locked.pk, "before": {"mode": before}, "after": {"mode": mode}},
    )
    return locked


@transaction.atomic(durable=True)
def entry_disqualify(
    entry: TournamentEntry | int,
    *,
    actor: Any,
    reason: str,
    forfeit_prize: bool,
    forfeit_cents: int | None = None,
    bar: bool = False,
    now: datetime | None = None,
) -> TournamentEntry:
    """Disqualify a player (TRN-28, TRN-09), at once. A registrant of a tournament that has not started leaves the
    field, its seat free for the next registrant (TRN-35), and is refunded buy-in, bounty part and fee in the form paid,
    as an unregistration is (TRN-10; nothing is forfeited before the start, TRN-14). A player still in play is removed
    with their chips (they take no place). A player who already finished keeps an unpaid prize, or staff propose to
    forfeit all of it (``forfeit_prize``: to the house's seized funds) or ``forfeit_cents`` of it (the rest paid to the
    player in one transfer): money needs two people (issue 30), so the forfeiture is a rule change proposal
    (:mod:`tournaments.forfeiture_changes`) made in the same transaction, in ``actor``'s name, and the prize is withheld
    (unpaid, still in the prize pool, paid by nothing) until another staff member approves it (then
    :func:`entry_forfeiture_apply_locked` forfeits it) or rejects it (then it is paid to the player at once). A prize
    already paid is confiscated through the compliance desk's hold and seizure, not here. ``bar`` also bars the player
    from entering tournaments (``tournaments.services.sanctions``), in the same transaction. Refused with nothing
    changed: a partial amount that is not a whole number of cents above 0 and below the unpaid prize, both a full and a
    partial forfeiture, a partial one in a running HexaPro game (HEX-10), an entry with nothing to disqualify, a player
    already barred."""
    from games.models import Table
    from games.runtime.events import NewEvent, events_append
    from games.runtime.seat_state import seat_empty

    text = staff_reason(reason)
    moment = now or timezone.now()
    entry_id = primary_key(entry)
    tournament_id = TournamentEntry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentNotFound(f"There is no tournament entry {entry_id}.")
    locked = tournament_lock(tournament_id)
    row = TournamentEntry.objects.select_for_update().select_related("user").get(pk=entry_id)
    before = {"status": row.status, "place": row.place, "prize": row.prize}
    withheld = 0
    partial = _partial_forfeiture(row, forfeit_prize=forfeit_prize, forfeit_cents=forfeit_cents)
    if partial and credited_at_game_end(locked) and locked.status == TournamentStatus.RUNNING:
        raise NotAllowedNow(
            f"HexaPro game {locked.pk} is still running: its prizes are paid when it ends (HEX-10); forfeit a part "
            "of this one then."
        )
    if row.status == EntryStatus.PLAYING:
        assert row.table_id is not None
        table, seats = tables_lock([row.table_id])[row.table_id]
        hand_running = Table.objects.filter(pk=table.pk, current_hand__isnull=False).exists()
        if hand_running:
            raise NotAllowedNow("The player is in a hand: disqualify them when it ends.")
        seat = next(seat for seat in seats.values() if seat.user_id == row.user_id)
        number, chips = seat.number, seat.chips
        seat_empty(seat)
        events_append(
            table,
            [
                NewEvent(
                    "player_disqualified", {"seat": number, "status": "empty", "user_id": row.user_id, "chips": chips}
                )
            ],
        )
        row.table = None
        locked.players_remaining = max(0, locked.players_remaining - 1)
        tournament_save(locked, "players_remaining")
        from tournaments.models import TournamentTable

        TournamentTable.objects.filter(table_id=table.pk).update(
            players=sum(1 for candidate in seats.values() if candidate.user_id is not None), needs_coordination=True
        )
    elif row.status == EntryStatus.FINISHED and row.prize_transfer_id is not None and forfeit_prize:
        raise NotAllowedNow("The prize is already paid: put it on hold and seize it from the compliance desk.")
    elif row.status == EntryStatus.FINISHED and row.prize and (forfeit_prize or partial):
        withheld = row.prize if forfeit_prize else partial  # proposed below, once the entry is disqualified
    elif row.status not in (EntryStatus.FINISHED, EntryStatus.REGISTERED, EntryStatus.BUSTED):
        raise NotAllowedNow(f"This entry is {row.get_status_display()}: there is nothing to disqualify.")
    before_start = row.status == EntryStatus.REGISTERED and _not_started(locked)
    if before_start:
        # TRN-28 before the start: the entry leaves the field, its seat free for the next registrant (TRN-35), and
        # what it paid comes back in the form paid, as an unregistration's does (TRN-10): nothing is forfeited before
        # the start (TRN-14), and what a disqualification forfeits is winnings (TRN-09), of which there are none.
        row.tournament = locked
        row.refund_transfer = money.registration_refund(row, "disqualified before the start, refunded")
        row.bounty = 0  # the bounty part went back with the rest: the bounty pool holds the others' bounties only
        locked.entrants = max(0, locked.entrants - 1)
        tournament_save(locked, "entrants")
    elif row.bounty:  # TRN-28 with TRN-41: the disqualified player's own bounty is seized, not won by anyone
        row.tournament = locked
        money.bounty_forfeit(row)
        row.bounty_forfeited, row.bounty = row.bounty, 0
    row.status = EntryStatus.DISQUALIFIED
    row.disqualification_reason = text
    row.prize_forfeited = bool(forfeit_prize) and not withheld  # a prize to forfeit waits for the approval
    if not before_start:  # one disqualified before the start was never knocked out: out of the field (definitions)
        row.eliminated_at = row.eliminated_at or moment
    row.save(
        update_fields=[
            "refund_transfer",
            "status",
            "disqualification_reason",
            "prize_forfeited",
            "table",
            "eliminated_at",
            "prize_transfer",
            "prize_forfeited_cents",
            "bounty",
            "bounty_forfeited",
        ]
    )
    proposal = None
    if withheld:
        from poker_site.core.rule_changes import RuleChangeRefused
        from tournaments.forfeiture_changes import forfeiture_propose_locked

        try:
            proposal = forfeiture_propose_locked(actor, row, full=bool(forfeit_prize), cents=withheld, reason=text)
        except RuleChangeRefused as refusal:
            raise NotAllowedNow(refusal.message) from refusal
    audit_record(
        target=f"tournaments.tournament:{locked.pk}",
        action="tournament_player_disqualified",
        actor=actor,
        player=row.user,
        reason=text,
        details={
            "tournament": locked.pk,
            "entry": row.pk,
            "forfeit_prize": bool(forfeit_prize),
            "forfeited_cents": row.prize_forfeited_cents,
            "forfeiture_proposed_cents": withheld,
            "forfeiture_proposal": proposal.pk if proposal is not None else None,
            "bounty_forfeited_cents": row.bounty_forfeited,
            "refunded_before_start": before_start,
            "refund_transfer": row.refund_transfer_id,
            "barred": bool(bar),
            "before": before,
            "after": {"status": row.status},
        },
    )
    if bar:
        player_bar_locked(row.user, actor=actor, reason=text, entry=row, now=moment)
    if before_start:
        from tournaments import realtime

        realtime.tournament_changed_after_commit(locked.pk)  # the lobby's count of players
    return row


def _not_started(tournament: Tournament) -> bool:
    """Whether the tournament has not started (TRN-14: until then nothing paid is forfeited). A Phase 2's registrants
    played their flights, which started: their entries are carried stacks, not refundable (TRN-45)."""
    return (
        tournament.status in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING) and not tournament.is_phase_two
    )


def _partial_forfeiture(row: TournamentEntry, *, forfeit_prize: bool, forfeit_cents: object) -> int:
    """The cents of ``row``'s unpaid prize to forfeit in part (0: no partial forfeiture), checked before anything
    changes (TRN-28)."""
    if forfeit_cents is None:
        return 0
    if isinstance(forfeit_cents, bool) or not isinstance(forfeit_cents, int):
        raise NotAllowedNow("The part of the prize to forfeit is a whole number of cents.")
    if forfeit_prize:
        raise NotAllowedNow("Choose a full or a partial forfeiture, not both.")
    if row.status != EntryStatus.FINISHED or row.prize <= 0:
        raise NotAllowedNow(f"{row.user} has no prize won in this tournament: there is nothing to forfeit in part.")
    if row.prize_transfer_id is not None:
        raise NotAllowedNow("The prize is already paid: put it on hold and seize it from the compliance desk.")
    if not 0 < forfeit_cents < row.prize:
        raise NotAllowedNow(
            f"A partial forfeiture is more than €0.00 and less than the prize {format_cents(row.prize)} (forfeit all "
            "of it with the full forfeiture)."
        )
    return forfeit_cents


def forfeiture_refusal(row: TournamentEntry, tournament: Tournament, *, full: bool, cents: object) -> str:
    """Why the forfeiture of ``cents`` of ``row``'s prize (all of it when ``full``) cannot be done now, or "" when it
    can (TRN-28, issue 30): checked when it is proposed and again, under the locks, when it is approved. The entry is
    disqualified, its prize unpaid and not forfeited; a full forfeiture is the whole prize, a partial one a whole
    number of cents above 0 and below it, and only once a HexaPro game has ended (HEX-10)."""
    if row.status != EntryStatus.DISQUALIFIED:
        return f"Entry {row.pk} is {row.get_status_display()}: only a disqualified player's prize is forfeited."
    if row.prize <= 0:
        return f"{row.user} has no prize won in this tournament: there is nothing to forfeit."
    if row.prize_transfer_id is not None:
        return "The prize is already paid: put it on hold and seize it from the compliance desk."
    if row.prize_forfeited:
        return f"The prize of {row.user} is already forfeited."
    if isinstance(cents, bool) or not isinstance(cents, int):
        return "The part of the prize to forfeit is a whole number of cents."
    if full and cents != row.prize:
        return f"A full forfeiture is the whole prize {format_cents(row.prize)}, not {format_cents(cents)}."
    if not full and not 0 < cents < row.prize:
        return (
            f"A partial forfeiture is more than €0.00 and less than the prize {format_cents(row.prize)} (forfeit all "
            "of it with the full forfeiture)."
        )
    if not full and credited_at_game_end(tournament) and tournament.status == TournamentStatus.RUNNING:
        return (
            f"HexaPro game {tournament.pk} is still running: its prizes are paid when it ends (HEX-10); forfeit a "
            "part of this one then."
        )
    return ""


def entry_forfeiture_apply_locked(
    entry_id: int, *, full: bool, cents: int, proposed_by: Any, approved_by: Any, reason: str, proposal: int
) -> TournamentEntry:
    """Forfeit a disqualified player's withheld prize as approved (TRN-28, issue 30), in the approval's transaction:
    the whole prize to the house's seized funds (``full``), or ``cents`` of it to them and the rest to the player in
    one transfer. The same idempotent ledger transfers as before the four eyes (``tournament-entry:<id>:prize-
    forfeited``, ``tournament-entry:<id>:prize``). Checked again under the tournament's and the entry's locks
    (:func:`forfeiture_refusal`); ``NotAllowedNow`` with nothing changed. Audited (``tournament_prize_forfeited``) in
    the approver's name, naming the proposer too."""
    tournament_id = TournamentEntry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentNotFound(f"There is no tournament entry {entry_id}.")
    locked = tournament_lock(tournament_id)
    row = TournamentEntry.objects.select_for_update().select_related("user").get(pk=entry_id)
    row.tournament = locked
    refusal = forfeiture_refusal(row, locked, full=full, cents=cents)
    if refusal:
        raise NotAllowedNow(refusal)
    if full:
        transfer = money.prize_forfeit(row)
        row.prize_forfeited, row.prize_forfeited_cents = True, row.prize
    else:
        transfer = row.prize_transfer = money.prize_part_forfeit(row, cents)
        row.prize_forfeited_cents = cents
    row.save(update_fields=["prize_forfeited", "prize_forfeited_cents", "prize_transfer"])
    audit_record(
        target=f"tournaments.tournament:{locked.pk}",
        action="tournament_prize_forfeited",
        actor=approved_by,
        player=row.user,
        transfer=transfer,
        reason=reason,
        details={
            "tournament": locked.pk,
            "entry": row.pk,
            "proposal": proposal,
            "proposed_by": getattr(proposed_by, "username", None),
            "approved_by": getattr(approved_by, "username", None),
            "forfeit_prize": full,
            "prize": row.prize,
            "forfeited_cents": row.prize_forfeited_cents,
            "paid_cents": row.prize - row.prize_forfeited_cents,
        },
        before={"prize_transfer": None, "prize_forfeited": False},
        after={"prize_transfer": row.prize_transfer_id, "prize_forfeited": row.prize_forfeited},
    )
    return row


@transaction.atomic(durable=True)
def entry_prize_credit(entry: TournamentEntry | int, *, actor: Any, reason: str) -> TournamentEntry:
    """Credit an unpaid prize by hand (LOB-08: manual prize credit), e.g. when the automatic credit (TRN-27) failed:
    the same idempotent transfer as ``entry_prize_pay``, audited with the reason. Refused, with nothing changed, for
    an entry with no prize, a prize already paid, one forfeited on disqualification (TRN-28), or one withheld while
    its forfeiture awaits a decision (issue 30)."""
    text = staff_reason(reason)
    entry_id = primary_key(entry)
    row = (
        TournamentEntry.objects.select_for_update(of=("self",))
        .select_related("tournament", "user")
        .filter(pk=entry_id)
        .first()
    )
    if row is None:
        raise TournamentNotFound(f"There is no tournament entry {entry_id}.")
    if row.prize_transfer_id is not None:
        raise NotAllowedNow(f"The prize of {row.user} for place {row.place} is already paid.")
    if row.prize_forfeited:
        raise NotAllowedNow(f"The prize of {row.user} was forfeited on disqualification: it is not paid.")
    from tournaments.forfeiture_changes import forfeiture_pending

    if forfeiture_pending(row.pk):
        raise NotAllowedNow(
            f"The prize of {row.user} is withheld: its forfeiture awaits a second staff member's decision (TRN-28, "
            "issue 30). A rejection pays it."
        )
    if row.prize <= 0 or row.status not in (EntryStatus.FINISHED, EntryStatus.DISQUALIFIED):
        raise NotAllowedNow(f"{row.user} has no prize to credit ({row.get_status_display()}, no prize won).")
    if credited_at_game_end(row.tournament) and row.tournament.status == TournamentStatus.RUNNING:
        raise NotAllowedNow(f"HexaPro game {row.tournament_id} is still running: its prizes are credited when it ends.")
    from tournaments.services.tickets import is_satellite_seat, satellite_seat_award_locked

    # A satellite seat is given as the automatic payment gives it (TRN-37): a ticket, registered if it can be.
    row.prize_transfer = satellite_seat_award_locked(row) if is_satellite_seat(row) else money.prize_credit(row)
    row.save(update_fields=["prize_transfer"])
    audit_record(
        target=f"tournaments.tournament:{row.tournament_id}",
        action="tournament_prize_credited",
        actor=actor,
        player=row.user,
        transfer=row.prize_transfer,
        reason=text,
        details={
            "tournament": row.tournament_id,
            "entry": row.pk,
            "place": row.place,
            "prize": row.prize,
            "before": {"prize_transfer": None},
            "after": {"prize_transfer": row.prize_transfer_id},
        },
    )
    return row
