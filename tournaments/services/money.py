"""Tournament money, only through the wallet ledger, each movement one idempotent transfer (FEE-04, TRN-07, TRN-10,
TRN-15, TRN-27).

Accounts: the tournament's prize pool (``tournament_prize_pool`` account ``tournament:<id>``), its bounty pool
(``bounty_pool`` account ``tournament:<id>:bounties``: the bounty parts of the buy-ins, TRN-41, apart from the prize
pool; it holds exactly the current bounties of the players still in), the house fees account
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


def bounty_pool_account(tournament: Tournament) -> Account:
    return reference_account(AccountKind.BOUNTY_POOL, f"tournament:{tournament.pk}:bounties")


def _format(cents: int) -> str:
    return f"€{cents // 100:,}.{cents % 100:02d}"


def _entry_legs(
    entry: TournamentEntry, cash: Account, sign: int, *, prize_pool: Account | None = None
) -> list[TransferLeg]:
    """The legs of paying (``sign`` -1 for the player) or refunding (+1) an entry: the player's cash against the prize
    contribution in the pool (the entry's tournament's, or ``prize_pool`` where it went since: a flight's to its Phase
    2), the bounty part in the bounty pool (TRN-41) and the fee in the house fees, each its own amount (FEE-04)."""
    legs = [TransferLeg(cash, sign * (entry.prize_contribution + entry.bounty_contribution + entry.fee))]
    if entry.prize_contribution:
        pool = prize_pool or prize_pool_account(entry.tournament)
        legs.append(TransferLeg(pool, -sign * entry.prize_contribution))
    if entry.bounty_contribution:
        legs.append(TransferLeg(bounty_pool_account(entry.tournament), -sign * entry.bounty_contribution))
    if entry.fee:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_FEES), -sign * entry.fee))
    return legs


def registration_pay(entry: TournamentEntry, user: Any, *, cash_account: Account | None = None) -> Transfer | None:
    """Debit buy-in and fee from the player's cash (``cash_account`` when the caller has it already) as two legs of
    one transfer (FEE-04); nothing for a freeroll."""
    if entry.prize_contribution + entry.bounty_contribution + entry.fee == 0:
        return None
    return transfer_create(
        kind=TransferKind.TOURNAMENT_BUY_IN,
        legs=_entry_legs(entry, cash_account or player_cash_account(user), -1),
        idempotency_key=f"tournament-entry:{entry.pk}:registration",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{entry.tournament.name}: buy-in {_format(entry.prize_contribution)}"
        + (f" + bounty {_format(entry.bounty_contribution)}" if entry.bounty_contribution else "")
        + f" + fee {_format(entry.fee)}",
    )


def registration_refund(entry: TournamentEntry, why: str) -> Transfer | None:
    """Give buy-in and fee back in the form paid (TRN-10 unregistration, TRN-15 / CXL-02 cancellation): to the
    player's cash, or to the ticket that paid them, which is usable again."""
    if entry.prize_contribution + entry.bounty_contribution + entry.fee == 0:
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


def flight_prize_money_carry(flight: Tournament, phase_two: Tournament, amount: int) -> Transfer | None:
    """A Phase 1 flight's prize pool goes to its Phase 2's prize pool when the flight ends (TRN-45: the flights pay no
    prizes; all the remaining players play for the prizes in Phase 2). Once per flight."""
    if amount <= 0:
        return None
    return transfer_create(
        kind=TransferKind.TOURNAMENT_PHASE_CARRY,
        legs=[
            TransferLeg(prize_pool_account(flight), -amount),
            TransferLeg(prize_pool_account(phase_two), amount),
        ],
        idempotency_key=f"tournament:{flight.pk}:to-phase-two:{phase_two.pk}",
        reference=f"tournament:{flight.pk}",
        description=f"{flight.name}: the flight's prize pool {_format(amount)} to {phase_two.name} (Phase 2)",
    )


def flight_prize_money_refund(phase_two: Tournament, entry: TournamentEntry) -> Transfer | None:
    """Phase 2 cancelled before its start: a flight entry's prize contribution, which reached Phase 2's prize pool,
    goes back to the player (CXL-02: before the start every purchase is refunded); the flight's fee stays a fee. An
    entry paid with a ticket gets its ticket back instead (``tickets.ticket_return_from_phase_two_locked``)."""
    if entry.prize_contribution <= 0:
        return None
    if entry.paid_with_ticket_id is not None:
        from tournaments.services.tickets import ticket_return_from_phase_two_locked

        return ticket_return_from_phase_two_locked(phase_two, entry)
    return transfer_create(
        kind=TransferKind.TOURNAMENT_REFUND,
        legs=[
            TransferLeg(prize_pool_account(phase_two), -entry.prize_contribution),
            TransferLeg(player_cash_account(entry.user), entry.prize_contribution),
        ],
        idempotency_key=f"tournament-entry:{entry.pk}:phase-two-refund",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{phase_two.name} cancelled before the start: buy-in {_format(entry.prize_contribution)} back",
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


# --- Bounties (TRN-41..TRN-44, AMB-48) -----------------------------------------------------------------------------


def bounty_credit(
    eliminated: TournamentEntry, winner: TournamentEntry, *, cash: int, vip: int, rebought_in_hand: int | None = None
) -> Transfer | None:
    """Credit a knock-out's winnings at once (AMB-48): ``cash`` from the tournament's bounty pool, ``vip`` (the VIP
    bounty, TRN-43) from the house guarantees account that funds operator-added money, to the winner's cash, in one
    transfer, idempotent per eliminated entry and winner (and per hand, ``rebought_in_hand``, for the bounty of a
    player who lost every chip but stays in by a re-buy: that can happen more than once). Nothing when both are 0."""
    if cash + vip == 0:
        return None
    tournament = winner.tournament
    legs = [TransferLeg(player_cash_account(winner.user), cash + vip)]
    if cash:
        legs.append(TransferLeg(bounty_pool_account(tournament), -cash))
    if vip:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_GUARANTEE), -vip))
    words = f"bounty {_format(cash)}" + (f" + VIP bounty {_format(vip)}" if vip else "")
    return transfer_create(
        kind=TransferKind.BOUNTY,
        legs=legs,
        idempotency_key=f"tournament-entry:{eliminated.pk}:bounty:{winner.pk}"
        + (f":hand:{rebought_in_hand}" if rebought_in_hand is not None else ""),
        reference=f"tournament-entry:{winner.pk}",
        description=f"{tournament.name}: {words} "
        + (
            "kept at the end"
            if eliminated.pk == winner.pk
            else f"for busting {eliminated.user}, who re-bought"
            if rebought_in_hand is not None
            else f"for knocking out {eliminated.user}"
        ),
    )


def bounty_forfeit(entry: TournamentEntry) -> Transfer:
    """A disqualified player's current bounty is nobody's to win: from the bounty pool to the house's seized funds
    (TRN-28), so the pool keeps holding exactly the bounties of the players still in."""
    tournament = entry.tournament
    return transfer_create(
        kind=TransferKind.HOLD_SEIZURE,
        legs=[
            TransferLeg(bounty_pool_account(tournament), -entry.bounty),
            TransferLeg(system_account(AccountKind.HOUSE_SEIZED), entry.bounty),
        ],
        idempotency_key=f"tournament-entry:{entry.pk}:bounty-forfeited",
        reference=f"tournament-entry:{entry.pk}",
        description=f"{tournament.name}: bounty {_format(entry.bounty)} forfeited on disqualification",
    )


# --- rebuys-reentry: re-buys and add-ons (TRN-39, FEE-03, FEE-04) ----------------------------------------------------


def purchase_pay(purchase: Any, cash: Account) -> Transfer:
    """Debit a re-buy or add-on (``tournaments.models.TournamentPurchase``) from the player's cash as two amounts, the
    prize contribution to the prize pool and the fee to the house fees (FEE-04), in one idempotent transfer. Its
    reference is the entry's, so the fee report counts the fee with the entry's tournament."""
    entry = purchase.entry
    legs = [TransferLeg(cash, -(purchase.prize_contribution + purchase.bounty_contribution + purchase.fee))]
    if purchase.prize_contribution:
        legs.append(TransferLeg(prize_pool_account(entry.tournament), purchase.prize_contribution))
    if purchase.bounty_contribution:  # a re-buy's new bounty part (TRN-41, docs/decisions.md D-25-1)
        legs.append(TransferLeg(bounty_pool_account(entry.tournament), purchase.bounty_contribution))
    if purchase.fee:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_FEES), purchase.fee))
    return transfer_create(
        kind=TransferKind.TOURNAMENT_BUY_IN,
        legs=legs,
        idempotency_key=f"tournament-entry:{entry.pk}:{purchase.kind}:{purchase.number}",
        reference=f"tournament-entry:{entry.pk}",
        description=(
            f"{entry.tournament.name}: {purchase.get_kind_display()} {purchase.number}: "
            f"{_format(purchase.prize_contribution)}"
            + (f" + bounty {_format(purchase.bounty_contribution)}" if purchase.bounty_contribution else "")
            + f" + fee {_format(purchase.fee)}"
        ),
    )
