"""The tournament bar at a tournament table and the player's result panel (``/api/tournaments/<id>/bar/``, read by
``static/js/tournament_bar.js`` every few seconds and at once after a knock-out): what a player reads at the table
without leaving it.

* the level, its blinds and ante, when it ends (the page counts down), and the next level's blinds and ante;
* the break: when the next one is due, or until when the one in progress lasts (TRN-30);
* players left of the entrants, the average stack, the paid places and the next pay jump (TRN-06);
* for the viewer: their chips and rank, the re-buy and add-on they may buy now (TRN-39), and once they are out or the
  tournament is over, the result: place (and whether it was drawn between players tied on chips, TRN-22), prize,
  bounties won, and whether they may re-enter (TRN-40); knocked out before the places are given, what the place
  waits for, until when, and the place as far as it is known (``tournaments.readside.place_pending``).

Read only, a fixed number of queries whatever the size of the tournament.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from games.models import Seat
from tournaments.definitions import add_on_policy, level_clock, payouts_now, rebuy_policy
from tournaments.models import (
    EntryStatus,
    PurchaseKind,
    PurchaseStatus,
    Tournament,
    TournamentBountyAward,
    TournamentEntry,
    TournamentPurchase,
    TournamentStatus,
)
from tournaments.readside import place_draw, place_pending
from tournaments.rules.rebuys import add_on_refusal, rebuy_refusal

OUT_STATUSES = (EntryStatus.BUSTED, EntryStatus.FINISHED, EntryStatus.DISQUALIFIED, EntryStatus.QUALIFIED)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def next_pay_jump(prizes: tuple[int, ...], players_remaining: int) -> dict[str, int] | None:
    """The next place whose prize is higher than what the player would win by finishing now (``players_remaining``
    is the place of the next player out): ``{"players_left": place, "prize": prize}``, or ``None`` when nothing
    higher is left (heads-up for the last prize, or no payouts)."""
    if not prizes or players_remaining <= 1:
        return None
    current = prizes[players_remaining - 1] if players_remaining <= len(prizes) else 0
    for place in range(min(players_remaining - 1, len(prizes)), 0, -1):
        if prizes[place - 1] > current:
            return {"players_left": place, "prize": int(prizes[place - 1])}
    return None


def _level_facts(tournament: Tournament, now: datetime) -> dict[str, Any]:
    if tournament.started_at is None:
        return {"level": None}
    clock = level_clock(tournament)
    reading = clock.reading(now)
    on_break_until = tournament.break_ends_at if tournament.break_ends_at and tournament.break_ends_at > now else None
    ends_at = reading.ends_at
    if ends_at is None and reading.remaining is not None and on_break_until is not None:
        ends_at = on_break_until + timedelta(seconds=reading.remaining.total_seconds())  # the clock resumes then
    levels = clock.structure.levels
    upcoming = levels[reading.number] if reading.number < len(levels) else None
    return {
        "level": reading.number,
        "small_blind": reading.level.small_blind,
        "big_blind": reading.level.big_blind,
        "ante": reading.level.ante,
        "level_ends_at": _iso(ends_at),
        "next_level": {"small_blind": upcoming.small_blind, "big_blind": upcoming.big_blind, "ante": upcoming.ante}
        if upcoming is not None
        else None,
        "on_break_until": _iso(on_break_until),
        "next_break_at": _iso(tournament.break_due_at) if on_break_until is None else None,
    }


def _viewer(tournament: Tournament, viewer_id: int, now: datetime, stacks: dict[int, int]) -> dict[str, Any] | None:
    entry = (
        TournamentEntry.objects.filter(tournament=tournament, user_id=viewer_id)
        .exclude(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED])
        .order_by("-pk")
        .first()
    )
    if entry is None:
        return None
    chips = stacks.get(viewer_id) if entry.status == EntryStatus.PLAYING else None
    won = TournamentBountyAward.objects.filter(tournament=tournament, winner=entry).aggregate(
        total=Sum(F("cash") + F("vip"))
    )["total"]
    viewer: dict[str, Any] = {
        "status": entry.status,
        "out": entry.status in OUT_STATUSES,
        "chips": chips,
        "rank": 1 + sum(1 for stack in stacks.values() if chips is not None and stack > chips)
        if chips is not None
        else None,
        "place": entry.place,
        # TRN-22: a place drawn between players tied on chips says so; a knock-out still waiting for its place is
        # told what it waits for, until when, and the place as far as it is known.
        "place_drawn": place_draw(entry),
        "place_pending": place_pending(tournament, entry, now),
        "prize": entry.prize,
        "bounties_won": int(won or 0),
        "re_entry": False,
    }
    if entry.status == EntryStatus.BUSTED or entry.status == EntryStatus.FINISHED:
        from tournaments.services.registration import registration_open_now

        entries = TournamentEntry.objects.filter(tournament=tournament, user_id=viewer_id).exclude(
            status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED]
        )
        viewer["re_entry"] = bool(
            tournament.re_entries_maximum
            and tournament.status == TournamentStatus.RUNNING
            and entries.count() - 1 < tournament.re_entries_maximum
            and not entries.filter(status=EntryStatus.DISQUALIFIED).exists()
            and registration_open_now(tournament, now)
        )
        viewer["re_entry_price"] = tournament.entry_price if viewer["re_entry"] else None
    return viewer


def purchase_offers(tournament: Tournament, viewer_id: int | None, now: datetime | None = None) -> dict[str, bool]:
    """TRN-39: whether the viewer may re-buy and take the add-on now, decided by the rules the purchase service
    (``tournaments.services.purchases``) applies: re-buys during the first ``rebuy_levels`` levels, at most
    ``rebuy_maximum`` per entry, only at or below the stack threshold (chips waiting to be added count); the add-on once
    per entry, in its window. The pages offer only what is possible now; the service checks again when pressed."""
    offers = {"rebuy": False, "add_on": False}
    if (
        viewer_id is None
        or not tournament.rebuy_levels
        or tournament.status != TournamentStatus.RUNNING
        or tournament.started_at is None
        or tournament.cancellation_pending
    ):
        return offers
    entry = TournamentEntry.objects.filter(
        tournament=tournament, user_id=viewer_id, status=EntryStatus.PLAYING, table__isnull=False
    ).first()
    if entry is None or entry.table_id is None:
        return offers
    seat = Seat.objects.filter(table_id=entry.table_id, user_id=viewer_id).first()
    if seat is None:
        return offers
    moment = now or timezone.now()
    clock = level_clock(tournament)
    bought = TournamentPurchase.objects.filter(entry=entry)
    rebuys = rebuy_policy(tournament)
    if rebuys is not None:
        waiting = bought.filter(status=PurchaseStatus.PENDING).aggregate(chips=Sum("chips"))["chips"] or 0
        taken = bought.filter(kind=PurchaseKind.REBUY).count()
        offers["rebuy"] = (
            rebuy_refusal(rebuys, clock, moment, chips=seat.chips + int(waiting), rebuys_taken=taken) is None
        )
    add_on = add_on_policy(tournament)
    if add_on is not None:
        taken_add_on = bought.filter(kind=PurchaseKind.ADD_ON).exists()
        offers["add_on"] = (
            add_on_refusal(add_on, clock, moment, period_levels=tournament.rebuy_levels, taken=taken_add_on) is None
        )
    return offers


def tournament_bar(tournament: Tournament, viewer_id: int | None, now: datetime | None = None) -> dict[str, Any]:
    """The bar's figures at ``now`` (see the module docstring); ``viewer`` is ``None`` for a spectator."""
    moment = now or timezone.now()
    stacks = dict(
        Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False).values_list(
            "user_id", "chips"
        )
    )
    counts = TournamentEntry.objects.filter(tournament=tournament).aggregate(
        playing=Count("pk", filter=Q(status=EntryStatus.PLAYING))
    )
    # The status is read again after the count: the tournament's end sets its entries and its status in one
    # transaction, but two statements see two snapshots, and a status read before that commit beside a count read
    # after it would show "0 players left" in a running tournament.
    tournament.refresh_from_db(fields=["status"])
    remaining = int(counts["playing"] or 0) if tournament.status == TournamentStatus.RUNNING else 0
    payouts = payouts_now(tournament)
    bar: dict[str, Any] = {
        "tournament_id": tournament.pk,
        "name": tournament.name,
        "kind": tournament.kind,
        "status": tournament.status,
        "entrants": tournament.entrants,
        "players_remaining": remaining,
        "average_stack": sum(stacks.values()) // len(stacks) if stacks else None,
        "paid_places": payouts.paid_places,
        "prizes_provisional": payouts.provisional,
        "next_pay_jump": next_pay_jump(payouts.prizes, remaining) if remaining else None,
        "bounties": tournament.has_bounties,
        **_level_facts(tournament, moment),
    }
    bar["viewer"] = _viewer(tournament, viewer_id, moment, stacks) if viewer_id is not None else None
    if bar["viewer"] is not None and tournament.rebuy_levels:  # TRN-39: the table page shows only what is possible
        bar["viewer"]["purchases"] = purchase_offers(tournament, viewer_id, moment)
    return bar
