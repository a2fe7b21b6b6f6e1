"""The tournament policy of the table runtime (games.runtime.policy): chips on the seats, levels from the tournament.

* Stacks: chips on the seat (TRN-16); a hand changes them only when it settles, so a hand cut off by a crash is
  cancelled with every stack at its start-of-hand count (TRN-33).
* Terms: the level current when the hand is dealt (AMB-65), with its ante; the tournament's clocks (TB-02, TB-08) and,
  in the final stage, the longer reconnection time (TRN-31, AMB-44). No rake (RAKE-09).
* Who is dealt in: every player with chips, sitting out or absent included (TRN-04, TRN-19, AMB-57); the big blind
  once per orbit (ENG-07, TRN-29); the first button at the highest occupied seat (TRN-05). A player sitting out is
  acted for at once: check, else fold (AMB-20).
* When a table may deal: the tournament is running, not on (or waiting for) a break (TRN-30), a Phase 1 flight's
  final level is not over (TRN-45), the table has not dealt the current hand-for-hand round and no other table is
  still playing a hand begun before the round (TRN-23), and the tournament has dealt with the table's last hand
  (eliminations and balancing, ``needs_coordination``).
* Between hands: re-buy and add-on chips bought during the hand (TRN-39), pending sit-outs, knock-outs (the seat is
  emptied, the entry waits for its place), players of the tournament sitting out together flagged on the compliance
  desk (TRN-32); then, when the hand knocked someone out or the tournament's state needs it
  (``hand_end_needs_the_tournament``: hand-for-hand, a break due, re-buys, a flight), the table waits for the
  tournament, which is asked to coordinate (``tournaments.services.tournament_coordinate`` after commit); otherwise
  it deals on, and the tournament's clocks are the beat's.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.engine.positions import HandPositions, PositionError, next_hand_positions, tournament_first_button
from games.engine.state import HandState
from games.models import Hand, Seat, SeatStatus, SitOutReason, Table, TableKind
from games.runtime import presence
from games.runtime.errors import NotAllowedNow
from games.runtime.events import NewEvent
from games.runtime.hands import HandContext, previous_hand
from games.runtime.policy import Chooser, HandTerms, Settlement, TableRules
from games.runtime.seat_state import seat_empty, seat_event, seat_save, seat_sit_out_now, table_touch
from poker_site.core.compiled_sql import CompiledSelect
from tournaments.definitions import level_clock, payouts_now, table_rules
from tournaments.models import (
    EntryStatus,
    HexaProGame,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
    TournamentTable,
)
from tournaments.rules.hexapro import sitting_out_needs_review
from tournaments.rules.phases import flight_stops_dealing
from tournaments.rules.timebank import FinalStageReconnect

SITTING_OUT_TOGETHER = "hexapro_sitting_out_together"
_SETTLED_STATE = "_tournament_settled_state"


# Read on every action at a tournament table (its rules and clocks): compiled once per process
# (poker_site.core.compiled_sql); compiling the join with the tournament's many columns cost more than running it.
_TABLE_LINK = CompiledSelect(
    lambda table_id: TournamentTable.objects.select_related("tournament").order_by().filter(table_id=table_id)
)


def table_link(table_id: int) -> TournamentTable:
    """The tournament link of a tournament table, with the tournament (one query); ``TournamentTable.DoesNotExist``
    if the table is not a tournament's."""
    link = _TABLE_LINK.first(table_id)
    if link is None:
        raise TournamentTable.DoesNotExist(f"table {table_id} has no tournament link")
    return link


_LINK_READ = "_tournament_link_read"


def locked_table_link(table: Table) -> TournamentTable:
    """:func:`table_link` of a table the hand service's transaction holds locked (a fresh instance per lock), read
    once per lock: the questions one hand transaction asks (the clocks of the action, then between hands the clocks
    again and the knock-outs) share one read instead of one query each."""
    link = table.__dict__.get(_LINK_READ)
    if link is None:
        link = table.__dict__[_LINK_READ] = table_link(table.pk)
    return link


def _final_stage_reached(tournament: Tournament) -> bool:
    paid = len(tournament.prizes) if tournament.registration_closed_at is not None else 0
    stage = FinalStageReconnect(tournament.final_stage_reconnect_seconds)
    if tournament.final_stage_from == "in_the_money":
        return tournament.registration_closed_at is not None and tournament.players_remaining <= paid
    return stage.applies(
        running_tables=tournament.tables_running, remaining_players=tournament.players_remaining, paid_places=paid
    )


def tournament_table_rules(tournament: Tournament) -> TableRules:
    return table_rules(tournament, final_stage_reached=_final_stage_reached(tournament))


def may_deal(tournament: Tournament, link: TournamentTable, now: datetime) -> bool:
    """Whether a tournament table may deal its next hand at ``now`` (see the module docstring)."""
    if tournament.status != TournamentStatus.RUNNING or link.broken_at is not None or link.needs_coordination:
        return False
    if tournament.cancellation_pending:
        return False  # staff proposed to cancel it (CXL-01): the chips stay as they are for the calculation
    if tournament.paused_at is not None:
        return False  # paused by staff: the hands in play finish, no new one starts
    if tournament.break_ends_at is not None and now < tournament.break_ends_at:
        return False  # on a break
    if tournament.break_due_at is not None and now >= tournament.break_due_at:
        return False  # the break is due: finish the hand in play and wait for the others (TRN-30)
    if (
        tournament.phase_two_id is not None
        and tournament.final_level is not None
        and flight_stops_dealing(level_clock(tournament), now, tournament.final_level)
    ):
        return False  # TRN-45: the flight's final level is over; it ends once the hands in play are over
    if not tournament.hand_for_hand:
        return True
    if link.hand_for_hand_round_dealt >= tournament.hand_for_hand_round:
        return False  # TRN-23: this table has dealt the round; it waits for the others to finish it
    return not hand_begun_before_the_round_in_play(tournament, link)


def hand_begun_before_the_round_in_play(tournament: Tournament, link: TournamentTable) -> bool:
    """TRN-23 (seed 002 #43): whether another table of the tournament is still playing a hand dealt before the current
    hand-for-hand round (a hand begun before hand-for-hand switched on): the round is dealt nowhere until every table
    has finished the hand it was playing. A hand dealt in the round marks its table's ``hand_for_hand_round_dealt``
    with the round, so a table in a hand with a lower mark is playing an earlier hand."""
    return (
        TournamentTable.objects.filter(
            tournament_id=tournament.pk,
            broken_at__isnull=True,
            table__current_hand__isnull=False,
            hand_for_hand_round_dealt__lt=tournament.hand_for_hand_round,
        )
        .exclude(pk=link.pk)
        .exists()
    )


def hand_for_hand_round_of_hand_in_play(tournament: Tournament, link: TournamentTable) -> int | None:
    """TRN-24: the hand-for-hand round of the hand a table is finishing, or ``None`` for a hand dealt outside
    hand-for-hand, before it switched on included: only the round's own hands' knock-outs count as simultaneous."""
    if tournament.hand_for_hand and link.hand_for_hand_round_dealt >= tournament.hand_for_hand_round:
        return tournament.hand_for_hand_round
    return None


ARRIVAL_POLL = timedelta(seconds=1)
"""How often a HexaPro table waiting for its players' pages asks again (the ticker deals at ``next_hand_at``)."""


def arrivals_awaited(tournament: Tournament, table: Table, seats: dict[int, Seat], now: datetime) -> datetime | None:
    """HEX-07: the first hand of a HexaPro game waits until every player has the table open (a live socket, as the
    presence records in Redis say), so that everyone sees the multiplier reveal — or until the arrival window
    (``HEXAPRO_ARRIVAL_WINDOW_SECONDS`` after the game formed) has passed; then the absent are dealt in sitting out
    (TRN-04). Returns when to ask again, or None when the first hand may be dealt now. A player whose presence Redis
    cannot tell counts as there (the game is not held up by a Redis fault). With ``TOURNAMENT_SITS_OUT_ABSENT_PLAYERS``
    off (benchmarks whose bots play without sockets) everyone counts as there and nothing waits."""
    if tournament.kind != TournamentKind.HEXAPRO or table.hands_played or tournament.started_at is None:
        return None
    if not settings.TOURNAMENT_SITS_OUT_ABSENT_PLAYERS:
        return None
    deadline = tournament.started_at + timedelta(seconds=settings.HEXAPRO_ARRIVAL_WINDOW_SECONDS)
    if now >= deadline:
        return None
    absent = [
        seat
        for seat in seats.values()
        if seat.user_id is not None and presence.has_live_socket(int(seat.user_id), table.pk) is False
    ]
    return min(deadline, now + ARRIVAL_POLL) if absent else None


def absent_players_sit_out(table: Table, seats: dict[int, Seat], now: datetime) -> list[NewEvent]:
    """TRN-04 / AMB-57: at a tournament table's first hand, a player with no live socket on it is absent and is dealt
    in sitting out (acted for at once) until their socket arrives, which sits them in (the clocks' report)."""
    events = []
    for seat in seats.values():
        if seat.user_id is None or seat.status != SeatStatus.PLAYING or seat.hands_dealt_in:
            continue
        if presence.has_live_socket(int(seat.user_id), table.pk) is False:
            seat.status = SeatStatus.SITTING_OUT
            seat.sit_out_reason = SitOutReason.DISCONNECTED
            seat.sit_out_since = now
            seat.sit_out_deadline = None
            seat.disconnected_since = now
            seat_save(seat, "status", "sit_out_reason", "sit_out_since", "sit_out_deadline", "disconnected_since")
            events.append(seat_event(seat, "seat_sat_out", absent=True))
    return events


CASH_TABLE_COMMANDS = {
    "seat_me": gettext_lazy("Seats at a tournament table are assigned by the tournament."),
    "leave": gettext_lazy(
        "Leaving is for cash tables: at a tournament table your chips stay in play until you are knocked out or the "
        "tournament ends. Sit out to step away."
    ),
    "top_up": gettext_lazy("Topping up is for cash tables: tournament chips cannot be bought at the table."),
    "auto_top_up": gettext_lazy("Auto top-up is a cash table setting: tournament chips cannot be bought at the table."),
    "sit_out_next_big_blind": gettext_lazy(
        "Sitting out at your next big blind is a cash table setting: at a tournament table, sit out instead (you are "
        "dealt in and your hands are checked or folded for you)."
    ),
}
"""The table-socket commands only cash tables take (seating by the stake queue, CASH-04; leaving, CASH-08; topping
up by hand and automatically, CASH-15; sitting out at the next big blind, CASH-19), each with the reason a tournament
table refuses it: the tournament seats its players and its chips are not bought at the table (TRN-03, TRN-16); a
player steps away by sitting out (TRN-19)."""


class TournamentPolicy:
    """Tournament tables: see the module docstring."""

    kind = TableKind.TOURNAMENT

    def stack(self, seat: Seat) -> int:
        return seat.chips

    def refresh_stacks(self, seats: dict[int, Seat]) -> None:
        """Chips change only under the table lock, in :meth:`settle`, which updates the loaded seats too."""

    def available(self, seats: dict[int, Seat]) -> list[Seat]:
        return [seat for seat in seats.values() if seat.user_id is not None and seat.chips > 0]

    def next_hand_terms(self, context: HandContext) -> HandTerms | None:
        link = locked_table_link(context.table)
        tournament = link.tournament
        if not may_deal(tournament, link, context.now):
            return None
        retry_at = arrivals_awaited(tournament, context.table, context.seats, context.now)
        if retry_at is not None:
            context.retry_at = retry_at
            return None
        if context.table.hands_played == 0 and settings.TOURNAMENT_SITS_OUT_ABSENT_PLAYERS:
            context.events.extend(absent_players_sit_out(context.table, context.seats, context.now))
        level = level_clock(tournament).reading(context.now)
        if tournament.hand_for_hand:
            TournamentTable.objects.filter(pk=link.pk).update(hand_for_hand_round_dealt=tournament.hand_for_hand_round)
        return HandTerms(
            rules=tournament_table_rules(tournament),
            variant=tournament.variant,
            small_blind=level.level.small_blind,
            big_blind=level.level.big_blind,
            ante=level.level.ante,
            level_number=level.number,
        )

    def positions(self, context: HandContext, terms: HandTerms, chooser: Chooser) -> tuple[HandPositions, bool] | None:
        """Every player with chips is ready (ENG-07: the big blind never skips anyone); the first hand's button is at
        the highest occupied seat (TRN-05)."""
        table = context.table
        ready = [seat.number for seat in self.available(context.seats)]
        previous = previous_hand(table)
        try:
            if previous is None:
                positions = next_hand_positions(
                    table_size=table.seat_count, previous=None, ready=ready, first_button=tournament_first_button(ready)
                )
                return positions, True
            positions = next_hand_positions(table_size=table.seat_count, previous=previous, ready=ready)
        except PositionError:
            return None
        # ENG-05 #2: the small blind is the previous big blind *player*. A player moved into that seat since (its
        # occupant was knocked out) has not posted a big blind here: the small blind is dead this hand.
        previous_occupants = {int(seat): user for seat, user in table.previous_dealt_in_seats or []}
        small_blind = positions.small_blind
        if (
            small_blind is not None
            and len(positions.dealt_in) > 2
            and previous_occupants.get(small_blind) != context.seats[small_blind].user_id
        ):
            positions = replace(positions, small_blind=None)
        return positions, False

    def participant(self, seat: Seat, stack: int) -> dict[str, Any]:
        return {"user": seat.user_id, "stack": stack}

    def hand_rules(self, hand: Hand, table: Table) -> TableRules:
        return tournament_table_rules(locked_table_link(table).tournament)

    def current_rules(self, table: Table, now: datetime) -> TableRules:
        return tournament_table_rules(table_link(table.pk).tournament)

    def seat_returns_as(self, seat: Seat, table: Table, post_out_of_position: bool) -> str:
        return SeatStatus.PLAYING

    def returns_on_reconnect(self, seat: Seat) -> bool:
        return seat.status == SeatStatus.SITTING_OUT and seat.sit_out_reason == SitOutReason.DISCONNECTED

    def acts_for(self, seat: Seat) -> bool:
        return seat.status == SeatStatus.SITTING_OUT

    def settle(self, context: HandContext, hand: Hand, state: HandState) -> Settlement:
        """Chip counts, no rake (RAKE-09): each seat's chips become its final stack."""
        result = state.result
        final = dict(result.final_stacks)
        starting = {int(seat): data["stack"] for seat, data in hand.participants.items()}
        net = {seat: final[seat] - starting[seat] for seat in starting}
        if sum(net.values()) != 0:
            raise AssertionError(f"tournament hand {hand.pk} does not balance: net {net}")
        setattr(context, _SETTLED_STATE, state)  # the knock-outs' bounties read its pots (TRN-44)
        for number, chips in final.items():
            seat = context.seats[number]
            if seat.chips != chips:
                seat.chips = chips
                seat_save(seat, "chips")
        return Settlement(final_stacks=final, net=net, pot_total=sum(result.pot_amounts))

    def after_hand(self, context: HandContext, hand: Hand, counted: bool, now: datetime) -> None:
        """Pending sit-outs (they stay in, no removal deadline, TRN-20); players without chips are knocked out: their
        seat is emptied and their entry waits for its place (TRN-22); then, after a knock-out or when
        :func:`hand_end_needs_the_tournament`, the table waits for the tournament."""
        table = context.table
        link = locked_table_link(table)
        tournament = link.tournament
        rules = tournament_table_rules(tournament)
        if tournament.offers_purchases:  # TRN-39: chips bought during the hand are added now, between hands
            from tournaments.services.purchases import purchases_add_locked, rebuy_bounties_pending

            lost_everything = {
                int(seat.user_id): seat
                for seat in context.seats.values()
                if counted and seat.user_id is not None and seat.chips == 0
            }
            kept_bounties = rebuy_bounties_pending(tournament, list(lost_everything))
            context.events.extend(purchases_add_locked(table, context.seats, tournament, now))
            for user_id, kept in sorted(kept_bounties.items()):
                if lost_everything[user_id].chips > 0:  # stays in by a re-buy bought during the hand
                    self._rebuy_bust(context, hand, tournament, lost_everything[user_id], kept)
        knocked_out = []
        for seat in sorted(context.seats.values(), key=lambda seat: seat.number):
            if seat.user_id is None:
                continue
            if counted and seat.chips == 0:
                knocked_out.append(seat)
                continue
            if seat.sit_out_after_hand:
                reason = seat.sit_out_reason_after_hand or SitOutReason.PLAYER
                context.events.append(seat_sit_out_now(seat, reason, now, rules))
        if knocked_out:
            self._knock_out(context, hand, tournament, link, knocked_out, now)
        if tournament.kind == TournamentKind.HEXAPRO:
            flag_sitting_out_together(tournament, context.seats)
        own = [int(seat.user_id or 0) for seat in context.seats.values() if _sits_out_by_choice(seat)]
        if own:
            sitting_out_together_check(tournament, own)
        players = sum(1 for seat in context.seats.values() if seat.user_id is not None)
        waits = bool(knocked_out) or hand_end_needs_the_tournament(tournament, now)
        changes: dict[str, Any] = {"players": players, "last_hand_ended_at": now}
        if waits:
            changes["needs_coordination"] = True
        TournamentTable.objects.filter(pk=link.pk).update(**changes)
        table_touch(
            table, current_hand=None, next_hand_at=now + timedelta(milliseconds=rules.pause_between_hands_milliseconds)
        )
        if waits:
            tournament_id = tournament.pk
            delay = coordination_window_seconds(rules, several_tables=tournament.tables_running > 1)
            transaction.on_commit(lambda: coordinate_soon(tournament_id, delay))

    @staticmethod
    def _settled_state(context: HandContext, hand: Hand) -> HandState:
        state = getattr(context, _SETTLED_STATE, None) or context.engine_state
        if state is None:
            from games.runtime.engine_state import hand_engine_state

            state = hand_engine_state(hand)
        return state

    @classmethod
    def _rebuy_bust(cls, context: HandContext, hand: Hand, tournament: Tournament, seat: Seat, kept: int) -> None:
        """A player of a bounty tournament who lost every chip in the hand but stays in by a re-buy bought during it:
        the bounty they had goes to whoever won their chips, as at a knock-out, and they keep the re-buy's new bounty
        part (docs/decisions.md, D-25-1); no VIP bounty (TRN-43, AMB-61: only on the VIP's final elimination)."""
        if not tournament.has_bounties:
            return
        from tournaments.services.bounties import knock_out_bounties_pay_locked

        event = knock_out_bounties_pay_locked(
            tournament, hand, cls._settled_state(context, hand), seat.number, int(seat.user_id or 0), kept_by_rebuy=kept
        )
        if event is not None:
            context.events.append(event)

    @classmethod
    def _knock_out(
        cls,
        context: HandContext,
        hand: Hand,
        tournament: Tournament,
        link: TournamentTable,
        seats: list[Seat],
        now: datetime,
    ) -> None:
        from tournaments.services.bounties import knock_out_bounties_pay_locked

        round_number = hand_for_hand_round_of_hand_in_play(tournament, link)
        random = secrets.SystemRandom()
        state: HandState | None = None
        if tournament.has_bounties or tournament.vip_player_id is not None:
            state = cls._settled_state(context, hand)
        for seat in seats:
            user_id = seat.user_id
            bounty_event = None
            if state is not None:  # TRN-41..TRN-44: the bounty is credited at the knock-out (AMB-48)
                bounty_event = knock_out_bounties_pay_locked(tournament, hand, state, seat.number, int(user_id or 0))
            start_stack = int(hand.participants[str(seat.number)]["stack"])
            TournamentEntry.objects.filter(
                tournament=tournament, user_id=int(user_id or 0), status=EntryStatus.PLAYING
            ).update(
                status=EntryStatus.BUSTED,
                table=None,
                eliminated_at=now,
                eliminated_in_hand=hand,
                chips_at_hand_start=start_stack,
                hand_for_hand_round=round_number,
                tie_breaker=random.randrange(2**62),
            )
            name = getattr(seat.user, "table_name", None) or (seat.user.get_username() if seat.user else "")
            number = seat.number
            seat_empty(seat)
            context.events.append(
                NewEvent(
                    "player_eliminated",
                    {"seat": number, "status": SeatStatus.EMPTY, "user_id": user_id, "name": name, "stack": 0},
                    hand,
                )
            )
            if bounty_event is not None:
                context.events.append(bounty_event)

    def waiting_reason(self, table: Table, seats: list[Seat], now: datetime) -> dict[str, Any] | None:
        return None  # the tournament deals by its own clock: levels, breaks and balancing say why (snapshot_table)

    def seat_remove(self, seat: Seat, table: Table, reason: str, now: datetime) -> NewEvent:
        # TRN-20: a tournament player sitting out is never removed; their chips stay in play. No deadline is ever set.
        raise NotAllowedNow("A tournament player sitting out keeps their seat.")

    def seat_waiting_players(self, now: datetime) -> int:
        return 0  # tournament seats are assigned by the tournament's draw and balancing, not a queue

    def command_refusal(self, message_type: str) -> str | None:
        """The cash tables' commands are refused (:data:`CASH_TABLE_COMMANDS`), at an open or a closed table."""
        refusal = CASH_TABLE_COMMANDS.get(message_type)
        return None if refusal is None else str(refusal)

    def snapshot_table(self, table: Table, now: datetime) -> dict[str, Any]:
        link = table_link(table.pk)
        tournament = link.tournament
        variant_name = dict(Tournament._meta.get_field("variant").choices or []).get(tournament.variant, "")
        info: dict[str, Any] = {
            "game": "tournament",
            "game_name": str(variant_name),
            "variant": tournament.variant,
            "currency": "CHIPS",
            "tournament_id": tournament.pk,
            "tournament_name": tournament.name,
            "table_number": link.number,
            "players_remaining": tournament.players_remaining,
            "entrants": tournament.entrants,
            "on_break_until": tournament.break_ends_at.isoformat()
            if tournament.break_ends_at and tournament.break_ends_at > now
            else None,
            "break_due_at": tournament.break_due_at.isoformat() if tournament.break_due_at else None,
            "hand_for_hand": tournament.hand_for_hand,
            "paid_places": payouts_now(tournament).paid_places,
            "tournament_status": tournament.status,
        }
        if tournament.kind == TournamentKind.HEXAPRO:
            info["hexapro"] = hexapro_table_info(tournament)
        if tournament.has_bounties or tournament.vip_player_id is not None:
            info["bounties"] = table_bounties(tournament, table)
        if tournament.rebuy_levels:  # TRN-39: the table page offers the re-buy and the add-on
            info["rebuy"] = {
                "buy_in": tournament.rebuy_buy_in,
                "bounty": tournament.bounty_per_entry,
                "fee": tournament.rebuy_fee,
                "chips": tournament.rebuy_chips,
            }
            info["add_on"] = (
                {"buy_in": tournament.add_on_buy_in, "fee": tournament.add_on_fee, "chips": tournament.add_on_chips}
                if tournament.add_on_allowed
                else None
            )
        if tournament.re_entries_maximum:
            # TRN-40: what a re-entry costs and gives (a registration at the base buy-in: the tournament's starting
            # stack), which the table page states before the player confirms it.
            info["re_entry"] = {
                "buy_in": tournament.buy_in,
                "bounty": tournament.bounty_per_entry,
                "fee": tournament.fee,
                "chips": tournament.starting_stack,
            }
        if tournament.started_at is not None:
            reading = level_clock(tournament).reading(now)
            info.update(
                {
                    "level": reading.number,
                    "small_blind": reading.level.small_blind,
                    "big_blind": reading.level.big_blind,
                    "ante": reading.level.ante,
                    "level_ends_at": reading.ends_at.isoformat() if reading.ends_at else None,
                }
            )
        return info


def table_bounties(tournament: Tournament, table: Table) -> dict[str, Any]:
    """TRN-41..TRN-43: what the table shows of the bounties — the kind, each seated player's current bounty (cents,
    by seat) and the VIP's seat with the VIP bounty."""
    seated = dict(Seat.objects.filter(table=table, user__isnull=False).values_list("user_id", "number"))
    current = dict(
        TournamentEntry.objects.filter(
            tournament=tournament, user_id__in=list(seated), status=EntryStatus.PLAYING
        ).values_list("user_id", "bounty")
    )
    vip_seat = seated.get(tournament.vip_player_id) if tournament.vip_player_id is not None else None
    return {
        "kind": tournament.bounty_kind,
        "by_seat": {str(number): current.get(user_id, 0) for user_id, number in sorted(seated.items())},
        "vip_seat": vip_seat,
        "vip_bounty": tournament.vip_bounty if vip_seat is not None else 0,
    }


def flag_sitting_out_together(tournament: Tournament, seats: dict[int, Seat]) -> None:
    """HEX-16: one player may sit out by choice; two or more sitting out by choice at once may be an agreement, which
    the rule forbids: the game is flagged for review once, in the audit trail (``hexapro_sitting_out_together``).
    Players sitting out after a disconnection do not count."""
    by_choice = [
        int(seat.user_id)
        for seat in seats.values()
        if seat.user_id is not None
        and seat.status == SeatStatus.SITTING_OUT
        and seat.sit_out_reason == SitOutReason.PLAYER
    ]
    if not sitting_out_needs_review(by_choice):
        return
    from wallet.models import AuditEntry
    from wallet.services.audit import audit_record

    if AuditEntry.objects.filter(action=SITTING_OUT_TOGETHER, details__tournament=tournament.pk).exists():
        return
    audit_record(
        target=f"tournaments.tournament:{tournament.pk}",
        action=SITTING_OUT_TOGETHER,
        actor=None,
        reason="HEX-16: two or more players of a HexaPro game sit out by choice at the same time",
        details={"tournament": tournament.pk, "players": sorted(by_choice)},
    )


def _sits_out_by_choice(seat: Seat) -> bool:
    return (
        seat.user_id is not None
        and seat.status == SeatStatus.SITTING_OUT
        and seat.sit_out_reason == SitOutReason.PLAYER
    )


def sitting_out_together_check(tournament: Tournament, own: list[int]) -> None:
    """TRN-32: at the end of a hand at a table where players ``own`` sit out by choice, the players of the whole
    tournament (every table) sitting out by choice now: a pair of them that started sitting out together is flagged
    on the compliance desk (``compliance.services.sitting_out``). One query; the flags only when two or more sit
    out."""
    sitting_out = list(
        Seat.objects.filter(
            table__tournament_link__tournament=tournament,
            table__tournament_link__broken_at__isnull=True,
            user__isnull=False,
            status=SeatStatus.SITTING_OUT,
            sit_out_reason=SitOutReason.PLAYER,
        ).values_list("user_id", "sit_out_since")
    )
    if len(sitting_out) < 2:
        return
    from compliance.services.sitting_out import sitting_out_together_record_locked

    started = tournament.started_at or timezone.now()  # a seat sitting out always has its moment; this is a fallback
    sitting_out_together_record_locked(
        tournament.pk, own, [(int(user_id), since or started) for user_id, since in sitting_out]
    )


def hexapro_table_info(tournament: Tournament) -> dict[str, Any]:
    """HEX-05: what the table shows of a HexaPro game — the product, buy-in, drawn multiplier and prize pool (revealed
    with an animation until the first hand), and the prize per place (HEX-09, HEX-25)."""
    game = HexaProGame.objects.select_related("version").get(tournament=tournament)
    labels = [str(row) for row in game.version.multipliers.order_by("-multiplier_tenths")]
    return {
        "game_id": tournament.pk,
        "product": game.version.name,
        "buy_in": game.buy_in_cents,
        "multiplier": game.multiplier_label,
        "multiplier_tenths": game.multiplier_tenths,
        "prize_pool": game.prize_pool_cents,
        "prizes": list(tournament.prizes),
        # The reveal's reel: the product's multipliers, three times round, stopping at the one drawn.
        "reel": labels * 3 + [game.multiplier_label],
    }


def hand_end_needs_the_tournament(tournament: Tournament, now: datetime) -> bool:
    """Whether a hand's end that knocked nobody out still makes its table wait for the coordinator before it deals
    again: more than one table (TRN-25: balancing moves players between hands), hand-for-hand (TRN-23: the next round
    is dealt everywhere once every table finished the last), a break that fell due (TRN-30: it starts once every table
    has finished its hand), re-buys and add-ons (TRN-39), a Phase 1 flight (TRN-45: it ends once its hands are over),
    a tournament not running. Otherwise (one table: a Sit & Go, a HexaPro game, a final table) nothing the coordinator
    does turns on this hand: places and the end follow knock-outs (which always wait); levels, breaks falling due and
    late registration follow the clock (the beat's due moments, ``coordination_due_at``)."""
    return (
        tournament.status != TournamentStatus.RUNNING
        or tournament.hand_for_hand
        or tournament.offers_purchases
        or tournament.phase_two_id is not None
        or (tournament.break_due_at is not None and tournament.break_due_at <= now)
        # TRN-25: with more than one table, a table between hands is where balancing can move a player (a knock-out
        # elsewhere, coordinated while this table was in its hand, may have left the tables uneven).
        or TournamentTable.objects.filter(tournament_id=tournament.pk, broken_at__isnull=True)[:2].count() > 1
    )


def coordination_window_seconds(rules: TableRules, *, several_tables: bool) -> float:
    """How long after a hand end its table's coordination is asked for, so that the hands ending meanwhile at the
    other tables share it (issue 27): ``TOURNAMENT_COORDINATION_WINDOW_MILLISECONDS``, at most half the pause between
    hands (the table deals no later for it), and none at a single table (nothing to share; the places and the game's
    end follow at once). ``several_tables`` is the count the last coordination recorded: a table broken since only
    makes one window longer than it needed to be."""
    if not several_tables:
        return 0.0
    window = min(settings.TOURNAMENT_COORDINATION_WINDOW_MILLISECONDS, rules.pause_between_hands_milliseconds // 2)
    return window / 1000


def coordinate_soon(tournament_id: int, delay_seconds: float = 0.0) -> None:
    """Ask a worker to coordinate the tournament in ``delay_seconds`` (its beat task would do it within seconds
    anyway)."""
    from tournaments.tasks import tournament_coordinate_later

    tournament_coordinate_later(tournament_id, delay_seconds)
