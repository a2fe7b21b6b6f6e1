"""Tournament money, only through the wallet ledger, each movement one idempotent transfer (FEE-04, TRN-07, TRN-10,
TRN-15, TRN-27).

Accounts: the tournament's prize pool (``tournament_prize_pool`` account ``tournament:<id>``), the house fees account
(fees are revenue from registration; an unregistration or a cancellation before the start gives them back), and the
house guarantee account, which funds an overlay (TRN-07) and operator-added prize money (TRN-17).
"""

from __future__ import annotations

from typing import Any

from tournaments.models import Tournament, TournamentEntry
from wallet.models import Account, AccountKind, Transfer
from wallet.services import (
    TransferKind,
    TransferLeg,
    player_cash_account,
    reference_account,
    system_account,
    transfer_create,
)


def prize_pool_account(tournament: Tournament) -> Account:
    return reference_account(AccountKind.TOURNAMENT_PRIZE_POOL, f"tournament:{tournament.pk}")


def _format(cents: int) -> str:
    return f"€{cents // 100:,}.{cents % 100:02d}"


def _entry_legs(entry: TournamentEntry, cash: Account, sign: int) -> list[TransferLeg]:
    """The legs of paying (``sign`` -1 for the player) or refunding (+1) an entry: the player's cash against the prize
    contribution in the pool and the fee in the house fees, two amounts (FEE-04)."""
    legs = [TransferLeg(cash, sign * (entry.prize_contribution + entry.fee))]
    if entry.prize_contribution:
        legs.append(TransferLeg(prize_pool_account(entry.tournament), -sign * entry.prize_contribution))
    if entry.fee:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_FEES), -sign * entry.fee))
    return legs


def registration_pay(entry: TournamentEntry, user: Any, *, cash_account: Account | None = None) -> Transfer | None:
    """Debit buy-in and fee from the player's cash (``cash_account`` when the caller has it already) as two legs of
    one transfer (FEE-04); nothing for a freeroll."""
    if entry.prize_contribution + entry.fee == 0:
        return None
    return transfer_create(
        kind=TransferKind.TOURNAMENT_BUY_IN,
        legs=_entry_legs(entry, cash_account or player_cash_account(user), -1),
        idempotency_key=f"tournament-entry:{entry.pk}:registration",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{entry.tournament.name}: buy-in {_format(entry.prize_contribution)} + fee {_format(entry.fee)}",
    )


def registration_refund(entry: TournamentEntry, why: str) -> Transfer | None:
    """Give buy-in and fee back in the form paid (TRN-10 unregistration, TRN-15 / CXL-02 cancellation): to the
    player's cash, or to the ticket that paid them, which is usable again."""
    if entry.prize_contribution + entry.fee == 0:
        return None
    if entry.paid_with_ticket_id is not None:
        from tournaments.services.tickets import ticket_return_locked

        return ticket_return_locked(entry, why)
    return transfer_create(
        kind=TransferKind.TOURNAMENT_REFUND,
        legs=_entry_legs(entry, player_cash_account(entry.user), +1),
        idempotency_key=f"tournament-entry:{entry.pk}:refund",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{entry.tournament.name}: {why}",
    )


def overlay_fund(tournament: Tournament, amount: int) -> Transfer | None:
    """The house tops the prize pool up to the guarantee and adds any operator-added prize money (TRN-07, TRN-17)."""
    if amount <= 0:
        return None
    return transfer_create(
        kind=TransferKind.TOURNAMENT_OVERLAY,
        legs=[
            TransferLeg(system_account(AccountKind.HOUSE_GUARANTEE), -amount),
            TransferLeg(prize_pool_account(tournament), amount),
        ],
        idempotency_key=f"tournament:{tournament.pk}:overlay",
        reference=f"tournament:{tournament.pk}",
        description=f"{tournament.name}: guarantee overlay and added prize money",
    )


def prize_credit(entry: TournamentEntry) -> Transfer:
    """Credit the entry's prize from the prize pool to the player's cash (TRN-27)."""
    tournament = entry.tournament
    return transfer_create(
        kind=TransferKind.TOURNAMENT_PRIZE,
        legs=[
            TransferLeg(prize_pool_account(tournament), -entry.prize),
            TransferLeg(player_cash_account(entry.user), entry.prize),
        ],
        idempotency_key=f"tournament-entry:{entry.pk}:prize",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{tournament.name}: prize for place {entry.place}",
    )


def prize_forfeit(entry: TournamentEntry) -> Transfer:
    """A disqualified player's unpaid prize is confiscated: from the prize pool to the house's seized funds (TRN-28)."""
    tournament = entry.tournament
    return transfer_create(
        kind=TransferKind.HOLD_SEIZURE,
        legs=[
            TransferLeg(prize_pool_account(tournament), -entry.prize),
            TransferLeg(system_account(AccountKind.HOUSE_SEIZED), entry.prize),
        ],
        idempotency_key=f"tournament-entry:{entry.pk}:prize-forfeited",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{tournament.name}: prize for place {entry.place} forfeited on disqualification",
    )


# --- cancel-desk: partial forfeiture (TRN-28, TRN-09) ---------------------------------------------------------------


def prize_part_forfeit(entry: TournamentEntry, forfeited: int) -> Transfer:
    """A disqualified player forfeits ``forfeited`` cents of their unpaid prize and is paid the rest, in one transfer:
    the whole prize leaves the prize pool, the forfeited part goes to the house's seized funds, the rest to the
    player's cash (TRN-28: disqualification with partial forfeiture). ``0 < forfeited < entry.prize``."""
    if not 0 < forfeited < entry.prize:
        raise ValueError(f"a partial forfeiture is more than 0 and less than the prize, not {forfeited}")
    tournament = entry.tournament
    return transfer_create(
        kind=TransferKind.TOURNAMENT_PRIZE,
        legs=[
            TransferLeg(prize_pool_account(tournament), -entry.prize),
            TransferLeg(system_account(AccountKind.HOUSE_SEIZED), forfeited),
            TransferLeg(player_cash_account(entry.user), entry.prize - forfeited),
        ],
        idempotency_key=f"tournament-entry:{entry.pk}:prize",
        reference=f"tournament-entry:{entry.pk}",
        description=(
            f"{tournament.name}: prize for place {entry.place}, {_format(forfeited)} of it forfeited on "
            "disqualification"
        ),
    )


# --- rebuys-reentry: re-buys and add-ons (TRN-39, FEE-03, FEE-04) ----------------------------------------------------


def purchase_pay(purchase: Any, cash: Account) -> Transfer:
    """Debit a re-buy or add-on (``tournaments.models.TournamentPurchase``) from the player's cash as two amounts, the
    prize contribution to the prize pool and the fee to the house fees (FEE-04), in one idempotent transfer. Its
    reference is the entry's, so the fee report counts the fee with the entry's tournament."""
    entry = purchase.entry
    legs = [TransferLeg(cash, -(purchase.prize_contribution + purchase.fee))]
    if purchase.prize_contribution:
        legs.append(TransferLeg(prize_pool_account(entry.tournament), purchase.prize_contribution))
    if purchase.fee:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_FEES), purchase.fee))
    return transfer_create(
        kind=TransferKind.TOURNAMENT_BUY_IN,
        legs=legs,
        idempotency_key=f"tournament-entry:{entry.pk}:{purchase.kind}:{purchase.number}",
        reference=f"tournament-entry:{entry.pk}",
        description=(
            f"{entry.tournament.name}: {purchase.get_kind_display()} {purchase.number}: "
            f"{_format(purchase.prize_contribution)} + fee {_format(purchase.fee)}"
        ),
    )
