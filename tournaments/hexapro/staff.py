"""Staff actions on HexaPro games, audited in the same transaction (HEX-17, CASH-25, AMB-45).

``hexapro_game_park`` puts an incomplete game — one the software cannot finish — in the 90-day queue of unresolved
games: dealing stops, a hand in play is cancelled with every stack at its start-of-hand count (TRN-33), places already
won are credited, and the money still held for the game (the prize pool not yet paid and the fee components of the
players still in) moves into the queue's case account ``hexapro:<game id>`` with a deadline 90 days on. The case is
decided by the CXL-09 cancellation (``tournament_cancellation_propose`` / ``_approve``), which settles the case back
into the game's accounts and pays the compensation; a HexaPro case is never voided to charity (AMB-45).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.hexapro.models import HexaProGame
from tournaments.models import EntryStatus, TournamentEntry, TournamentKind, TournamentStatus, TournamentTable
from tournaments.services import money
from tournaments.services.errors import NotAllowedNow, ReasonRequired, TournamentNotFound
from tournaments.services.running import places_give_locked, primary_key, tournament_lock, tournament_save
from tournaments.services.seating import tables_lock
from wallet.models import AccountKind, UnresolvedGameFunds, UnresolvedGameStatus
from wallet.services import TransferLeg, system_account, unresolved_game_open, unresolved_game_settle
from wallet.services.audit import audit_record


def case_reference(game_id: int) -> str:
    return f"hexapro:{game_id}"


def open_case(game: HexaProGame) -> UnresolvedGameFunds | None:
    """The game's case in the queue while it waits for a decision, else ``None``."""
    if game.unresolved_case_id is None:
        return None
    return UnresolvedGameFunds.objects.filter(pk=game.unresolved_case_id, status=UnresolvedGameStatus.OPEN).first()


@transaction.atomic(durable=True)
def hexapro_game_park(
    game: HexaProGame | int, *, actor: Any, reason: str, now: datetime | None = None
) -> UnresolvedGameFunds:
    """Put a running HexaPro game in the 90-day queue (see the module docstring). Refused, with nothing changed:
    no reason, not a running HexaPro game, already in the queue."""
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ReasonRequired("Give the reason: it is recorded with the case.")
    moment = now or timezone.now()
    tournament = tournament_lock(primary_key(game))
    if tournament.kind != TournamentKind.HEXAPRO:
        raise TournamentNotFound(f"{tournament.name} is not a HexaPro game.")
    row = HexaProGame.objects.select_for_update().get(tournament=tournament)
    if tournament.status != TournamentStatus.RUNNING:
        raise NotAllowedNow(f"HexaPro game {tournament.pk} is not running: there is nothing to decide.")
    if row.unresolved_case_id is not None:
        raise NotAllowedNow(f"HexaPro game {tournament.pk} is already in the queue of unresolved games.")
    from tournaments.services.cancellation import hands_in_play_cancel, prizes_won_credit

    live = TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).values_list(
        "table_id", flat=True
    )
    hands_in_play_cancel(tables_lock(list(live)), moment)
    places_give_locked(tournament)
    prizes_won_credit(tournament)  # a place won before the problem stays won
    pool = money.prize_pool_account(tournament)
    pool.refresh_from_db(fields=["balance"])
    still_in = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).count()
    contributions = [TransferLeg(pool, pool.balance)] if pool.balance else []
    if row.fee_component_cents and still_in:
        fees = system_account(AccountKind.HOUSE_FEES)
        contributions.append(TransferLeg(fees, row.fee_component_cents * still_in))
    if not contributions:
        raise NotAllowedNow(f"HexaPro game {tournament.pk} holds no money to decide on.")
    case = unresolved_game_open(
        game_reference=case_reference(tournament.pk),
        contributions=contributions,
        idempotency_key=case_reference(tournament.pk),
        description=f"{tournament.name} (game {tournament.pk}) incomplete: {text}; to be decided by CXL-09 (HEX-17)",
        created_by=actor,
    )
    row.unresolved_case = case
    row.save(update_fields=["unresolved_case"])
    tournament.cancellation_pending = True
    tournament_save(tournament, "cancellation_pending")
    audit_record(
        target=f"tournaments.tournament:{tournament.pk}",
        action="hexapro_game_parked",
        actor=actor,
        reason=text[:300],
        details={"tournament": tournament.pk, "case": case.pk, "amount": case.amount, "deadline": str(case.deadline)},
    )
    return case


def case_settle_back(game: HexaProGame, still_in: int, *, actor: Any, reason: str) -> None:
    """Inside a CXL-09 approval: the open case's money goes back to the game's prize pool and the house fees, from
    where the compensation is paid (the caller holds the tournament's lock)."""
    case = open_case(game)
    if case is None:
        return
    fees_part = min(case.amount, game.fee_component_cents * still_in)
    payouts = []
    if case.amount - fees_part:
        payouts.append(TransferLeg(money.prize_pool_account(game.tournament), case.amount - fees_part))
    if fees_part:
        payouts.append(TransferLeg(system_account(AccountKind.HOUSE_FEES), fees_part))
    unresolved_game_settle(case, payouts=payouts, decided_by=actor, reason=reason)
