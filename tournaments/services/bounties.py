"""Paying bounties at the knock-out (TRN-41..TRN-44, AMB-18, AMB-48, AMB-61).

The table's hand transaction calls :func:`knock_out_bounties_pay_locked` between hands, for each player the hand left
without chips, before the seat is emptied (``tournaments.table_policy``). Under the table's lock it works out from the
hand's pots who won the eliminated player's last chips (``tournaments.rules.bounties``), credits each winner's part at
once through the wallet (one idempotent transfer per winner: the bounty from the tournament's bounty pool, a VIP
bounty from the house), adds a progressive tournament's other part to the winner's own bounty, records a
:class:`TournamentBountyAward` per winner and tells the table with a public ``bounty_won`` event.

Money invariant: the bounty pool holds the bounty parts of every paid entry and re-buy less the bounties credited,
which is the sum of the current bounties of the players still in (the cancellation policy's CXL-10 input relies on it).
A player who loses every chip in a hand but stays in by a re-buy bought during it loses the bounty they had here too,
keeping the re-buy's new part (``kept_by_rebuy``; docs/decisions.md, D-25-1).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from games.engine.state import HandState
from games.models import Hand
from games.runtime.events import NewEvent
from tournaments.models import EntryStatus, Tournament, TournamentBountyAward, TournamentEntry
from tournaments.rules.bounties import BountyKind, knock_out_awards, pots_taken
from tournaments.services import money


def _name(user: Any) -> str:
    return str(getattr(user, "table_name", None) or user.get_username())


def knock_out_bounties_pay_locked(
    tournament: Tournament,
    hand: Hand,
    state: HandState,
    seat_number: int,
    user_id: int,
    *,
    kept_by_rebuy: int | None = None,
) -> NewEvent | None:
    """Pay the bounty (and the VIP bounty) of the player in ``seat_number`` knocked out in ``hand`` (see the module
    docstring). Returns the table event, or ``None`` when there was nothing to win.

    ``kept_by_rebuy``: the player lost every chip in ``hand`` but stays in by re-buys bought during it, whose new bounty
    parts (this many cents, already in their bounty) they keep (docs/decisions.md, D-25-1): the bounty they had before
    goes to whoever won their chips as at a knock-out, and no VIP bounty is paid — it is paid only on the VIP's final
    elimination (TRN-43, AMB-61)."""
    is_vip = (
        kept_by_rebuy is None
        and tournament.vip_player_id is not None
        and tournament.vip_player_id == user_id
        and tournament.vip_bounty > 0
    )
    if not tournament.has_bounties and not is_vip:
        return None
    eliminated = (
        TournamentEntry.objects.select_for_update()
        .select_related("user")
        .filter(tournament=tournament, user_id=user_id)
        .exclude(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED])
        .order_by("-pk")
        .first()
    )
    if eliminated is None:
        return None
    kept = kept_by_rebuy or 0
    at_stake = eliminated.bounty - kept if tournament.has_bounties else 0
    if at_stake <= 0 and not is_vip:
        return None
    result = state.result
    pots = pots_taken(
        state.contributions, state.folded_seats, [pot.winners for pot in result.pots], eliminated=seat_number
    )
    awards = knock_out_awards(
        kind=BountyKind(tournament.bounty_kind),
        bounty=at_stake,
        pots=pots,
        button=state.config.button,
        table_size=state.config.table_size,
        credited_percent=tournament.bounty_credited_percent,
        bounty_percent=tournament.bounty_added_percent,
        vip_bounty=tournament.vip_bounty if is_vip else 0,
    )
    if not awards:
        return None
    users = {int(seat): int(data["user"]) for seat, data in hand.participants.items()}
    winners = {
        entry.user_id: entry
        for entry in TournamentEntry.objects.select_for_update()
        .select_related("user", "tournament")
        .filter(
            tournament=tournament,
            user_id__in=[users[award.seat] for award in awards],
            status__in=[EntryStatus.PLAYING, EntryStatus.BUSTED],
        )
    }
    lines = []
    for award in awards:
        winner = winners[users[award.seat]]
        transfer = money.bounty_credit(
            eliminated,
            winner,
            cash=award.cash,
            vip=award.vip,
            rebought_in_hand=hand.pk if kept_by_rebuy is not None else None,
        )
        if award.added_to_bounty:
            winner.bounty += award.added_to_bounty
            winner.save(update_fields=["bounty"])
        TournamentBountyAward.objects.create(
            tournament=tournament,
            hand=hand,
            eliminated=eliminated,
            winner=winner,
            cash=award.cash,
            added_to_bounty=award.added_to_bounty,
            vip=award.vip,
            transfer=transfer,
        )
        lines.append(
            {
                "seat": award.seat,
                "user_id": winner.user_id,
                "name": _name(winner.user),
                "cash": award.cash,
                "added_to_bounty": award.added_to_bounty,
                "vip": award.vip,
                "bounty_now": winner.bounty,
            }
        )
    eliminated.bounty = kept
    eliminated.save(update_fields=["bounty"])
    return NewEvent(
        "bounty_won",
        {
            "seat": seat_number,
            "user_id": eliminated.user_id,
            "name": _name(eliminated.user),
            "bounty": at_stake,
            "rebought": kept_by_rebuy is not None,
            "vip_bounty": tournament.vip_bounty if is_vip else 0,
            "kind": tournament.bounty_kind,
            "winners": lines,
        },
        hand,
    )


def own_bounty_pay_locked(entry: TournamentEntry) -> TournamentBountyAward | None:
    """**Decision** (TRN-41, TRN-42): a player still in when the tournament ends (the winner, or each of the players
    left when identical prizes end it, TRN-21) is credited their own current bounty; nobody knocked them out. Recorded
    as a bounty won from themselves. Nothing for a bounty of 0."""
    if entry.bounty <= 0:
        return None
    transfer = money.bounty_credit(entry, entry, cash=entry.bounty, vip=0)
    award = TournamentBountyAward.objects.create(
        tournament=entry.tournament, eliminated=entry, winner=entry, cash=entry.bounty, transfer=transfer
    )
    entry.bounty = 0
    entry.save(update_fields=["bounty"])
    return award


def bounties_paid(tournament: Tournament) -> int:
    """The bounty money that has left the tournament's bounty pool: bounties credited (VIP bounties are the house's,
    apart) and disqualified players' bounties seized (TRN-28)."""
    credited = TournamentBountyAward.objects.filter(tournament=tournament).aggregate(total=Sum("cash"))["total"]
    seized = TournamentEntry.objects.filter(tournament=tournament).aggregate(total=Sum("bounty_forfeited"))["total"]
    return int(credited or 0) + int(seized or 0)
