"""What players see of tournaments: the Full Tournament Lobby's rows (LOB-02) and a Specific Tournament Lobby (LOB-03).

Plain dictionaries for the pages, the API and the lobby socket; money in cents, chips as whole numbers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, F, Q, QuerySet, Sum
from django.utils import timezone

from games.models import Seat
from tournaments.definitions import (
    Payouts,
    add_on_policy,
    blind_structure,
    break_policy,
    level_clock,
    payouts_for,
    payouts_now,
)
from tournaments.models import (
    BountyKind,
    EntryStatus,
    Tournament,
    TournamentBountyAward,
    TournamentEntry,
    TournamentKind,
    TournamentLevel,
    TournamentStatus,
    TournamentTable,
)
from tournaments.rules.breaks import SYNCHRONIZED_BREAK_PHRASE
from tournaments.services.eligibility import eligibility_words
from tournaments.services.registration import registration_open_now, unregistration_closes_at

LISTED_STATUSES = (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING, TournamentStatus.RUNNING)
FINISHED_SHOWN = 10
"""How many recently finished tournaments the lobby still lists."""


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def lobby_tournaments() -> QuerySet[Tournament]:
    """Tournaments the lobby lists: every live one but HexaPro games, scheduled first by start time."""
    return (
        Tournament.objects.filter(status__in=LISTED_STATUSES)
        .exclude(kind=TournamentKind.HEXAPRO)  # HexaPro games are listed on their own tab (HEX-03)
        .select_related("phase_two")  # TRN-45: a flight's row names its Phase 2
        .order_by("kind", "starts_at", "pk")
    )


def registration_state(tournament: Tournament, now: datetime) -> str:
    """``announced``, ``open``, ``late`` (late registration, TRN-08), ``closed``, ``full``; ``phase_two`` for a Phase
    2 not started yet (reached only through its flights, TRN-45)."""
    if tournament.is_phase_two and tournament.status in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING):
        return "phase_two"
    if tournament.status == TournamentStatus.ANNOUNCED:
        return "announced"
    if tournament.status == TournamentStatus.REGISTERING:
        capacity = (
            tournament.seats_to_start if tournament.kind == TournamentKind.SIT_AND_GO else tournament.maximum_entrants
        )
        return "full" if capacity is not None and tournament.entrants >= capacity else "open"
    if tournament.status == TournamentStatus.RUNNING and registration_open_now(tournament, now):
        return "late"
    return "closed"


def tournament_row(tournament: Tournament, viewer_id: int | None = None, now: datetime | None = None) -> dict[str, Any]:
    """One row of the Full Tournament Lobby (LOB-02)."""
    moment = now or timezone.now()
    progressive = tournament.bounty_kind == BountyKind.PROGRESSIVE
    row: dict[str, Any] = {
        "id": tournament.pk,
        "name": tournament.name,
        "kind": tournament.kind,
        "game": tournament.variant,
        "game_name": tournament.get_variant_display(),
        "status": tournament.status,
        "starts_at": _iso(tournament.starts_at),
        "seats_to_start": tournament.seats_to_start,
        "table_size": tournament.table_size,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "entry_price": tournament.entry_price,
        "freeroll": tournament.is_freeroll and not tournament.is_phase_two,
        "requirements": eligibility_words(tournament.eligibility),  # TRN-17, in the viewer's language
        # TRN-41..TRN-43: the kind of bounty and its amounts (the bounty part is paid with the buy-in).
        "bounty_kind": tournament.bounty_kind,
        "bounty_kind_name": str(tournament.get_bounty_kind_display()),
        "bounty": tournament.bounty_per_entry,
        "bounty_credited_percent": tournament.bounty_credited_percent if progressive else None,
        "bounty_added_percent": tournament.bounty_added_percent if progressive else None,
        "vip_bounty": tournament.vip_bounty if tournament.vip_player_id is not None else 0,
        "guarantee": tournament.guarantee,
        "added_prize_money": tournament.added_prize_money,
        "entrants": tournament.entrants,
        "players_remaining": tournament.players_remaining,
        "registration": registration_state(tournament, moment),
        "late_registration_levels": tournament.late_registration_levels,
        "unregistration_closes_at": _iso(unregistration_closes_at(tournament)),
        "unregistration_allowed": tournament.unregistration_allowed,
        # Unregistering is offered only while the service would accept it (TRN-10: until its deadline).
        "unregistration_open": unregistration_open(tournament, moment),
        "re_entry": tournament.re_entries_maximum > 0,
        "re_entries_maximum": tournament.re_entries_maximum,
        "rebuys": tournament.rebuy_levels > 0,
        "multi_buy_in": tournament.is_multi_buy_in,
        "synchronized_breaks": tournament.synchronized_breaks,
        "level": tournament.level_number if tournament.started_at else None,
        "registered": None,
        "satellite": tournament.satellite_target_id is not None,  # TRN-37
        "phase": phase_facts(tournament),  # TRN-45
    }
    if viewer_id is not None:
        row["registered"] = TournamentEntry.objects.filter(
            tournament=tournament, user_id=viewer_id, status__in=[EntryStatus.REGISTERED, EntryStatus.PLAYING]
        ).exists()
    return row


def unregistration_open(tournament: Tournament, now: datetime) -> bool:
    """Whether ``tournament_unregister`` would accept an unregistration now (TRN-10): the page offers it only then."""
    closes = unregistration_closes_at(tournament)
    return bool(
        tournament.unregistration_allowed
        and tournament.status == TournamentStatus.REGISTERING
        and (closes is None or now < closes)
    )


def phase_facts(tournament: Tournament) -> dict[str, Any] | None:
    """TRN-45: a Phase 1 flight names its Phase 2 and the level it ends at; a Phase 2 says it is reached through its
    flights; other tournaments: ``None``."""
    if tournament.phase_two_id is not None:
        target = tournament.phase_two
        return {
            "role": "flight",
            "phase_two_id": tournament.phase_two_id,
            "phase_two_name": target.name if target is not None else "",
            "final_level": tournament.final_level,
        }
    if tournament.is_phase_two:
        return {"role": "phase_two"}
    return None


def payouts_shown(tournament: Tournament) -> Payouts:
    """The payouts a lobby shows: a Sit & Go that has not started shows what it pays once full (its seats times the
    buy-in: the pool is known, only the entrants are missing), not the prizes of the entrants so far (€0.00 for an
    empty one); every other tournament its payouts now (``payouts_now``)."""
    if (
        tournament.kind == TournamentKind.SIT_AND_GO
        and tournament.registration_closed_at is None
        and tournament.seats_to_start
        and not tournament.is_multi_buy_in
    ):
        seats = int(tournament.seats_to_start)
        return payouts_for(tournament, seats, seats * tournament.buy_in, provisional=False)
    return payouts_now(tournament)


def my_tournaments(viewer_id: int) -> list[dict[str, Any]]:
    """The player's registrations and running entries ("My tournaments"): tournament, status, their table."""
    entries = (
        TournamentEntry.objects.filter(
            user_id=viewer_id,
            status__in=[EntryStatus.REGISTERED, EntryStatus.PLAYING],
            tournament__status__in=[TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING, TournamentStatus.RUNNING],
        )
        .select_related("tournament")
        .order_by("tournament__starts_at", "pk")
    )
    return [
        {
            "id": entry.tournament_id,
            "name": entry.tournament.name,
            "kind": entry.tournament.kind,
            "starts_at": _iso(entry.tournament.starts_at),
            "status": entry.tournament.status,
            "entry_status": entry.status,
            "table_id": entry.table_id,
        }
        for entry in entries
    ]


def tournament_rows(viewer_id: int | None = None) -> list[dict[str, Any]]:
    now = timezone.now()
    tournaments = list(lobby_tournaments())
    mine: set[int] = set()
    if viewer_id is not None:
        mine = set(
            TournamentEntry.objects.filter(
                tournament__in=tournaments,
                user_id=viewer_id,
                status__in=[EntryStatus.REGISTERED, EntryStatus.PLAYING],
            ).values_list("tournament_id", flat=True)
        )
    rows = []
    for tournament in tournaments:
        row = tournament_row(tournament, None, now)
        row["registered"] = tournament.pk in mine if viewer_id is not None else None
        rows.append(row)
    return rows


def recently_finished(limit: int = FINISHED_SHOWN) -> list[dict[str, Any]]:
    """The tournaments and Sit & Gos that finished or were cancelled last (HexaPro games apart), newest first: the
    lobby keeps showing where a tournament went once it left the lists of those open or running."""
    rows = (
        Tournament.objects.filter(status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])
        .exclude(kind=TournamentKind.HEXAPRO)
        .exclude(finished_at__isnull=True)
        .order_by("-finished_at", "-pk")
        .values("id", "name", "kind", "status", "entrants", "finished_at")[:limit]
    )
    return [{**row, "finished_at": _iso(row["finished_at"])} for row in rows]


def lobby_lists(viewer_id: int | None) -> dict[str, Any]:
    """What the Full Tournament Lobby page lists (LOB-02): the scheduled tournaments and the Sit & Gos (each with the
    prize it pays once full), the games to filter by, the viewer's own tournaments and the ones just over. The page
    and its live refresh (``tournaments/lobby_live.html``) render the same lists."""
    rows = tournament_rows(viewer_id)
    sit_and_go = [row for row in rows if row["kind"] == TournamentKind.SIT_AND_GO]
    by_id = {
        tournament.pk: tournament for tournament in Tournament.objects.filter(pk__in=[row["id"] for row in sit_and_go])
    }
    for row in sit_and_go:  # what it pays once full, not the €0.00 of its entrants so far
        row["prize_pool_when_full"] = payouts_shown(by_id[row["id"]]).pool
    return {
        "scheduled": [row for row in rows if row["kind"] == TournamentKind.SCHEDULED],
        "sit_and_go": sit_and_go,
        "games": sorted({(row["game"], row["game_name"]) for row in rows}),
        "mine": my_tournaments(viewer_id) if viewer_id is not None else [],
        "finished": recently_finished(),
    }


def break_rule_text(tournament: Tournament) -> str:
    """The break information of the Specific Tournament Lobby (TRN-30's phrase for synchronized breaks)."""
    minutes = tournament.break_seconds // 60
    if tournament.synchronized_breaks:
        return f"{SYNCHRONIZED_BREAK_PHRASE} ({minutes} minutes; not during the first level)."
    if tournament.break_every_levels:
        return f"A {minutes}-minute break after every {tournament.break_every_levels} levels."
    return "No scheduled breaks."


def tournament_detail(tournament: Tournament, viewer_id: int | None = None) -> dict[str, Any]:
    """The Specific Tournament Lobby (LOB-03): structure, breaks, payouts (provisional until registration closes),
    entrants, tables and chip counts, and the viewer's own entry and table."""
    now = timezone.now()
    detail = tournament_row(tournament, viewer_id, now)
    levels = list(TournamentLevel.objects.filter(tournament=tournament).order_by("number"))
    payouts = payouts_shown(tournament)
    detail.update(
        {
            "starting_stack": tournament.starting_stack,
            "levels": [
                {
                    "level": level.number,
                    "small_blind": level.small_blind,
                    "big_blind": level.big_blind,
                    "ante": level.ante,
                    "minutes": level.duration_seconds / 60,
                }
                for level in levels
            ],
            "level_minutes": levels[0].duration_seconds / 60 if levels else None,
            "breaks": break_rule_text(tournament),
            "break_minutes": tournament.break_seconds // 60,
            "break_every_levels": tournament.break_every_levels,
            "break_phrase": SYNCHRONIZED_BREAK_PHRASE,
            "payouts": {
                "provisional": payouts.provisional,
                "prize_pool": payouts.pool,
                "overlay": payouts.overlay,
                "places": [{"place": place, "prize": prize} for place, prize in enumerate(payouts.prizes, start=1)],
            },
            "timebank": {
                "first_hand_seconds": tournament.timebank_first_hand_seconds,
                "replenish_seconds": tournament.timebank_replenish_seconds,
                "every_hands": tournament.timebank_replenish_every_hands,
                "cap_seconds": tournament.timebank_cap_seconds,
            },
            "minimum_entrants": tournament.minimum_entrants,
            "started_at": _iso(tournament.started_at),
            "finished_at": _iso(tournament.finished_at),
            "cancelled_reason": tournament.cancelled_reason,
            "hand_for_hand": tournament.hand_for_hand,
            "on_break_until": _iso(tournament.break_ends_at)
            if tournament.break_ends_at and tournament.break_ends_at > now
            else None,
            "next_break_at": _iso(tournament.break_due_at),
        }
    )
    if tournament.started_at is not None:
        # The levels read above make the clock's structure: no second read of the same rows.
        reading = level_clock(tournament, blind_structure(tournament, levels)).reading(now)
        detail["current_level"] = {
            "level": reading.number,
            "small_blind": reading.level.small_blind,
            "big_blind": reading.level.big_blind,
            "ante": reading.level.ante,
            "ends_at": _iso(reading.ends_at),
        }
    detail["break_policy"] = {"synchronized": break_policy(tournament).synchronized}
    detail["vip_name"] = _name(tournament.vip_player) if tournament.vip_player_id is not None else None
    # Read once for the entrants and the viewer; a tournament without bounties has no awards to read.
    won = _bounties_won(tournament) if _awards_bounties(tournament) else {}
    detail["entrants_list"] = _entrants(tournament, won)
    detail["tables"] = _tables(tournament)
    detail["viewer"] = _viewer(tournament, viewer_id, won) if viewer_id is not None else None
    if tournament.is_phase_two:  # TRN-45: its flights, the players through to it and the stacks they carry
        detail.update(_phase_two(tournament))
    # TRN-37 / AMB-54: the satellite's target and seats, and the viewer's tickets that pay this tournament.
    from tournaments import tickets_readside

    detail.update(tickets_readside.satellite_facts(tournament))
    detail["tickets"] = tickets_readside.tickets_paying(viewer_id, tournament, now) if viewer_id is not None else []
    detail.update(purchase_facts(tournament))
    return detail


def place_draw(entry: TournamentEntry) -> dict[str, int] | None:
    """TRN-22: when the entry's place was drawn at random between players tied on chips (knocked out in the same hand
    with the same stack at its start, or still in at the end with the same stack), the places drawn —
    ``{"from": 7, "to": 8}`` — so the player is told their place came from a draw; ``None`` when the chips decided."""
    if entry.place is None or entry.place_drawn_from is None or entry.place_drawn_to is None:
        return None
    return {"from": int(entry.place_drawn_from), "to": int(entry.place_drawn_to)}


def place_pending(tournament: Tournament, entry: TournamentEntry, now: datetime) -> dict[str, Any] | None:
    """What is known of the place of a knocked-out player still waiting for it (``None`` for any other entry).

    The coordinator gives the places of early knock-outs only once registration is over — late registration closed
    (TRN-08, AMB-28: at the end of its last level, or earlier once the players left are no more than the paid places)
    and the re-buy period and add-on over (TRN-39: the prize pool grows until then); a flight's at its final level at
    the latest (TRN-45) — because until then every late registration or re-entry is one more player finishing above
    them (seed 002 #31: "The prize structure is not finalized until registration has closed").

    * ``given``: what the place waits for: ``late_registration``, ``purchases``, ``flight_end``, ``hand_for_hand``
      (the other tables finishing the hand-for-hand hand, TRN-24) or ``soon`` (the next coordination, seconds);
    * ``level`` and ``at``: after which level, and when (ISO 8601; ``None`` while unknown: a paused clock, a break not
      started yet); ``after_break``: the add-on break after that level; ``may_come_earlier``: late registration can
      close before its last level ends;
    * ``place``: the place if nobody else enters (exact once no one can: the coordinator's own computation, ties by
      the numbers drawn at the knock-out); ``worst_place``: the place if every entry still possible is taken (``None``
      when there is no maximum); equal to ``place`` when no more entries are possible;
    * ``drawn``: the places drawn at random between tied players, as :func:`place_draw`."""
    from tournaments.rules.phases import flight_stops_dealing
    from tournaments.rules.rebuys import purchases_end, purchases_over
    from tournaments.services.running import places_if_given_now

    if entry.status != EntryStatus.BUSTED:
        return None
    finishing = places_if_given_now(tournament).get(int(entry.pk))
    place = finishing.place if finishing is not None else None
    facts: dict[str, Any] = {
        "given": "soon",
        "level": None,
        "at": None,
        "after_break": False,
        "may_come_earlier": False,
        "place": place,
        "worst_place": place,
        "drawn": {"from": finishing.drawn_among[0], "to": finishing.drawn_among[1]}
        if finishing is not None and finishing.drawn_among is not None
        else None,
    }
    if tournament.started_at is None:
        return facts
    if tournament.registration_closed_at is not None:
        if tournament.hand_for_hand and entry.hand_for_hand_round == tournament.hand_for_hand_round:
            facts["given"] = "hand_for_hand"
        return facts
    clock = level_clock(tournament)
    waits: list[tuple[int, bool, str, datetime | None]] = []  # (level, after its break, what, when)
    if registration_open_now(tournament, now):
        if place is not None:
            left = None if tournament.maximum_entrants is None else tournament.maximum_entrants - tournament.entrants
            facts["worst_place"] = None if left is None else place + max(0, left)
        last = min(tournament.late_registration_levels, len(clock.structure.levels))
        waits.append((last, False, "late_registration", clock.moment_of(clock.level_end(last))))
    add_on = add_on_policy(tournament)
    if tournament.offers_purchases and not purchases_over(
        clock, now, period_levels=tournament.rebuy_levels, add_on=add_on
    ):
        end = purchases_end(clock, period_levels=tournament.rebuy_levels, add_on=add_on)
        waits.append((end.level, end.after_break, "purchases", end.at))
    if not waits:
        return facts  # both over: the next coordination gives the place
    level, after_break, given, at = max(waits, key=lambda wait: (wait[0], wait[1]))
    if tournament.phase_two_id is not None and tournament.final_level is not None:
        final = min(max(tournament.final_level, 1), len(clock.structure.levels))
        if final < level or (final == level and after_break):  # TRN-45: the flight's end closes it first
            level, after_break, given = final, False, "flight_end"
            at = None if flight_stops_dealing(clock, now, final) else clock.moment_of(clock.level_end(final))
    facts.update(
        {
            "given": given,
            "level": level,
            "at": _iso(at),
            "after_break": after_break,
            "may_come_earlier": given == "late_registration",
        }
    )
    return facts


def _name(user: Any) -> str:
    return str(getattr(user, "table_name", None) or user.get_username())


def _awards_bounties(tournament: Tournament) -> bool:
    """Whether the tournament can have bounty awards (bounties, or a VIP bounty: TRN-41..TRN-43); others read none."""
    return bool(tournament.has_bounties or tournament.vip_player_id is not None)


def _bounties_won(tournament: Tournament) -> dict[int, int]:
    """Each entry's bounties won so far, in cents (bounty and VIP bounty credited; TRN-41..TRN-43)."""
    return {
        int(entry_id): int(total or 0)
        for entry_id, total in TournamentBountyAward.objects.filter(tournament=tournament)
        .values("winner_id")
        .annotate(total=Sum(F("cash") + F("vip")))
        .values_list("winner_id", "total")
    }


def purchase_facts(tournament: Tournament) -> dict[str, Any]:
    """TRN-38..TRN-40: the buy-ins a multi-buy-in tournament accepts (with the stack each gives), its re-buys, add-on
    and re-entries, as the Specific Tournament Lobby shows them."""
    from tournaments.definitions import buy_in_range
    from tournaments.rules.fees import EntryPrice
    from tournaments.rules.rebuys import chosen_buy_in

    facts: dict[str, Any] = {"buy_in_choices": [], "rebuy": None, "add_on": None}
    accepted = buy_in_range(tournament) if tournament.is_multi_buy_in else None
    if accepted is not None and tournament.entry_price:
        base = EntryPrice(tournament.buy_in, tournament.fee)
        amounts = range(accepted.minimum_cents, accepted.maximum_cents + 1, accepted.step_cents)
        choices = sorted({*list(amounts)[:200], base.total_cents})
        for amount in choices:
            if amount == base.total_cents:
                facts["buy_in_choices"].append(
                    {"amount": amount, "fee": base.fee_cents, "chips": tournament.starting_stack, "base": True}
                )
                continue
            chosen = chosen_buy_in(base, tournament.starting_stack, accepted, amount)
            facts["buy_in_choices"].append(
                {"amount": amount, "fee": chosen.price.fee_cents, "chips": chosen.starting_stack, "base": False}
            )
    if tournament.rebuy_levels:
        facts["rebuy"] = {
            "levels": tournament.rebuy_levels,
            "maximum": tournament.rebuy_maximum,
            "stack_threshold": tournament.rebuy_stack_threshold,
            "buy_in": tournament.rebuy_buy_in,
            "bounty": tournament.bounty_per_entry,  # a re-buy's new bounty part (docs/decisions.md, D-25-1)
            "fee": tournament.rebuy_fee,
            "chips": tournament.rebuy_chips,
        }
    if tournament.add_on_allowed:
        facts["add_on"] = {
            "buy_in": tournament.add_on_buy_in,
            "fee": tournament.add_on_fee,
            "chips": tournament.add_on_chips,
            "timing": tournament.add_on_timing,
        }
    return facts


def _entrants(tournament: Tournament, won: dict[int, int]) -> list[dict[str, Any]]:
    """The entrants' rows; ``won``: each entry's bounties won (:func:`_bounties_won`)."""
    chips = dict(
        Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False).values_list(
            "user_id", "chips"
        )
    )
    rows: list[dict[str, Any]] = []
    for entry in (
        TournamentEntry.objects.filter(tournament=tournament)
        .exclude(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED])
        .select_related("user")
        .order_by("place", "registered_at")
    ):
        rows.append(
            {
                "name": getattr(entry.user, "table_name", entry.user.get_username()),
                "status": entry.status,
                "chips": chips.get(entry.user_id)
                if entry.status == EntryStatus.PLAYING
                else entry.carried_chips  # TRN-45: the stack a flight's survivor took to Phase 2
                if entry.status == EntryStatus.QUALIFIED
                else None,
                "place": entry.place,
                "place_drawn": place_draw(entry),  # TRN-22: this place was drawn between tied players
                "prize": entry.prize,
                "table_id": entry.table_id,
                "bounty": entry.bounty if entry.status == EntryStatus.PLAYING else None,  # TRN-42: current value
                "bounties_won": won.get(entry.pk, 0),
                "vip": entry.user_id == tournament.vip_player_id,
            }
        )
    rows.sort(key=lambda row: (row["place"] is not None, -int(row["chips"] or 0), int(row["place"] or 0)))
    return rows


def _tables(tournament: Tournament) -> list[dict[str, Any]]:
    links = (
        TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True)
        .annotate(occupied=Count("table__seats", filter=Q(table__seats__user__isnull=False)))
        .order_by("number")
    )
    return [{"table_id": link.table_id, "number": link.number, "players": link.occupied} for link in links]


def _viewer(tournament: Tournament, viewer_id: int, won: dict[int, int]) -> dict[str, Any] | None:
    entry = (
        TournamentEntry.objects.filter(tournament=tournament, user_id=viewer_id)
        .exclude(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED])
        .order_by("-pk")
        .first()
    )
    if entry is None:
        return None
    from tournaments.services.purchases import purchases_of

    bought = purchases_of(entry)
    viewer: dict[str, Any] = {
        "status": entry.status,
        "table_id": entry.table_id,
        "place": entry.place,
        "place_drawn": place_draw(entry),  # TRN-22
        "place_pending": place_pending(tournament, entry, timezone.now()),  # a knock-out waiting for its place
        "prize": entry.prize,
        "prize_paid": entry.prize_transfer_id is not None,
        "entry_number": entry.entry_number,
        "re_entries_left": max(0, tournament.re_entries_maximum - (entry.entry_number - 1)),
        "rebuys": bought["rebuy"],
        "add_on_taken": bought["add_on"] > 0,
        "bounty": entry.bounty,
        "bounties_won": won.get(entry.pk, 0),
        "carried_chips": entry.carried_chips,
    }
    if entry.status == EntryStatus.QUALIFIED and tournament.phase_two_id is not None:
        # TRN-45: through to Phase 2; the stack there is the biggest of the player's flights (ET-13)
        carried = (
            TournamentEntry.objects.filter(tournament_id=tournament.phase_two_id, user_id=viewer_id)
            .exclude(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED])
            .order_by("-pk")
            .first()
        )
        viewer["phase_two"] = {
            "id": tournament.phase_two_id,
            "name": tournament.phase_two.name if tournament.phase_two is not None else "",
            "chips": carried.carried_chips if carried is not None else None,
            "from_this_flight": carried is not None and carried.carried_from_id == entry.pk,
        }
    return viewer


def _phase_two(tournament: Tournament) -> dict[str, Any]:
    flights = list(Tournament.objects.filter(phase_two=tournament).order_by("starts_at", "pk"))
    names = {flight.pk: flight.name for flight in flights}
    qualified = []
    for entry in (
        TournamentEntry.objects.filter(tournament=tournament, carried_chips__isnull=False)
        .exclude(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED])
        .select_related("user", "carried_from")
    ):
        source = entry.carried_from
        qualified.append(
            {
                "name": getattr(entry.user, "table_name", entry.user.get_username()),
                "chips": entry.carried_chips,
                "flight_id": source.tournament_id if source is not None else None,
                "flight_name": names.get(source.tournament_id, "") if source is not None else "",
            }
        )
    qualified.sort(key=lambda row: (-int(row["chips"] or 0), row["name"]))
    return {
        "flights": [
            {
                "id": flight.pk,
                "name": flight.name,
                "starts_at": _iso(flight.starts_at),
                "status": flight.status,
                "final_level": flight.final_level,
            }
            for flight in flights
        ],
        "qualified": qualified,
        "carried_prize_money": tournament.carried_prize_money,
    }
