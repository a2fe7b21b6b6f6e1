"""Small builders for the cancellation tests: purchases and remaining players with readable defaults (cents)."""

from __future__ import annotations

from tournaments.rules.cancellation import (
    HexaProAtCancellation,
    PaidWith,
    Purchase,
    PurchaseKind,
    RemainingPlayer,
    TournamentAtCancellation,
)


def entry(
    player: str,
    contribution: int,
    fee: int,
    *,
    kind: PurchaseKind = PurchaseKind.ENTRY,
    bounty: int = 0,
    ticket: bool = False,
    number: int = 1,
) -> Purchase:
    return Purchase(
        reference=f"{player}-{kind.value}-{number}",
        player=player,
        kind=kind,
        prize_contribution_cents=contribution,
        fee_cents=fee,
        bounty_cents=bounty,
        paid_with=PaidWith.TICKET if ticket else PaidWith.MONEY,
    )


def entries(count: int, contribution: int, fee: int, *, prefix: str = "p") -> tuple[Purchase, ...]:
    """One entry each for players ``p1`` .. ``p<count>``."""
    return tuple(entry(f"{prefix}{number}", contribution, fee) for number in range(1, count + 1))


def still_in(*stacks: int, prefix: str = "p") -> tuple[RemainingPlayer, ...]:
    """Players ``p1``, ``p2`` … with these stacks in seats 1, 2 …"""
    return tuple(
        RemainingPlayer(player=f"{prefix}{seat}", chips=chips, seat=seat) for seat, chips in enumerate(stacks, start=1)
    )


def cxl07_final_table() -> TournamentAtCancellation:
    """The CXL-07 worked example: ten €10 + €1 entries, three left at the final table with 5,000/3,000/2,000 chips,
    unpaid prizes €50/€30/€20."""
    return TournamentAtCancellation(
        purchases=entries(10, 1_000, 100),
        started=True,
        remaining=still_in(5_000, 3_000, 2_000),
        prizes=(5_000, 3_000, 2_000),
        at_final_table=True,
    )


def hexapro_at_25x(*stacks: int) -> HexaProAtCancellation:
    """A €10 HexaPro game at 25x (pool €250, 80/12/8, fee component €0.69) with anna, bert, cleo holding ``stacks``;
    the players without a stack are eliminated."""
    names = ("anna", "bert", "cleo")
    return HexaProAtCancellation(
        remaining=tuple(RemainingPlayer(names[seat - 1], chips, seat) for seat, chips in enumerate(stacks, start=1)),
        eliminated=names[len(stacks) :],
        prize_pool_cents=25_000,
        payout_percentages=(80, 12, 8),
        fee_component_cents=69,
    )
