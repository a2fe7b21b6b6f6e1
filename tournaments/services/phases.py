"""Phased tournaments (TRN-45, ET-13): Phase 1 flights end after their final level and carry their survivors, with their
stacks, to the one Phase 2.

* :func:`flight_end_if_over` — called by the coordinator (``tournaments.services.running``) under the flight's row
  lock: once the flight is over (``tournaments.rules.phases.flight_over``) every player still holding chips is
  registered in Phase 2 with their stack — or, when they already carry a bigger stack from another flight, keeps that
  one (stacks are never added together) — their flight entry is marked *through to Phase 2* with the stack it ended
  with, the tables close, and the flight's whole prize pool moves to Phase 2's prize pool by one idempotent ledger
  transfer (the flights pay no prizes; fees stay fees). Audited.
* :func:`phase_two_waits` — Phase 2 starts at its time only once none of its flights is still to be played.
* :func:`phase_two_refusal` — players cannot register for (or unregister from) Phase 2.
* :func:`phase_two_cancel_refunds` — Phase 2 cancelled before its start: the flights' prize contributions it holds go
  back to the players who paid them (CXL-02) — in cash, or, for a flight entry paid with a ticket, as that ticket,
  usable again (with its fee, from the house fees: a ticket is worth a whole entry price).
* :func:`phase_two_purchases` — the money Phase 2 holds described for the cancellation policy: each flight entry's
  prize contribution, which is the player-supplied pot of Phase 2.

Locks: the flight's row, then its Phase 2's row, then the flight's tables, then wallet accounts. Nothing locks a flight
while holding its Phase 2 (Phase 2's start only reads its flights).
"""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from games.models import Seat
from tournaments.definitions import out_of_the_field
from tournaments.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus, TournamentTable
from tournaments.rules.cancellation import Purchase, PurchaseKind
from tournaments.rules.phases import Carried, Survivor, flight_over, stacks_to_carry
from tournaments.services import money
from tournaments.services.errors import NotAllowedNow, RegistrationClosed
from wallet.services.audit import audit_record

OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
PAID_FLIGHT_ENTRY = ~out_of_the_field()
"""A flight entry that paid and was not refunded (nor disqualified and refunded before the flight started, TRN-28):
its prize contribution went to the flight's (then Phase 2's) pool."""


def is_flight(tournament: Tournament) -> bool:
    return tournament.phase_two_id is not None and tournament.final_level is not None


def phase_two_refusal(tournament: Tournament, *, unregistering: bool = False) -> None:
    """TRN-45: nobody registers for Phase 2 directly (nor unregisters: the stack was carried, not bought)."""
    if not tournament.is_phase_two:
        return
    if unregistering:
        raise NotAllowedNow(
            _("%(name)s is Phase 2 of a phased tournament: the stack you carried there cannot be withdrawn.")
            % {"name": tournament.name}
        )
    raise RegistrationClosed(
        _(
            "%(name)s is Phase 2 of a phased tournament: players cannot register for it directly. Play one of its "
            "Phase 1 flights; the players still holding chips when a flight ends go through to Phase 2 with their "
            "stack."
        )
        % {"name": tournament.name}
    )


def phase_two_waits(tournament: Tournament) -> bool:
    """Phase 2 waits for its flights: it starts (at its time or later) once none is still registering or running."""
    return tournament.is_phase_two and Tournament.objects.filter(phase_two=tournament).exclude(status__in=OVER).exists()


def phase_two_flights_all_cancelled(tournament: Tournament) -> bool:
    """Whether ``tournament`` is a Phase 2 that had flights and all of them were cancelled: nobody can reach it."""
    statuses = set(Tournament.objects.filter(phase_two=tournament).values_list("status", flat=True))
    return statuses == {TournamentStatus.CANCELLED}


def flight_end_if_over(
    flight: Tournament, *, final_level_over: bool, alive: int, hands_in_play: bool, now: datetime
) -> bool:
    """End the flight if it is over (see the module docstring); the caller holds the flight's row lock and closed its
    registration. Returns whether it ended."""
    from tournaments.services.running import tournament_lock, tournament_save, tournament_table_close
    from tournaments.services.seating import tables_lock

    assert flight.phase_two_id is not None
    assert flight.final_level is not None
    pending = TournamentEntry.objects.filter(tournament=flight, status=EntryStatus.BUSTED).count()
    if not flight_over(
        final_level_over=final_level_over,
        players_left=alive,
        hands_in_play=int(hands_in_play),
        places_pending=pending,
    ):
        return False
    phase_two = tournament_lock(flight.phase_two_id)
    open_links = list(
        TournamentTable.objects.filter(tournament=flight, broken_at__isnull=True).values_list("table_id", flat=True)
    )
    locked = tables_lock(open_links)
    if any(table.current_hand_id is not None for table, _seats in locked.values()):
        return False  # a hand started meanwhile: the flight ends when it is over
    entries = {
        entry.user_id: entry
        for entry in TournamentEntry.objects.filter(tournament=flight, status=EntryStatus.PLAYING).select_related(
            "user"
        )
    }
    stacks = dict(
        Seat.objects.filter(table_id__in=open_links, user__isnull=False, chips__gt=0).values_list("user_id", "chips")
    )
    survivors = [
        Survivor(int(user_id), entries[user_id].pk, int(chips))
        for user_id, chips in stacks.items()
        if user_id in entries
    ]
    carried_now = {
        entry.user_id: entry
        for entry in TournamentEntry.objects.select_for_update().filter(
            tournament=phase_two, status=EntryStatus.REGISTERED
        )
    }
    already = {
        int(user_id): Carried(int(user_id), int(entry.carried_from_id or 0), int(entry.carried_chips or 0))
        for user_id, entry in carried_now.items()
    }
    changed = stacks_to_carry(survivors, already)
    for player, carried in changed.items():
        existing = carried_now.get(player)
        if existing is not None:
            existing.carried_chips = carried.chips
            existing.carried_from_id = carried.entry
            existing.save(update_fields=["carried_chips", "carried_from"])
        else:
            TournamentEntry.objects.create(
                tournament=phase_two,
                user_id=player,
                status=EntryStatus.REGISTERED,
                registered_at=now,
                prize_contribution=0,
                fee=0,
                carried_chips=carried.chips,
                carried_from_id=carried.entry,
            )
            phase_two.entrants += 1
    for survivor in survivors:
        TournamentEntry.objects.filter(pk=survivor.entry).update(
            status=EntryStatus.QUALIFIED, table=None, carried_chips=survivor.chips
        )
    for table, seats in locked.values():
        tournament_table_close(table, seats, now, "Phase 1 is over: the players still in go through to Phase 2.")
    TournamentTable.objects.filter(tournament=flight, broken_at__isnull=True).update(broken_at=now, players=0)
    amount = int(flight.prize_pool or 0)
    transfer = money.flight_prize_money_carry(flight, phase_two, amount)
    phase_two.carried_prize_money += amount
    tournament_save(phase_two, "entrants", "carried_prize_money")
    flight.status = TournamentStatus.FINISHED
    flight.finished_at = now
    flight.players_remaining = 0
    flight.tables_running = 0
    flight.hand_for_hand = False
    tournament_save(flight, "status", "finished_at", "players_remaining", "tables_running", "hand_for_hand")
    audit_record(
        action="tournament.flight_ended",
        actor=None,
        transfer=transfer,
        reason="TRN-45: the flight's final level is over; its survivors go through to Phase 2 with their stacks.",
        target=f"tournaments.tournament:{flight.pk}",
        details={
            "phase_two": phase_two.pk,
            "final_level": flight.final_level,
            "survivors": {str(survivor.player): survivor.chips for survivor in survivors},
            "carried": {str(player): carried.chips for player, carried in changed.items()},
            "prize_money_to_phase_two": amount,
        },
    )
    from tournaments import realtime

    realtime.tournament_changed_after_commit(phase_two.pk)
    return True


def phase_two_cancel_refunds(phase_two: Tournament) -> int:
    """Phase 2 cancelled before its start (too few players carried, or staff): every flight entry's prize
    contribution held in Phase 2's prize pool goes back to its player — in cash, or its ticket returned when a ticket
    paid the entry (``money.flight_prize_money_refund``); returns how many were refunded."""
    refunded = 0
    for entry in (
        TournamentEntry.objects.filter(
            tournament__phase_two=phase_two, tournament__status=TournamentStatus.FINISHED, prize_contribution__gt=0
        )
        .filter(PAID_FLIGHT_ENTRY)
        .select_related("user", "tournament")
        .order_by("pk")
    ):
        money.flight_prize_money_refund(phase_two, entry)
        refunded += 1
    return refunded


def phase_two_purchases(phase_two: Tournament) -> tuple[Purchase, ...]:
    """The flights' prize contributions held in Phase 2's prize pool, one purchase per flight entry (their fees stayed
    fees in the flights): the player-supplied pot the cancellation policy shares out (CXL-03)."""
    return tuple(
        Purchase(
            reference=f"flight-entry:{entry_id}",
            player=str(user_id),
            kind=PurchaseKind.ENTRY,
            prize_contribution_cents=int(contribution),
            fee_cents=0,
        )
        for entry_id, user_id, contribution in TournamentEntry.objects.filter(
            tournament__phase_two=phase_two, tournament__status=TournamentStatus.FINISHED
        )
        .filter(PAID_FLIGHT_ENTRY)
        .order_by("pk")
        .values_list("pk", "user_id", "prize_contribution")
    )
