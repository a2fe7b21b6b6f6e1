"""Registering and unregistering (TRN-08..TRN-17, TRN-35, FEE-01..FEE-05).

``tournament_register`` books buy-in and fee as two legs of one transfer from the player's cash (FEE-04); a Sit & Go
starts in the same transaction when its last seat fills (TRN-35); a late registrant is seated at once at a table with
the fewest players (TRN-08). ``tournament_unregister`` refunds in the same form (TRN-10) until the unregistration close
(TRN-14). Every refusal says why and changes nothing.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Seat
from poker_site.core.templatetags.money import format_money
from poker_site.responsible_gaming.services import play_allowed_or_refuse
from tournaments.definitions import buy_in_range, level_clock, payouts_for_pool, payouts_now
from tournaments.models import (
    LIVE_ENTRY_STATUSES,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
    TournamentTable,
    TournamentTicket,
)
from tournaments.rules.common import RandomSource, RuleError
from tournaments.rules.eligibility import check_eligibility, parse_requirement
from tournaments.rules.fees import EntryPrice
from tournaments.rules.rebuys import chosen_buy_in
from tournaments.rules.registration import late_registration_open, may_re_enter
from tournaments.rules.seating import seat_late_registrant
from tournaments.seat_notices import seats_announce_after_commit
from tournaments.services import money
from tournaments.services.eligibility import player_profile, requirement_words
from tournaments.services.errors import (
    AlreadyRegistered,
    InsufficientBalance,
    InvalidRequest,
    NotAllowedNow,
    NotEligible,
    NotRegistered,
    RegistrationClosed,
    RegistrationNotOpen,
    SelfExcluded,
    TournamentCancelled,
    TournamentFinished,
    TournamentFull,
)
from tournaments.services.phases import phase_two_refusal
from tournaments.services.running import primary_key, start_locked, tournament_lock, tournament_save
from tournaments.services.sanctions import bar_refusal
from tournaments.services.seating import seat_fill, table_open, tables_lock
from wallet.errors import WalletError
from wallet.services import player_cash_account
from wallet.services.cashier import check_idempotency_key


def _format(cents: int) -> str:
    return f"€{cents // 100:,}.{cents % 100:02d}"


def registration_open_now(tournament: Tournament, now: datetime, *, alive: int | None = None) -> bool:
    """Whether a registration is taken at ``now``: before the start while registering, or during late registration
    (TRN-08, AMB-28)."""
    if tournament.status == TournamentStatus.REGISTERING:
        return tournament.registration_opens_at is None or tournament.registration_opens_at <= now
    if tournament.status != TournamentStatus.RUNNING or tournament.registration_closed_at is not None:
        return False
    if tournament.kind == TournamentKind.SIT_AND_GO:
        return False
    remaining = alive if alive is not None else tournament.players_remaining
    return late_registration_open(
        level_clock(tournament),
        now,
        late_registration_levels=tournament.late_registration_levels,
        remaining_players=remaining,
        paid_places=payouts_now(tournament).paid_places,
    )


@transaction.atomic(durable=True)
def tournament_register(
    user: Any,
    tournament: Tournament | int,
    *,
    now: datetime | None = None,
    randomness: RandomSource | None = None,
    ticket: int | None = None,
    buy_in: int | None = None,
    idempotency_key: str | None = None,
) -> TournamentEntry:
    """Register ``user`` (TRN-09: one live entry each), paying with cash or with the player's ticket number
    ``ticket`` (TRN-37, AMB-54). Refused: registration not open (or closed), already registered, full, barred from
    tournaments (TRN-28), a self-excluded player, not eligible for a freeroll (TRN-17), a balance below buy-in + fee,
    or a ticket that cannot pay it (someone else's, used, expired, voided, for another tournament or series, or of
    another value).

    ``buy_in``: in a multi-buy-in tournament the whole amount the player chooses to pay (TRN-38; ``None``: the base
    buy-in + fee); the stack is scaled (AMB-47). A player knocked out of a tournament that allows re-entry registers
    again through here while late registration is open (TRN-40): a new entry, a new buy-in + fee.

    A closed registration is refused with its true reason (:func:`registration_refusal`): cancelled, finished, not
    open yet, full, late registration over.

    ``idempotency_key`` (the client's Idempotency-Key, checked as the cashier checks it): a retry with the same key
    returns the entry the first registration made, paying nothing more (under the tournament's lock, so concurrent
    retries too)."""
    moment = now or timezone.now()
    key = checked_client_key(idempotency_key)
    play_allowed_or_refuse(int(user.pk), _("You cannot register for tournaments"), SelfExcluded, at=moment)
    chance: RandomSource = randomness if randomness is not None else secrets.SystemRandom()
    locked = tournament_lock(primary_key(tournament))
    if key:
        earlier = TournamentEntry.objects.filter(tournament=locked, user=user, idempotency_key=key).first()
        if earlier is not None:
            return earlier
    if ticket is not None:
        from tournaments.services.tickets import ticket_lock

        locked_ticket = ticket_lock(ticket)
        entry = registration_take_locked(locked, user, moment, chance, ticket=locked_ticket, buy_in=buy_in)
    else:
        entry = registration_take_locked(locked, user, moment, chance, buy_in=buy_in)
    if key:
        entry.idempotency_key = key
        entry.save(update_fields=["idempotency_key"])
    return entry


def checked_client_key(idempotency_key: str | None) -> str:
    """A client's Idempotency-Key checked as the cashier checks it ("" when none was sent)."""
    if idempotency_key is None:
        return ""
    try:
        return check_idempotency_key(idempotency_key)
    except WalletError as error:
        raise InvalidRequest(str(error)) from error


def registration_take_locked(
    locked: Tournament,
    user: Any,
    moment: datetime,
    chance: RandomSource,
    *,
    ticket: TournamentTicket | None = None,
    after_late_registration: bool = False,
    buy_in: int | None = None,
) -> TournamentEntry:
    """The registration of ``tournament_register`` inside the caller's transaction, the tournament row (and the
    ticket row, if any) locked by the caller. ``after_late_registration``: a satellite winner is seated in a running
    target even when its late registration has closed meanwhile (TRN-11, AMB-54)."""
    if locked.status in (TournamentStatus.CANCELLED, TournamentStatus.FINISHED):
        raise registration_refusal(locked, moment)  # the first thing to know about it, before any other reason
    phase_two_refusal(locked)  # TRN-45: Phase 2 is reached only through its flights
    seat_anyway = after_late_registration and locked.status == TournamentStatus.RUNNING
    previous = list(
        TournamentEntry.objects.filter(tournament=locked, user=user)
        .exclude(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED])
        .values_list("status", flat=True)
    )
    if not registration_open_now(locked, moment) and not seat_anyway:
        if previous and locked.re_entries_maximum and locked.status == TournamentStatus.RUNNING:
            re_entry_number(locked, previous)  # no re-entries left, or disqualified: that is the answer
            raise RegistrationClosed(
                _("Late registration for %(name)s has closed: re-entry is no longer possible.") % {"name": locked.name}
            )
        raise registration_refusal(locked, moment)
    if locked.satellite_target_id is not None and not seat_anyway:
        from tournaments.services.tickets import satellite_target_closed

        if satellite_target_closed(locked, moment):  # TRN-37: closed before the beat cancels it
            raise RegistrationClosed(
                _("%(name)s is closed: the tournament it qualifies for has started and takes no more players.")
                % {"name": locked.name}
            )
    bar_refusal(user)  # cancel-desk: TRN-28, a barred player enters no tournament
    if TournamentEntry.objects.filter(tournament=locked, user=user, status__in=LIVE_ENTRY_STATUSES).exists():
        raise AlreadyRegistered(f"You are already registered for {locked.name}.")
    if previous and locked.vip_player_id is not None and locked.vip_player_id == user.pk:
        # docs/decisions.md D-25-1: the VIP's knock-out is their final elimination (TRN-43, AMB-61), which pays the
        # VIP bounty; a VIP coming back would carry it twice.
        raise NotAllowedNow(_("You were the VIP of %(name)s: the VIP does not re-enter.") % {"name": locked.name})
    entry_number = re_entry_number(locked, previous)
    price, stack = entry_price_chosen(locked, buy_in, ticket=ticket)
    capacity = locked.seats_to_start if locked.kind == TournamentKind.SIT_AND_GO else locked.maximum_entrants
    if capacity is not None and locked.entrants >= capacity:
        raise TournamentFull(_("%(name)s is full: every place has been taken.") % {"name": locked.name})
    if locked.eligibility:
        try:
            requirement = parse_requirement(locked.eligibility)
        except RuleError as error:
            raise NotEligible(
                f"{locked.name} cannot take registrations: its entry requirements are invalid."
            ) from error
        verdict = check_eligibility(requirement, player_profile(user, moment), moment)
        if not verdict.eligible:
            reasons = "; ".join(requirement_words(rule) for rule in verdict.unmet_rules)
            raise NotEligible(
                _("You cannot enter %(tournament)s: %(reasons)s.") % {"tournament": locked.name, "reasons": reasons}
            )
    cash_account = None
    if ticket is not None:
        from tournaments.services.tickets import ticket_check_for

        ticket_check_for(ticket, user, locked, moment)
    elif price.total_cents + locked.bounty_per_entry:
        cash_account = player_cash_account(user)
        balance = cash_account.balance  # read just now, under no lock: the transfer checks it again under its lock
        if balance < price.total_cents + locked.bounty_per_entry:
            words = {
                "what": locked.name,
                "prize": format_money(price.prize_contribution_cents),
                "bounty": format_money(locked.bounty_per_entry),
                "fee": format_money(price.fee_cents),
                "balance": format_money(balance),
            }
            if locked.bounty_per_entry:
                raise InsufficientBalance(
                    _("%(what)s costs %(prize)s + %(bounty)s bounty + %(fee)s fee; your balance is %(balance)s.")
                    % words
                )
            raise InsufficientBalance(_("%(what)s costs %(prize)s + %(fee)s fee; your balance is %(balance)s.") % words)
    try:
        with transaction.atomic():
            entry = TournamentEntry.objects.create(
                tournament=locked,
                user=user,
                registered_at=moment,
                prize_contribution=price.prize_contribution_cents,
                bounty_contribution=locked.bounty_per_entry,
                bounty=locked.bounty_per_entry,
                fee=price.fee_cents,
                paid_with_ticket=ticket,
                entry_number=entry_number,
                starting_chips=stack,
            )
    except IntegrityError:  # a concurrent registration of the same player won the unique live-entry row
        raise AlreadyRegistered(f"You are already registered for {locked.name}.") from None
    if ticket is not None:
        from tournaments.services.tickets import ticket_spend_locked

        entry.registration_transfer = ticket_spend_locked(ticket, entry, moment)
    else:
        entry.registration_transfer = money.registration_pay(entry, user, cash_account=cash_account)
    entry.save(update_fields=["registration_transfer"])
    field = field_before_start(locked)  # counted after this entry was made
    locked.entrants = locked.entrants + 1 if field is None else field
    tournament_save(locked, "entrants")
    if locked.status == TournamentStatus.RUNNING:
        _seat_late_registrant(locked, entry, user, moment, chance)
        if locked.registration_closed_at is not None:
            _late_satellite_winner_pool(locked, entry)
    elif (
        locked.kind == TournamentKind.SIT_AND_GO and locked.seats_to_start and locked.entrants >= locked.seats_to_start
    ):
        start_locked(locked, moment, chance)  # TRN-35: a Sit & Go starts when its last seat fills
    _announce_after_commit(locked.pk)
    return entry


def field_before_start(tournament: Tournament) -> int | None:
    """Before the start, the players who can play: the registered entries, counted (one disqualified before the start
    is out of the field and its seat free, TRN-28, TRN-35), so an ``entrants`` left counting a disqualified registrant
    (as disqualifications did before they freed the seat) is put right by the next registration and a Sit & Go starts
    only when its seats are filled by players who can play; ``None`` once the tournament runs (``entrants`` then counts
    every paid entry)."""
    if tournament.status not in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING):
        return None
    return TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).count()


def _moment_words(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def registration_refusal(tournament: Tournament, now: datetime) -> RegistrationClosed:
    """Why ``tournament`` takes no registration at ``now`` (the caller found :func:`registration_open_now` false): a
    refusal that names the true reason — cancelled, finished, not open yet, started without late registration, late
    registration over at the end of its last level or early because payouts began (TRN-08, AMB-28) — never a bare
    "closed" for a tournament that was cancelled or has finished. Returned, not raised, so the caller raises it."""
    name = {"name": tournament.name}
    if tournament.status == TournamentStatus.CANCELLED:
        return TournamentCancelled(_("%(name)s was cancelled: it takes no registrations.") % name)
    if tournament.status == TournamentStatus.FINISHED:
        return TournamentFinished(_("%(name)s has finished: it takes no more registrations.") % name)
    if tournament.status in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING):
        opens = tournament.registration_opens_at
        if opens is not None and opens > now:
            return RegistrationNotOpen(
                _("Registration for %(name)s opens at %(time)s.") % {**name, "time": _moment_words(opens)}
            )
        return RegistrationNotOpen(_("Registration for %(name)s is not open yet.") % name)
    if tournament.kind == TournamentKind.SIT_AND_GO:
        return RegistrationClosed(_("%(name)s has started: a Sit & Go takes no players once it is under way.") % name)
    if not tournament.late_registration_levels:
        return RegistrationClosed(
            _("Registration for %(name)s closed when it started: it has no late registration.") % name
        )
    clock = level_clock(tournament)
    last_level = min(tournament.late_registration_levels, len(clock.structure.levels))
    if clock.elapsed(now) >= clock.level_end(last_level):
        return RegistrationClosed(
            _("Late registration for %(name)s closed at the end of level %(level)d.") % {**name, "level": last_level}
        )
    if tournament.phase_two_id is not None and tournament.registration_closed_at is not None:
        return RegistrationClosed(
            _("Late registration for %(name)s has closed: the flight has reached its final level.") % name
        )
    return RegistrationClosed(
        _(
            "Late registration for %(name)s closed early: no more players are left than there are paid places, so "
            "the payouts have begun."
        )
        % name
    )


def re_entry_number(tournament: Tournament, previous: list[str]) -> int:
    """The number of a new entry of a player whose earlier entries (not unregistered or refunded) had ``previous``
    statuses: 1 for a first entry; a re-entry (TRN-40) only for a player knocked out (every earlier entry out),
    never disqualified, with re-entries left."""
    if not previous:
        return 1
    if EntryStatus.DISQUALIFIED in previous:  # TRN-28: before or after the start, barred from it or not
        raise NotAllowedNow(_("You were disqualified from %(name)s: no re-entry.") % {"name": tournament.name})
    if not tournament.re_entries_maximum:
        raise AlreadyRegistered(f"You already played {tournament.name}; this tournament has no re-entry.")
    if not may_re_enter(len(previous) - 1, tournament.re_entries_maximum, late_registration_is_open=True):
        raise NotAllowedNow(
            _("You have used all %(count)d re-entries of %(name)s.")
            % {"count": tournament.re_entries_maximum, "name": tournament.name}
        )
    return len(previous) + 1


def entry_price_chosen(
    tournament: Tournament, buy_in: int | None, *, ticket: TournamentTicket | None = None
) -> tuple[EntryPrice, int | None]:
    """What an entry costs (prize contribution + fee, FEE-04) and the stack it gives (``None``: the tournament's
    starting stack). TRN-38: in a multi-buy-in tournament the player chooses ``buy_in`` (the whole amount) in the
    accepted range; without a choice, or paid by ticket, the base buy-in."""
    base = EntryPrice(tournament.buy_in, tournament.fee)
    accepted = buy_in_range(tournament)
    if buy_in is None or buy_in == base.total_cents:
        return base, None
    if accepted is None:
        raise InvalidRequest(
            _("%(name)s has one buy-in: %(price)s.") % {"name": tournament.name, "price": _format(base.total_cents)}
        )
    if ticket is not None and buy_in != base.total_cents:
        raise InvalidRequest(_("A ticket pays the base buy-in only."))
    try:
        chosen = chosen_buy_in(base, tournament.starting_stack, accepted, buy_in)
    except RuleError as error:
        raise InvalidRequest(
            _("Choose a buy-in from %(minimum)s to %(maximum)s in steps of %(step)s.")
            % {
                "minimum": _format(accepted.minimum_cents),
                "maximum": _format(accepted.maximum_cents),
                "step": _format(accepted.step_cents),
            }
        ) from error
    return chosen.price, chosen.starting_stack


def _late_satellite_winner_pool(tournament: Tournament, entry: TournamentEntry) -> None:
    """TRN-11 / AMB-54: a satellite winner seated after the target's prize pool was fixed adds their buy-in to it.
    **Decision**: while no place has been given, the prizes are worked out again for the new number of entries and
    the larger pool (the overlay already paid stays in it); once places were given, the buy-in joins the 1st prize."""
    pool = (tournament.prize_pool or 0) + entry.prize_contribution
    if tournament.phase_two_id is not None:  # TRN-45: a flight pays no prizes; the buy-in goes to Phase 2 with the rest
        tournament.prize_pool = pool
        tournament_save(tournament, "prize_pool")
        return
    if TournamentEntry.objects.filter(tournament=tournament, place__isnull=False).exists():
        prizes = list(tournament.prizes) or [0]
        prizes[0] += entry.prize_contribution
    else:
        prizes = list(payouts_for_pool(tournament, tournament.entrants, pool))
    tournament.prize_pool = pool
    tournament.prizes = prizes
    tournament_save(tournament, "prize_pool", "prizes")


def _seat_late_registrant(
    tournament: Tournament, entry: TournamentEntry, user: Any, now: datetime, randomness: RandomSource
) -> None:
    """TRN-08: a late registrant plays at once, at a table with the fewest players (a new one when all are full)."""
    links = {
        link.table_id: link for link in TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True)
    }
    occupied: dict[int, set[int]] = {table_id: set() for table_id in links}
    for table_id, number in Seat.objects.filter(table_id__in=list(links), user__isnull=False).values_list(
        "table_id", "number"
    ):
        occupied[table_id].add(number)
    choice = seat_late_registrant(occupied, tournament.table_size, randomness)
    if choice.table is None:
        table, link = table_open(tournament, now)
        tournament_save(tournament, "next_table_number")
        table_id = table.pk
    else:
        table_id = choice.table
        link = links[table_id]
    table, seats = tables_lock([table_id])[table_id]
    seat = seats[choice.seat]
    if seat.user_id is not None:  # seated meanwhile by balancing: take any free seat
        seat = next(candidate for candidate in seats.values() if candidate.user_id is None)
    event = seat_fill(
        seat,
        entry,
        user,
        entry.starting_chips or tournament.starting_stack,
        now,
        timebank_milliseconds=tournament.timebank_first_hand_seconds * 1000,
    )
    from games.runtime.events import events_append

    events_append(table, [event])
    seats_announce_after_commit(tournament, [(int(user.pk), table.pk)], "late_registration")
    TournamentTable.objects.filter(pk=link.pk).update(players=sum(1 for s in seats.values() if s.user_id))
    tournament.players_remaining += 1
    tournament_save(tournament, "players_remaining")
    if table.current_hand_id is None and table.next_hand_at is None:
        from games.models import Table

        Table.objects.filter(pk=table.pk).update(next_hand_at=now + timedelta(seconds=1))


def unregistration_closes_at(tournament: Tournament) -> datetime | None:
    """The last moment to unregister (TRN-10): a set time before a scheduled start; a Sit & Go until it starts."""
    if not tournament.unregistration_allowed:
        return None
    if tournament.kind == TournamentKind.SCHEDULED and tournament.starts_at is not None:
        return tournament.starts_at - timedelta(minutes=tournament.unregistration_closes_minutes)
    return None


@transaction.atomic(durable=True)
def tournament_unregister(user: Any, tournament: Tournament | int, *, now: datetime | None = None) -> TournamentEntry:
    """Unregister ``user`` and refund buy-in and fee in the form paid, money or ticket (TRN-10). Refused once the
    tournament started or the unregistration time passed (TRN-14), where unregistration is not allowed, or when not
    registered; a cancelled or finished tournament's refusal says it was cancelled or has finished."""
    moment = now or timezone.now()
    locked = tournament_lock(primary_key(tournament))
    entry = (
        TournamentEntry.objects.select_for_update()
        .select_related("user", "tournament")
        .filter(tournament=locked, user=user, status=EntryStatus.REGISTERED)
        .first()
    )
    name = {"name": locked.name}
    if entry is None and locked.status == TournamentStatus.CANCELLED:
        # Its cancellation refunded (or compensated) every registration already: say that, not "not registered".
        raise TournamentCancelled(_("%(name)s was cancelled: every registration was refunded or compensated.") % name)
    if entry is None and locked.status == TournamentStatus.FINISHED:
        raise TournamentFinished(_("%(name)s has finished: there is nothing to unregister from.") % name)
    if entry is None:
        raise NotRegistered(f"You are not registered for {locked.name}.")
    phase_two_refusal(locked, unregistering=True)  # TRN-45: a carried stack is not withdrawn
    if locked.status != TournamentStatus.REGISTERING:
        raise NotAllowedNow(f"{locked.name} has started: buy-in and fee are no longer refundable.")
    if not locked.unregistration_allowed:
        raise NotAllowedNow(f"{locked.name} does not allow unregistration.")
    closes = unregistration_closes_at(locked)
    if closes is not None and moment >= closes:
        raise NotAllowedNow(f"Unregistration for {locked.name} closed at {closes:%H:%M} UTC.")
    entry.refund_transfer = money.registration_refund(entry, "unregistered, refunded")
    entry.status = EntryStatus.UNREGISTERED
    entry.save(update_fields=["refund_transfer", "status"])
    locked.entrants -= 1
    tournament_save(locked, "entrants")
    _announce_after_commit(locked.pk)
    return entry


def _announce_after_commit(tournament_id: int) -> None:
    from tournaments import realtime

    realtime.tournament_changed_after_commit(tournament_id)
