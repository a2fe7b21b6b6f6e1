"""Re-buys and add-ons (TRN-39, FEE-03, FEE-04): ``entry_rebuy`` and ``entry_add_on``.

Both are paid at once from the player's cash, as prize contribution + fee in one idempotent ledger transfer (FEE-04);
the prize part joins the prize pool, whose payouts stay provisional (recomputed from the money paid) until
registration and the re-buy and add-on windows have closed. The chips never change a hand in progress (**decision**:
queue, not refuse): a player dealt into the hand in play gets them when that hand ends
(:func:`purchases_add_locked`, called by the tournament table policy between hands, before knock-outs are looked at);
a player not in a hand gets them at once. The rules (period, threshold, maximum, add-on window) are
``tournaments.rules.rebuys``; every refusal says why and changes nothing.

Bounties (docs/decisions.md, D-25-1): in a bounty tournament a re-buy costs a new bounty part too (the tournament's
bounty per entry, booked to its bounty pool and added to the player's bounty at once, so that the pool keeps holding
exactly the bounties of the players still in); an add-on has none. A player who loses every chip in a hand but stays
in by a re-buy bought during it loses the bounty they had to whoever won their chips, as at a knock-out, and keeps the
new part (``tournaments.table_policy``); a VIP bounty is paid only on the VIP's final elimination (TRN-43, AMB-61).
The cancellation inputs list each purchase as prize contribution + bounty part + fee. Phased tournaments do not offer
re-buys (``Tournament.clean``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Hand, Seat, Table
from games.runtime.events import events_append
from games.runtime.seat_state import seat_event, seat_save
from poker_site.responsible_gaming.services import play_allowed_or_refuse
from tournaments.definitions import add_on_policy, level_clock, rebuy_policy
from tournaments.models import (
    EntryStatus,
    PurchaseKind,
    PurchaseStatus,
    Tournament,
    TournamentEntry,
    TournamentPurchase,
    TournamentStatus,
)
from tournaments.rules.fees import EntryPrice
from tournaments.rules.rebuys import PurchaseRefusal, add_on_refusal, rebuy_refusal
from tournaments.services import money
from tournaments.services.errors import InsufficientBalance, KeyReused, NotAllowedNow, NotRegistered, SelfExcluded
from tournaments.services.registration import checked_client_key
from tournaments.services.running import primary_key, tournament_lock
from tournaments.services.seating import tables_lock
from wallet.services import player_cash_account


def _format(cents: int) -> str:
    return f"€{cents // 100:,}.{cents % 100:02d}"


def _refusal_text(refusal: PurchaseRefusal, tournament: Tournament, kind: str) -> str:
    rebuy = kind == PurchaseKind.REBUY
    texts = {
        PurchaseRefusal.PERIOD_OVER: _("The re-buy period of %(name)s is over.")
        if rebuy
        else _("The add-on of %(name)s is no longer available."),
        PurchaseRefusal.NOT_YET: _("The add-on of %(name)s is not available yet."),
        PurchaseRefusal.ABOVE_THRESHOLD: _(
            "You have more than %(threshold)s chips: a re-buy is only possible at or below that."
        ),
        PurchaseRefusal.MAXIMUM_REACHED: _("You have used all %(maximum)s re-buys of this entry."),
        PurchaseRefusal.ALREADY_TAKEN: _("You have already taken the add-on."),
        PurchaseRefusal.NOT_OFFERED: _("%(name)s has no re-buys.") if rebuy else _("%(name)s has no add-on."),
    }
    return str(texts[refusal]) % {
        "name": tournament.name,
        "threshold": tournament.rebuy_stack_threshold,
        "maximum": tournament.rebuy_maximum,
    }


@transaction.atomic(durable=True)
def entry_rebuy(
    user: Any, tournament: Tournament | int, *, now: datetime | None = None, idempotency_key: str | None = None
) -> TournamentPurchase:
    """TRN-39: buy the tournament's re-buy chips for the player's entry. Refused (nothing changed): no re-buys in this
    tournament, not playing, the period over, the maximum reached, more chips than the threshold (counting chips
    still waiting to be added), a balance below the price, a self-excluded player, a proposed cancellation."""
    return _purchase(user, tournament, PurchaseKind.REBUY, now or timezone.now(), idempotency_key)


@transaction.atomic(durable=True)
def entry_add_on(
    user: Any, tournament: Tournament | int, *, now: datetime | None = None, idempotency_key: str | None = None
) -> TournamentPurchase:
    """TRN-39: take the tournament's add-on (once per entry) while its window is open. Refused (nothing changed): no
    add-on in this tournament, not playing, not yet or no longer available, already taken, a balance below the
    price, a self-excluded player, a proposed cancellation."""
    return _purchase(user, tournament, PurchaseKind.ADD_ON, now or timezone.now(), idempotency_key)


def _purchase(
    user: Any, tournament: Tournament | int, kind: str, moment: datetime, idempotency_key: str | None
) -> TournamentPurchase:
    """A re-buy or add-on; ``idempotency_key``: a retry with the same key returns the purchase the first made (looked
    up under the tournament's lock), the same key for the other kind is refused."""
    key = checked_client_key(idempotency_key)
    play_allowed_or_refuse(int(user.pk), _("You cannot buy chips in tournaments"), SelfExcluded, at=moment)
    locked = tournament_lock(primary_key(tournament))
    if key:
        earlier = TournamentPurchase.objects.filter(entry__tournament=locked, entry__user=user, idempotency_key=key)
        for purchase in earlier[:1]:
            if purchase.kind != kind:
                raise KeyReused(_("This Idempotency-Key was already used for another purchase: use a new key."))
            return purchase
    rebuys = rebuy_policy(locked)
    add_on = add_on_policy(locked)
    if (kind == PurchaseKind.REBUY and rebuys is None) or (
        kind == PurchaseKind.ADD_ON and (add_on is None or not locked.rebuy_levels)
    ):
        raise NotAllowedNow(_refusal_text(PurchaseRefusal.NOT_OFFERED, locked, kind))
    if locked.status != TournamentStatus.RUNNING or locked.started_at is None:
        raise NotAllowedNow(_("%(name)s is not running.") % {"name": locked.name})
    if locked.cancellation_pending:
        raise NotAllowedNow(_("%(name)s is stopped while staff decide on its cancellation.") % {"name": locked.name})
    entry = (
        TournamentEntry.objects.select_for_update()
        .filter(tournament=locked, user=user, status=EntryStatus.PLAYING)
        .first()
    )
    if entry is None or entry.table_id is None:
        raise NotRegistered(
            _("You are not playing in %(name)s: after a knock-out, re-enter where the tournament allows it.")
            % {"name": locked.name}
        )
    table, seats = tables_lock([entry.table_id])[entry.table_id]
    seat = next((seat for seat in seats.values() if seat.user_id == user.pk), None)
    if seat is None:
        raise NotRegistered(_("You are not seated in %(name)s.") % {"name": locked.name})
    clock = level_clock(locked)
    bought = TournamentPurchase.objects.filter(entry=entry)
    if kind == PurchaseKind.REBUY:
        assert rebuys is not None
        waiting = bought.filter(status=PurchaseStatus.PENDING).aggregate(chips=Sum("chips"))["chips"] or 0
        taken = bought.filter(kind=PurchaseKind.REBUY).count()
        refusal = rebuy_refusal(rebuys, clock, moment, chips=seat.chips + int(waiting), rebuys_taken=taken)
        price, chips, number = rebuys.price, rebuys.chips, taken + 1
        bounty_part = locked.bounty_per_entry  # a new bounty part (D-25-1)
    else:
        assert add_on is not None
        taken = bought.filter(kind=PurchaseKind.ADD_ON).count()
        refusal = add_on_refusal(add_on, clock, moment, period_levels=locked.rebuy_levels, taken=taken > 0)
        price, chips, number = add_on.price, add_on.chips, 1
        bounty_part = 0
    if refusal is not None:
        raise NotAllowedNow(_refusal_text(refusal, locked, kind))
    cash = player_cash_account(user)
    if cash.balance < price.total_cents + bounty_part:  # read without a lock: the transfer checks it again
        raise InsufficientBalance(_insufficient(kind, price, bounty_part, cash.balance))
    purchase = TournamentPurchase.objects.create(
        entry=entry,
        kind=kind,
        number=number,
        prize_contribution=price.prize_contribution_cents,
        bounty_contribution=bounty_part,
        fee=price.fee_cents,
        chips=chips,
        bought_at=moment,
        idempotency_key=key,
    )
    purchase.transfer = money.purchase_pay(purchase, cash)
    purchase.save(update_fields=["transfer"])
    if bounty_part:
        entry.bounty += bounty_part
        entry.save(update_fields=["bounty"])
    if not _in_hand(table, seat):
        _chips_add([purchase], table, seat, moment)
    _announce_after_commit(locked.pk)
    return purchase


def _insufficient(kind: str, price: EntryPrice, bounty_part: int, balance: int) -> str:
    what = _("A re-buy") if kind == PurchaseKind.REBUY else _("The add-on")
    words = {
        "what": what,
        "prize": _format(price.prize_contribution_cents),
        "bounty": _format(bounty_part),
        "fee": _format(price.fee_cents),
        "balance": _format(balance),
    }
    if bounty_part:
        text = _("%(what)s costs %(prize)s + %(bounty)s bounty + %(fee)s fee; your balance is %(balance)s.")
        return str(text % words)
    return str(_("%(what)s costs %(prize)s + %(fee)s fee; your balance is %(balance)s.") % words)


def _in_hand(table: Table, seat: Seat) -> bool:
    """Whether the seat's player was dealt into the table's hand in progress."""
    if table.current_hand_id is None:
        return False
    participants = Hand.objects.filter(pk=table.current_hand_id).values_list("participants", flat=True).first()
    return isinstance(participants, dict) and str(seat.number) in participants


def _chips_add(purchases: list[TournamentPurchase], table: Table, seat: Seat, moment: datetime) -> None:
    """Add the purchases' chips to the locked seat (between hands) and tell the table."""
    chips = sum(purchase.chips for purchase in purchases)
    seat.chips += chips
    seat_save(seat, "chips")
    for purchase in purchases:
        purchase.status, purchase.added_at = PurchaseStatus.ADDED, moment
        purchase.save(update_fields=["status", "added_at"])
    events_append(table, [seat_event(seat, "seat_topped_up", amount=chips, automatic=False, tournament=True)])


def purchases_add_locked(table: Table, seats: dict[int, Seat], tournament: Tournament, now: datetime) -> list[Any]:
    """Between hands at a locked table (the table policy calls this when a hand ends, before it looks for knock-outs):
    the chips of re-buys and add-ons bought during the hand are added to their players' seats. Returns the table
    events (the caller appends them with the hand's). Nothing to do for a tournament without re-buys or add-ons."""
    if not tournament.offers_purchases:
        return []
    by_user = {int(seat.user_id): seat for seat in seats.values() if seat.user_id is not None}
    if not by_user:
        return []
    waiting = list(
        TournamentPurchase.objects.filter(
            status=PurchaseStatus.PENDING,
            entry__tournament=tournament,
            entry__status=EntryStatus.PLAYING,
            entry__user_id__in=list(by_user),
        ).select_related("entry")
    )
    events = []
    added: dict[int, int] = {}
    for purchase in waiting:
        added[purchase.entry.user_id] = added.get(purchase.entry.user_id, 0) + purchase.chips
    for user_id, chips in added.items():
        seat = by_user[user_id]
        seat.chips += chips
        seat_save(seat, "chips")
        events.append(seat_event(seat, "seat_topped_up", amount=chips, automatic=False, tournament=True))
    if waiting:
        TournamentPurchase.objects.filter(pk__in=[purchase.pk for purchase in waiting]).update(
            status=PurchaseStatus.ADDED, added_at=now
        )
    return events


def rebuy_bounties_pending(tournament: Tournament, user_ids: list[int]) -> dict[int, int]:
    """Of the players ``user_ids`` (at a locked table, between hands), those with re-buys bought during the hand and
    not yet added, with the bounty parts of those re-buys (0 in a tournament without bounties)."""
    if not user_ids:
        return {}
    pending: dict[int, int] = {}
    for user_id, bounty_part in TournamentPurchase.objects.filter(
        status=PurchaseStatus.PENDING,
        kind=PurchaseKind.REBUY,
        entry__tournament=tournament,
        entry__status=EntryStatus.PLAYING,
        entry__user_id__in=user_ids,
    ).values_list("entry__user_id", "bounty_contribution"):
        pending[user_id] = pending.get(user_id, 0) + bounty_part
    return pending


def _announce_after_commit(tournament_id: int) -> None:
    from tournaments import realtime

    realtime.tournament_changed_after_commit(tournament_id)


def purchases_of(entry: TournamentEntry) -> dict[str, int]:
    """How many re-buys and add-ons an entry bought (for the pages and the admin)."""
    counts = {PurchaseKind.REBUY.value: 0, PurchaseKind.ADD_ON.value: 0}
    for kind in TournamentPurchase.objects.filter(entry=entry).values_list("kind", flat=True):
        counts[kind] += 1
    return counts
