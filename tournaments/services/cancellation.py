"""Cancelling a started tournament under the cancellation policy (CXL-01..CXL-12), with a second staff member's
approval.

``tournament_cancellation_propose`` stops the tables from dealing, computes every player's compensation from the
tournament as it stands (``tournaments.rules.cancellation.cancel``: the state, the rules applied, each share) and
stores it as the preview. ``tournament_cancellation_approve`` — by another staff member — cancels any hand still in
play (its chips back to their start-of-hand counts, TRN-33), credits prizes already won but not yet paid, computes the
calculation again and refuses if it differs from the preview (the preview is updated: look again), then posts the
compensation (one idempotent transfer per player and one for what the house keeps, all in one transaction), closes the
tables and archives the calculation. ``tournament_cancellation_withdraw`` lets play go on. While it waits,
management may alter the payouts (CXL-12, ``tournaments.services.cancellation_alteration``); the approval then posts
the policy's compensation plus the alterations. Each step is audited.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Hand, Seat, Table
from games.runtime.hands import HandContext
from games.runtime.recovery import hand_cancel_locked
from tournaments.definitions import out_of_the_field
from tournaments.models import (
    CancellationStatus,
    EntryStatus,
    HexaProGame,
    PurchaseStatus,
    Tournament,
    TournamentCancellation,
    TournamentEntry,
    TournamentKind,
    TournamentPurchase,
    TournamentStatus,
    TournamentTable,
)
from tournaments.models import PurchaseKind as TournamentPurchaseKind
from tournaments.rules.cancellation import (
    CancellationCalculation,
    HexaProAtCancellation,
    Purchase,
    PurchaseKind,
    RemainingPlayer,
    TournamentAtCancellation,
    cancel,
)
from tournaments.services import money
from tournaments.services.bounties import bounties_paid
from tournaments.services.cancellation_alteration import alterations_check, alterations_net, proposal_digest
from tournaments.services.errors import NotAllowedNow, TournamentNotFound
from tournaments.services.running import (
    places_give_locked,
    primary_key,
    tournament_lock,
    tournament_save,
    tournament_table_close,
)
from tournaments.services.seating import tables_lock
from tournaments.services.staff import pause_locked, resume_locked, staff_reason
from wallet.models import AccountKind
from wallet.services import TransferKind, TransferLeg, player_cash_account, system_account, transfer_create
from wallet.services.audit import audit_record

CANCELLED_HAND_REASON = "The tournament was cancelled: every stack is back at its start-of-hand count."


def tournament_at_cancellation(tournament: Tournament) -> TournamentAtCancellation | HexaProAtCancellation:
    """The tournament as the cancellation policy needs it: every paid entry, the players still in with their chips
    (seat numbers made unique across tables), the prize table once fixed, the house's added money, the final table.
    A HexaPro game is described for CXL-09 (:func:`hexapro_at_cancellation`)."""
    if tournament.kind == TournamentKind.HEXAPRO:
        return hexapro_at_cancellation(tournament)
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .exclude(out_of_the_field())  # TRN-28: a registrant disqualified before the start was refunded
        .order_by("pk")
    )
    purchases = tuple(
        Purchase(
            reference=f"entry:{entry.pk}",
            player=str(entry.user_id),
            kind=PurchaseKind.ENTRY if entry.entry_number == 1 else PurchaseKind.RE_ENTRY,
            prize_contribution_cents=entry.prize_contribution,
            fee_cents=entry.fee,
            bounty_cents=entry.bounty_contribution,
        )
        for entry in entries
    ) + _rebuys_and_add_ons(entries)
    freeroll = tournament.is_freeroll
    if tournament.is_phase_two:  # TRN-45: the flights' prize contributions are Phase 2's player-supplied pot
        from tournaments.services.phases import phase_two_purchases

        purchases = purchases + phase_two_purchases(tournament)
        freeroll = False
    if tournament.started_at is None:
        return TournamentAtCancellation(purchases=purchases, started=False, freeroll=freeroll)
    bounties = {entry.user_id: entry.bounty for entry in entries if entry.status == EntryStatus.PLAYING}
    remaining = tuple(
        dataclasses.replace(player, bounty_cents=bounties.get(int(player.player), 0))
        for player in _remaining_players(tournament)
    )
    contributions = sum(purchase.prize_contribution_cents for purchase in purchases)
    closed = tournament.registration_closed_at is not None and tournament.prize_pool is not None
    return TournamentAtCancellation(
        purchases=purchases,
        started=True,
        remaining=remaining,
        prizes=tuple(tournament.prizes) if closed else (),
        at_final_table=tournament.tables_running <= 1,
        added_money_cents=(tournament.prize_pool or 0) - contributions if closed else 0,
        freeroll=freeroll,
        bounties_paid_cents=bounties_paid(tournament),
    )


def _rebuys_and_add_ons(entries: list[TournamentEntry]) -> tuple[Purchase, ...]:
    """The entries' re-buys and add-ons (TRN-39), each a purchase of prize contribution + bounty part + fee (FEE-04):
    "all multi-entries" of the policy, so the money held is everything paid in (CXL-02..CXL-07)."""
    kinds = {TournamentPurchaseKind.REBUY: PurchaseKind.RE_BUY, TournamentPurchaseKind.ADD_ON: PurchaseKind.ADD_ON}
    users = {entry.pk: entry.user_id for entry in entries}
    return tuple(
        Purchase(
            reference=f"{row.kind}:{row.pk}",
            player=str(users[row.entry_id]),
            kind=kinds[TournamentPurchaseKind(row.kind)],
            prize_contribution_cents=row.prize_contribution,
            fee_cents=row.fee,
            bounty_cents=row.bounty_contribution,
        )
        for row in TournamentPurchase.objects.filter(entry_id__in=list(users)).order_by("pk")
    )


def _remaining_players(tournament: Tournament) -> tuple[RemainingPlayer, ...]:
    seats = Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False).values_list(
        "user_id", "chips", "number", "table__tournament_link__number"
    )
    waiting: dict[int, int] = {}  # TRN-39: re-buy and add-on chips paid during a hand are the player's chips too
    if tournament.offers_purchases:
        for user_id, chips in TournamentPurchase.objects.filter(
            entry__tournament=tournament, entry__status=EntryStatus.PLAYING, status=PurchaseStatus.PENDING
        ).values_list("entry__user_id", "chips"):
            waiting[user_id] = waiting.get(user_id, 0) + chips
    return tuple(
        RemainingPlayer(player=str(user_id), chips=chips + waiting.get(user_id, 0), seat=table_number * 100 + number)
        for user_id, chips, number, table_number in sorted(seats, key=lambda row: (row[3], row[2]))
        if chips > 0
    )


def hexapro_at_cancellation(tournament: Tournament) -> HexaProAtCancellation:
    """CXL-09 / AMB-16: a HexaPro game with its drawn pool, the payout percentages of its multiplier, the fee
    component, the players still in with their chips and those already out. The places of the players out are
    placed and credited before the calculation (the proposal and the approval do it), so the pool not yet paid is the
    prizes of places 1..n; a knocked-out player still waiting for a place is refused (ValueError)."""
    game = HexaProGame.objects.get(tournament=tournament)
    if TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).exists():
        raise ValueError("a knocked-out player is still waiting for a place")
    remaining = _remaining_players(tournament)
    still_in = {player.player for player in remaining}
    eliminated = tuple(
        str(user_id)
        for user_id in TournamentEntry.objects.filter(tournament=tournament)
        .exclude(out_of_the_field())
        .order_by("pk")
        .values_list("user_id", flat=True)
        if str(user_id) not in still_in
    )
    return HexaProAtCancellation(
        remaining=remaining,
        eliminated=eliminated,
        prize_pool_cents=game.prize_pool_cents,
        payout_percentages=tuple(int(share) for share in game.payout_percentages),
        fee_component_cents=game.fee_component_cents,
    )


def _calculation(tournament: Tournament) -> CancellationCalculation:
    try:
        return cancel(tournament_at_cancellation(tournament))
    except ValueError as error:
        raise NotAllowedNow(f"The cancellation cannot be computed: {error}") from error


# --- cancel-desk: the back office's preview and the figures staff saw (CXL-01) --------------------------------------

FIGURES_CHANGED = "The figures changed since the preview you saw: nothing was changed; review them again."


def calculation_digest(figures: dict[str, Any]) -> str:
    """A short fingerprint of an archived calculation (``CancellationCalculation.to_json()``): the back office sends
    the one of the figures it showed, so a proposal or an approval is refused when the figures are no longer those."""
    text = json.dumps(figures, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def tournament_cancellation_preview(tournament: Tournament | int) -> CancellationCalculation:
    """The cancellation of a running tournament as it would be proposed now (CXL-01), computed without changing
    anything: the back office's preview before a proposal. Refused (:class:`NotAllowedNow`) for a tournament that is
    not running or whose cancellation cannot be computed yet."""
    row = Tournament.objects.filter(pk=primary_key(tournament)).first()
    if row is None:
        raise TournamentNotFound(f"There is no tournament {primary_key(tournament)}.")
    if row.status != TournamentStatus.RUNNING:
        raise NotAllowedNow(
            f"{row.name} has not started: cancel it with full refunds (CXL-02)."
            if row.status in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING)
            else f"{row.name} is over: there is nothing to cancel."
        )
    return _calculation(row)


@transaction.atomic(durable=True)
def tournament_cancellation_propose(
    tournament: Tournament | int,
    *,
    actor: Any,
    reason: str,
    now: datetime | None = None,
    previewed: str | None = None,
) -> TournamentCancellation:
    """Stop dealing and preview the cancellation of a started tournament (CXL-01). Refused for a tournament that has
    not started (it is cancelled with full refunds, CXL-02), is over, or already has a proposal waiting; and, given
    ``previewed`` (the :func:`calculation_digest` of the figures staff saw), when the figures are no longer those."""
    text = staff_reason(reason)
    moment = now or timezone.now()
    locked = tournament_lock(primary_key(tournament))
    if locked.status != TournamentStatus.RUNNING:
        raise NotAllowedNow(
            f"{locked.name} has not started: cancel it with full refunds (CXL-02)."
            if locked.status in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING)
            else f"{locked.name} is over: there is nothing to cancel."
        )
    if TournamentCancellation.objects.filter(tournament=locked, status=CancellationStatus.PROPOSED).exists():
        raise NotAllowedNow(f"A cancellation of {locked.name} is already waiting for approval.")
    if locked.kind == TournamentKind.HEXAPRO:
        places_give_locked(locked)
    calculation = _calculation(locked)
    if previewed is not None and calculation_digest(calculation.to_json()) != previewed:
        raise NotAllowedNow(FIGURES_CHANGED)
    proposal = TournamentCancellation.objects.create(
        tournament=locked,
        reason=text,
        proposed_by=actor,
        proposed_at=moment,
        state=calculation.state.value,
        calculation=calculation.to_json(),
        paid_in_money=calculation.paid_in_money_cents,
        kept_by_house=calculation.kept_by_house_cents,
    )
    locked.cancellation_pending = True
    tournament_save(locked, "cancellation_pending")
    pause_locked(locked, moment)  # the level clock stands still while the proposal waits
    audit_record(
        target=f"tournaments.tournament:{locked.pk}",
        action="tournament_cancellation_proposed",
        actor=actor,
        reason=text,
        details={"tournament": locked.pk, "cancellation": proposal.pk, "state": calculation.state.value},
    )
    return proposal


def proposal_lock(proposal: TournamentCancellation | int) -> tuple[Tournament, TournamentCancellation]:
    proposal_id = primary_key(proposal)
    tournament_id = (
        TournamentCancellation.objects.filter(pk=proposal_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise TournamentNotFound(f"There is no cancellation {proposal_id}.")
    tournament = tournament_lock(tournament_id)
    row = TournamentCancellation.objects.select_for_update().get(pk=proposal_id)
    if row.status != CancellationStatus.PROPOSED:
        raise NotAllowedNow(f"This cancellation is already {row.get_status_display()}.")
    return tournament, row


@transaction.atomic(durable=True)
def tournament_cancellation_withdraw(
    proposal: TournamentCancellation | int, *, actor: Any, reason: str
) -> TournamentCancellation:
    """Withdraw a waiting proposal: the tables deal again."""
    text = staff_reason(reason)
    tournament, row = proposal_lock(proposal)
    row.status = CancellationStatus.WITHDRAWN
    row.save(update_fields=["status"])
    # A HexaPro game in the queue of unresolved games (HEX-17) stays stopped until it is decided.
    tournament.cancellation_pending = _hexapro_case_open(tournament)
    tournament_save(tournament, "cancellation_pending")
    if not tournament.cancellation_pending:
        resume_locked(tournament, timezone.now())  # play goes on where the levels stood
    audit_record(
        target=f"tournaments.tournament:{tournament.pk}",
        action="tournament_cancellation_withdrawn",
        actor=actor,
        reason=text,
        details={"tournament": tournament.pk, "cancellation": row.pk},
    )
    return row


def tournament_cancellation_approve(
    proposal: TournamentCancellation | int,
    *,
    actor: Any,
    now: datetime | None = None,
    previewed: str | None = None,
    comment: str = "",
) -> TournamentCancellation:
    """Approve and post a proposed cancellation (see the module docstring), with the approver's optional ``comment``
    (kept on the cancellation and in the audit entry; at most 300 characters). Refused when the approver proposed it,
    when it was already approved or withdrawn, when ``previewed`` (the :func:`calculation_digest` of the figures the
    approver saw) is not the proposal's figures any more (nothing changed), or when the figures changed since the
    preview: then the preview is brought up to date (committed) for another look, and the refusal follows."""
    text = comment.strip() if isinstance(comment, str) else ""
    if len(text) > 300:
        raise NotAllowedNow("The approver's comment is at most 300 characters.")
    row = _cancellation_approve_or_update(proposal, actor=actor, now=now, previewed=previewed, comment=text)
    if row.status != CancellationStatus.APPROVED:
        raise NotAllowedNow("The tournament changed since the preview: the figures are updated; review them again.")
    return row


@transaction.atomic(durable=True)
def _cancellation_approve_or_update(
    proposal: TournamentCancellation | int,
    *,
    actor: Any,
    now: datetime | None,
    previewed: str | None = None,
    comment: str = "",
) -> TournamentCancellation:
    """Post the cancellation when its figures are still those previewed; otherwise store the new figures as the
    preview and return it still proposed."""
    moment = now or timezone.now()
    tournament, row = proposal_lock(proposal)
    if actor is None or row.proposed_by_id == getattr(actor, "pk", None):
        raise NotAllowedNow("A cancellation needs a second staff member: the one who proposed it cannot approve it.")
    if row.altered_by_id is not None and row.altered_by_id == actor.pk:
        raise NotAllowedNow(
            "A cancellation needs a second staff member: the one who altered its payouts (CXL-12) cannot approve it."
        )
    if previewed is not None and proposal_digest(row.calculation, row.alterations) != previewed:
        raise NotAllowedNow(FIGURES_CHANGED)
    live = list(
        TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).values_list("table_id", flat=True)
    )
    locked = tables_lock(live)
    hands_in_play_cancel(locked, moment)
    if tournament.kind == TournamentKind.HEXAPRO:
        places_give_locked(tournament)  # a hand that ended after the proposal may have knocked a player out
    prizes_won_credit(tournament)
    calculation = _calculation(tournament)
    figures = calculation.to_json()
    if figures != row.calculation:
        row.calculation = figures
        row.state = calculation.state.value
        row.paid_in_money = calculation.paid_in_money_cents + alterations_net(row.alterations)
        row.kept_by_house = calculation.kept_by_house_cents - alterations_net(row.alterations)
        row.save(update_fields=["calculation", "state", "paid_in_money", "kept_by_house"])
        return row
    alterations_check(figures, row.alterations)  # CXL-12: checked against these very figures when set
    if tournament.kind == TournamentKind.HEXAPRO:
        _hexapro_case_settle_back(tournament, calculation, actor, row)
    _post(tournament, row, calculation)
    for table, seats in locked.values():
        tournament_table_close(table, seats, moment, f"The tournament was cancelled: {row.reason}")
    TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).update(broken_at=moment, players=0)
    TournamentEntry.objects.filter(
        tournament=tournament, status__in=[EntryStatus.PLAYING, EntryStatus.REGISTERED, EntryStatus.BUSTED]
    ).update(status=EntryStatus.REFUNDED, table=None)
    row.status = CancellationStatus.APPROVED
    row.approved_by = actor
    row.approved_at = moment
    row.approval_comment = comment
    row.save(update_fields=["status", "approved_by", "approved_at", "approval_comment"])
    tournament.status = TournamentStatus.CANCELLED
    tournament.cancelled_reason = row.reason
    tournament.finished_at = moment
    tournament.cancellation_pending = False
    tournament.players_remaining = 0
    tournament.tables_running = 0
    tournament_save(
        tournament,
        "status",
        "cancelled_reason",
        "finished_at",
        "cancellation_pending",
        "players_remaining",
        "tables_running",
    )
    audit_record(
        target=f"tournaments.tournament:{tournament.pk}",
        action="tournament_cancelled",
        actor=actor,
        reason=row.reason,
        details={
            "tournament": tournament.pk,
            "cancellation": row.pk,
            "state": calculation.state.value,
            "paid_in_money_cents": row.paid_in_money,
            "kept_by_house_cents": row.kept_by_house,
            "alterations": row.alterations,
            "approval_comment": comment,
        },
    )
    return row


def _hexapro_case_open(tournament: Tournament) -> bool:
    if tournament.kind != TournamentKind.HEXAPRO:
        return False
    from tournaments.hexapro.staff import open_case

    return open_case(HexaProGame.objects.get(tournament=tournament)) is not None


def _hexapro_case_settle_back(
    tournament: Tournament, calculation: CancellationCalculation, actor: Any, row: TournamentCancellation
) -> None:
    """HEX-17: a game waiting in the queue of unresolved games is decided by this cancellation; its case's money goes
    back to the game's accounts first, from where the compensation is posted."""
    from tournaments.hexapro.staff import case_settle_back

    still_in = sum(1 for compensation in calculation.compensations if not compensation.eliminated)
    game = HexaProGame.objects.select_related("tournament").get(tournament=tournament)
    case_settle_back(
        game, still_in, actor=actor, reason=f"Decided by the CXL-09 cancellation {row.pk}: {row.reason}"[:300]
    )


def hands_in_play_cancel(locked: dict[int, tuple[Table, dict[int, Seat]]], now: datetime) -> None:
    """TRN-33: at the locked tables of a tournament that stops, a hand in play ends with every stack at its
    start-of-hand count (chips move only at settlement), recorded and told to the table like any cancelled hand."""
    for table, seats in locked.values():
        if table.current_hand_id is not None:
            context = HandContext(table, seats, now)
            hand = Hand.objects.select_for_update().get(pk=table.current_hand_id)
            hand_cancel_locked(context, hand, CANCELLED_HAND_REASON)
            context.commit_events()


def prizes_won_credit(tournament: Tournament) -> None:
    """Prizes won before a tournament stops stay won: any not yet credited is credited now (TRN-27), but for one
    withheld while its forfeiture awaits a second staff member's decision (TRN-28, issue 30): it stays in the prize
    pool for the approval or the rejection."""
    from tournaments.forfeiture_changes import forfeiture_withheld

    for entry in (
        TournamentEntry.objects.select_related("tournament", "user")
        .filter(
            tournament=tournament, prize__gt=0, prize_transfer__isnull=True, prize_forfeited=False, place__isnull=False
        )
        .exclude(forfeiture_withheld())
    ):
        entry.prize_transfer = money.prize_credit(entry)
        entry.save(update_fields=["prize_transfer"])


def _withheld_prizes(tournament: Tournament) -> int:
    """The unpaid prizes of ``tournament`` withheld by a pending forfeiture (TRN-28, issue 30), in cents."""
    from django.db.models import Sum

    from tournaments.forfeiture_changes import forfeiture_withheld

    total = (
        TournamentEntry.objects.filter(
            tournament=tournament, prize__gt=0, prize_transfer__isnull=True, prize_forfeited=False
        )
        .filter(forfeiture_withheld())
        .aggregate(total=Sum("prize"))["total"]
    )
    return int(total or 0)


def _post(tournament: Tournament, row: TournamentCancellation, calculation: CancellationCalculation) -> None:
    """One transfer per compensated player (buy-in refund and pool share from the prize pool, their own current
    bounty from the bounty pool (CXL-10), fee refund from the house fees, and management's alteration, CXL-12: a rise
    from the house's guarantee account, a cut back to it), and what is left in the prize pool to the house (the overlay
    it funded, CXL-04)."""
    from django.contrib.auth import get_user_model

    pool = money.prize_pool_account(tournament)
    bounty_pool = money.bounty_pool_account(tournament)
    fees = system_account(AccountKind.HOUSE_FEES)
    users = get_user_model().objects.in_bulk([int(c.player) for c in calculation.compensations])
    for compensation in calculation.compensations:
        from_pool = compensation.buy_in_refund_cents + compensation.pool_share_cents
        altered = int(row.alterations.get(str(compensation.player), 0))
        total = from_pool + compensation.bounty_cents + compensation.fee_refund_cents + altered
        if total <= 0:
            continue
        legs = [TransferLeg(player_cash_account(users[int(compensation.player)]), total)]
        if from_pool:
            legs.append(TransferLeg(pool, -from_pool))
        if compensation.bounty_cents:
            legs.append(TransferLeg(bounty_pool, -compensation.bounty_cents))
        if compensation.fee_refund_cents:
            legs.append(TransferLeg(fees, -compensation.fee_refund_cents))
        if altered:
            legs.append(TransferLeg(system_account(AccountKind.HOUSE_GUARANTEE), -altered))
        transfer_create(
            kind=TransferKind.TOURNAMENT_REFUND,
            legs=legs,
            idempotency_key=f"tournament-cancellation:{row.pk}:player:{compensation.player}",
            reference=f"tournament-cancellation:{row.pk}",
            description=f"{tournament.name} cancelled ({calculation.state.value}): compensation",
        )
    pool.refresh_from_db()
    left = pool.balance - _withheld_prizes(tournament)  # a withheld prize stays for its forfeiture's decision
    if left > 0:
        transfer_create(
            kind=TransferKind.TOURNAMENT_OVERLAY,
            legs=[
                TransferLeg(pool, -left),
                TransferLeg(system_account(AccountKind.HOUSE_GUARANTEE), left),
            ],
            idempotency_key=f"tournament-cancellation:{row.pk}:house",
            reference=f"tournament-cancellation:{row.pk}",
            description=f"{tournament.name} cancelled: the money the house added goes back to it",
        )
