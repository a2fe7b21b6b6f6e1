"""Running a tournament: the start, and the coordinator that moves it on between hands and on its clocks.

:func:`tournament_advance` is the one idempotent step for a tournament at a moment (the Celery beat task runs it
every few seconds for every live tournament, and a table's hand end asks for it at once). Under the tournament's row
lock it:

1. opens registration and starts a scheduled tournament at its time (TRN-01, TRN-03, TRN-05), or cancels it with
   refunds when too few registered (TRN-15, CXL-02);
2. closes late registration at the end of its last level, or once payouts begin (TRN-08, AMB-28), fixing the prize
   pool (guarantee overlay, TRN-07) and the payouts (TRN-06);
3. gives knocked-out players their places — one hand's (or one hand-for-hand round's) eliminations by the chips they
   started it with, ties at random (TRN-22, TRN-24) — and credits each prize at once (TRN-27, a Celery task);
4. ends the tournament with one player left, or when every remaining place pays the same and the tournament says so
   (TRN-21), paying the winner(s); a Phase 1 flight ends instead after its final level, once the hands in play are
   over, carrying its survivors' stacks and its prize pool to Phase 2 (TRN-45, ``tournaments.services.phases``), and a
   Phase 2 starts only once its flights are over;
5. switches hand-for-hand on at the bubble and off when it bursts, and deals the next round once every table has
   finished the last (TRN-23, AMB-43);
6. breaks and balances tables between hands (TRN-25, AMB-42) and tells the moved players (TRN-26);
7. starts a break once every table has finished its hand after the break fell due, and ends it (TRN-30, AMB-41);
8. records the current level for the lobby, and tells the tables when a new one starts (AMB-65: it applies to the
   next hand dealt, which the tables work out themselves from the clock).

Running it twice at the same moment changes nothing the second time.

Locks, in this order: the tournament row first; then tables in primary-key order, each table row before its seats
and before its ``TournamentTable`` row (``tournaments.services.seating``); wallet accounts last. A table lock is never
taken after a ``TournamentTable`` row was updated in the same transaction (the waiting flags are cleared last, once
every table lock the step needs is held). The hand transactions lock their table and its link row, never the
tournament row: they only read it (``tournaments.table_policy.locked_table_link``, once per table lock).

Cost per coordination (``benchmarks/bench_tournament.py balancing``, docs/benchmarks.md): a fixed number of statements
whatever the number of tables — the open and waiting tables are one query, the levels one, the breaks one — plus a few
per place given and per player moved.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterable, MutableSequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import groupby
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Hand, HandStatus, Seat, SeatStatus, Table, TableStatus
from games.runtime.events import NewEvent, events_append
from games.runtime.seat_state import seat_empty, table_touch
from poker_site.core.compiled_sql import rows_update
from tournaments.definitions import (
    add_on_policy,
    blind_structure,
    break_policy,
    level_clock,
    out_of_the_field,
    paid_contributions,
    payouts_for,
    payouts_now,
    satellite_plan,
)
from tournaments.models import (
    EntryStatus,
    HandForHandMode,
    Tournament,
    TournamentBreak,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
    TournamentTable,
)
from tournaments.rules.balancing import MoveReason
from tournaments.rules.breaks import break_pause, next_break_due
from tournaments.rules.common import RandomSource
from tournaments.rules.eliminations import FinishingPlace, finishing_places, hand_for_hand, tournament_over
from tournaments.rules.levels import BlindStructure, LevelClock
from tournaments.rules.phases import flight_stops_dealing
from tournaments.rules.rebuys import purchases_over
from tournaments.rules.registration import late_registration_open
from tournaments.rules.seating import initial_seating
from tournaments.seat_notices import seats_announce_after_commit
from tournaments.services import money
from tournaments.services.errors import TournamentNotFound
from tournaments.services.phases import (
    flight_end_if_over,
    is_flight,
    phase_two_flights_all_cancelled,
    phase_two_waits,
)
from tournaments.services.seating import Move, player_move, seats_fill, table_open, tables_lock

FIRST_DEAL_DELAY = timedelta(seconds=10)
"""Between the start and the first deal: time for the players to open their tables (absent ones are then dealt in
sitting out, TRN-04)."""

COORDINATION_AT_LEAST_EVERY = timedelta(seconds=30)
"""The longest the beat leaves a running tournament unlooked-at when nothing fell due, nothing changed it and no table
waits for it: a bound on what a change made outside the services (a row edited by hand) can be kept waiting."""

MINIMUM_ENTRANTS_REASON = "Cancelled: fewer players registered than the tournament needs; buy-ins and fees refunded."
SATELLITE_TARGET_CLOSED_REASON = (
    "Closed: the tournament this satellite qualifies for has started and takes no more players; buy-ins and fees "
    "refunded."
)
FLIGHTS_CANCELLED_REASON = (
    "Cancelled: every Phase 1 flight of this tournament was cancelled, so Phase 2 cannot be played."
)


def primary_key(value: Any) -> int:
    """The id of a model instance or an id given as is."""
    return int(getattr(value, "pk", value))


def tournament_lock(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentNotFound(f"There is no tournament {tournament_id}.")
    return tournament


def tournament_save(tournament: Tournament, *fields: str) -> None:
    """Save ``fields`` and move the version on. Whatever changed, the coordinator looks at the tournament at the next
    beat (its due moment is emptied; the coordination that saves ends by setting it again), and the lobbies are told
    after the commit (once per transaction): every change of a tournament goes through here — registrations, the
    start, levels and breaks, places, the end, and staff's delays, pauses, cancellations and disqualifications."""
    tournament.version += 1
    tournament.coordination_due_at = None
    tournament.save(update_fields=[*fields, "version", "coordination_due_at"])
    from tournaments import realtime

    realtime.tournament_changed_after_commit(tournament.pk)


def coordination_due(tournament: Tournament, now: datetime) -> datetime:
    """The next moment a running tournament has work for the coordinator that no table will ask for: its level's end
    (late registration, re-buys, a flight's end and the lobby's level all change there), a break falling due (tables
    then stop dealing on their own, and the one idle at that moment would never ask) or ending, the first deal, and
    at most :data:`COORDINATION_AT_LEAST_EVERY` from ``now``. A break already due but not started yet (tables finishing
    their hands) keeps it due now. Hand ends ask for a coordination themselves (a waiting table)."""
    moments = [now + COORDINATION_AT_LEAST_EVERY]
    if tournament.level_ends_at is not None:
        moments.append(tournament.level_ends_at)
    if tournament.break_ends_at is not None:
        moments.append(tournament.break_ends_at)
    if tournament.break_due_at is not None:
        moments.append(max(tournament.break_due_at, now))
    if tournament.started_at is not None and tournament.started_at + FIRST_DEAL_DELAY > now:
        moments.append(tournament.started_at + FIRST_DEAL_DELAY)
    return max(min(moments), now)


@dataclass
class Step:
    """What one coordination did: for tests, the task log and the benchmark."""

    started: bool = False
    cancelled: bool = False
    registration_closed: bool = False
    places: list[tuple[int, int]] = field(default_factory=list)
    moves: int = 0
    tables_broken: int = 0
    finished: bool = False
    break_started: bool = False
    level_changed: bool = False

    @property
    def changed(self) -> bool:
        return bool(
            self.started
            or self.cancelled
            or self.registration_closed
            or self.places
            or self.moves
            or self.tables_broken
            or self.finished
            or self.break_started
            or self.level_changed
        )


# ---------------------------------------------------------------------------------------------------------------------
# Start


def start_locked(tournament: Tournament, now: datetime, randomness: RandomSource) -> bool:
    """Seat every registrant at random on balanced tables (TRN-03), the button at each table's highest occupied seat
    (TRN-05, the runtime's first hand), and start the level clock; True when started. The caller checked the minimum
    (TRN-15). Only the entries that can play are seated — registered ones; one disqualified before the start is out
    of the field (TRN-28) — and with fewer than two of them nothing starts and nothing changes (False): a Sit & Go
    waits for its seats to fill (TRN-35) rather than fail."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
        .select_related("user")
        .order_by("pk")
    )
    if len(entries) < 2:
        return False
    by_id = {entry.pk: entry for entry in entries}
    timebank = tournament.timebank_first_hand_seconds * 1000
    first_deal = now + FIRST_DEAL_DELAY
    brought: list[tuple[int, int]] = []
    for seated in initial_seating(list(by_id), tournament.table_size, randomness):
        table, link = table_open(tournament, now)
        seats = {seat.number: seat for seat in Seat.objects.filter(table=table).order_by("number")}
        placements = [(seats[number], by_id[entry_id]) for number, entry_id in sorted(seated.players.items())]
        brought.extend((int(entry.user_id), table.pk) for _seat, entry in placements)
        events_append(table, seats_fill(placements, tournament.starting_stack, now, timebank_milliseconds=timebank))
        TournamentTable.objects.filter(pk=link.pk).update(players=len(seated.players))
        Table.objects.filter(pk=table.pk).update(next_hand_at=first_deal)
    seats_announce_after_commit(tournament, brought, "start", deal_at=first_deal)  # LOB-05: wherever they are
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = now
    tournament.players_remaining = len(entries)
    tournament.tables_running = tournament.next_table_number - 1
    clock = level_clock(tournament)
    reading = clock.reading(now)
    tournament.level_number = reading.number
    tournament.level_ends_at = reading.ends_at
    tournament.break_due_at = next_break_due(break_policy(tournament), clock, now)
    tournament_save(
        tournament,
        "status",
        "started_at",
        "players_remaining",
        "tables_running",
        "level_number",
        "level_ends_at",
        "break_due_at",
        "next_table_number",
    )
    # A HexaPro game fixed its pool and prizes when it formed (HEX-07, HEX-09); other tournaments fix them here.
    if (
        tournament.registration_closed_at is None
        and (
            tournament.late_registration_levels == 0
            or tournament.kind == TournamentKind.SIT_AND_GO
            or tournament.is_phase_two  # TRN-45: nobody registers for Phase 2; its prize pool is final at the start
        )
        and not tournament.offers_purchases  # TRN-39: the payouts stay provisional through the re-buy period
    ):
        _registration_close(tournament, now)
    if tournament.reopens and tournament.kind == TournamentKind.SIT_AND_GO:
        from tournaments.services.catalog import tournament_copy

        tournament_copy(tournament)  # the next Sit & Go of this kind opens at once
    return True


def cancel_before_start_locked(tournament: Tournament, reason: str, now: datetime) -> int:
    """Cancel a tournament that has not started: every registration refunded in full (CXL-02, TRN-15)."""
    refunded = 0
    for entry in TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).select_related(
        "user", "tournament"
    ):
        entry.refund_transfer = money.registration_refund(entry, "tournament cancelled before the start, refunded")
        entry.status = EntryStatus.REFUNDED
        entry.save(update_fields=["refund_transfer", "status"])
        refunded += 1
    if tournament.is_phase_two:  # TRN-45: the flights' prize money it holds goes back to the players who paid it
        from tournaments.services.phases import phase_two_cancel_refunds

        phase_two_cancel_refunds(tournament)
    tournament.status = TournamentStatus.CANCELLED
    tournament.cancelled_reason = reason[:300]
    tournament.finished_at = now
    tournament_save(tournament, "status", "cancelled_reason", "finished_at")
    return refunded


# ---------------------------------------------------------------------------------------------------------------------
# The coordinator


@transaction.atomic(durable=True)
def tournament_advance(
    tournament_id: int, *, now: datetime | None = None, randomness: RandomSource | None = None
) -> Step:
    """Move the tournament on at ``now`` (see the module docstring); idempotent."""
    moment = now or timezone.now()
    chance: RandomSource = randomness if randomness is not None else secrets.SystemRandom()
    tournament = tournament_lock(tournament_id)
    step = Step()
    if tournament.status == TournamentStatus.ANNOUNCED and (
        tournament.registration_opens_at is None or tournament.registration_opens_at <= moment
    ):
        tournament.status = TournamentStatus.REGISTERING
        tournament_save(tournament, "status")
    if tournament.status == TournamentStatus.REGISTERING:
        closing = _closing_reason(tournament, moment)
        if closing:
            cancel_before_start_locked(tournament, closing, moment)
            step.cancelled = True
            return step
        if (
            tournament.kind == TournamentKind.SCHEDULED
            and tournament.starts_at
            and tournament.starts_at <= moment
            and not phase_two_waits(tournament)  # TRN-45: Phase 2 starts once its flights are over
        ):
            registered = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).count()
            if registered < max(2, tournament.minimum_entrants):
                cancel_before_start_locked(tournament, MINIMUM_ENTRANTS_REASON, moment)
                step.cancelled = True
            else:
                step.started = start_locked(tournament, moment, chance)
        return step
    if tournament.status != TournamentStatus.RUNNING or tournament.cancellation_pending or tournament.paused_at:
        return step  # a pause or a proposed cancellation freezes the tournament as its preview shows it (CXL-01)
    _coordinate(tournament, moment, chance, step)
    return step


def _closing_reason(tournament: Tournament, now: datetime) -> str:
    """Why a tournament that has not started is closed before its start ("" when it is not): a satellite whose target
    no longer takes players (TRN-37: its seats could not be delivered), or a Phase 2 all of whose flights were
    cancelled (TRN-45: nobody can reach it)."""
    from tournaments.services.tickets import satellite_target_closed  # tickets imports this module

    if tournament.satellite_target_id is not None and satellite_target_closed(tournament, now):
        return SATELLITE_TARGET_CLOSED_REASON
    if tournament.is_phase_two and phase_two_flights_all_cancelled(tournament):
        return FLIGHTS_CANCELLED_REASON
    return ""


def _coordinate(tournament: Tournament, now: datetime, randomness: RandomSource, step: Step) -> None:
    live, waiting = _tables_read(tournament)
    alive = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).count()
    # The levels are read once per coordination; the breaks again only when this coordination starts one.
    structure = blind_structure(tournament)
    clock = level_clock(tournament, structure)
    if tournament.registration_closed_at is None:
        paid = payouts_now(tournament).paid_places
        if not late_registration_open(
            clock,
            now,
            late_registration_levels=tournament.late_registration_levels,
            remaining_players=alive,
            paid_places=paid,
        ) and (alive <= 1 or purchases_closed(tournament, clock, now)):
            _registration_close(tournament, now)
            step.registration_closed = True
    flight = is_flight(tournament)
    if flight and tournament.registration_closed_at is None:
        assert tournament.final_level is not None
        if flight_stops_dealing(clock, now, tournament.final_level):
            _registration_close(tournament, now)  # TRN-45: the flight's end closes its registration
            step.registration_closed = True
    if tournament.registration_closed_at is not None:
        still_in = _places_assign(tournament, live, randomness, step)
        if still_in is not None:
            alive = still_in
        if flight:
            assert tournament.final_level is not None
            if flight_end_if_over(
                tournament,
                final_level_over=flight_stops_dealing(clock, now, tournament.final_level),
                alive=alive,
                hands_in_play=any(table.in_hand for table in live),
                now=now,
            ):
                step.finished = True
                return
        elif _maybe_finish(tournament, alive, now, randomness, step):
            return
    _hand_for_hand_update(tournament, live, alive, now)
    moved_tables = _balance(tournament, live, now, randomness, step)
    with_break = _breaks_update(tournament, live, now, structure)
    if with_break is not None:
        step.break_started = True
        clock = with_break
    _level_update(tournament, clock, live, now, step)
    tables_running = sum(1 for table in live if table.broken_at is None)
    if (tournament.players_remaining, tournament.tables_running) != (alive, tables_running):
        tournament.players_remaining = alive
        tournament.tables_running = tables_running
        tournament_save(tournament, "players_remaining", "tables_running")
    # Last, once every table lock this step needs is held: the waiting tables may deal again.
    if waiting:
        TournamentTable.objects.filter(pk__in=waiting).update(needs_coordination=False)
    _tables_wake(tournament, now, exclude=moved_tables)
    # Not a change of the tournament (no version): when the beat's sweep next has to look at it.
    tournament.coordination_due_at = coordination_due(tournament, now)
    tournament.save(update_fields=["coordination_due_at"])


@dataclass
class LiveTable:
    link_id: int
    table_id: int
    number: int
    players: int
    in_hand: bool
    round_dealt: int
    broken_at: datetime | None = None


def _tables_read(tournament: Tournament) -> tuple[list[LiveTable], list[int]]:
    """The tournament's open tables with their player counts (kept by the services), and the links of the tables
    waiting for the coordinator (open or not), in one query."""
    rows = (
        TournamentTable.objects.filter(tournament=tournament)
        .filter(Q(broken_at__isnull=True) | Q(needs_coordination=True))
        .values_list(
            "pk",
            "table_id",
            "number",
            "players",
            "table__current_hand_id",
            "hand_for_hand_round_dealt",
            "broken_at",
            "needs_coordination",
        )
    )
    live = []
    waiting = []
    for link, table, number, players, hand, round_dealt, broken_at, needs_coordination in rows:
        if broken_at is None:
            live.append(LiveTable(link, table, number, players, hand is not None, round_dealt))
        if needs_coordination:
            waiting.append(link)
    return live, waiting


def purchases_closed(tournament: Tournament, clock: LevelClock, now: datetime) -> bool:
    """TRN-39: the re-buy period and the add-on window are over (always, for a tournament without them): the prize
    pool cannot grow any more, so the payouts can be fixed."""
    if not tournament.offers_purchases:
        return True
    return purchases_over(clock, now, period_levels=tournament.rebuy_levels, add_on=add_on_policy(tournament))


def _registration_close(tournament: Tournament, now: datetime) -> None:
    """Registration is over: the prize pool and payouts are final (TRN-06), the house funds any overlay and added
    money (TRN-07, TRN-17)."""
    paid_entries = TournamentEntry.objects.filter(tournament=tournament).exclude(out_of_the_field())
    totals = paid_entries.aggregate(count=Count("pk"), contributions=Sum("prize_contribution"))
    entrants, contributions = int(totals["count"] or 0), int(totals["contributions"] or 0)
    if is_flight(tournament):  # TRN-45: a flight pays no prizes; its whole pool goes to Phase 2 when it ends
        tournament.registration_closed_at = now
        tournament.entrants = entrants
        tournament.prize_pool = contributions
        tournament.prizes = []
        tournament_save(tournament, "registration_closed_at", "entrants", "prize_pool", "prizes")
        return
    if tournament.is_phase_two:  # TRN-45: its players carried stacks, the flights' prize pools are its contributions
        contributions = tournament.carried_prize_money
    elif tournament.offers_purchases:  # TRN-39: the re-buys' and add-ons' prize parts are in the pool too
        contributions = paid_contributions(tournament)
    payouts = payouts_for(tournament, entrants, contributions, provisional=False)
    money.overlay_fund(tournament, payouts.pool - contributions)
    tournament.registration_closed_at = now
    tournament.entrants = entrants
    tournament.prize_pool = payouts.pool
    tournament.prizes = list(payouts.prizes)
    tournament_save(tournament, "registration_closed_at", "entrants", "prize_pool", "prizes")
    if tournament.satellite_target_id is not None:  # TRN-37: the seats are fixed with the prize pool
        tournament.satellite_seats = satellite_plan(tournament, entrants, payouts.pool).seats
        tournament_save(tournament, "satellite_seats")


def _places_assign(tournament: Tournament, live: list[LiveTable], randomness: RandomSource, step: Step) -> int | None:
    """TRN-22 / TRN-24: places for the knocked-out players, one hand (or hand-for-hand round) at a time, oldest first.
    A round is placed only once every table has finished it. Returns the players still in when any knocked-out player
    was waiting (counted with them), otherwise None."""
    waiting = _places_waiting(tournament)
    if waiting is None:
        return None
    alive, pending = waiting
    round_in_play = tournament.hand_for_hand and not _round_finished(tournament, live)
    prizes = list(tournament.prizes)
    placed: list[TournamentEntry] = []
    for entry, finishing in _finishing(alive, pending, randomness, round_in_play=round_in_play, tournament=tournament):
        entry.place = finishing.place
        entry.place_drawn_from, entry.place_drawn_to = finishing.drawn_among or (None, None)
        entry.prize = prizes[finishing.place - 1] if finishing.place <= len(prizes) else 0
        entry.status = EntryStatus.FINISHED
        placed.append(entry)
        step.places.append((entry.pk, finishing.place))
    # One statement for every place given; a place drawn between tied players says so (TRN-22).
    rows_update(placed, ["place", "place_drawn_from", "place_drawn_to", "prize", "status"])
    if not credited_at_game_end(tournament):
        for entry in placed:
            _prize_credit_after_commit(entry)
    return alive


def _places_waiting(tournament: Tournament) -> tuple[int, list[TournamentEntry]] | None:
    """The players still in and the knocked-out players waiting for a place, oldest first (``None``: nobody waits).

    Read in one statement (a subquery sees the statement's snapshot): a hand that ends meanwhile at a table (its
    eliminations commit outside the coordinator's lock) would otherwise be counted both as still in and as knocked
    out, and the places would start one too high (a place 4 in a game of three). Only the waiting players become model
    instances: at ten thousand entrants, reading every player still in made this 90 % of a coordination (issue 27)."""
    still_in = (
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING)
        .order_by()
        .values("tournament")
        .annotate(players=Count("pk"))
        .values("players")
    )
    rows = list(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED)
        .annotate(still_in=Coalesce(Subquery(still_in), 0))
        .order_by("eliminated_at", "eliminated_in_hand_id", "pk")
    )
    if not rows:
        return None
    pending: list[TournamentEntry] = list(rows)
    return int(rows[0].still_in), pending


def _finishing(
    alive: int,
    pending: list[TournamentEntry],
    randomness: RandomSource,
    *,
    round_in_play: bool,
    tournament: Tournament,
) -> list[tuple[TournamentEntry, FinishingPlace]]:
    """The places of the waiting players ``pending`` (oldest first) with ``alive`` players still in: one hand, or one
    hand-for-hand round, at a time (TRN-22, TRN-24), ties by the numbers drawn at the knock-out. ``round_in_play``:
    the current hand-for-hand round is still played at some table, so it and what follows wait."""

    def group_key(entry: TournamentEntry) -> tuple[str, int]:
        if entry.hand_for_hand_round is not None:
            return ("round", entry.hand_for_hand_round)
        return ("hand", entry.eliminated_in_hand_id or -entry.pk)

    groups: list[list[TournamentEntry]] = []
    for key, grouped in groupby(pending, key=group_key):
        if key[0] == "round" and key[1] == tournament.hand_for_hand_round and round_in_play:
            break  # the round is still being played at another table
        groups.append(list(grouped))
    remaining = alive + len(pending)
    given: list[tuple[TournamentEntry, FinishingPlace]] = []
    for members in groups:
        stacks = {entry.pk: int(entry.chips_at_hand_start or 1) for entry in members}
        by_id = {entry.pk: entry for entry in members}
        for finishing in finishing_places(stacks, remaining, _tie_breaking(members, randomness)):
            given.append((by_id[finishing.player], finishing))
        remaining -= len(members)
    return given


def places_if_given_now(tournament: Tournament) -> dict[int, FinishingPlace]:
    """Read only: the place each knocked-out player waiting for one (by entry id) would be given if the places were
    given now, as the coordinator gives them (the ties by the numbers drawn at the knock-out, so the same). While late
    registration is open each new entry moves every one of them one place further down (a late registrant or a
    re-entry stays in longer); nothing else changes them."""
    waiting = _places_waiting(tournament)
    if waiting is None:
        return {}
    alive, pending = waiting
    finishing = _finishing(alive, pending, secrets.SystemRandom(), round_in_play=False, tournament=tournament)
    return {int(entry.pk): place for entry, place in finishing}


def places_give_locked(tournament: Tournament) -> None:
    """The places of players knocked out but not yet placed, outside a coordination (the caller holds the tournament's
    lock): a cancellation of a HexaPro game needs them — its pool not yet paid is the prizes of the places still
    open (CXL-09) — and a proposed cancellation keeps the coordinator away (the ties use the numbers drawn at the
    knock-out, as a coordination would)."""
    _places_assign(tournament, [], secrets.SystemRandom(), Step())


class _RecordedTies:
    """Ties broken by the random number drawn when each player was knocked out (TRN-22), so a coordination run twice
    gives the same places."""

    def __init__(self, members: Iterable[TournamentEntry], fallback: RandomSource) -> None:
        self.keys = {entry.pk: entry.tie_breaker or 0 for entry in members}
        self.fallback = fallback

    def choice(self, items: Any) -> Any:
        return self.fallback.choice(items)

    def shuffle(self, items: MutableSequence[Any], /) -> None:
        items[:] = sorted(items, key=lambda player: self.keys.get(player, 0))


def _tie_breaking(members: list[TournamentEntry], randomness: RandomSource) -> RandomSource:
    return _RecordedTies(members, randomness)


def credited_at_game_end(tournament: Tournament) -> bool:
    """HEX-10 / AMB-58: a HexaPro game credits every place at once when it ends; other tournaments credit each prize
    at the knock-out (TRN-27)."""
    return tournament.kind == TournamentKind.HEXAPRO


def _prize_credit_after_commit(entry: TournamentEntry) -> None:
    if entry.prize <= 0:
        return
    entry_id = entry.pk
    transaction.on_commit(lambda: _prize_credit_later(entry_id))


def _prize_credit_later(entry_id: int) -> None:
    from tournaments.tasks import entry_prize_credit_later

    entry_prize_credit_later(entry_id)


def _maybe_finish(tournament: Tournament, alive: int, now: datetime, randomness: RandomSource, step: Step) -> bool:
    """TRN-21: one player left (and nobody waiting for a place), or identical remaining prizes."""
    if alive == 0:
        return False
    if not tournament_over(
        alive, list(tournament.prizes), end_when_prizes_identical=tournament.end_when_prizes_identical
    ):
        return False
    if TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).exists():
        return False  # a knocked-out player is still waiting for a place
    if alive > 1 and Table.objects.filter(tournament_link__tournament=tournament, current_hand__isnull=False).exists():
        return False  # identical prizes: finish once the hands in play are over
    players = list(
        Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False).values_list(
            "user_id", "chips"
        )
    )
    ordered = sorted(players, key=lambda item: -item[1])
    entries = {
        entry.user_id: entry
        for entry in TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING)
    }
    prizes = list(tournament.prizes)
    chips_by_user = dict(players)
    chip_counts = sorted(set(chips_by_user.values()), reverse=True)
    place = 1
    for chips in chip_counts:
        tied = [user for user, count in ordered if count == chips]
        randomness.shuffle(tied)
        drawn = (place, place + len(tied) - 1) if len(tied) > 1 else (None, None)  # equal stacks: drawn, and said so
        for user_id in tied:
            entry = entries[user_id]
            entry.place = place
            entry.place_drawn_from, entry.place_drawn_to = drawn
            entry.prize = prizes[place - 1] if place <= len(prizes) else 0
            entry.status = EntryStatus.FINISHED
            entry.table = None
            entry.save(update_fields=["place", "place_drawn_from", "place_drawn_to", "prize", "status", "table"])
            step.places.append((entry.pk, place))
            _prize_credit_after_commit(entry)
            place += 1
    if credited_at_game_end(tournament):
        for entry in TournamentEntry.objects.filter(tournament=tournament, place__isnull=False, place__gt=1):
            _prize_credit_after_commit(entry)  # the places below the winner, all at the end (HEX-10)
    for table in tables_lock(
        list(
            TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).values_list(
                "table_id", flat=True
            )
        )
    ).values():
        tournament_table_close(table[0], table[1], now, "The tournament is over.")
    TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).update(broken_at=now, players=0)
    if tournament.has_bounties:  # the players still in at the end keep their own bounties (after the table locks)
        from tournaments.services.bounties import own_bounty_pay_locked

        for entry in entries.values():
            own_bounty_pay_locked(entry)
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = now
    tournament.players_remaining = 0
    tournament.tables_running = 0
    tournament.hand_for_hand = False
    tournament_save(tournament, "status", "finished_at", "players_remaining", "tables_running", "hand_for_hand")
    step.finished = True
    return True


def tournament_table_close(table: Table, seats: dict[int, Seat], now: datetime, reason: str) -> None:
    events = []
    for seat in seats.values():
        if seat.user_id is not None:
            number, user_id = seat.number, seat.user_id
            seat_empty(seat)
            events.append(NewEvent("seat_left", {"seat": number, "status": SeatStatus.EMPTY, "user_id": user_id}))
    events.append(NewEvent("table_closed", {"reason": reason}))
    table_touch(table, status=TableStatus.CLOSED, closed_at=now, close_reason=reason, next_hand_at=None)
    events_append(table, events)


def _hand_for_hand_update(tournament: Tournament, live: list[LiveTable], alive: int, now: datetime) -> None:
    """TRN-23 / AMB-43: on at the bubble (or by staff), off when it bursts once the round in play is over; the next
    round is dealt everywhere once every table has finished the last one. The first round is dealt only once every
    table has finished the hand it was playing at the switch (``tournaments.table_policy.may_deal``)."""
    manual: bool | None = None
    if tournament.hand_for_hand_mode == HandForHandMode.ON:
        manual = True
    elif tournament.hand_for_hand_mode == HandForHandMode.OFF:
        manual = False
    paid = payouts_now(tournament).paid_places
    wanted = hand_for_hand(alive, paid, len(live), manual=manual)
    if wanted and not tournament.hand_for_hand:
        tournament.hand_for_hand = True
        tournament.hand_for_hand_round += 1
        tournament_save(tournament, "hand_for_hand", "hand_for_hand_round")
    elif not wanted and tournament.hand_for_hand:
        if any(table.in_hand and table.round_dealt >= tournament.hand_for_hand_round for table in live):
            return  # TRN-24: the round in play is finished first, so its knock-outs all count as simultaneous
        tournament.hand_for_hand = False
        tournament_save(tournament, "hand_for_hand")
    elif wanted and _round_finished(tournament, live):
        tournament.hand_for_hand_round += 1
        tournament_save(tournament, "hand_for_hand_round")


def _round_finished(tournament: Tournament, live: list[LiveTable]) -> bool:
    """TRN-23 / TRN-24: every table that can play has dealt the current hand-for-hand round and finished it (a table
    yet to deal it still has the round in play: its knock-outs will be simultaneous with the others')."""
    return all(
        not table.in_hand and (table.round_dealt >= tournament.hand_for_hand_round or table.players < 2)
        for table in live
    )


def _balance(
    tournament: Tournament, live: list[LiveTable], now: datetime, randomness: RandomSource, step: Step
) -> set[int]:
    """TRN-25 / AMB-42: break tables whose players fit into the other tables' free seats, then move players from the
    fullest to the emptiest tables until they differ by at most one. Only players of tables between hands move.
    Returns the tables changed."""
    seats_per_table = tournament.table_size
    changed: set[int] = set()
    tables = [table for table in live if table.broken_at is None]
    total = sum(table.players for table in tables)
    needed = max(1, math.ceil(total / seats_per_table))
    locked: dict[int, tuple[Table, dict[int, Seat]]] = {}

    def lock(table: LiveTable) -> tuple[Table, dict[int, Seat]]:
        if table.table_id not in locked:
            locked.update(tables_lock([table.table_id]))
            fresh_table, fresh_seats = locked[table.table_id]
            table.in_hand = fresh_table.current_hand_id is not None
            table.players = sum(1 for seat in fresh_seats.values() if seat.user_id is not None)
        return locked[table.table_id]

    while len(tables) > needed:
        candidates = sorted((table for table in tables if not table.in_hand), key=lambda table: table.players)
        if not candidates:
            break
        victim = candidates[0]
        source, source_seats = lock(victim)
        if victim.in_hand:
            tables.remove(victim)  # a hand started meanwhile: it is broken when it ends
            continue
        others = [table for table in tables if table is not victim]
        for number in sorted(n for n, seat in source_seats.items() if seat.user_id is not None):
            fewest = min(table.players for table in others)
            target_row = randomness.choice([table for table in others if table.players == fewest])
            target, target_seats = lock(target_row)
            if target_row.players >= seats_per_table:
                break
            _move_announce(
                tournament,
                player_move(
                    source, source_seats, number, target, target_seats, MoveReason.TABLE_BROKEN, now, randomness
                ),
            )
            target_row.players += 1
            victim.players -= 1
            step.moves += 1
            changed.update({victim.table_id, target_row.table_id})
        if victim.players == 0:
            tournament_table_close(source, source_seats, now, "Tables are being consolidated.")
            victim.broken_at = now
            tables.remove(victim)
            step.tables_broken += 1
        else:
            break
    while len(tables) > 1:
        most = max(table.players for table in tables)
        fewest = min(table.players for table in tables)
        if most - fewest <= 1:
            break
        sources = [table for table in tables if table.players == most and not table.in_hand]
        if not sources:
            break
        source_row = randomness.choice(sources)
        targets = [table for table in tables if table.players == fewest]
        target_row = randomness.choice(targets)
        source, source_seats = lock(source_row)
        target, target_seats = lock(target_row)
        if source_row.in_hand or source_row.players != most or target_row.players != fewest:
            continue  # the locked rows disagree with the counts read: look again with the fresh ones
        occupied = sorted(number for number, seat in source_seats.items() if seat.user_id is not None)
        _move_announce(
            tournament,
            player_move(
                source,
                source_seats,
                randomness.choice(occupied),
                target,
                target_seats,
                MoveReason.BALANCING,
                now,
                randomness,
            ),
        )
        source_row.players -= 1
        target_row.players += 1
        step.moves += 1
        changed.update({source_row.table_id, target_row.table_id})
    for table in live:
        if table.table_id in locked:
            TournamentTable.objects.filter(pk=table.link_id).update(
                players=table.players, **({"broken_at": now} if table.broken_at is not None else {})
            )
    live[:] = [table for table in live if table.broken_at is None]
    return changed


def _move_announce(tournament: Tournament, move: Move) -> None:
    """TRN-26: the moved player is told where to go on the player socket too (the source table's event reaches
    them only while that table is open in their browser)."""
    seats_announce_after_commit(tournament, [(move.user_id, move.to_table)], "moved", from_table=move.from_table)


def _breaks_update(
    tournament: Tournament, live: list[LiveTable], now: datetime, structure: BlindStructure
) -> LevelClock | None:
    """TRN-30 / AMB-41: once the break is due and every table has finished its hand, the break starts (the level
    clocks stop for its length); when it ends the tables deal again. Returns the level clock with the break when it
    started one."""
    if tournament.break_ends_at is not None and tournament.break_ends_at <= now:
        tournament.break_ends_at = None
        tournament_save(tournament, "break_ends_at")
    if tournament.break_due_at is None or tournament.break_due_at > now or tournament.break_ends_at is not None:
        return None
    if any(table.in_hand for table in live):
        return None
    last_hand_ended = (
        TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True)
        .exclude(last_hand_ended_at__isnull=True)
        .order_by("-last_hand_ended_at")
        .values_list("last_hand_ended_at", flat=True)
        .first()
    )
    started = max(tournament.break_due_at, last_hand_ended or tournament.break_due_at)
    started = min(started, now)
    policy = break_policy(tournament)
    pause = break_pause(policy, started)
    assert pause.end is not None
    TournamentBreak.objects.create(tournament=tournament, started_at=pause.start, ends_at=pause.end)
    clock = level_clock(tournament, structure)
    tournament.break_ends_at = pause.end
    tournament.break_due_at = next_break_due(policy, clock, pause.end)
    tournament_save(tournament, "break_ends_at", "break_due_at")
    Table.objects.filter(tournament_link__tournament=tournament, status=TableStatus.OPEN).update(next_hand_at=pause.end)
    return clock


def _level_update(tournament: Tournament, clock: LevelClock, live: list[LiveTable], now: datetime, step: Step) -> None:
    """Record the current level for the lobby (``clock``: with every break recorded so far); when it changed, tell
    every table (the new blinds apply from the next hand dealt, AMB-65)."""
    reading = clock.reading(now)
    if reading.number == tournament.level_number and reading.ends_at == tournament.level_ends_at:
        return
    changed = reading.number != tournament.level_number
    tournament.level_number = reading.number
    tournament.level_ends_at = reading.ends_at
    tournament_save(tournament, "level_number", "level_ends_at")
    if not changed:
        return
    step.level_changed = True
    level = reading.level
    payload = {
        "level": reading.number,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "level_ends_at": reading.ends_at.isoformat() if reading.ends_at else None,
    }
    for table, _seats in tables_lock([table.table_id for table in live]).values():
        events_append(table, [NewEvent("level_changed", payload)])


def _tables_wake(tournament: Tournament, now: datetime, exclude: set[int]) -> None:
    """Tables that stopped asking to deal (a closed gate) try again now, unless a break holds them."""
    if tournament.break_ends_at is not None and tournament.break_ends_at > now:
        return
    waking = Table.objects.filter(
        Q(next_hand_at__isnull=True) | Q(next_hand_at__gt=now),
        tournament_link__tournament=tournament,
        tournament_link__needs_coordination=False,
        status=TableStatus.OPEN,
        current_hand__isnull=True,
    ).exclude(pk__in=exclude)
    first_deal = tournament.started_at + FIRST_DEAL_DELAY if tournament.started_at is not None else None
    if first_deal is not None and first_deal > now:
        # The first deal keeps its time: the players are on their way to their tables (TRN-04, the countdown their
        # player socket shows, LOB-05); dealing it at the next coordination would blind them away.
        waking = waking.exclude(next_hand_at__gt=now, next_hand_at__lte=first_deal)
    waking.update(next_hand_at=now)
    if exclude:
        Table.objects.filter(pk__in=exclude, status=TableStatus.OPEN, current_hand__isnull=True).update(
            next_hand_at=now
        )


def running_hands(tournament: Tournament) -> int:
    return Hand.objects.filter(table__tournament_link__tournament=tournament, status=HandStatus.RUNNING).count()
